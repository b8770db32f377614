"""The cost of observability on the Ask path: the same two-clinic listing on three meshes running
side by side — everything off (no SDK, no access log, no metrics endpoint: the floor), the
defaults (1% of traces plus failed and slow ones, the JSON trace file, one OK access line in a
hundred, the metrics endpoint), and every trace and every access line (the previous defaults).
The meshes take turns in short rounds, so a change in the machine's load falls on all three.
Latency ratios to the floor, and CPU per Ask summed over every process of the mesh (from /proc)."""

import contextlib
import tempfile
from pathlib import Path

from rich.console import Console
from rich.table import Table

from bench.orchestrator import ask_call
from bench.stats import Result, cpu_s, measure, table
from deploy.local.mesh import LocalMesh, start_mesh
from healthmesh.v1 import orchestrator_pb2_grpc

CONFIGS = {
    "off": {"OTEL_SDK_DISABLED": "true", "HEALTHMESH_ACCESS_LOG_SAMPLE": "0",
            "HEALTHMESH_METRICS_PORT": "off"},
    "default": {},
    "every trace and RPC line": {"OTEL_TRACES_SAMPLER": "parentbased_always_on",
                                 "HEALTHMESH_ACCESS_LOG_SAMPLE": "1"},
}
ROUNDS = 5


def mesh_cpu_s(mesh: LocalMesh) -> float:
    """User and system CPU seconds used so far by every process of the mesh."""
    return sum(cpu_s(service.proc.pid) for service in mesh.services if service.proc is not None)


async def _rounds(meshes: dict[str, LocalMesh], requests: int) -> dict[str, tuple[dict[int, Result], float]]:
    """Per configuration: its Ask results by concurrency and its CPU ms per Ask."""
    async with contextlib.AsyncExitStack() as stack:
        asks = {}
        for name, mesh in meshes.items():
            channel = await stack.enter_async_context(
                mesh.orchestrator.transport().aio_channel(mesh.orchestrator.address))
            asks[name] = ask_call(orchestrator_pb2_grpc.OrchestratorServiceStub(channel))
        results: dict[str, dict[int, Result]] = {name: {} for name in meshes}
        cpu = dict.fromkeys(meshes, 0.0)
        for concurrency in (1, 16):
            for _ in range(ROUNDS):
                for name, mesh in meshes.items():
                    before = mesh_cpu_s(mesh)
                    part = await measure(f"Ask, observability {name}", asks[name], concurrency=concurrency,
                                         requests=requests // ROUNDS, warmup=5)
                    cpu[name] += mesh_cpu_s(mesh) - before
                    whole = results[name].setdefault(concurrency, Result(part.name, concurrency, [], 0.0))
                    whole.latencies_ms += part.latencies_ms
                    whole.elapsed_s += part.elapsed_s
    return {name: (results[name], cpu[name] * 1000 / sum(len(r.latencies_ms) for r in results[name].values()))
            for name in meshes}


async def run(console: Console, requests: int) -> None:
    meshes: dict[str, LocalMesh] = {}
    with tempfile.TemporaryDirectory() as tmp:
        try:
            for name, env in CONFIGS.items():
                meshes[name] = start_mesh(Path(tmp) / name.replace(" ", "-"), ephemeral_ports=True, env=env)
            runs = await _rounds(meshes, requests // 2)
        finally:
            for mesh in meshes.values():
                mesh.stop()
    floor = runs["off"][0]
    console.print(table("Ask with observability off (the floor), by default, and with every trace and line",
                        [r for results, _ in runs.values() for r in results.values()], floor,
                        "off", "the cost of tracing, access logs and metrics on the Ask path"))
    cpu = Table(title="CPU per Ask, every process of the mesh (concurrency 1 and 16)")
    for column in ("observability", "CPU ms per Ask", "vs off"):
        cpu.add_column(column, justify="left" if column == "observability" else "right")
    for name, (_, ms) in runs.items():
        cpu.add_row(name, f"{ms:.2f}", f"{ms / runs['off'][1]:.2f}x")
    console.print(cpu)
