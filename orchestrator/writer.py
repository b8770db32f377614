"""Model routing: which model may phrase an answer.

PHI decides: a payload that holds PHI (or that the detector could not check) goes only to the
local model on this machine; a PHI-free one may go to the cloud model when one is configured,
falling back to the local model, and when no model can answer, the caller keeps the
deterministic answer (degraded mode). The cloud client's own egress guard checks the exact
payload once more, with the session's patient names, right before anything is sent.
"""

import contextvars
import json
import logging
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from opentelemetry import trace

from orchestrator.context import RequestContext
from orchestrator.models import Completion, ModelError
from orchestrator.models.cloud import CloudModel, EgressRefused
from orchestrator.models.local import LocalModel
from orchestrator.phi import PhiDetector
from runtime.errors import ResourceExhausted

log = logging.getLogger("writer")

DETECTOR_FAILED = "UNCHECKED"

# The patient names of the turn being written, for the egress guard (set per call).
_patient_names: contextvars.ContextVar[tuple[str, ...]] = contextvars.ContextVar("patient_names", default=())


@dataclass(frozen=True)
class PhiDecision:
    found: bool
    categories: tuple[str, ...]

    def __or__(self, other: "PhiDecision") -> "PhiDecision":
        return PhiDecision(self.found or other.found, tuple(sorted({*self.categories, *other.categories})))


NO_PHI = PhiDecision(False, ())


@dataclass(frozen=True)
class Draft:
    text: str
    route: str  # "local" | "cloud"


def detect(detector: PhiDetector, text: str, patient_names: Iterable[str]) -> PhiDecision:
    """PHI in `text`; a detector failure counts as PHI."""
    try:
        result = detector.detect(text, patient_names=tuple(n for n in patient_names if n))
    except Exception:
        log.exception("PHI detector failed; treating the text as PHI")
        return PhiDecision(True, (DETECTOR_FAILED,))
    return PhiDecision(result.found, tuple(result.categories))


def egress_guard(detector: PhiDetector) -> Callable[[str], Sequence[str]]:
    """The cloud client's guard: PHI categories in the exact payload, with the turn's names."""
    return lambda payload: detect(detector, payload, _patient_names.get()).categories


class Writer:
    def __init__(self, detector: PhiDetector, local: LocalModel | None, cloud: CloudModel | None, *,
                 rephrase_max_chars: int) -> None:
        self.detector = detector
        self.local = local
        self.cloud = cloud
        self.rephrase_max_chars = rephrase_max_chars

    def detect(self, text: str, patient_names: Iterable[str]) -> PhiDecision:
        return detect(self.detector, text, patient_names)

    def redact(self, text: str, patient_names: Iterable[str]) -> str:
        try:
            return self.detector.redact(text, self.detector.detect(
                text, patient_names=tuple(n for n in patient_names if n)))
        except Exception:
            log.exception("PHI detector failed; the message is not recorded")
            return f"[{DETECTOR_FAILED}]"

    def payload_phi(self, messages: list[dict], patient_names: Iterable[str]) -> PhiDecision:
        return self.detect(json.dumps(messages, ensure_ascii=False), patient_names)

    async def draft(self, ctx: RequestContext, messages: list[dict], phi: PhiDecision,
                    patient_names: Iterable[str], *, max_tokens: int, sentences: int | None = None
                    ) -> Draft | None:
        """A model's text, or None. With `sentences`, a long answer is cut to that many complete
        sentences (a cut-off one is dropped); without it, a truncated text is refused."""
        span, called = trace.get_current_span(), []
        if not phi.found and self.cloud is not None:
            called.append("cloud")
            span.set_attribute("healthmesh.models_called", called)
            token = _patient_names.set(tuple(patient_names))
            try:
                completion = await self.cloud.chat(ctx, messages, max_tokens=max_tokens)
                return _usable(completion, "cloud", sentences)
            except EgressRefused as refused:
                log.warning("egress refused; answering locally", extra={"phi_categories": refused.categories})
            except ModelError as err:
                log.warning("cloud model unavailable; answering locally", extra={"error": type(err).__name__})
            finally:
                _patient_names.reset(token)
        if self.local is None:
            return None
        called.append("local")
        span.set_attribute("healthmesh.models_called", called)
        try:
            completion = await self.local.chat(ctx, messages, max_tokens=max_tokens)
        except (ModelError, ResourceExhausted) as err:
            log.warning("local model unavailable; deterministic answer", extra={"error": type(err).__name__})
            return None
        return _usable(completion, "local", sentences)


def _usable(completion: Completion, route: str, sentences: int | None) -> Draft | None:
    text = completion.text.strip()
    if _degenerate(text):
        return None
    if sentences is not None:
        complete = [p for p in re.split(r"(?<=[.!?])\s+", text) if p.endswith((".", "!", "?"))]
        text = " ".join(complete[:sentences])
    elif completion.truncated:
        return None  # a cut-off rephrasing is not an answer
    return Draft(text, route) if text else None


def _degenerate(text: str) -> bool:
    """Small models loop ("o que o que o que…"): most word triples repeat."""
    words = text.lower().split()
    triples = list(zip(words, words[1:], words[2:], strict=False))
    return len(triples) >= 12 and len(set(triples)) < len(triples) / 2
