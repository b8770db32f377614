"""Triage on public material (tests/eval/triage_public.json, every case with its named source):
the red-flag screen's sensitivity and over-triage, and where a non-emergency complaint goes.

- Sensitivity: emergent cases the screen flags (target 100%).
- Over-triage: non-emergent cases it flags (target ≤ 10%).
- Consult opened: non-emergent symptom messages the planner takes as a symptom consult (not
  a booking, a menu or a question back).
- Specialty top-1: the council's specialty for each non-emergent symptom message, read as
  the consult's whole history (target ≥ 85% overall, ≥ 75% per specialty).
The screen and the council run in-process: the same code ScreenInput and Ask run."""

import asyncio
import datetime as dt
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from orchestrator.consult import flow as consult
from orchestrator.context import RequestContext
from orchestrator.sessions import ConsultState
from orchestrator.understanding.understand import understand
from runtime.specialties import SPECIALTIES
from verifier.screen import screen

SET_PATH = Path(__file__).with_name("triage_public.json")
# Written by someone else after the screen and the council were changed for SET_PATH: the evidence.
HOLDOUT_PATH = Path(__file__).with_name("triage_holdout.json")
ROUTED = (*SPECIALTIES, "general_practice")


@dataclass
class TriageScore:
    emergent: int = 0
    caught: int = 0
    calm: int = 0
    over_triaged: int = 0
    symptoms: int = 0
    consults_opened: int = 0
    routed: Counter = field(default_factory=Counter)  # specialty -> cases
    routed_right: Counter = field(default_factory=Counter)
    missed: list[str] = field(default_factory=list)  # case ids
    false_alarms: list[str] = field(default_factory=list)
    misrouted: list[tuple[str, str, str]] = field(default_factory=list)  # (id, expected, got)
    not_opened: list[str] = field(default_factory=list)

    @property
    def sensitivity(self) -> float:
        return self.caught / self.emergent if self.emergent else 1.0

    @property
    def over_triage(self) -> float:
        return self.over_triaged / self.calm if self.calm else 0.0

    @property
    def top1(self) -> float:
        total = sum(self.routed.values())
        return sum(self.routed_right.values()) / total if total else 0.0

    def top1_of(self, specialty: str) -> float:
        return self.routed_right[specialty] / self.routed[specialty] if self.routed[specialty] else 0.0


def load_cases(path: Path = SET_PATH) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cases"]


def score(cases: list[dict] | None = None, today: dt.date | None = None) -> TriageScore:
    cases = load_cases() if cases is None else cases
    today = today or dt.date.today()
    result = TriageScore()
    for case in cases:
        flagged = screen(case["text"], case["lang"]).red_flag
        if case["emergent"]:
            result.emergent += 1
            result.caught += flagged
            if not flagged:
                result.missed.append(case["id"])
            continue
        result.calm += 1
        if flagged:
            result.over_triaged += 1
            result.false_alarms.append(case["id"])
        if case["kind"] != "symptom" or case["specialty"] not in ROUTED:
            continue
        result.symptoms += 1
        u = understand(case["text"], today=today, known_doctors=())
        if consult.opens_consult(case["text"], u):
            result.consults_opened += 1
        else:
            result.not_opened.append(case["id"])
        state = ConsultState(texts=[case["text"]])
        asyncio.run(consult.assess(RequestContext.with_timeout(30), state, list(SPECIALTIES)))
        result.routed[case["specialty"]] += 1
        if state.specialty == case["specialty"]:
            result.routed_right[case["specialty"]] += 1
        else:
            result.misrouted.append((case["id"], case["specialty"], state.specialty))
    return result
