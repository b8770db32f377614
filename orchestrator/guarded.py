"""One guarded call: a circuit breaker, retries where they are safe, and every attempt's timeout
taken from the request's one deadline. Every gRPC upstream and the cloud model call through it.

- The caller says which errors are failures of the far side (`errors`), which of those count
  against the breaker (`counted`) and which may be retried (`transient`, and only when the call
  is `retry`-safe: a read, or a write with an idempotency key).
- Backoff is jittered exponential ("full jitter": a uniform wait up to backoff_s · 2^(n-1), at most
  backoff_max_s); no retry starts unless the deadline leaves room. A plain loop: a retrying
  library's per-call objects were a measurable share of the orchestrator's CPU.
- The breaker is pybreaker's. Its `call_async` needs Tornado, so an awaited call is wrapped in
  `breaker.calling()`, which does not hold the breaker's lock while the call is in flight:
  concurrent calls are not serialized. While it is open, calls fail fast without I/O. When it
  is not closed, one trial call at a time goes through (pybreaker's half-open admits every call,
  so a hung upstream would stall all of them): the others fail fast as CircuitOpen.

Each call is measured per far side (the guard's name): its duration by status code (the
histogram's count is the requests and errors), its retries, and every breaker's state as a gauge.
"""

import asyncio
import random
import time
import weakref
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any

import pybreaker
from opentelemetry import metrics
from opentelemetry.metrics import CallbackOptions, Observation

from orchestrator.context import RequestContext
from runtime.metrics import LATENCY_BUCKETS_S

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


BREAKER_STATES = {"closed": 0, "half-open": 1, "open": 2}
_guards: "weakref.WeakSet[Guard]" = weakref.WeakSet()  # the gauge reads every live guard's breaker


def _breaker_states(_: CallbackOptions) -> Iterable[Observation]:
    return [Observation(BREAKER_STATES[g.state], {"upstream": g.name}) for g in list(_guards)]


_meter = metrics.get_meter("healthmesh.upstream")
_calls = _meter.create_histogram(
    "healthmesh.upstream.duration", unit="s",
    description="guarded calls to an upstream, retries included, by upstream and status code "
                "(CIRCUIT_OPEN, DEADLINE_SPENT: no attempt made)",
    explicit_bucket_boundaries_advisory=LATENCY_BUCKETS_S)
_retries = _meter.create_counter("healthmesh.upstream.retries", unit="{attempt}",
                                 description="attempts after the first, by upstream")
_meter.create_observable_gauge("healthmesh.upstream.breaker_state", callbacks=[_breaker_states],
                               description="circuit breaker per upstream: 0 closed, 1 half-open, 2 open")


@dataclass
class Outcome:
    """How a guarded call ended: a reply, or the error (one of `errors`, CircuitOpen or
    DeadlineSpent), with the attempts made and the time taken."""

    reply: Any
    error: Exception | None
    attempts: int
    latency_ms: float

    @property
    def code(self) -> str:
        """A bounded label: the gRPC status name, or the error's type."""
        if self.error is None:
            return "OK"
        code = getattr(self.error, "code", None)
        if callable(code):  # grpc.RpcError
            return code().name
        return {CircuitOpen: "CIRCUIT_OPEN", DeadlineSpent: "DEADLINE_SPENT"}.get(
            type(self.error), type(self.error).__name__)


class Guard:
    """A breaker and a call policy for one far side."""

    def __init__(self, name: str, policy: Policy, *, errors: tuple[type[Exception], ...],
                 counted: Predicate, transient: Predicate) -> None:
        self.name = name
        self.policy = policy
        self._trial_in_flight = False
        self._errors = errors
        self._transient = transient
        self.breaker = pybreaker.CircuitBreaker(fail_max=policy.breaker_fail_max,
                                                reset_timeout=policy.breaker_reset_s,
                                                exclude=[lambda exc: not counted(exc)], name=name)
        _guards.add(self)

    @property
    def state(self) -> str:
        return self.breaker.current_state  # "closed" | "open" | "half-open"

    def reached(self) -> None:
        """The far side answered outside a guarded call: its breaker closes."""
        if self.breaker.current_state != "closed":
            self.breaker.close()

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

        tries = self.policy.attempts if retry else 1
        for tried in range(1, tries + 1):
            try:
                reply, error = await once(), None
                break
            except Exception as exc:
                if tried < tries and self._transient(exc) and ctx.remaining() > self.policy.backoff_max_s:
                    await asyncio.sleep(random.uniform(
                        0, min(self.policy.backoff_max_s, self.policy.backoff_s * 2 ** (tried - 1))))
                    continue
                if not isinstance(exc, (*self._errors, CircuitOpen, DeadlineSpent)):
                    raise
                reply, error = None, exc
                break
        seconds = time.perf_counter() - start
        outcome = Outcome(reply, error, attempts, seconds * 1000)
        _calls.record(seconds, {"upstream": self.name, "code": outcome.code})
        if attempts > 1:
            _retries.add(attempts - 1, {"upstream": self.name})
        return outcome
