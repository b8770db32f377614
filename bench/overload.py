"""Overload: an open-loop Ask load (requests fired on a schedule, whatever the answers do) at a
rate the mesh sustains and at three times it. With admission control the excess is refused at once
(RESOURCE_EXHAUSTED with a retry hint) and the admitted Asks keep about the sustainable p95,
instead of queueing until every deadline expires."""

import asyncio
import tempfile
import time
from pathlib import Path

import grpc
from rich.console import Console
from rich.table import Table

from bench.chaos import Phase, load
from deploy.local.mesh import LocalMesh, start_mesh
from healthmesh.v1 import orchestrator_pb2, orchestrator_pb2_grpc

ASK = orchestrator_pb2.AskRequest(message="cardiology slots")
SECONDS = 4.0


async def open_loop(stub: orchestrator_pb2_grpc.OrchestratorServiceStub, rate: float, seconds: float
                    ) -> tuple[list[float], list[float], int]:
    """Served latencies, refusal latencies (ms) and other errors at `rate` Asks per second."""
    served: list[float] = []
    refused: list[float] = []
    errors = 0

    async def one() -> None:
        nonlocal errors
        start = time.perf_counter()
        try:
            await stub.Ask(ASK, timeout=10)
            served.append((time.perf_counter() - start) * 1000)
        except grpc.aio.AioRpcError as err:
            if err.code() == grpc.StatusCode.RESOURCE_EXHAUSTED:
                refused.append((time.perf_counter() - start) * 1000)
            else:
                errors += 1

    begin = time.perf_counter()
    async with asyncio.TaskGroup() as group:
        for i in range(int(rate * seconds)):
            await asyncio.sleep(max(0.0, begin + i / rate - time.perf_counter()))
            group.create_task(one())
    return served, refused, errors


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values) or [0.0]
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def measure(mesh: LocalMesh) -> tuple[float, list[tuple[str, float, tuple]]]:
    """The closed-loop capacity, then the open-loop runs at 0.7x and 2.1x it (3x the sustainable)."""
    async with mesh.orchestrator.transport().aio_channel(mesh.orchestrator.address) as channel:
        stub = orchestrator_pb2_grpc.OrchestratorServiceStub(channel)
        capacity = Phase("capacity")
        await load(stub, capacity, SECONDS, concurrency=16)
        per_s = capacity.codes["OK"] / SECONDS
        rows = [(label, per_s * factor, await open_loop(stub, per_s * factor, SECONDS))
                for label, factor in (("sustainable (0.7x capacity)", 0.7), ("3x the sustainable", 2.1))]
        return per_s, rows


async def run(console: Console) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        mesh = start_mesh(Path(tmp), ephemeral_ports=True, env={"HEALTHMESH_TRACE_FILE": "off"})
        try:
            capacity, rows = await measure(mesh)
        finally:
            mesh.stop()
    out = Table(title=f"Overload: open-loop Asks at a sustainable rate and at 3x it "
                      f"(closed-loop capacity {capacity:.0f}/s at concurrency 16)",
                caption="target: the excess refused at once; admitted Asks keep about the sustainable p95")
    for column in ("offered", "rate /s", "served /s", "refused", "other errors", "served p50 ms",
                   "served p95 ms", "p95 / sustainable", "refusal p50 ms"):
        out.add_column(column)
    base = pct(rows[0][2][0], 0.95)
    for label, rate, (served, refused, errors) in rows:
        total = len(served) + len(refused) + errors
        refused_share = len(refused) / max(1, total)
        out.add_row(label, f"{rate:.0f}", f"{len(served) / SECONDS:.0f}", f"{refused_share:.0%}",
                    str(errors), f"{pct(served, 0.5):.1f}", f"{pct(served, 0.95):.1f}",
                    f"{pct(served, 0.95) / base:.2f}x", f"{pct(refused, 0.5):.1f}" if refused else "-")
    console.print(out)
