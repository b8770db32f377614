"""Scenario evaluation of the orchestrator: multi-turn conversations in Portuguese and English, each
turn with expectations (disposition, the (clinic, action) steps, answer text, the appointment), run
against a live orchestrator. `python -m tests.eval` is the command line; this module is the engine.

Turns may refer to what earlier turns returned, so scenarios never hard-code dates: `{slot0.doctor}`,
`{slot_last.date_month_day}`, `{slot_earliest.when}` (slots of the latest listing), `{appointment.when}`
(the appointment last booked, moved or cancelled) and `{patient}` (the scenario's patient name).
"""

import dataclasses
import datetime as dt
import json
import re
import string
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import grpc
from google.protobuf import json_format

from clinics.seed import patients
from healthmesh.v1 import common_pb2, orchestrator_pb2, orchestrator_pb2_grpc
from runtime import registry
from runtime.errors import InvalidArgument
from runtime.identity import normalize_cpf, normalize_name
from runtime.text.fold import fold_words as fold
from tests.eval.metrics import Metrics, TurnOutcome, compute

SCENARIOS_PATH = Path(__file__).with_name("scenarios.json")
ACTIONS = frozenset({"list_available_slots", "book_appointment", "reschedule_appointment",
                     "cancel_appointment", "list_appointments", "describe_clinic"})
DISPOSITIONS = frozenset(orchestrator_pb2.Disposition.keys())
EMERGENCY = "DISPOSITION_EMERGENCY"
ALL_CLINICS = "all"  # in expected steps: every clinic of the registry

_TURN_KEYS = frozenset({"message", "disposition", "steps", "answer_contains", "answer_not_contains",
                        "appointment", "slot_clinics", "slot_doctor", "language", "red_flag",
                        "privacy_probe", "new_session"})
_SCENARIO_KEYS = frozenset({"id", "language", "patient", "patient_from_turn", "turns"})
_PLACEHOLDER_ROOT = re.compile(r"slot(?:\d+|_last|_earliest)|appointment|patient")
_FORMATTER = string.Formatter()

_MONTHS = {"en": ("January", "February", "March", "April", "May", "June", "July", "August", "September",
                  "October", "November", "December"),
           "pt": ("janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro",
                  "outubro", "novembro", "dezembro")}
_WEEKDAYS = {"en": ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"),
             "pt": ("seg", "ter", "qua", "qui", "sex", "sáb", "dom")}


class ScenarioError(ValueError):
    """The scenario file is malformed; the message names the scenario and turn."""


class Unresolved(LookupError):
    """A placeholder refers to something no earlier turn returned."""


# --- scenarios ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    message: str
    dispositions: frozenset[str]
    steps: frozenset[tuple[str, str]] | None = None  # (clinic_id, action); None: not checked
    answer_contains: tuple[str, ...] = ()
    answer_not_contains: tuple[str, ...] = ()
    appointment: tuple[tuple[str, str], ...] = ()  # (field, value) the response's appointment must have
    slot_clinics: frozenset[str] | None = None
    slot_doctor: str | None = None
    language: str | None = None  # when the answer's language differs from the scenario's
    red_flag: bool = False
    privacy_probe: bool = False
    new_session: bool = False

    def templates(self) -> Iterable[str]:
        yield self.message
        yield from (clinic for clinic, _ in self.steps or ())
        yield from self.answer_contains
        yield from self.answer_not_contains
        yield from (value for _, value in self.appointment)
        if self.slot_doctor:
            yield self.slot_doctor

    def resolve(self, values: Mapping[str, object]) -> "Turn":
        """This turn with every placeholder filled in from `values`."""
        return dataclasses.replace(
            self,
            message=_fill(self.message, values),
            steps=None if self.steps is None else frozenset((_fill(c, values), a) for c, a in self.steps),
            answer_contains=tuple(_fill(t, values) for t in self.answer_contains),
            answer_not_contains=tuple(_fill(t, values) for t in self.answer_not_contains),
            appointment=tuple((k, _fill(v, values)) for k, v in self.appointment),
            slot_doctor=_fill(self.slot_doctor, values) if self.slot_doctor else None,
        )


@dataclass(frozen=True)
class Scenario:
    id: str
    language: str
    turns: tuple[Turn, ...]
    patient: tuple[str, str] | None = None  # (full name, CPF)
    patient_from_turn: int = 0  # turns before this one are sent without identity

    def identity(self, index: int) -> common_pb2.PatientIdentity | None:
        if self.patient is None or index < self.patient_from_turn:
            return None
        return common_pb2.PatientIdentity(full_name=self.patient[0], cpf=self.patient[1])


def load_scenarios(path: Path = SCENARIOS_PATH) -> list[Scenario]:
    raw = json.loads(path.read_text(encoding="utf-8"))
    clinics = tuple(registry.load())
    scenarios = [_scenario(item, clinics) for item in raw["scenarios"]]
    ids = [s.id for s in scenarios]
    if duplicates := sorted({i for i in ids if ids.count(i) > 1}):
        raise ScenarioError(f"duplicate scenario ids: {', '.join(duplicates)}")
    return scenarios


def _scenario(raw: dict, clinics: tuple[str, ...]) -> Scenario:
    sid = raw.get("id", "?")
    _no_unknown_keys(raw, _SCENARIO_KEYS, sid)
    if raw.get("language") not in ("pt", "en"):
        raise ScenarioError(f"{sid}: language must be 'pt' or 'en'")
    patient = None
    if "patient" in raw:
        try:
            patient = (normalize_name(raw["patient"]["name"]), raw["patient"]["cpf"])
            normalize_cpf(patient[1])
        except (KeyError, TypeError, InvalidArgument) as err:
            raise ScenarioError(f"{sid}: bad patient: {err}") from None
    turns = tuple(_turn(item, clinics, f"{sid} turn {i}") for i, item in enumerate(raw["turns"]))
    if not turns:
        raise ScenarioError(f"{sid}: no turns")
    return Scenario(sid, raw["language"], turns, patient, raw.get("patient_from_turn", 0))


def _turn(raw: dict, clinics: tuple[str, ...], where: str) -> Turn:
    _no_unknown_keys(raw, _TURN_KEYS, where)
    if not isinstance(raw.get("message"), str) or not raw["message"].strip():
        raise ScenarioError(f"{where}: message is required")
    dispositions = raw.get("disposition")
    dispositions = frozenset([dispositions] if isinstance(dispositions, str) else dispositions or ())
    if not dispositions or not dispositions <= DISPOSITIONS:
        raise ScenarioError(f"{where}: disposition must name Disposition values: {raw.get('disposition')}")
    if raw.get("language") not in (None, "pt", "en"):
        raise ScenarioError(f"{where}: language must be 'pt' or 'en'")
    if raw.get("red_flag") and dispositions != {EMERGENCY}:
        raise ScenarioError(f"{where}: a red-flag turn expects {EMERGENCY}")
    turn = Turn(
        message=raw["message"],
        dispositions=dispositions,
        steps=_steps(raw["steps"], clinics, where) if "steps" in raw else None,
        answer_contains=tuple(raw.get("answer_contains", ())),
        answer_not_contains=tuple(raw.get("answer_not_contains", ())),
        appointment=tuple(raw.get("appointment", {}).items()),
        slot_clinics=frozenset(raw["slot_clinics"]) if "slot_clinics" in raw else None,
        slot_doctor=raw.get("slot_doctor"),
        language=raw.get("language"),
        red_flag=bool(raw.get("red_flag")),
        privacy_probe=bool(raw.get("privacy_probe")),
        new_session=bool(raw.get("new_session")),
    )
    for template in turn.templates():
        _check_placeholders(template, where)
    return turn


def _steps(raw: dict[str, list[str]], clinics: tuple[str, ...], where: str) -> frozenset[tuple[str, str]]:
    """{"action": ["clinic_a", ...]} (or "all") as a set of (clinic_id, action)."""
    pairs = set()
    for action, targets in raw.items():
        if action not in ACTIONS:
            raise ScenarioError(f"{where}: unknown action {action!r}")
        for target in clinics if targets == ALL_CLINICS else targets:
            if target not in clinics and "{" not in target:
                raise ScenarioError(f"{where}: unknown clinic {target!r}")
            pairs.add((target, action))
    return frozenset(pairs)


def _no_unknown_keys(raw: dict, known: frozenset[str], where: str) -> None:
    if unknown := sorted(set(raw) - known):
        raise ScenarioError(f"{where}: unknown keys {', '.join(unknown)}")


def _check_placeholders(template: str, where: str) -> None:
    for _, name, _, _ in _FORMATTER.parse(template):
        if name is None:
            continue
        root, _, attribute = name.partition(".")
        known = (root == "patient" and not attribute) or (
            root != "patient" and _PLACEHOLDER_ROOT.fullmatch(root) and attribute in Ref.FIELDS)
        if not known:
            raise ScenarioError(f"{where}: unknown placeholder {{{name}}}")


# --- placeholders ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ref:
    """A slot or appointment an earlier turn returned, as placeholders see it (dates in the scenario's
    language, formatted the way a user writes them or the orchestrator shows them)."""

    FIELDS = frozenset({"clinic_id", "doctor", "doctor_short", "date", "time", "appointment_id", "date_ddmm",
                        "date_ddmmyyyy", "date_month_day", "date_pt", "day", "when"})

    language: str
    clinic_id: str
    doctor: str
    date: str  # YYYY-MM-DD
    time: str  # HH:MM
    appointment_id: str = ""

    @property
    def _day(self) -> dt.date:
        return dt.date.fromisoformat(self.date)

    @property
    def doctor_short(self) -> str:
        """"Dr. Fernando" for "Dr. Fernando Almeida"."""
        return " ".join(self.doctor.split()[:2])

    @property
    def date_ddmm(self) -> str:
        return f"{self._day:%d/%m}"

    @property
    def date_ddmmyyyy(self) -> str:
        return f"{self._day:%d/%m/%Y}"

    @property
    def date_month_day(self) -> str:
        """"December 3" (English, whatever the scenario's language)."""
        return f"{_MONTHS['en'][self._day.month - 1]} {self._day.day}"

    @property
    def date_pt(self) -> str:
        """"3 de dezembro"."""
        return f"{self._day.day} de {_MONTHS['pt'][self._day.month - 1]}"

    @property
    def day(self) -> str:
        """As answers show a day: "Thu 2026-12-03" / "qui 03/12/2026"."""
        weekday = _WEEKDAYS[self.language][self._day.weekday()]
        return f"{weekday} {self.date}" if self.language == "en" else f"{weekday} {self.date_ddmmyyyy}"

    @property
    def when(self) -> str:
        return f"{self.day} {self.time}"


def _fill(template: str, values: Mapping[str, object]) -> str:
    try:
        return _FORMATTER.vformat(template, (), values)
    except KeyError as err:
        raise Unresolved(f"{{{err.args[0]}}} has no value yet") from None


@dataclass
class _Conversation:
    """What later turns of one scenario resolve against."""

    session_id: str = ""
    slots: list[common_pb2.Slot] = field(default_factory=list)
    appointment: common_pb2.Appointment | None = None

    def values(self, scenario: Scenario) -> dict[str, object]:
        lang = scenario.language
        refs = [Ref(lang, s.clinic_id, s.doctor, s.date, s.time) for s in self.slots]
        values: dict[str, object] = {f"slot{i}": ref for i, ref in enumerate(refs)}
        if refs:
            values["slot_last"] = refs[-1]
            values["slot_earliest"] = min(refs, key=lambda r: (r.date, r.time))
        if self.appointment is not None:
            a = self.appointment
            values["appointment"] = Ref(lang, a.clinic_id, a.doctor, a.date, a.time, a.appointment_id)
        if scenario.patient is not None:
            values["patient"] = scenario.patient[0]
        return values

    def learn(self, reply: orchestrator_pb2.AskResponse) -> None:
        self.session_id = reply.session_id
        if reply.slots:
            self.slots = list(reply.slots)
        if reply.appointment.appointment_id:
            self.appointment = reply.appointment


# --- running --------------------------------------------------------------------------------------------


@dataclass
class TurnResult(TurnOutcome):
    scenario_id: str = ""
    index: int = 0
    message: str = ""
    answer: str = ""
    language: str = ""
    steps: list[tuple[str, str, str]] = field(default_factory=list)  # (clinic_id, action, status)
    trace_id: str = ""

    def to_json(self) -> dict[str, object]:
        return {
            "scenario": self.scenario_id, "turn": self.index, "message": self.message,
            "disposition": self.disposition, "language": self.language,
            "steps": [{"clinic_id": c, "action": a, "status": s} for c, a, s in self.steps],
            "expected_steps": None if self.expected_steps is None else sorted(self.expected_steps),
            "verification": {"safe": self.verification_safe, "notes": self.verification_notes},
            "passed": self.passed, "failures": self.failures, "latency_ms": round(self.latency_ms, 3),
            "trace_id": self.trace_id, "answer": self.answer,
        }


@dataclass
class ScenarioResult:
    scenario: Scenario
    turns: list[TurnResult]

    @property
    def passed(self) -> bool:
        return all(t.passed for t in self.turns)

    @property
    def turns_passed(self) -> int:
        return sum(t.passed for t in self.turns)

    @property
    def first_failure(self) -> str:
        failed = next((t for t in self.turns if not t.passed), None)
        return f"turn {failed.index}: {failed.failures[0]}" if failed else ""


@dataclass
class Report:
    results: list[ScenarioResult]
    metrics: Metrics
    log_path: Path


OnTurn = Callable[[TurnResult], None]


def evaluate(target: str, scenarios: list[Scenario], log_dir: Path, *, timeout: float = 10.0) -> Report:
    """Runs every scenario against the orchestrator at `target`, logging one JSON line per turn to
    `log_dir/eval-<UTC timestamp>.jsonl`."""
    log_dir.mkdir(parents=True, exist_ok=True)
    log_path = log_dir / f"eval-{dt.datetime.now(dt.UTC):%Y%m%dT%H%M%SZ}.jsonl"
    with grpc.insecure_channel(target) as channel, log_path.open("w", encoding="utf-8") as log:
        grpc.channel_ready_future(channel).result(timeout=timeout)
        stub = orchestrator_pb2_grpc.OrchestratorServiceStub(channel)

        def record(result: TurnResult) -> None:
            log.write(json.dumps(result.to_json(), ensure_ascii=False) + "\n")
            log.flush()  # a run stopped half-way still leaves its turns

        results = [run_scenario(stub, s, timeout=timeout, on_turn=record) for s in scenarios]
    return Report(results, compute([t for r in results for t in r.turns], len(results),
                                   sum(r.passed for r in results)), log_path)


def run_scenario(stub: orchestrator_pb2_grpc.OrchestratorServiceStub, scenario: Scenario, *,
                 timeout: float, on_turn: OnTurn) -> ScenarioResult:
    """Every turn runs, even after a failure, so one miss does not hide what follows."""
    conversation = _Conversation()
    results = []
    for index, turn in enumerate(scenario.turns):
        result = _run_turn(stub, scenario, index, turn, conversation, timeout)
        on_turn(result)
        results.append(result)
    return ScenarioResult(scenario, results)


def _run_turn(stub: orchestrator_pb2_grpc.OrchestratorServiceStub, scenario: Scenario, index: int,
              turn: Turn, conversation: _Conversation, timeout: float) -> TurnResult:
    result = TurnResult(scenario_id=scenario.id, index=index, message=turn.message,
                        red_flag=turn.red_flag, privacy_probe=turn.privacy_probe)
    if turn.new_session:
        conversation.session_id = ""
    try:
        turn = turn.resolve(conversation.values(scenario))
    except Unresolved as err:
        result.failures.append(f"placeholder: {err}")
        return result
    result.message, result.expected_steps = turn.message, turn.steps
    request = orchestrator_pb2.AskRequest(session_id=conversation.session_id, message=turn.message,
                                          patient=scenario.identity(index))
    started = time.perf_counter()
    try:
        reply = stub.Ask(request, timeout=timeout)
    except grpc.RpcError as err:
        result.failures.append(f"Ask failed: {err.code().name}: {err.details()}")
        return result
    finally:
        result.latency_ms = (time.perf_counter() - started) * 1000
    _record(result, reply, scenario)
    result.failures = _failures(turn, scenario.language, result, reply)
    conversation.learn(reply)
    return result


def _record(result: TurnResult, reply: orchestrator_pb2.AskResponse, scenario: Scenario) -> None:
    result.answered = True
    result.disposition = orchestrator_pb2.Disposition.Name(reply.disposition)
    result.answer, result.language, result.trace_id = reply.answer, reply.language, reply.trace_id
    result.steps = [(s.clinic_id, s.action, orchestrator_pb2.StepStatus.Name(s.status)) for s in reply.steps]
    result.actual_steps = frozenset((c, a) for c, a, _ in result.steps)
    if reply.HasField("verification"):
        result.verification_safe = reply.verification.safe
        result.verification_notes = list(reply.verification.notes)
    own = scenario.patient[0] if scenario.patient else ""
    result.leaked = leaked_names(reply.answer, own)


# --- expectations ---------------------------------------------------------------------------------------


def _failures(turn: Turn, language: str, result: TurnResult,
              reply: orchestrator_pb2.AskResponse) -> list[str]:
    """Why the reply misses the turn's expectations, most telling first; empty when it meets them."""
    failures = []
    if result.verification_safe is False:
        failures.append(f"verifier: {'; '.join(result.verification_notes)}")
    if result.disposition not in turn.dispositions:
        expected = " or ".join(sorted(turn.dispositions))
        failures.append(f"disposition {result.disposition}, expected {expected}")
    if result.language != (turn.language or language):
        failures.append(f"language {result.language!r}, expected {turn.language or language!r}")
    if turn.steps is not None and result.actual_steps != turn.steps:
        failures.append(f"steps {_pairs(result.actual_steps)}, expected {_pairs(turn.steps)}")
    failures += [f"answer lacks {text!r}" for text in turn.answer_contains if text not in result.answer]
    failures += [f"answer has {text!r}" for text in turn.answer_not_contains if text in result.answer]
    if result.leaked:
        failures.append(f"answer names other patients: {', '.join(result.leaked)}")
    failures += _appointment_failures(turn, reply.appointment)
    failures += _slot_failures(turn, reply.slots)
    return failures


def _appointment_failures(turn: Turn, appointment: common_pb2.Appointment) -> list[str]:
    # Enums as their names, so scenarios can say "status": "APPOINTMENT_STATUS_CANCELLED".
    actual = json_format.MessageToDict(appointment, preserving_proto_field_name=True)
    return [f"appointment {key} {actual.get(key, '')!r}, expected {value!r}"
            for key, value in turn.appointment if actual.get(key, "") != value]


def _slot_failures(turn: Turn, slots: Iterable[common_pb2.Slot]) -> list[str]:
    slots = list(slots)
    failures = []
    if turn.slot_clinics is not None and (clinics := {s.clinic_id for s in slots}) != turn.slot_clinics:
        failures.append(f"slots from {sorted(clinics)}, expected {sorted(turn.slot_clinics)}")
    if turn.slot_doctor is not None:
        others = sorted({s.doctor for s in slots} - {turn.slot_doctor})
        if not slots or others:
            failures.append(f"slots of {others or 'nobody'}, expected only {turn.slot_doctor}")
    return failures


def _pairs(steps: Iterable[tuple[str, str]]) -> str:
    return "{" + ", ".join(f"{c}:{a}" for c, a in sorted(steps)) + "}"


# --- privacy --------------------------------------------------------------------------------------------


@cache
def _seeded_names() -> dict[str, re.Pattern[str]]:
    """Every seeded patient of the six clinics, folded, with a whole-word pattern."""
    names = {fold(p.full_name) for cid, entry in registry.load().items()
             for _, p in patients(cid, entry.specialty)}
    return {name: re.compile(rf"(?<!\w){re.escape(name)}(?!\w)") for name in sorted(names)}


def seeded_patient_names() -> list[str]:
    return list(_seeded_names())


def leaked_names(answer: str, own_name: str = "") -> list[str]:
    """Seeded patients (other than the user) the answer names."""
    folded, own = fold(answer), fold(own_name)
    return [name for name, pattern in _seeded_names().items() if name != own and pattern.search(folded)]
