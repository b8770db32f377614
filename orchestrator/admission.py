"""Admission control: how many turns the orchestrator takes on at once.

Without it, an offered load above capacity queues without bound on the event loop: every turn
slows down, most expire waiting for an upstream and come back BLOCKED, and memory grows per
queued request. Here at most `limit` turns run; up to `queue` more wait at most `max_wait_s`
for a place; anything beyond is refused at once with RESOURCE_EXHAUSTED and a retry hint, so
the turns that run keep their latency. A request whose deadline has passed is never started.

The wait adapts as CoDel does: a queue that empties now and then is a burst, and its requests may
wait `max_wait_s`; a queue that has not been empty for STANDING_S is overload, and then a request
waits at most OVERLOAD_WAIT_S, so sustained excess is shed at once instead of adding a queue's wait
to every turn it admits.
"""

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from opentelemetry import metrics

from runtime.errors import DeadlineExceeded, Overloaded

_meter = metrics.get_meter("healthmesh.admission")
_refused = _meter.create_counter("healthmesh.admission.refused",
                                 description="turns refused before they started, by reason")
_running = _meter.create_up_down_counter("healthmesh.admission.running", description="turns running")

SMOOTHING = 0.1  # weight of the newest turn in the moving average of turn durations
STANDING_S = 0.1  # a queue not empty for this long is standing: overload, not a burst
OVERLOAD_WAIT_S = 0.005


class Admission:
    def __init__(self, limit: int, queue: int, max_wait_s: float) -> None:
        self.limit = limit
        self.queue = queue
        self.max_wait_s = max_wait_s
        self._places = asyncio.Semaphore(limit)
        self._waiting = 0
        self._queued_since: float | None = None  # when the queue last went from empty to not
        self._turn_s = 0.1  # moving average of a turn's duration: the basis of the retry hint

    @property
    def waiting(self) -> int:
        return self._waiting

    def retry_after_s(self) -> float:
        """About when a place frees up: the queue ahead drains at `limit` turns per turn time."""
        return max(0.05, self._turn_s * (1 + self._waiting / self.limit))

    @asynccontextmanager
    async def turn(self, time_remaining: float | None) -> AsyncIterator[None]:
        """Holds one place for the turn; `time_remaining` is the caller's deadline (None: none)."""
        if time_remaining is not None and time_remaining <= 0:
            _refused.add(1, {"reason": "deadline"})
            raise DeadlineExceeded("the request's deadline passed before the turn could start")
        if self._places.locked():
            await self._wait(time_remaining)
        else:
            await self._places.acquire()
        _running.add(1)
        started = time.monotonic()
        try:
            yield
        finally:
            self._turn_s += SMOOTHING * (time.monotonic() - started - self._turn_s)
            _running.add(-1)
            self._places.release()

    async def _wait(self, time_remaining: float | None) -> None:
        if self._waiting >= self.queue:
            _refused.add(1, {"reason": "queue_full"})
            raise self._overloaded()
        now = time.monotonic()
        standing = self._queued_since is not None and now - self._queued_since >= STANDING_S
        allowed = OVERLOAD_WAIT_S if standing else self.max_wait_s
        wait = allowed if time_remaining is None else min(allowed, time_remaining)
        if self._waiting == 0:
            self._queued_since = now
        self._waiting += 1
        try:
            await asyncio.wait_for(self._places.acquire(), wait)
        except TimeoutError:
            if time_remaining is not None and time_remaining <= allowed:
                _refused.add(1, {"reason": "deadline"})
                raise DeadlineExceeded("the request's deadline passed while it waited to start") from None
            _refused.add(1, {"reason": "standing_queue" if standing else "queue_wait"})
            raise self._overloaded() from None
        finally:
            self._waiting -= 1
            if self._waiting == 0:
                self._queued_since = None

    def _overloaded(self) -> Overloaded:
        hint = self.retry_after_s()
        return Overloaded(f"the orchestrator is at capacity ({self.limit} turns running, "
                          f"{self._waiting} waiting); try again in {hint:.2f} s", hint)
