"""One guarded call: a circuit breaker, retries where they are safe, and every attempt's timeout
taken from the request's one deadline. Every gRPC upstream and the cloud model call through it.

- The caller says which errors are failures of the far side (`errors`), which of those count
  against the breaker (`counted`) and which may be retried (`transient`, and only when the call
  is `retry`-safe: a read, or a write with an idempotency key).
- Backoff is jittered exponential (tenacity); no retry starts unless the deadline leaves room.
- The breaker is pybreaker's. Its `call_async` needs Tornado, so an awaited call is wrapped in
  `breaker.calling()`, which does not hold the breaker's lock while the call is in flight:
  concurrent calls are not serialized. While it is open, calls fail fast without I/O. When it
  is not closed, one trial call at a time goes through (pybreaker's half-open admits every call,
  so a hung upstream would stall all of them): the others fail fast as CircuitOpen.
"""

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pybreaker
from tenacity import AsyncRetrying, retry_if_exception, stop_after_attempt, wait_random_exponential

from orchestrator.context import RequestContext

Predicate = Callable[[BaseException], bool]


@dataclass(frozen=True)
class Policy:
    call_timeout_s: float = 2.5
    attempts: int = 3
    backoff_s: float = 0.05
    backoff_max_s: float = 0.5
    breaker_fail_max: int = 5
    breaker_reset_s: float = 10.0


class CircuitOpen(Exception):
    """The breaker is open: the call was not attempted."""


class DeadlineSpent(Exception):
    """No time was left in the request for another attempt."""


@dataclass
class Outcome:
    """How a guarded call ended: a reply, or the error (one of `errors`, CircuitOpen or
    DeadlineSpent), with the attempts made and the time taken."""

    reply: Any
    error: Exception | None
    attempts: int
    latency_ms: float


class Guard:
    """A breaker and a call policy for one far side."""

    def __init__(self, name: str, policy: Policy, *, errors: tuple[type[Exception], ...],
                 counted: Predicate, transient: Predicate) -> None:
        self.policy = policy
        self._trial_in_flight = False
        self._errors = errors
        self._transient = transient
        self.breaker = pybreaker.CircuitBreaker(fail_max=policy.breaker_fail_max,
                                                reset_timeout=policy.breaker_reset_s,
                                                exclude=[lambda exc: not counted(exc)], name=name)

    @property
    def state(self) -> str:
        return self.breaker.current_state  # "closed" | "open" | "half-open"

    async def call(self, ctx: RequestContext, attempt: Callable[[float], Awaitable[Any]], *, retry: bool,
                   timeout_cap: float | None = None) -> Outcome:
        """Runs `attempt(timeout)` until it answers, fails for good, or the deadline is spent.
        `timeout_cap` lowers the policy's per-attempt cap."""
        cap = min(self.policy.call_timeout_s, timeout_cap or self.policy.call_timeout_s)
        start = time.perf_counter()
        attempts = 0

        async def once() -> Any:
            nonlocal attempts
            timeout = ctx.call_timeout(cap)
            if timeout <= 0.001:
                raise DeadlineSpent()
            trial = self.state != "closed"
            if trial and self._trial_in_flight:
                raise CircuitOpen()
            self._trial_in_flight = self._trial_in_flight or trial  # no await since the check
            try:
                with self.breaker.calling():
                    attempts += 1
                    return await attempt(timeout)
            except pybreaker.CircuitBreakerError as exc:
                if isinstance(exc.__context__, self._errors):
                    raise exc.__context__ from None  # this attempt failed and tripped the breaker
                raise CircuitOpen() from None
            finally:
                if trial:
                    self._trial_in_flight = False

        retrying = AsyncRetrying(
            stop=stop_after_attempt(self.policy.attempts if retry else 1),
            wait=wait_random_exponential(multiplier=self.policy.backoff_s, max=self.policy.backoff_max_s),
            retry=retry_if_exception(lambda exc: self._transient(exc)
                                     and ctx.remaining() > self.policy.backoff_max_s),
            reraise=True,
        )
        try:
            reply, error = await retrying(once), None
        except (*self._errors, CircuitOpen, DeadlineSpent) as exc:
            reply, error = None, exc
        return Outcome(reply, error, attempts, (time.perf_counter() - start) * 1000)
