"""Fan-out that scales with clinics: the same cardiology listing Ask on a registry of the two
cardiology clinics and on one of eight (six more, seeded from their ids), in one run."""

import json
import tempfile
from pathlib import Path

from rich.console import Console

from bench.stats import Result, measure, table
from deploy.local.mesh import start_mesh
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


async def _asks(data: Path, clinics: int, requests: int) -> Result:
    listed = cardiology_registry(data / "cardiology.json", [f"cardio_{n}" for n in range(1, clinics - 1)])
    mesh = start_mesh(data, ephemeral_ports=True, registry_path=listed,
                      env={"HEALTHMESH_TRACE_FILE": "off", "HEALTHMESH_SLOTS_PER_CLINIC": "1"})
    try:
        async with mesh.orchestrator.transport().aio_channel(mesh.orchestrator.address) as channel:
            stub = orchestrator_pb2_grpc.OrchestratorServiceStub(channel)

            async def ask(_: int) -> None:
                reply = await stub.Ask(ASK, timeout=10)
                assert len({s.clinic_id for s in reply.slots}) == clinics, reply.answer

            return await measure(f"Ask, {clinics} cardiology clinics", ask, concurrency=1, requests=requests)
    finally:
        mesh.stop()


async def run(console: Console, requests: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        two = await _asks(Path(tmp) / "two", 2, requests // 2)
        eight = await _asks(Path(tmp) / "eight", 8, requests // 2)
    console.print(table("Ask fan-out: eight clinics in a specialty vs two", [two, eight], {1: two},
                        "two clinics", "target: eight within 1.3x of two"))
