"""The specialist council: one rule-based agent per offered specialty plus general practice, run in
parallel, and the consensus judge that turns their proposals into one recommendation.

Each agent reads the same evidence (evidence.py: the cues of specialist_cues.py, weighed, and the
urgency of urgency.py) and turns it into a vote.

Votes. A specialist votes for its own specialty when that evidence is the strongest (ties included),
otherwise it refers the case to the side with the strongest evidence (general practice on a tie among
others), with its confidence scaled by REFERRAL_SCALE. The general-practice agent votes for a specialty
only when its evidence is clearly dominant (at least DOMINANT_MIN and twice the runner-up), otherwise
for general practice. Nothing much found (below WEAK) gives general practice at WEAK_CONFIDENCE.
Confidence = 0.3 + 0.7 · strength · √margin, strength = s / (s + 1.5), margin = (s - runner-up) / s: a
clear single-system complaint reaches about 0.8, a vague or spread one stays under 0.7. The square root
keeps a complaint that mentions a second system in passing (varicose veins that ache: 2.5 to 1) above
the bar, as public symptom descriptions showed (tests/eval/triage_public.json).
"""

import asyncio
import logging
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Protocol

from orchestrator.consult.evidence import Evidence, read_evidence
from orchestrator.consult.history import History
from orchestrator.consult.specialist_cues import GENERAL
from orchestrator.context import RequestContext
from orchestrator.gather import gather
from runtime.specialties import SPECIALTIES

log = logging.getLogger("council")

LOW_CONFIDENCE = 0.70
WEAK = 2.0  # below this, no side has real evidence
WEAK_CONFIDENCE = 0.35
SPREAD_CONFIDENCE = 0.5  # general practice's own vote when evidence is spread over several sides
DOMINANT_MIN = 3.0
REFERRAL_SCALE = 0.9


@dataclass(frozen=True)
class Case:
    text: str  # all the patient's consult messages, joined
    history: History


@dataclass(frozen=True)
class Proposal:
    agent: str
    specialty: str
    urgency: int  # 1 routine, 2 within a week, 3 within 24 to 48 h, 4 emergency now
    confidence: float  # 0 to 1
    rationale: str  # English, PHI-free: cue labels and numbers only, never the patient's words


@dataclass(frozen=True)
class Consensus:
    specialty: str
    urgency: int
    confidence: float
    low_confidence: bool
    proposals: tuple[Proposal, ...]


class Agent(Protocol):
    name: str

    def assess(self, case: Case) -> Proposal: ...


def _confidence(score: float, runner_up: float) -> float:
    if score <= 0:
        return WEAK_CONFIDENCE
    strength = score / (score + 1.5)
    margin = ((score - runner_up) / score) ** 0.5
    return round(0.3 + 0.7 * strength * margin, 3)


def _urgency_note(evidence: Evidence) -> str:
    why = "; ".join(evidence.urgency_reasons) or "no warning signs"
    return f"urgency {evidence.urgency} ({why})"


# --- agents --------------------------------------------------------------------------------------------


class SpecialistAgent:
    """Votes for its own specialty when that evidence is strongest, otherwise refers (less sure)."""

    def __init__(self, name: str, offered: Iterable[str]) -> None:
        self.name = name
        self.offered = frozenset(offered)

    def assess(self, case: Case) -> Proposal:
        evidence = read_evidence(case.text, case.history)
        ranked = evidence.ranked()
        own = evidence.scores[self.name]
        others = [(side, score) for side, score in ranked if side != self.name]
        best_other, best_score = others[0]
        if ranked[0][1] < WEAK:
            return self._proposal(GENERAL, WEAK_CONFIDENCE, evidence, "little evidence for any specialty")
        if own >= best_score:
            confidence = _confidence(own, best_score)
            return self._proposal(self.name, confidence, evidence,
                                  f"{evidence.summary(self.name)} vs {evidence.summary(best_other)}")
        tied = others[1][1] == best_score
        target = GENERAL if tied or (best_other != GENERAL and best_other not in self.offered) else best_other
        runner_up = max(own, others[1][1])
        confidence = round(REFERRAL_SCALE * _confidence(best_score, runner_up), 3)
        why = f"refers: {evidence.summary(best_other)} outweighs {evidence.summary(self.name)}"
        return self._proposal(target, confidence, evidence, why)

    def _proposal(self, specialty: str, confidence: float, evidence: Evidence, why: str) -> Proposal:
        return Proposal(self.name, specialty, evidence.urgency, confidence,
                        f"{why}; votes {specialty}; {_urgency_note(evidence)}")


class GeneralPracticeAgent:
    """Votes for a specialty only when its evidence clearly dominates; otherwise general practice."""

    name = GENERAL

    def __init__(self, offered: Iterable[str]) -> None:
        self.offered = frozenset(offered)

    def assess(self, case: Case) -> Proposal:
        evidence = read_evidence(case.text, case.history)
        (top, score), (second, runner_up) = evidence.ranked()[:2]
        if score < WEAK:
            return self._proposal(GENERAL, WEAK_CONFIDENCE, evidence, "little evidence for any specialty")
        if top == GENERAL:
            why = f"systemic complaint: {evidence.summary(GENERAL)} vs {evidence.summary(second)}"
            return self._proposal(GENERAL, _confidence(score, runner_up), evidence, why)
        if top in self.offered and score >= DOMINANT_MIN and score >= 2 * runner_up:
            return self._proposal(top, _confidence(score, runner_up), evidence,
                                  f"{evidence.summary(top)} dominates {evidence.summary(second)}")
        return self._proposal(GENERAL, SPREAD_CONFIDENCE, evidence,
                              f"no clear lead: {evidence.summary(top)} vs {evidence.summary(second)}")

    def _proposal(self, specialty: str, confidence: float, evidence: Evidence, why: str) -> Proposal:
        return Proposal(self.name, specialty, evidence.urgency, confidence,
                        f"{why}; votes {specialty}; {_urgency_note(evidence)}")


def default_agents(offered: Iterable[str]) -> list[Agent]:
    """One agent per offered specialty (in SPECIALTIES order), then general practice."""
    wanted = set(offered)
    names = [name for name in SPECIALTIES if name in wanted]
    return [*(SpecialistAgent(name, names) for name in names), GeneralPracticeAgent(names)]


# --- convening and judging -----------------------------------------------------------------------------


async def convene(ctx: RequestContext, agents: Sequence[Agent], case: Case, *, concurrency: int = 4,
                  timeout_s: float = 1.0) -> list[Proposal]:
    """Every agent's proposal, in agent order; an agent that fails or overruns its time (at most
    `timeout_s`, never past the turn's deadline) is left out.

    Agents run in worker threads (they are plain functions), at most `concurrency` at once. A thread
    cannot be stopped, so an agent that overruns finishes in the background and is ignored.
    """

    async def run(agent: Agent) -> Proposal | None:
        try:
            async with asyncio.timeout(ctx.call_timeout(timeout_s)):
                return await asyncio.to_thread(agent.assess, case)
        except Exception as err:
            log.warning("council agent left out", extra={"agent": agent.name, "error": type(err).__name__})
            return None

    proposals = await gather(concurrency, [partial(run, agent) for agent in agents])
    return [proposal for proposal in proposals if proposal is not None]


def judge(proposals: Sequence[Proposal]) -> Consensus:
    """The council's consensus, by these rules exactly:

    - specialty: plurality vote over the proposals' specialties; a tie for the most votes gives
      "general_practice";
    - urgency: the confidence-weighted mean of all proposals' urgencies (the plain mean when every
      confidence is 0), rounded half up and clamped to 1 to 4;
    - confidence: the plain mean of all proposals' confidences; below 0.70 the consensus is
      low_confidence and its specialty "general_practice" whatever the vote;
    - no proposals: general_practice, urgency 2, confidence 0, low_confidence.
    """
    if not proposals:
        return Consensus(GENERAL, 2, 0.0, True, ())
    votes = Counter(p.specialty for p in proposals)
    most = max(votes.values())
    leaders = [specialty for specialty, count in votes.items() if count == most]
    specialty = leaders[0] if len(leaders) == 1 else GENERAL
    # Exact decimals of the confidences as written (0.6 is 3/5), so a mean of 2.5 rounds up and a mean
    # confidence of 0.70 is not "below 0.70" because of binary floating point.
    weights = [Fraction(str(p.confidence)) for p in proposals]
    total = sum(weights)
    if total > 0:
        mean_urgency = sum(w * p.urgency for w, p in zip(weights, proposals, strict=True)) / total
    else:
        mean_urgency = Fraction(sum(p.urgency for p in proposals), len(proposals))
    urgency = min(4, max(1, math.floor(mean_urgency + Fraction(1, 2))))
    confidence = total / len(proposals)
    low = confidence < Fraction(str(LOW_CONFIDENCE))
    return Consensus(GENERAL if low else specialty, urgency, float(confidence), low, tuple(proposals))
