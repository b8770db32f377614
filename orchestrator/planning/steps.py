"""Steps of a plan and their typed results. Errors at the boundary become values: each step
ends with a StepStatus mapped from the gRPC code, never an exception reaching the user."""

import enum
from dataclasses import dataclass, field
from typing import Any

import grpc

TOOLS = "tools"  # the upstream of tool steps


class Action(enum.StrEnum):
    LIST_SLOTS = "list_available_slots"
    BOOK = "book_appointment"
    RESCHEDULE = "reschedule_appointment"
    CANCEL = "cancel_appointment"
    LIST_APPOINTMENTS = "list_appointments"
    COMPUTE_SCORE = "compute_risk_score"
    SEARCH_GUIDELINES = "search_guidelines"
    CHECK_DRUG_SAFETY = "check_drug_safety"
    CHECK_INTERACTIONS = "check_interactions"

    @property
    def is_write(self) -> bool:
        return self in (Action.BOOK, Action.RESCHEDULE, Action.CANCEL)


class StepStatus(enum.StrEnum):
    OK = "ok"
    NOT_FOUND = "not_found"
    REJECTED = "rejected"
    UNAVAILABLE = "unavailable"
    TIMED_OUT = "timed_out"
    CIRCUIT_OPEN = "circuit_open"
    INVALID = "invalid"

    @property
    def failed_upstream(self) -> bool:
        """The clinic could not answer (as opposed to answering no)."""
        return self in (StepStatus.UNAVAILABLE, StepStatus.TIMED_OUT, StepStatus.CIRCUIT_OPEN)


@dataclass(frozen=True)
class PlannedStep:
    step_id: str
    upstream: str  # a clinic id, or TOOLS
    action: Action
    request: Any  # the request message; identity only in write steps

    @property
    def retry_safe(self) -> bool:
        """Reads retry; writes only with an idempotency key."""
        return not self.action.is_write or bool(getattr(self.request, "idempotency_key", ""))


@dataclass
class StepResult:
    step: PlannedStep
    status: StepStatus
    reply: Any = None
    code: grpc.StatusCode | None = None  # kept to pick the right plain sentence
    attempts: int = 0
    latency_ms: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)
