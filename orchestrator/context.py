"""The request context every I/O function takes first: one deadline for the whole turn
(all attempts of all calls fit inside it), the session it belongs to, and its trace id."""

import time
from dataclasses import dataclass, field


@dataclass
class RequestContext:
    deadline: float  # time.monotonic() value
    session_id: str = ""
    trace_id: str = ""
    started: float = field(default_factory=time.monotonic)

    @classmethod
    def with_timeout(cls, seconds: float, **kwargs: str) -> "RequestContext":
        return cls(deadline=time.monotonic() + seconds, **kwargs)

    def within(self, seconds: float) -> "RequestContext":
        """The same request with a deadline at most `seconds` away (Go's context.WithTimeout)."""
        return RequestContext(deadline=min(self.deadline, time.monotonic() + seconds),
                              session_id=self.session_id, trace_id=self.trace_id, started=self.started)

    def remaining(self) -> float:
        return max(0.0, self.deadline - time.monotonic())

    def call_timeout(self, cap: float) -> float:
        """The timeout of one outgoing call: what is left of the turn, at most `cap`."""
        return min(self.remaining(), cap)

    def elapsed_ms(self) -> float:
        return (time.monotonic() - self.started) * 1000
