"""Fan-out that scales with clinics: the same cardiology listing Ask on a registry of the two
cardiology clinics and on one of eight (six more, seeded from their ids), in one run; each listing
from the orchestrator's slot replicas (the default) and asking every clinic
(HEALTHMESH_SLOT_REPLICA=false)."""

import asyncio
import contextlib
import json
import tempfile
from pathlib import Path

from rich.console import Console
from rich.table import Table

from bench.fastpath import rounds
from bench.stats import table
from deploy.local.mesh import LocalMesh, start_mesh
from healthmesh.v1 import orchestrator_pb2, orchestrator_pb2_grpc
from runtime import registry

ASK = orchestrator_pb2.AskRequest(message="cardiology slots")


def cardiology_registry(path: Path, extra: list[str]) -> Path:
    """deploy/registry.json's cardiology clinics plus `extra` ones (targets are filled at start)."""
    raw = json.loads(registry.DEFAULT_PATH.read_text(encoding="utf-8"))
    clinics = [c for c in raw["clinics"] if c["specialty"] == "cardiology"]
    clinics += [{"id": cid, "name": f"Cardio Rede {n}", "specialty": "cardiology",
                 "address": f"Rua Exemplo, {100 + n} - São Paulo - SP", "target": "127.0.0.1:0"}
                for n, cid in enumerate(extra, start=1)]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"clinics": clinics}, ensure_ascii=False), encoding="utf-8")
    return path


MODES = {"": "true", ", every clinic asked": "false"}  # label suffix -> HEALTHMESH_SLOT_REPLICA


def _cardiology_mesh(data: Path, clinics: int, replica: str) -> LocalMesh:
    listed = cardiology_registry(data / "cardiology.json", [f"cardio_{n}" for n in range(1, clinics - 1)])
    return start_mesh(data, ephemeral_ports=True, registry_path=listed,
                      env={"HEALTHMESH_TRACE_FILE": "off", "HEALTHMESH_SLOTS_PER_CLINIC": "1",
                           "HEALTHMESH_SLOT_REPLICA": replica})


def _listing_call(stub: orchestrator_pb2_grpc.OrchestratorServiceStub, clinics: int):
    async def ask(_: int) -> None:
        reply = await stub.Ask(ASK, timeout=10)
        assert len({s.clinic_id for s in reply.slots}) == clinics, reply.answer
    return ask


async def run(console: Console, requests: int) -> None:
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as meshes_up:
        meshes: dict[str, tuple[int, LocalMesh]] = {}
        for suffix, replica in MODES.items():
            for clinics in (2, 8):
                name = f"{clinics} clinics{suffix}"
                mesh = _cardiology_mesh(Path(tmp) / name.replace(" ", "_").replace(",", ""), clinics, replica)
                meshes_up.callback(mesh.stop)
                meshes[name] = clinics, mesh
        async with contextlib.AsyncExitStack() as channels:
            calls = {}
            for name, (clinics, mesh) in meshes.items():
                channel = await channels.enter_async_context(
                    mesh.orchestrator.transport().aio_channel(mesh.orchestrator.address))
                calls[name] = _listing_call(orchestrator_pb2_grpc.OrchestratorServiceStub(channel), clinics)
            pids = {name: {svc.name: svc.proc.pid for svc in mesh.services if svc.proc}
                    for name, (_, mesh) in meshes.items()}
            results, cpu = await rounds(calls, pids, requests // 2, concurrencies=(1,))
    for suffix in MODES:
        two, eight = results[f"2 clinics{suffix}"][1], results[f"8 clinics{suffix}"][1]
        how = "asking every clinic" if suffix else "listing from slot replicas"
        console.print(table(f"Ask fan-out: eight cardiology clinics vs two, {how}, alternating rounds",
                            [two, eight], {1: two}, "two clinics", "target: eight within 1.3x of two"))
    out = Table(title="CPU ms per Ask, by process (concurrency 1)")
    for column in ("process", *cpu):
        out.add_column(column, justify="left" if column == "process" else "right")
    for role in ("orchestrator", "verifier"):
        out.add_row(role, *(f"{by_proc[role]:.2f}" for by_proc in cpu.values()))
    out.add_row("clinics (sum)", *(f"{sum(by_proc[cid] for cid in mesh.clinics):.2f}"
                                   for (_, mesh), by_proc in zip(meshes.values(), cpu.values(), strict=True)))
    out.add_row("all", *(f"{sum(by_proc.values()):.2f}" for by_proc in cpu.values()))
    console.print(out)


if __name__ == "__main__":  # this section alone: python -m bench.scale
    from runtime.settings import Settings

    asyncio.run(run(Console(width=120), Settings.from_env().clients.bench_requests))
