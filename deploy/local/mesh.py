"""The whole mesh as local processes: clinics, verifier and tools first, then the orchestrator
pointed at them. With ephemeral ports (tests, benchmarks) a registry with the real
addresses is written next to the data."""

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from deploy.local.processes import (
    Service,
    StartError,
    clinic_service,
    orchestrator_service,
    start_all,
    stop_all,
    tools_service,
    verifier_service,
)
from runtime import registry


@dataclass
class LocalMesh:
    clinics: dict[str, Service]
    verifier: Service
    tools: Service
    orchestrator: Service
    registry_path: Path

    @property
    def services(self) -> list[Service]:
        return [*self.clinics.values(), self.verifier, self.tools, self.orchestrator]

    def stop(self) -> None:
        stop_all(self.services)


def start_mesh(data_dir: Path, *, ephemeral_ports: bool, env: Mapping[str, str] | None = None,
               registry_path: Path = registry.DEFAULT_PATH, timeout: float = 60.0) -> LocalMesh:
    log_dir = data_dir / "logs"
    base = {"HEALTHMESH_DATA_DIR": str(data_dir), "HEALTHMESH_REGISTRY": str(registry_path),
            **(env or {})}
    port = {"HEALTHMESH_PORT": "0"} if ephemeral_ports else {}
    entries = registry.load(registry_path)
    clinics = {cid: clinic_service(cid, log_dir, {**base, **port}) for cid in entries}
    verifier = verifier_service(log_dir, {**base, **port})
    tools = tools_service(log_dir, {**base, **port})
    start_all([*clinics.values(), verifier, tools], timeout=timeout)
    if ephemeral_ports:
        registry_path = data_dir / "registry.json"
        raw = json.loads(Path(base["HEALTHMESH_REGISTRY"]).read_text(encoding="utf-8"))
        for item in raw["clinics"]:
            item["target"] = clinics[item["id"]].address
        registry_path.write_text(json.dumps(raw, indent=2, ensure_ascii=False), encoding="utf-8")
    orchestrator = orchestrator_service(log_dir, {
        **base, **port, "HEALTHMESH_REGISTRY": str(registry_path),
        "HEALTHMESH_VERIFIER_TARGET": verifier.address,
        "HEALTHMESH_TOOLS_TARGET": tools.address,
    })
    try:
        start_all([orchestrator], timeout=timeout)
    except StartError:
        stop_all([*clinics.values(), verifier, tools])
        raise
    return LocalMesh(clinics, verifier, tools, orchestrator, registry_path)
