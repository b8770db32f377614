"""Calls to one upstream through its circuit breaker, with retries where they are safe.

- Reads retry on UNAVAILABLE only; writes retry only when they carry an idempotency key
  (the same key on every attempt, so the clinic books once). Backoff is jittered
  exponential, and every attempt's timeout comes from the one turn deadline.
- The breaker (pybreaker) counts only UNAVAILABLE, DEADLINE_EXCEEDED and INTERNAL; while it
  is open, calls fail fast without touching the network. pybreaker's `call_async` needs
  Tornado, so awaited calls are wrapped in `breaker.calling()`, which does not hold the
  breaker's lock while the call is in flight: concurrent calls are not serialized.
"""

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import grpc
import pybreaker
from opentelemetry import trace
from tenacity import (
    AsyncRetrying,
    retry_if_exception,
    stop_after_attempt,
    wait_random_exponential,
)

from orchestrator.context import RequestContext
from runtime import tracing

COUNTED_BY_BREAKER = frozenset({
    grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.INTERNAL,
})

# Fast reconnects, so a clinic that comes back is reachable by the breaker's trial call.
CHANNEL_OPTIONS = [
    ("grpc.initial_reconnect_backoff_ms", 200),
    ("grpc.min_reconnect_backoff_ms", 100),
    ("grpc.max_reconnect_backoff_ms", 2000),
]


@dataclass(frozen=True)
class Policy:
    call_timeout_s: float = 2.5
    attempts: int = 3
    backoff_s: float = 0.05
    backoff_max_s: float = 0.5
    breaker_fail_max: int = 5
    breaker_reset_s: float = 10.0


class CircuitOpen(Exception):
    """The upstream's breaker is open: the call was not attempted."""


class DeadlineSpent(Exception):
    """No time was left in the turn for another attempt."""


@dataclass
class Outcome:
    """How a call ended: a reply, or the error (an RpcError, CircuitOpen or DeadlineSpent)."""

    reply: Any
    error: Exception | None
    attempts: int
    latency_ms: float

    @property
    def code(self) -> grpc.StatusCode | None:
        if self.error is None:
            return grpc.StatusCode.OK
        if isinstance(self.error, grpc.RpcError):
            return self.error.code()
        return None


def _counted(exc: BaseException) -> bool:
    return isinstance(exc, grpc.RpcError) and exc.code() in COUNTED_BY_BREAKER


class Upstream:
    """One gRPC upstream: a traced channel, its breaker and the call policy."""

    def __init__(self, name: str, target: str, policy: Policy) -> None:
        self.name = name
        self.target = target
        self.policy = policy
        self.channel = grpc.aio.insecure_channel(
            target, options=CHANNEL_OPTIONS, interceptors=tracing.client_interceptors())
        self.breaker = pybreaker.CircuitBreaker(
            fail_max=policy.breaker_fail_max,
            reset_timeout=policy.breaker_reset_s,
            exclude=[lambda exc: not _counted(exc)],
            name=name,
        )

    @property
    def breaker_state(self) -> str:
        return self.breaker.current_state  # "closed" | "open" | "half-open"

    async def call(self, ctx: RequestContext, method: Callable[..., Awaitable[Any]], request: Any,
                   *, retry: bool, timeout_cap: float | None = None) -> Outcome:
        """Calls `method(request)`; `retry` says whether an UNAVAILABLE may be retried (reads,
        and writes with an idempotency key). `timeout_cap` lowers the per-attempt cap."""
        cap = min(self.policy.call_timeout_s, timeout_cap or self.policy.call_timeout_s)
        start = time.perf_counter()
        attempts = 0

        async def attempt() -> Any:
            nonlocal attempts
            timeout = ctx.call_timeout(cap)
            if timeout <= 0.001:
                raise DeadlineSpent()
            try:
                with self.breaker.calling():
                    attempts += 1
                    return await method(request, timeout=timeout)
            except pybreaker.CircuitBreakerError as exc:
                if isinstance(exc.__context__, grpc.RpcError):
                    raise exc.__context__ from None  # this attempt failed and tripped the breaker
                raise CircuitOpen() from None

        retrying = AsyncRetrying(
            stop=stop_after_attempt(self.policy.attempts if retry else 1),
            wait=wait_random_exponential(multiplier=self.policy.backoff_s,
                                         max=self.policy.backoff_max_s),
            retry=retry_if_exception(
                lambda exc: isinstance(exc, grpc.RpcError)
                and exc.code() == grpc.StatusCode.UNAVAILABLE
                and ctx.remaining() > self.policy.backoff_max_s),
            reraise=True,
        )
        try:
            reply = await retrying(attempt)
            error = None
        except (grpc.RpcError, CircuitOpen, DeadlineSpent) as exc:
            reply, error = None, exc
        span = trace.get_current_span()
        span.set_attribute("healthmesh.attempts", attempts)
        span.set_attribute("healthmesh.breaker_state", self.breaker_state)
        return Outcome(reply, error, attempts, (time.perf_counter() - start) * 1000)

    async def close(self) -> None:
        await self.channel.close()
