"""Runs every benchmark section and prints its tables: `make bench` (BENCH_REQUESTS=n)."""

import argparse
import asyncio

from rich.console import Console

from bench import clinic, models, orchestrator, state, tools, writers
from runtime.config import help_text
from runtime.settings import ClientSettings, Settings


async def run(requests: int) -> None:
    console = Console(width=120)
    await clinic.run(console, requests)
    await orchestrator.run(console, requests)
    await tools.run(console, requests)
    state.run(console, requests)
    models.run(console)
    writers.run(console)


def main() -> None:
    argparse.ArgumentParser(prog="python -m bench", description=__doc__, epilog=help_text(ClientSettings),
                            formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    asyncio.run(run(Settings.from_env().clients.bench_requests))


if __name__ == "__main__":
    main()
