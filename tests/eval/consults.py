"""Symptom-consult evaluation: the labeled vignettes (tests/eval/vignettes.json) run through a
real orchestrator as a patient would type them, and the council's outcome is scored.

A vignette opens a consult; the patient answers the history questions with its history_reply (plus
their age, when the vignette gives one), and says they have nothing to add if asked again. Metrics:
red-flag sensitivity (emergencies answered as such), false alarms on the others, specialty top-1
accuracy and urgency within ±1 of the label.
"""

import json
from dataclasses import dataclass, field
from pathlib import Path

import grpc

from healthmesh.v1 import orchestrator_pb2, orchestrator_pb2_grpc

VIGNETTES_PATH = Path(__file__).with_name("vignettes.json")
MAX_TURNS = 4
NOTHING_TO_ADD = {"en": "That's all I know.", "pt": "É só isso que eu sei."}
AGE = {"en": "I'm {age} years old.", "pt": "Tenho {age} anos."}


@dataclass(frozen=True)
class Vignette:
    id: str
    language: str
    opening: str
    history_reply: str
    specialty: str
    urgency: int
    emergency: bool
    age: int | None = None


@dataclass
class Outcome:
    vignette: Vignette
    flagged: bool = False
    specialty: str = ""
    urgency: int = 0
    confidence: float = 0.0
    turns: int = 0
    error: str = ""

    @property
    def specialty_correct(self) -> bool:
        return self.specialty == self.vignette.specialty

    @property
    def urgency_within_one(self) -> bool:
        return abs(self.urgency - self.vignette.urgency) <= 1


@dataclass
class ConsultMetrics:
    outcomes: list[Outcome] = field(default_factory=list)

    def _share(self, hits: int, total: int) -> float:
        return hits / total if total else 0.0

    @property
    def emergencies(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.vignette.emergency]

    @property
    def consults(self) -> list[Outcome]:
        return [o for o in self.outcomes if not o.vignette.emergency]

    @property
    def red_flag_sensitivity(self) -> float:
        return self._share(sum(o.flagged for o in self.emergencies), len(self.emergencies))

    @property
    def false_alarm_rate(self) -> float:
        return self._share(sum(o.flagged for o in self.consults), len(self.consults))

    @property
    def assessed(self) -> list[Outcome]:
        """Consults that reached the council (a false alarm stops a consult before it)."""
        return [o for o in self.consults if o.specialty]

    @property
    def specialty_top1(self) -> float:
        return self._share(sum(o.specialty_correct for o in self.assessed), len(self.assessed))

    @property
    def urgency_within_one(self) -> float:
        return self._share(sum(o.urgency_within_one for o in self.assessed), len(self.assessed))


def load_vignettes(path: Path = VIGNETTES_PATH) -> list[Vignette]:
    raw = json.loads(path.read_text(encoding="utf-8"))
    return [Vignette(**v) for v in raw["vignettes"]]


def run_vignette(stub: orchestrator_pb2_grpc.OrchestratorServiceStub, v: Vignette, timeout: float) -> Outcome:
    outcome = Outcome(v)
    age = AGE[v.language].format(age=v.age) if v.age else ""
    replies = [v.opening, f"{v.history_reply} {age}".strip()]
    session_id = ""
    for turn in range(MAX_TURNS):
        message = replies[turn] if turn < len(replies) else NOTHING_TO_ADD[v.language]
        try:
            request = orchestrator_pb2.AskRequest(session_id=session_id, message=message)
            reply = stub.Ask(request, timeout=timeout)
        except grpc.RpcError as err:
            outcome.error = f"{err.code().name}: {err.details()}"
            return outcome
        outcome.turns, session_id = turn + 1, reply.session_id
        if reply.disposition == orchestrator_pb2.DISPOSITION_EMERGENCY:
            outcome.flagged = True
            return outcome
        if reply.consult.stage == orchestrator_pb2.CONSULT_STAGE_RECOMMENDED:
            outcome.specialty, outcome.urgency = reply.consult.specialty, reply.consult.urgency
            outcome.confidence = reply.consult.confidence
            return outcome
        if not reply.HasField("consult"):
            outcome.error = f"no consult started: {reply.answer[:80]!r}"
            return outcome
    outcome.error = "no recommendation after the history rounds"
    return outcome


def evaluate_consults(target: str, vignettes: list[Vignette], *, timeout: float = 10.0) -> ConsultMetrics:
    metrics = ConsultMetrics()
    with grpc.insecure_channel(target) as channel:
        grpc.channel_ready_future(channel).result(timeout=10)
        stub = orchestrator_pb2_grpc.OrchestratorServiceStub(channel)
        metrics.outcomes = [run_vignette(stub, v, timeout) for v in vignettes]
    return metrics
