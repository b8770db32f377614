"""Runs every benchmark section and prints its tables: `make bench` (BENCH_REQUESTS=n)."""

import asyncio
import os

from rich.console import Console

from bench import clinic, models, orchestrator, tools, writers


async def main() -> None:
    console = Console(width=120)
    requests = int(os.environ.get("BENCH_REQUESTS", "1000"))
    await clinic.run(console, requests)
    await orchestrator.run(console, requests)
    await tools.run(console, requests)
    models.run(console)
    writers.run(console)


if __name__ == "__main__":
    asyncio.run(main())
