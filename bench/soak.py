"""Soak: a steady mixed Ask load for minutes, with every process's resident memory and open
file descriptors read before and after (from /proc). Growth beyond the stated bounds points at a
leak: sessions, channels, spans or files kept per request."""

import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from bench.chaos import Phase, load
from deploy.local.mesh import LocalMesh, start_mesh
from healthmesh.v1 import orchestrator_pb2_grpc

RSS_BOUND_MIB = 25.0  # growth per process after the warm-up
FD_BOUND = 8


def usage(pid: int) -> tuple[float, int]:
    """Resident memory in MiB and open file descriptors of a process."""
    status = Path(f"/proc/{pid}/status").read_text()
    rss_kib = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:"))
    return rss_kib / 1024, len(list(Path(f"/proc/{pid}/fd").iterdir()))


def snapshot(mesh: LocalMesh) -> dict[str, tuple[float, int]]:
    return {s.name: usage(s.proc.pid) for s in mesh.services if s.proc is not None}


async def soak(mesh: LocalMesh, seconds: float) -> tuple[dict, dict, Phase]:
    async with mesh.orchestrator.transport().aio_channel(mesh.orchestrator.address) as channel:
        stub = orchestrator_pb2_grpc.OrchestratorServiceStub(channel)
        await load(stub, Phase("warm-up"), min(10.0, seconds / 4), concurrency=4)
        before = snapshot(mesh)
        phase = Phase("soak")
        await load(stub, phase, seconds, concurrency=4)
        return before, snapshot(mesh), phase


async def run(console: Console, seconds: float) -> None:
    if seconds <= 0:
        return
    with tempfile.TemporaryDirectory() as tmp:
        mesh = start_mesh(Path(tmp), ephemeral_ports=True, env={"HEALTHMESH_TRACE_FILE": "off"})
        try:
            started = time.monotonic()
            before, after, phase = await soak(mesh, seconds)
            elapsed = time.monotonic() - started
        finally:
            mesh.stop()
    out = Table(title=f"Soak: {phase.asks} Asks in {elapsed:.0f} s at concurrency 4 "
                      f"({phase.error_rate:.1%} gRPC errors)",
                caption=f"bound: RSS growth ≤ {RSS_BOUND_MIB:.0f} MiB and ≤ {FD_BOUND} more open files "
                        "per process after the warm-up")
    for column in ("process", "RSS before MiB", "RSS after MiB", "growth", "fds before", "fds after",
                   "within bound"):
        out.add_column(column)
    for name, (rss0, fd0) in before.items():
        rss1, fd1 = after[name]
        within = rss1 - rss0 <= RSS_BOUND_MIB and fd1 - fd0 <= FD_BOUND
        out.add_row(name, f"{rss0:.1f}", f"{rss1:.1f}", f"{rss1 - rss0:+.1f}", str(fd0), str(fd1),
                    "yes" if within else "NO")
    console.print(out)
