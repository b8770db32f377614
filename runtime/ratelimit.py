"""Rate limits by key (a patient's CPF, a caller's identity): a token bucket each, `burst` calls at
once, refilled evenly over `window_s`. In-process and per replica: a limit that must hold across
replicas belongs in the shared store or the gateway."""

import time
from collections.abc import Callable
from dataclasses import dataclass

from runtime.errors import RateLimited

MAX_KEYS = 10_000  # buckets kept; full ones are dropped first, so throwaway keys cannot grow memory


@dataclass
class _Bucket:
    tokens: float
    updated: float


class RateLimiter:
    def __init__(self, what: str, burst: int, window_s: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.what = what
        self.burst = burst
        self.rate = burst / window_s  # tokens per second
        self._clock = clock
        self._buckets: dict[str, _Bucket] = {}

    def take(self, key: str) -> None:
        """Spends one call of `key`'s budget, or raises RateLimited saying when one is back."""
        now = self._clock()
        bucket = self._buckets.get(key) or _Bucket(float(self.burst), now)
        bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.updated) * self.rate)
        bucket.updated = now
        if bucket.tokens < 1:
            raise RateLimited(self.what, (1 - bucket.tokens) / self.rate)
        bucket.tokens -= 1
        self._buckets[key] = bucket
        if len(self._buckets) > MAX_KEYS:
            self._forget_full(now)

    def _forget_full(self, now: float) -> None:
        for key, bucket in list(self._buckets.items()):
            if bucket.tokens + (now - bucket.updated) * self.rate >= self.burst:
                del self._buckets[key]
