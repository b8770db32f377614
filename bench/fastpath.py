"""The Ask's fast path against its floor: the two-clinic listing Ask of the real mesh (default
settings: listed from its slot replicas; and asking every clinic: HEALTHMESH_SLOT_REPLICA=false) and
the bare stand-in of its
hop structure (bench.floor), in alternating rounds of one run, so a change in the machine's load
falls on each. Prints Ask p50 / floor p50 and throughput at
concurrency 1 and 16, CPU ms per Ask of each process (from /proc, over the measured rounds), and
where one Ask's time goes: the orchestrator's spans of a mesh keeping every trace, each with when it
starts and how long it takes (median over the Asks), so overlapping stages show as such."""

import asyncio
import contextlib
import json
import statistics
import tempfile
from collections import defaultdict
from collections.abc import Awaitable, Callable
from pathlib import Path

from rich.console import Console
from rich.table import Table

from bench.floor import start_floor
from bench.orchestrator import ask_call
from bench.stats import Result, cpu_s, measure, table
from deploy.local.mesh import start_mesh
from healthmesh.v1 import orchestrator_pb2_grpc
from runtime.transport import Transport

ROUNDS = 5
ASK_SPAN = "/healthmesh.v1.OrchestratorService/Ask"
ON_PATH = ("orchestrator", "verifier", "clinic_a", "clinic_c")  # the processes a cardiology listing uses


async def rounds(calls: dict[str, Callable[[int], Awaitable[object]]], pids: dict[str, dict[str, int]],
                 requests: int, concurrencies: tuple[int, ...] = (1, 16)) -> "Measured":
    """Per contender: results by concurrency, and CPU ms per Ask of each of its processes, from
    alternating rounds (so a change in the machine's load falls on every contender)."""
    results: dict[str, dict[int, Result]] = {name: {} for name in calls}
    cpu: dict[str, dict[str, float]] = {name: defaultdict(float) for name in calls}
    for concurrency in concurrencies:
        for _ in range(ROUNDS):
            for name, call in calls.items():
                before = {proc: cpu_s(pid) for proc, pid in pids[name].items()}
                part = await measure(name, call, concurrency=concurrency, requests=requests // ROUNDS,
                                     warmup=5)
                for proc, pid in pids[name].items():
                    cpu[name][proc] += cpu_s(pid) - before[proc]
                whole = results[name].setdefault(concurrency, Result(name, concurrency, [], 0.0))
                whole.latencies_ms += part.latencies_ms
                whole.elapsed_s += part.elapsed_s
    for name in calls:
        asks = sum(len(r.latencies_ms) for r in results[name].values())
        cpu[name] = {proc: seconds * 1000 / asks for proc, seconds in cpu[name].items()}
    return results, cpu


Measured = tuple[dict[str, dict[int, Result]], dict[str, dict[str, float]]]


EVERY_CLINIC = "Ask, every clinic asked"


async def _against_floor(tmp: Path, requests: int) -> Measured:
    meshes = {"Ask": start_mesh(tmp / "mesh", ephemeral_ports=True)}
    try:
        meshes[EVERY_CLINIC] = start_mesh(tmp / "every-clinic", ephemeral_ports=True,
                                          env={"HEALTHMESH_SLOT_REPLICA": "false"})
        with start_floor(tmp / "floor-pki") as floor:
            async with contextlib.AsyncExitStack() as stack:
                bare = await stack.enter_async_context(
                    Transport.plain("bench").aio_channel(floor.orchestrator))
                calls = {"floor": ask_call(orchestrator_pb2_grpc.OrchestratorServiceStub(bare))}
                pids = {"floor": {role: proc.pid for role, proc in floor.procs.items()}}
                for name, mesh in meshes.items():
                    real = await stack.enter_async_context(
                        mesh.orchestrator.transport().aio_channel(mesh.orchestrator.address))
                    calls[name] = ask_call(orchestrator_pb2_grpc.OrchestratorServiceStub(real))
                    pids[name] = {s.name: s.proc.pid for s in mesh.services if s.name in ON_PATH and s.proc}
                return await rounds(calls, pids, requests)
    finally:
        for mesh in meshes.values():
            mesh.stop()


async def _breakdown(tmp: Path, requests: int) -> tuple[list[tuple[str, float, float]], float]:
    """The orchestrator's spans of a listing Ask: (name, start offset p50 ms, duration p50 ms) in
    order of start, and the Ask's p50 ms, from a mesh keeping every trace."""
    mesh = start_mesh(tmp / "traced", ephemeral_ports=True,
                      env={"OTEL_TRACES_SAMPLER": "parentbased_always_on"})
    try:
        async with mesh.orchestrator.transport().aio_channel(mesh.orchestrator.address) as channel:
            await measure("traced Ask", ask_call(orchestrator_pb2_grpc.OrchestratorServiceStub(channel)),
                          concurrency=1, requests=requests)
    finally:
        mesh.stop()  # flushes the spans
    spans = [json.loads(line) for line in (tmp / "traced" / "traces.jsonl").read_text().splitlines()]
    spans = [s for s in spans if s["service"] == "orchestrator"]
    roots = {s["trace_id"]: s for s in spans if s["name"] == ASK_SPAN}
    starts: dict[str, list[float]] = defaultdict(list)
    durations: dict[str, list[float]] = defaultdict(list)
    for s in spans:
        root = roots.get(s["trace_id"])
        if root is None or s is root:
            continue
        starts[s["name"]].append((s["start_ns"] - root["start_ns"]) / 1e6)
        durations[s["name"]].append((s["end_ns"] - s["start_ns"]) / 1e6)
    rows = [(name, statistics.median(starts[name]), statistics.median(durations[name])) for name in starts]
    ask = statistics.median((r["end_ns"] - r["start_ns"]) / 1e6 for r in roots.values())
    return sorted(rows, key=lambda row: row[1]), ask


async def run(console: Console, requests: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        results, cpu = await _against_floor(Path(tmp), requests)
        rows, ask_ms = await _breakdown(Path(tmp), max(50, requests // 10))
    console.print(table("Ask (two-clinic listing) vs its floor: the same hops, bare grpc.aio servers, mTLS",
                        [r for by_conc in results.values() for r in by_conc.values()], results["floor"],
                        "floor", "target: Ask p50 within 2x the floor"))
    out = Table(title="CPU ms per Ask, by process (concurrency 1 and 16)")
    out.add_column("process")
    for name in cpu:
        out.add_column(name, justify="right")
    procs = [*cpu["Ask"], *(p for p in cpu["floor"] if p not in cpu["Ask"])]
    for proc in procs:
        out.add_row(proc, *(f"{cpu[name][proc]:.2f}" if proc in cpu[name] else "-" for name in cpu))
    out.add_row("all", *(f"{sum(cpu[name].values()):.2f}" for name in cpu))
    console.print(out)
    stages = Table(title=f"Where one Ask's time goes: the orchestrator's spans, p50 (Ask p50 {ask_ms:.2f} "
                         "ms, every trace kept)")
    for column in ("span", "starts at ms", "takes ms", "share of Ask"):
        stages.add_column(column, justify="left" if column == "span" else "right")
    for name, start, took in rows:
        stages.add_row(name, f"{start:.2f}", f"{took:.2f}", f"{took / ask_ms:.0%}")
    console.print(stages)


if __name__ == "__main__":  # this section alone: python -m bench.fastpath
    from runtime.settings import Settings

    asyncio.run(run(Console(width=120), Settings.from_env().clients.bench_requests))
