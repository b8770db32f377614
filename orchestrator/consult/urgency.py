"""Urgency, by the same rules for every agent so that it does not depend on who votes: 2 by
default; 3 for severity ≥ 8, sudden onset with severity ≥ 6, or a warning sign (each with its
source below); 4 for a few emergency combinations the red-flag screen should already have caught;
1 for a long-standing complaint (≥ 4 weeks, severity ≤ 5 or unknown; or ≥ 2 weeks with severity
≤ 3) without warnings.
"""

import re
from dataclasses import dataclass

from orchestrator.consult.history import History
from orchestrator.consult.onset import onset_days
from orchestrator.consult.specialist_cues import CANNOT_BEAR_WEIGHT, EVOLVING, found


@dataclass(frozen=True)
class _Warning:
    label: str  # English, shown in rationales
    level: int
    needs: tuple[str, ...]  # cue labels that must all have been found
    pattern: re.Pattern[str] | None  # and, when set, this must match (not negated)
    source: str  # where the sign comes from


def _warning(label: str, level: int, needs: tuple[str, ...], fragments: tuple[str, ...],
             source: str) -> _Warning:
    pattern = re.compile(r"(?<![\w'])(?:" + "|".join(fragments) + r")(?![\w'])") if fragments else None
    return _Warning(label, level, needs, pattern, source)


WARNINGS: tuple[_Warning, ...] = (
    _warning("chest pain with heart attack warning signs", 4, ("chest pain",),
             (r"(?:spread\w*|radiat\w*|moving|travel\w*)\s+(?:\w+\s+){0,2}(?:arm|jaw|neck|back)",
              r"(?:cold\s+)?sweat\w*", r"suando", r"suor\s+frio", r"sudorese",
              r"(?:irradia\w*|espalha\w*|vai)\s+(?:\w+\s+){0,2}(?:braco|mandibula|queixo|pescoco|costas)"),
             "AHA, Warning Signs of a Heart Attack"),
    _warning("cannot breathe", 4, (),
             (r"(?:can't|cannot|cant|can\s+not)\s+breathe", r"nao\s+consigo\s+respirar"),
             "AHA, Warning Signs of a Heart Attack (shortness of breath)"),
    _warning("chest pain on exertion", 3, ("chest pain", "exertion"), (), "AHA, Angina (Chest Pain)"),
    _warning("fainting", 3, ("fainting",), (), "AHA, Syncope (Fainting)"),
    _warning("palpitations with dizziness", 3, ("palpitations", "dizziness"), (),
             "AHA, Symptoms of Arrhythmia"),
    _warning("leg swelling with breathlessness", 3, ("swollen legs", "breathlessness"), (),
             "AHA, Warning Signs of Heart Failure"),
    # Level 2: not urgent, but not to be waved through as "long-standing and mild" either.
    _warning("non-healing sore", 2, ("non-healing sore",), (), "AAD, Skin cancer: a sore that does not heal"),
    _warning("changing or bleeding mole", 3, ("mole",), (EVOLVING,),
             "AAD, Melanoma: signs and symptoms (ABCDEs, E for evolving)"),
    _warning("cannot bear weight", 3, (), (CANNOT_BEAR_WEIGHT,),
             "Ottawa ankle and knee rules (Stiell et al., JAMA 1993): inability to bear weight"),
    _warning("deformity after injury", 3, (),
             (r"deform\w*", r"out\s+of\s+place", r"bone\s+(?:sticking|poking)",
              r"osso\s+(?:pra\s+fora|saindo)", r"torto\s+depois"),
             "AAOS OrthoInfo, Fractures (Broken Bones): deformity"),
    _warning("fever with spreading hot redness", 3, ("fever",),
             (r"spread\w*\s+(?:red\w*|rash)", r"red\w*\s+(?:\w+\s+){0,2}spread\w*", r"red\s+(?:and\s+)?hot",
              r"hot\s+(?:and\s+)?red", r"quente\s+e\s+vermelh\w+", r"vermelh\w+\s+e\s+quente",
              r"(?:vermelh\w+|mancha)\s+(?:\w+\s+){0,2}(?:espalhando|aumentando|quente)"),
             "NHS, Cellulitis: urgent advice for hot, red, swollen skin with a high temperature"),
    _warning("rapid worsening", 3, (),
             (r"(?:getting|got|gets)\s+(?:much\s+)?worse\s+(?:fast|quickly|rapidly|by\s+the\s+hour)",
              r"worse\s+and\s+worse", r"spreading\s+(?:fast|quickly|rapidly)",
              r"rapidly\s+(?:worse|spreading)",
              r"piorando\s+(?:muito\s+)?(?:rapido|depressa)", r"cada\s+vez\s+pior", r"espalhando\s+rapido",
              r"piorou\s+muito"),
             "NHS condition pages: urgent advice when symptoms get worse quickly"),
)
_SUDDEN = re.compile(r"(?<!\w)(?:sudden(?:ly)?|all\s+of\s+a\s+sudden|out\s+of\s+nowhere|de\s+repente"
                     r"|subit\w*|do\s+nada)(?!\w)")
# A hypertensive crisis reading, 180/120 or higher (AHA, Understanding Blood Pressure Readings): mm Hg
# ("180/110"), or the Brazilian cm Hg habit next to "pressão" ("18 por 11").
_BP_MM = re.compile(r"(?<![\d/])(?P<s>[12]\d\d)\s*(?:/|x|over|por)\s*(?P<d>\d{2,3})(?![\d/])")
_BP_CM = re.compile(r"pressao\s+(?:\w+\s+){0,3}?(?P<s>1?\d)\s*(?:/|x|por)\s*(?P<d>\d{1,2})(?![\d/])")


def urgency_of(folded: str, language: str, history: History, labels: set[str]) -> tuple[int, tuple[str, ...]]:
    level, reasons = 2, []

    def raise_to(value: int, reason: str) -> None:
        nonlocal level
        level = max(level, value)
        reasons.append(reason)

    for warning in WARNINGS:
        if all(need in labels for need in warning.needs) and (
                warning.pattern is None or found(warning.pattern, folded, language)):
            raise_to(warning.level, warning.label)
    if _very_high_pressure(folded):
        raise_to(3, "blood pressure reading at or above 180/120")
    severity = history.severity
    days = onset_days(history.onset)
    if severity is not None and severity >= 8:
        raise_to(3, f"severity {severity}/10")
    elif severity is not None and severity >= 6 and (
            found(_SUDDEN, folded, language) or (days is not None and days <= 1)):
        raise_to(3, f"sudden onset, severity {severity}/10")
    if not reasons and days is not None and (
            (days >= 28 and (severity is None or severity <= 5)) or (days >= 14 and severity is not None
                                                                      and severity <= 3)):
        level = 1
        reasons.append("long-standing and mild")
    return level, tuple(reasons)


def _very_high_pressure(folded: str) -> bool:
    readings = [(int(m["s"]), int(m["d"])) for m in _BP_MM.finditer(folded)]
    readings += [(int(m["s"]) * 10, int(m["d"]) * 10) for m in _BP_CM.finditer(folded)]
    return any(systolic >= 180 or diastolic >= 120 for systolic, diastolic in readings)
