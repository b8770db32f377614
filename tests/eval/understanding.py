"""Understanding on labeled messages (tests/eval/understanding.json: ≥ 400 messages in Portuguese,
English and both mixed, every case with its named source; tests/eval/understanding_heldout.json: 255
more, written later): per intent, how often the orchestrator reads the intent, and the intent with
every labeled entity, as the Ask would.

The reading is the pipeline's own order, in-process: a tool question (risk score, drug safety,
side effects, interactions, guidelines) first, then a symptom consult, then the understanding's
intent. Drug names are compared as the drug service resolves them (a misspelling the reader does
not correct fails).

Parts: in understanding.json a case whose text hashes below HOLDOUT_PERCENT is 'heldout-a' (held out
until it was measured twice; since then tuned on), the rest 'tuning'; understanding_heldout.json
names each case's part, 'heldout-b' (tuned on) or 'heldout-c' (the evidence until its one measurement,
121/131 = 92.4%; since then tuned on, its failures printed); understanding_heldout2.json is
'heldout-d', 255 messages written by someone who read neither this code nor any earlier case: the
evidence until measured (first run 210/255 = 82.4%, on the code before heldout-c was tuned on; then
214/255 = 83.9% after the heldout-c round), since then tuned on and its failures printed;
understanding_heldout3.json is 'heldout-e', 253 messages by another writer who read neither: the
evidence until measured (first run 204/253 = 80.6% before the heldout-d round, 215/253 = 85.0% after it
and after drug names came from both knowledge-base files), since then tuned on and its failures printed;
understanding_heldout4.json is 'heldout-f', 255 messages by a third writer who read neither: the
evidence until measured (first run 207/255 = 81.2% before the heldout-e round, 222/255 = 87.1% after it),
since then tuned on and its failures printed; understanding_heldout5.json is 'heldout-g', 274 messages by
a fourth writer who read neither: the evidence until measured (first run 243/274 = 88.7% before the
heldout-f round, 249/274 = 90.9% after it), since then tuned on and its failures printed;
understanding_heldout6.json is 'heldout-h', 270 messages by a fifth writer who read neither: the
evidence until measured (first run 249/270 = 92.2% before the heldout-g round, 252/270 = 93.3% after it),
since then tuned on and its failures printed; understanding_heldout7.json is 'heldout-i', 276 messages by
a sixth writer who read neither: the evidence until measured (first run 247/276 = 89.5% before the
heldout-h round, 250/276 = 90.6% after it), since then tuned on and its failures printed;
understanding_broadening.json is 'broadening', phrasings the heldout-i tuner wrote fresh (40+ each for sources
follow-ups, my appointments, out of scope and cancel, with near-misses): tuned on from the start;
understanding_heldout8.json is 'heldout-j', 272 messages by a seventh writer who read neither: the
evidence until measured (first run 256/272 = 94.1% before the heldout-i round, 259/272 = 95.2% after it),
since then tuned on and its failures printed; the heldout-j tuner added 143 more broadening phrasings (30+
each for side effects, sources, out of scope and risk scores, with near-misses);
understanding_heldout9.json is 'heldout-k', 270 messages by an eighth writer who read neither: the
evidence until measured (first run 247/270 = 91.5% before the heldout-j round, 252/270 = 93.3% after it),
since then tuned on and its failures printed; the heldout-k tuner added more broadening phrasings (30+ each
for my appointments, general questions, sources and guidelines, with near-misses);
understanding_heldout10.json is 'heldout-l', 270 messages by a ninth writer who read neither: the
evidence until measured (first run 251/270 = 93.0% before the heldout-k round, 254/270 = 94.1% after it),
since then tuned on and its failures printed; the heldout-l tuner added more broadening phrasings (40+ sources
follow-ups, 20+ each for book, my appointments and smalltalk, with near-misses);
understanding_heldout11.json is 'heldout-m', 270 messages by a tenth writer who read neither: the evidence
until measured (first run 248/270 = 91.9% before the heldout-l round, 248/270 = 91.9% after it), since
then tuned on and its failures printed; the heldout-m tuner added 170 more broadening phrasings (40+ each for
my appointments and smalltalk, 30+ general questions, with near-misses; 101/170 before that round);
understanding_heldout12.json is 'heldout-n', 280 messages by an
eleventh writer who read neither: the evidence until measured (first run 255/280 = 91.1% before the
heldout-l round, 259/280 = 92.5% after it, 269/280 = 96.1% after the heldout-m round, out of scope 16/18),
since then tuned on and its failures printed (its two joke requests, and heldout-m's two, relabeled
out_of_scope as the corpus labels them; 280/280 after the heldout-n round, whose tuner added 107 more
broadening phrasings: 69/107 before it);
understanding_heldout13.json is 'heldout-o', 325 messages
by a twelfth writer who read neither: the evidence, its failures never printed (first run 305/325 =
93.8% after the heldout-l round, 312/325 = 96.0% after the heldout-m round, every intent at 90% or more;
313/325 = 96.3% after the heldout-n round); understanding_heldout14.json is 'heldout-p', 321 messages by a
thirteenth writer who read neither (joke and game requests labeled out_of_scope): the evidence until
measured (first run 305/321 = 95.0% before the heldout-n round and after it, out of scope 14/20 and
sources 21/24 below 90%), since then tuned on and its failures printed (321/321 after the heldout-p round,
whose tuner added 80 broadening phrasings, 44 out-of-scope requests, 25 sources follow-ups and 11 near-misses:
48/80 before it; heldout-o 316/325 = 97.2% after it; l020's "o primeiro horario" relabeled earliest, as the
seven other "primeiro horário" cases label it); understanding_heldout15.json is 'heldout-q', 319 messages by
a fourteenth writer who read neither: the evidence until measured (first run 294/319 = 92.2% after the
heldout-n round, 298/319 = 93.4% after the heldout-p round: smalltalk 19/26 and sources 20/23 below 90%),
since then tuned on and its failures printed (309/319 after the heldout-q round, whose tuner added 97
broadening phrasings, 52 smalltalk, 28 sources follow-ups and 17 near-misses: 73/97 before it, 94/97 after;
heldout-o 316/325 = 97.2% after it); understanding_heldout16.json is 'heldout-r', 311 messages by a
fifteenth writer who read neither: the evidence too (first run 303/311 = 97.4% after the heldout-p round,
every intent at 90% or more).
"""

import datetime as dt
import hashlib
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from clinics.seed import DOCTORS
from orchestrator.consult import flow as consult
from orchestrator.planning.steps import Action
from orchestrator.toolquestions.drug_names import drug_names
from orchestrator.toolquestions.requests import ToolTask
from orchestrator.toolquestions.requests import read as read_tools
from orchestrator.understanding.understand import Intent, OutOfScope, Understanding, understand

SET_PATH = Path(__file__).with_name("understanding.json")
HELDOUT_PATH = Path(__file__).with_name("understanding_heldout.json")
HELDOUT2_PATH = Path(__file__).with_name("understanding_heldout2.json")
HELDOUT3_PATH = Path(__file__).with_name("understanding_heldout3.json")
HELDOUT4_PATH = Path(__file__).with_name("understanding_heldout4.json")
HELDOUT5_PATH = Path(__file__).with_name("understanding_heldout5.json")
HELDOUT6_PATH = Path(__file__).with_name("understanding_heldout6.json")
HELDOUT7_PATH = Path(__file__).with_name("understanding_heldout7.json")
BROADENING_PATH = Path(__file__).with_name("understanding_broadening.json")
HELDOUT8_PATH = Path(__file__).with_name("understanding_heldout8.json")
HELDOUT9_PATH = Path(__file__).with_name("understanding_heldout9.json")
HELDOUT10_PATH = Path(__file__).with_name("understanding_heldout10.json")
HELDOUT11_PATH = Path(__file__).with_name("understanding_heldout11.json")
HELDOUT12_PATH = Path(__file__).with_name("understanding_heldout12.json")
HELDOUT13_PATH = Path(__file__).with_name("understanding_heldout13.json")
HELDOUT14_PATH = Path(__file__).with_name("understanding_heldout14.json")
HELDOUT15_PATH = Path(__file__).with_name("understanding_heldout15.json")
HELDOUT16_PATH = Path(__file__).with_name("understanding_heldout16.json")
HOLDOUT_PERCENT = 35
PARTS = ("tuning", "heldout-a", "heldout-b", "heldout-c", "heldout-d", "heldout-e", "heldout-f", "heldout-g",
         "heldout-h", "heldout-i", "broadening", "heldout-j", "heldout-k", "heldout-l", "heldout-m",
         "heldout-n", "heldout-o", "heldout-p", "heldout-q", "heldout-r")
EVIDENCE: tuple[str, ...] = ("heldout-o", "heldout-r")  # the parts whose failures are never printed
TARGET_OVERALL, TARGET_PER_INTENT = 0.95, 0.90
_KNOWN_DOCTORS = tuple(doctor.name for clinic in DOCTORS.values() for doctor in clinic)
_INTENTS = {Intent.SOURCES: "sources", Intent.LIST: "slots", Intent.BOOK: "book",
            Intent.RESCHEDULE: "reschedule",
            Intent.CANCEL: "cancel", Intent.MY_APPOINTMENTS: "my_appointments", Intent.GREETING: "smalltalk",
            Intent.GENERAL_QUESTION: "general_question", Intent.OUT_OF_SCOPE: "out_of_scope"}


def held_out(text: str) -> bool:
    return int(hashlib.sha256(text.encode()).hexdigest(), 16) % 100 < HOLDOUT_PERCENT


@dataclass
class Part:
    cases: Counter = field(default_factory=Counter)  # intent -> cases
    intent_right: Counter = field(default_factory=Counter)  # intent -> intent read right
    exact: Counter = field(default_factory=Counter)  # intent -> intent and every labeled entity right
    wrong: list[tuple[str, str]] = field(default_factory=list)  # (case id, what was read)

    @property
    def rate(self) -> float:
        return sum(self.exact.values()) / max(1, sum(self.cases.values()))

    @property
    def intent_rate(self) -> float:
        return sum(self.intent_right.values()) / max(1, sum(self.cases.values()))

    def rate_of(self, intent: str) -> float:
        return self.exact[intent] / self.cases[intent] if self.cases[intent] else 0.0

    def met(self) -> bool:
        return self.rate >= TARGET_OVERALL and all(self.rate_of(i) >= TARGET_PER_INTENT for i in self.cases)


def part_of(case: dict) -> str:
    return case.get("part") or ("heldout-a" if held_out(case["text"]) else "tuning")


PATHS = (SET_PATH, HELDOUT_PATH, HELDOUT2_PATH, HELDOUT3_PATH, HELDOUT4_PATH, HELDOUT5_PATH, HELDOUT6_PATH,
         HELDOUT7_PATH, BROADENING_PATH, HELDOUT8_PATH, HELDOUT9_PATH, HELDOUT10_PATH, HELDOUT11_PATH,
         HELDOUT12_PATH, HELDOUT13_PATH, HELDOUT14_PATH, HELDOUT15_PATH, HELDOUT16_PATH)


def score(paths: tuple[Path, ...] = PATHS) -> dict[str, Part]:
    """Each part's counts, in PARTS order."""
    result = {name: Part() for name in PARTS}
    for path in paths:
        data = json.loads(path.read_text(encoding="utf-8"))
        _score_into(result, data["cases"], dt.date.fromisoformat(data["today"]))
    return {name: part for name, part in result.items() if part.cases}


def _score_into(result: dict[str, Part], cases: list[dict], today: dt.date) -> None:
    for case in cases:
        part = result[part_of(case)]
        intent, entities = reading(case["text"], today)
        expected = case["intent"]
        part.cases[expected] += 1
        part.intent_right[expected] += intent == expected
        wrong = {k: entities.get(k) for k, v in case["entities"].items() if not _agrees(k, v, entities)}
        if intent == expected and not wrong:
            part.exact[expected] += 1
        else:
            part.wrong.append((case["id"], f"{case['text']!r}: expected {expected}, read {intent}"
                               + (f"; entities read {wrong}" if wrong else "")))


def reading(message: str, today: dt.date) -> tuple[str, dict[str, object]]:
    """The intent label and the entities, as the orchestrator's Ask reads the message."""
    u = understand(message, today=today, known_doctors=_KNOWN_DOCTORS)
    tools = read_tools(message) if u.out_of_scope != OutOfScope.OTHER_PATIENT else ToolTask()
    entities = _entities(u, tools, today)
    if tools:
        return _tool_intent(tools), entities
    if consult.opens_consult(message, u):
        return "consult", entities
    return _intent_label(u), entities


def _intent_label(u: Understanding) -> str:
    return _INTENTS.get(u.intent, "unknown")


def _tool_intent(task: ToolTask) -> str:
    actions = [c.action for c in task.calls]
    if task.missing or Action.COMPUTE_SCORE in actions:
        return "risk_score"
    if Action.CHECK_INTERACTIONS in actions:
        return "interactions"
    if Action.CHECK_DRUG_SAFETY in actions:
        safety = [c for c in task.calls if c.action == Action.CHECK_DRUG_SAFETY]
        return safety[0].topic or "drug_safety"
    return "guidelines"


def _entities(u: Understanding, task: ToolTask, today: dt.date) -> dict[str, object]:
    drugs = [name for call in task.calls for name in (
        [call.request.drug_name] if call.action == Action.CHECK_DRUG_SAFETY else
        list(call.request.drug_names) if call.action == Action.CHECK_INTERACTIONS else [])]
    age = next((c.value for c in task.readings if c.name == "age"), None)
    return {
        "specialty": u.specialty, "doctor": u.doctors[0] if u.doctors else None,
        "date": u.date.isoformat() if u.date else None,
        "date_range": tuple(d.isoformat() for d in u.date_range) if u.date_range else None,
        "past": bool(u.date and u.date < today) or None,
        "time": u.time, "earliest": u.earliest or None, "choice": u.choice,
        "appointment_id": u.appointment_id, "source": u.source,
        "drugs": [_generic(d) for d in drugs] or None, "score": task.score or None,
        "age": int(age) if age else None,
    }


def _agrees(key: str, labeled: object, entities: dict[str, object]) -> bool:
    """Whether the entity read agrees with the label. A day labeled where a range was read ("daqui a duas
    semanas" is that week, whose slots are offered) agrees when the range holds it."""
    read, span = entities.get(key), entities["date_range"]
    if key == "date" and read is None and isinstance(labeled, str) and isinstance(span, tuple):
        return span[0] <= labeled <= span[1]
    return _normal(key, read) == _normal(key, labeled)


def _normal(key: str, value: object) -> object:
    if key == "drugs" and isinstance(value, list):
        return sorted(value)
    return value


def _generic(name: str) -> str:
    return drug_names().generic(name) or name
