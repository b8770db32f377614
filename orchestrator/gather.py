"""A bounded gather for one request, like Go's errgroup with SetLimit: at most `limit` of the
request's calls run at once, results come back in call order, and an exception cancels the rest
(asyncio.TaskGroup). The bound is per request, so one turn's fan-out never waits on another's."""

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


async def gather(limit: int, calls: Sequence[Callable[[], Awaitable[T]]]) -> list[T]:
    semaphore = asyncio.Semaphore(limit)
    results: list[T | None] = [None] * len(calls)

    async def run(index: int, call: Callable[[], Awaitable[T]]) -> None:
        async with semaphore:
            results[index] = await call()

    async with asyncio.TaskGroup() as group:
        for index, call in enumerate(calls):
            group.create_task(run(index, call))
    return results  # type: ignore[return-value]  # every slot was filled, or the group raised
