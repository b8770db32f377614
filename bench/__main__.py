"""Runs every benchmark section and prints its tables: `make bench` (BENCH_REQUESTS=n)."""

import argparse
import asyncio

from rich.console import Console

from bench import (
    chaos,
    clinic,
    fastpath,
    models,
    observability,
    orchestrator,
    overload,
    scale,
    soak,
    state,
    tools,
    writers,
)
from runtime.config import help_text
from runtime.settings import ClientSettings, Settings


async def run(requests: int, soak_s: float) -> None:
    console = Console(width=120)
    await clinic.run(console, requests)
    await orchestrator.run(console, requests)
    await fastpath.run(console, requests)
    await scale.run(console, requests)
    await observability.run(console, requests)
    await tools.run(console, requests)
    state.run(console, requests)
    await chaos.run(console, requests)
    await overload.run(console)
    await soak.run(console, soak_s)
    models.run(console)
    writers.run(console)


def main() -> None:
    argparse.ArgumentParser(prog="python -m bench", description=__doc__, epilog=help_text(ClientSettings),
                            formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    clients = Settings.from_env().clients
    asyncio.run(run(clients.bench_requests, clients.soak_s))


if __name__ == "__main__":
    main()
