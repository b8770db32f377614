"""Chaos under a steady load: each kind of service (a clinic, the tools, the verifier) killed and
then hung (SIGSTOP) in turn while Asks keep coming, next to the same load on the healthy mesh.
Per phase: gRPC errors (the orchestrator should have none), dispositions, p50/p95, and whether
the mesh answered as before once the service was restored. `tests/test_chaos.py` asserts on
the same phases; `make bench` prints them."""

import asyncio
import os
import signal
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import grpc
from rich.console import Console
from rich.table import Table

from deploy.local.mesh import LocalMesh, start_mesh
from deploy.local.processes import Service
from healthmesh.v1 import orchestrator_pb2, orchestrator_pb2_grpc

# Short breaker and call caps so a phase of a few seconds sees the breaker open and close.
FRAGILE = {"HEALTHMESH_BREAKER_FAIL_MAX": "3", "HEALTHMESH_BREAKER_RESET_S": "1",
           "HEALTHMESH_CALL_TIMEOUT_S": "0.5", "HEALTHMESH_TRACE_FILE": "off"}
LABELS = {"cardiology slots": "listing", "is warfarin safe with ibuprofen?": "interaction"}
MESSAGES = tuple(LABELS)
FAULTS = [(name, kind) for name in ("clinic_c", "tools", "verifier") for kind in ("kill", "hang")]
ASK_TIMEOUT_S = 10.0


@dataclass
class Phase:
    name: str
    codes: Counter = field(default_factory=Counter)  # gRPC status of each Ask
    dispositions: Counter = field(default_factory=Counter)  # by message
    latencies_ms: list[float] = field(default_factory=list)
    recovered: bool | None = None  # after the fault: the healthy dispositions again

    @property
    def asks(self) -> int:
        return sum(self.codes.values())

    @property
    def error_rate(self) -> float:
        return 1 - self.codes["OK"] / max(1, self.asks)

    def pct(self, q: float) -> float:
        ordered = sorted(self.latencies_ms) or [0.0]
        return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def service_of(mesh: LocalMesh, name: str) -> Service:
    return mesh.clinics.get(name) or getattr(mesh, name)


@contextmanager
def fault(service: Service, kind: str) -> Iterator[None]:
    """Kills (restarting it on its address afterwards) or hangs (resuming it afterwards) a service."""
    if kind == "hang":
        os.kill(service.proc.pid, signal.SIGSTOP)
        try:
            yield
        finally:
            os.kill(service.proc.pid, signal.SIGCONT)
        return
    service.kill()
    try:
        yield
    finally:
        service.restart("restarted after a chaos kill")
        service.wait_healthy(time.monotonic() + 30)


async def load(stub: orchestrator_pb2_grpc.OrchestratorServiceStub, phase: Phase, seconds: float,
               concurrency: int) -> None:
    end = time.monotonic() + seconds

    async def worker(offset: int) -> None:
        i = offset
        while time.monotonic() < end:
            message = MESSAGES[i % len(MESSAGES)]
            i += 1
            start = time.perf_counter()
            try:
                reply = await stub.Ask(orchestrator_pb2.AskRequest(message=message), timeout=ASK_TIMEOUT_S)
            except grpc.aio.AioRpcError as err:
                phase.codes[err.code().name] += 1
                continue
            phase.latencies_ms.append((time.perf_counter() - start) * 1000)
            phase.codes["OK"] += 1
            phase.dispositions[(message, orchestrator_pb2.Disposition.Name(reply.disposition))] += 1

    async with asyncio.TaskGroup() as group:
        for offset in range(concurrency):
            group.create_task(worker(offset))


async def answers(stub: orchestrator_pb2_grpc.OrchestratorServiceStub) -> dict[str, int]:
    return {m: (await stub.Ask(orchestrator_pb2.AskRequest(message=m), timeout=ASK_TIMEOUT_S)).disposition
            for m in MESSAGES}


async def run_phases(mesh: LocalMesh, seconds: float, concurrency: int) -> list[Phase]:
    """The healthy phase, then one phase per fault, each followed by a recovery check."""
    async with mesh.orchestrator.transport().aio_channel(mesh.orchestrator.address) as channel:
        stub = orchestrator_pb2_grpc.OrchestratorServiceStub(channel)
        healthy_answers = await answers(stub)
        phases = [Phase("healthy")]
        await load(stub, phases[0], seconds, concurrency)
        for name, kind in FAULTS:
            phase = Phase(f"{name} {'hung' if kind == 'hang' else 'killed'}")
            with fault(service_of(mesh, name), kind):
                await load(stub, phase, seconds, concurrency)
            phase.recovered = await _recovers(stub, healthy_answers)
            phases.append(phase)
    return phases


async def _recovers(stub: orchestrator_pb2_grpc.OrchestratorServiceStub, healthy: dict[str, int],
                    within_s: float = 15.0) -> bool:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if await answers(stub) == healthy:
            return True
        await asyncio.sleep(0.2)
    return False


def table(phases: list[Phase]) -> Table:
    out = Table(title="Chaos: one service killed or hung under a steady Ask load (concurrency 4)",
                caption="target: no gRPC errors; the verifier down fails closed (BLOCKED); recovered after")
    for column in ("phase", "asks", "gRPC errors", "p50 ms", "p95 ms", "p95 / healthy", "dispositions",
                   "recovered"):
        out.add_column(column)
    base = phases[0].pct(0.95)
    for p in phases:
        shown = ", ".join(f"{LABELS[m]}: {d.removeprefix('DISPOSITION_')} {n}"
                          for (m, d), n in sorted(p.dispositions.items()))
        out.add_row(p.name, str(p.asks), f"{p.error_rate:.1%}", f"{p.pct(0.5):.1f}", f"{p.pct(0.95):.1f}",
                    f"{p.pct(0.95) / base:.2f}x", shown, "-" if p.recovered is None else str(p.recovered))
    return out


async def run(console: Console, requests: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        mesh = start_mesh(Path(tmp), ephemeral_ports=True, env=FRAGILE)
        try:
            phases = await run_phases(mesh, seconds=max(2.0, requests / 200), concurrency=4)
        finally:
            mesh.stop()
    console.print(table(phases))
