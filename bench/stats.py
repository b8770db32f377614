"""Load loops and the result table shared by every benchmark section."""

import asyncio
import os
import statistics
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from rich.table import Table

TICK_S = 1 / os.sysconf("SC_CLK_TCK")


def cpu_s(pid: int) -> float:
    """User and system CPU seconds a process has used so far (fields 14 and 15 of /proc/<pid>/stat)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) * TICK_S


@dataclass
class Result:
    name: str
    concurrency: int
    latencies_ms: list[float]
    elapsed_s: float

    def pct(self, q: float) -> float:
        ordered = sorted(self.latencies_ms)
        return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]

    @property
    def p50(self) -> float:
        return statistics.median(self.latencies_ms)

    @property
    def throughput(self) -> float:
        return len(self.latencies_ms) / self.elapsed_s


async def measure(name: str, call: Callable[[int], Awaitable[object]], *, concurrency: int,
                  requests: int, warmup: int = 20) -> Result:
    """Runs `requests` calls (call(i) for i in range) from `concurrency` workers. A call that
    returns a float reports its own latency in ms (to leave set-up and clean-up untimed)."""
    for i in range(warmup):
        await call(i)
    latencies: list[float] = []
    counter = iter(range(requests))

    async def worker() -> None:
        for i in counter:
            start = time.perf_counter()
            own = await call(i)
            latencies.append(own if isinstance(own, float) else (time.perf_counter() - start) * 1000)

    start = time.perf_counter()
    async with asyncio.TaskGroup() as tg:
        for _ in range(concurrency):
            tg.create_task(worker())
    return Result(name, concurrency, latencies, time.perf_counter() - start)


def table(title: str, results: list[Result], baseline: dict[int, Result], baseline_label: str,
          target: str) -> Table:
    """One row per result; the ratio column compares p50 with the baseline at the same
    concurrency, measured in the same run."""
    out = Table(title=title, caption=target)
    for column in ("operation", "conc.", "n", "p50 ms", "p95 ms", "p99 ms", "req/s",
                   f"p50 / {baseline_label}"):
        out.add_column(column, justify="right" if column != "operation" else "left")
    for r in results:
        base = baseline.get(r.concurrency)
        ratio = f"{r.p50 / base.p50:.2f}x" if base else "-"
        out.add_row(r.name, str(r.concurrency), str(len(r.latencies_ms)), f"{r.p50:.3f}",
                    f"{r.pct(0.95):.3f}", f"{r.pct(0.99):.3f}", f"{r.throughput:,.0f}", ratio)
    return out
