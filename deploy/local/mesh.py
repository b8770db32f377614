"""The whole mesh as local processes: clinics, verifier, tools and escalation first, then the
orchestrator pointed at them. Each service is bound at its address, any host:port: a clinic at its registry
target, the others at the addresses given (by default the settings' targets). When a service ends
up elsewhere (port 0 asks for a free one), a registry with the real addresses is written next to
the data."""

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from deploy.local.processes import (
    Service,
    StartError,
    clinic_service,
    escalation_service,
    orchestrator_service,
    start_all,
    stop_all,
    tools_service,
    verifier_service,
)
from runtime import addresses, registry
from runtime.settings import ClientSettings, OrchestratorSettings

# The settings' defaults: where the chat and the orchestrator look for these services.
DEFAULT_ADDRESSES = {"orchestrator": ClientSettings().orchestrator_target,
                     "verifier": OrchestratorSettings().verifier_target,
                     "tools": OrchestratorSettings().tools_target,
                     "escalation": OrchestratorSettings().escalation_target}


@dataclass
class LocalMesh:
    clinics: dict[str, Service]
    verifier: Service
    tools: Service
    escalation: Service
    orchestrator: Service
    registry_path: Path

    @property
    def services(self) -> list[Service]:
        return [*self.clinics.values(), self.verifier, self.tools, self.escalation, self.orchestrator]

    def stop(self) -> None:
        stop_all(self.services)


def start_mesh(data_dir: Path, *, ephemeral_ports: bool, env: Mapping[str, str] | None = None,
               registry_path: Path = registry.DEFAULT_PATH, timeout: float = 60.0,
               service_addresses: Mapping[str, str] | None = None,
               prefixes: Mapping[str, Sequence[str]] | None = None) -> LocalMesh:
    """`service_addresses` places the orchestrator, verifier, tools and escalation (host:port); clinics are
    placed by the registry. `ephemeral_ports` keeps every host and asks for free ports.
    `prefixes` runs a service's command under another (e.g. `ip netns exec <namespace>`)."""
    log_dir = data_dir / "logs"
    base = {"HEALTHMESH_DATA_DIR": str(data_dir), "HEALTHMESH_REGISTRY": str(registry_path),
            **(env or {})}
    entries = registry.load(registry_path)
    wanted = {**DEFAULT_ADDRESSES, **(service_addresses or {}),
              **{cid: entry.target for cid, entry in entries.items()}}

    def placed(name: str) -> dict[str, str]:
        host, port = addresses.split(wanted[name])
        return {**base, "HEALTHMESH_HOST": host, "HEALTHMESH_PORT": "0" if ephemeral_ports else str(port)}

    clinics = {cid: clinic_service(cid, log_dir, placed(cid)) for cid in entries}
    verifier = verifier_service(log_dir, placed("verifier"))
    tools = tools_service(log_dir, placed("tools"))
    escalation = escalation_service(log_dir, placed("escalation"))
    upstreams = [*clinics.values(), verifier, tools, escalation]
    for svc in upstreams:
        svc.prefix = (prefixes or {}).get(svc.name, ())
    start_all(upstreams, timeout=timeout)
    if any(svc.address != entries[cid].target for cid, svc in clinics.items()):
        registry_path = data_dir / "registry.json"
        raw = json.loads(Path(base["HEALTHMESH_REGISTRY"]).read_text(encoding="utf-8"))
        for item in raw["clinics"]:
            item["target"] = clinics[item["id"]].address
        registry_path.write_text(json.dumps(raw, indent=2, ensure_ascii=False), encoding="utf-8")
    orchestrator = orchestrator_service(log_dir, {
        **placed("orchestrator"), "HEALTHMESH_REGISTRY": str(registry_path),
        "HEALTHMESH_VERIFIER_TARGET": verifier.address,
        "HEALTHMESH_TOOLS_TARGET": tools.address,
        "HEALTHMESH_ESCALATION_TARGET": escalation.address,
    })
    orchestrator.prefix = (prefixes or {}).get("orchestrator", ())
    try:
        start_all([orchestrator], timeout=timeout)
    except StartError:
        stop_all(upstreams)
        raise
    return LocalMesh(clinics, verifier, tools, escalation, orchestrator, registry_path)
