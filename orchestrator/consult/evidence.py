"""The evidence in a case, read once and shared (cached) because every agent reads the same case:
each side's score, the sum of the weights of its cues found (a cue counts once), and the urgency."""

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from orchestrator.consult.history import History
from orchestrator.consult.negation import language_of
from orchestrator.consult.specialist_cues import CUES, SIDES, found
from orchestrator.consult.urgency import urgency_of
from runtime.text.fold import fold_latin as fold

COMPANIONS_MIN = 4.0  # cues that need company count without it only when together they weigh this much


@dataclass(frozen=True)
class Evidence:
    scores: Mapping[str, float]  # per side
    cues: Mapping[str, tuple[str, ...]]  # labels found per side
    urgency: int
    urgency_reasons: tuple[str, ...]

    def ranked(self) -> list[tuple[str, float]]:
        """Sides by score, strongest first; equal scores in SIDES order."""
        return sorted(((side, self.scores[side]) for side in SIDES), key=lambda item: -item[1])

    def summary(self, side: str) -> str:
        labels = ", ".join(self.cues[side]) or "no cues"
        return f"{side} {self.scores[side]:.1f} ({labels})"


@lru_cache(maxsize=256)
def read_evidence(text: str, history: History) -> Evidence:
    """The evidence in a case; shared (and cached) because every agent reads the same case."""
    folded = fold(text)
    language = language_of(text, folded)
    scores: dict[str, float] = {}
    cues: dict[str, tuple[str, ...]] = {}
    for side in SIDES:
        hits = [cue for cue in CUES[side] if found(cue.pattern, folded, language)]
        if not any(cue.alone for cue in hits) and sum(cue.weight for cue in hits) < COMPANIONS_MIN:
            hits = []
        scores[side] = sum(cue.weight for cue in hits)
        cues[side] = tuple(cue.label for cue in hits)
    labels = {label for found in cues.values() for label in found}
    urgency, reasons = urgency_of(folded, language, history, labels)
    return Evidence(scores, cues, urgency, reasons)
