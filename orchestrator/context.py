"""The request context every I/O function takes first: one deadline for the whole turn (all
attempts of all calls fit inside it), its trace id, and the names of the turn's patient, which
the egress guard of a model call must know to recognize them as PHI."""

import time
from dataclasses import dataclass, field, replace


@dataclass(frozen=True)
class RequestContext:
    deadline: float  # time.monotonic() value
    trace_id: str = ""
    patient_names: tuple[str, ...] = ()
    started: float = field(default_factory=time.monotonic)

    @classmethod
    def with_timeout(cls, seconds: float, **kwargs: str) -> "RequestContext":
        return cls(deadline=time.monotonic() + seconds, **kwargs)

    def within(self, seconds: float) -> "RequestContext":
        """The same request with a deadline at most `seconds` away (Go's context.WithTimeout)."""
        return replace(self, deadline=min(self.deadline, time.monotonic() + seconds))

    def child(self, *, reserve: float) -> "RequestContext":
        """The same request with `reserve` seconds kept back from its deadline, so what runs
        under it leaves the caller time to finish (answer and verify)."""
        return replace(self, deadline=self.deadline - reserve)

    def for_patient(self, *names: str) -> "RequestContext":
        return replace(self, patient_names=tuple(n for n in names if n))

    def remaining(self) -> float:
        return max(0.0, self.deadline - time.monotonic())

    def call_timeout(self, cap: float) -> float:
        """The timeout of one outgoing call: what is left of the turn, at most `cap`."""
        return min(self.remaining(), cap)

    def elapsed_ms(self) -> float:
        return (time.monotonic() - self.started) * 1000
