"""Stages 6 and 7: a model may phrase the answer; the safety gate verifies what is sent.

A model's text is used only when the verifier finds it faithful to what it rephrases or
summarizes; otherwise the deterministic answer is verified and sent, and the verification
notes say why the model's text was dropped. Cited reports, consults, emergencies and blocks
stay verbatim.

Counted (never with text): each phrased turn by the route whose text was sent and whether PHI kept
it local, and each model text by route, origin and outcome.
"""

from dataclasses import replace

from opentelemetry import metrics, trace

from healthmesh.v1 import orchestrator_pb2, verifier_pb2
from orchestrator.answering.answer import Answer, AnswerBuilder
from orchestrator.answering.phrases import say
from orchestrator.context import RequestContext
from orchestrator.events import Emit, stage
from orchestrator.models.prompts import rephrase_messages, summary_messages
from orchestrator.models.writer import Draft, PhiDecision, Writer
from orchestrator.planning.planner import Kind, Plan
from orchestrator.routing import ANSWER_RESERVE_S
from orchestrator.sessions import Session
from orchestrator.upstreams import Mesh

tracer = trace.get_tracer("healthmesh.orchestrator")
_meter = metrics.get_meter("healthmesh.model")
_routes = _meter.create_counter(
    "healthmesh.model.routes", unit="{turn}",
    description="phrased turns by the model whose text was sent (none: the deterministic answer) and "
                "phi_local (true: PHI kept every model call of the turn on this machine)")
_texts = _meter.create_counter(
    "healthmesh.model.texts", unit="{text}",
    description="model texts by route, origin (rephrasing, summary) and outcome: accepted, rejected "
                "(the verifier found it unfaithful), budget, unavailable, unusable")

GENERAL_MAX_TOKENS = 160
GENERAL_SENTENCES = 3
REPHRASE_MAX_TOKENS = 400
SUMMARY = verifier_pb2.ANSWER_ORIGIN_SUMMARY
REPHRASING = verifier_pb2.ANSWER_ORIGIN_REPHRASING
_ORIGINS = {SUMMARY: "summary", REPHRASING: "rephrasing"}

Verified = tuple[Answer, str, orchestrator_pb2.Verification, PhiDecision]  # answer, route, verdict, PHI


class Phrasing:
    def __init__(self, mesh: Mesh, writer: Writer, answers: AnswerBuilder) -> None:
        self.mesh = mesh
        self.writer = writer
        self.answers = answers

    async def phrase_and_verify(self, ctx: RequestContext, session: Session, message: str, plan: Plan,
                                answer: Answer, lang: str, phi: PhiDecision, emit: Emit) -> Verified:
        writing = self._writing(plan, answer, message, lang)
        dropped: list[str] = []
        local_only = session.phi_seen
        if writing is not None and self.writer.writers(session.phi_seen):
            messages, origin = writing
            payload_phi = self.writer.payload_phi(messages, ctx.patient_names)
            phi = phi | payload_phi
            local_only = session.phi_seen or payload_phi.found
            if self.writer.writers(local_only):
                written = await self._model_text(ctx, session, message, plan, answer, lang, emit, messages,
                                                 origin, local_only)
                if isinstance(written, tuple):
                    _routes.add(1, {"route": written[1], "phi_local": local_only})
                    return (*written, phi)
                dropped = written
        _routes.add(1, {"route": "none", "phi_local": local_only})
        with tracer.start_as_current_span("verify") as span:
            verdict = await self.verify(ctx, message, answer, session, lang)
            span.set_attribute("healthmesh.safe", verdict.safe)
        if verdict.safe:
            verdict.notes.extend(dropped)
        return answer, "none", verdict, phi

    async def _model_text(self, ctx: RequestContext, session: Session, message: str, plan: Plan,
                          answer: Answer, lang: str, emit: Emit, messages: list[dict], origin: int,
                          local_only: bool) -> tuple[Answer, str, orchestrator_pb2.Verification] | list[str]:
        """The model's text with its route and verdict when the verifier finds it faithful, else
        the notes saying why it was dropped."""
        writers = self.writer.writers(local_only)
        await stage(emit, ctx, orchestrator_pb2.STAGE_MODEL, f"writing: {', '.join(writers)}")
        with tracer.start_as_current_span("model") as span:
            span.set_attribute("healthmesh.local_only", local_only)
            draft = await self.writer.draft(ctx.child(reserve=ANSWER_RESERVE_S), messages, local_only,
                                            max_tokens=_max_tokens(plan, answer),
                                            sentences=GENERAL_SENTENCES if origin == SUMMARY else None)
            span.set_attribute("healthmesh.model_route", draft.route if isinstance(draft, Draft) else "none")
        if isinstance(draft, Draft):
            candidate = self._candidate(answer, draft, origin, lang)
            with tracer.start_as_current_span("verify") as span:
                verdict = await self.verify(ctx, message, candidate, session, lang, origin=origin,
                                            reference=answer.text)
                span.set_attribute("healthmesh.safe", verdict.safe)
                span.set_attribute("healthmesh.model_text", True)
                span.set_attribute("healthmesh.rules_broken", sorted({n[:2] for n in verdict.notes}))
            outcome = "accepted" if verdict.safe else "rejected"
            _texts.add(1, {"route": draft.route, "origin": _ORIGINS[origin], "outcome": outcome})
            if verdict.safe:
                await stage(emit, ctx, orchestrator_pb2.STAGE_MODEL, f"accepted: {draft.route}")
                return candidate, draft.route, verdict
            dropped = [f"model text dropped ({draft.route}): {n}" for n in verdict.notes]
        else:
            _texts.add(1, {"route": draft.route, "origin": _ORIGINS[origin], "outcome": draft.reason})
            dropped = [f"model text dropped ({draft.route}): {draft.reason}"]
        trace.get_current_span().set_attribute("healthmesh.model_dropped", dropped)
        await stage(emit, ctx, orchestrator_pb2.STAGE_MODEL,
                    "dropped: " + ("not faithful" if isinstance(draft, Draft) else draft.reason))
        return dropped

    def _writing(self, plan: Plan, answer: Answer, message: str, lang: str) -> tuple[list[dict], int] | None:
        """What a model would be asked to write this turn, if anything: a summary of the passages
        found for a general question, or a rephrasing of a short answer."""
        if plan.kind == Kind.GENERAL:
            if not answer.passages:
                return None
            return summary_messages(message, answer.passages, lang), SUMMARY
        if (plan.kind in (Kind.TOOLS, Kind.CONSULT) or answer.disposition in ("emergency", "blocked")
                or len(answer.text) > self.writer.rephrase_max_chars):
            return None
        return rephrase_messages(answer.text, lang), REPHRASING

    @staticmethod
    def _candidate(answer: Answer, draft: Draft, origin: int, lang: str) -> Answer:
        """The answer with the model's text: a summary keeps the sources and gets the disclaimer,
        and everything it may state (passages, sources, disclaimer) is its evidence."""
        if origin != SUMMARY:
            return replace(answer, text=draft.text)
        tail = [say(lang, "sources"), *(f"[{c.index}] {c.source} — {c.section}" for c in answer.citations),
                say(lang, "disclaimer")]
        return replace(answer, text="\n".join([draft.text, "", *tail]), facts=[*answer.facts, *tail])

    async def verify(self, ctx: RequestContext, message: str, answer: Answer, session: Session, lang: str,
                     *, origin: int = verifier_pb2.ANSWER_ORIGIN_DETERMINISTIC,
                     reference: str = "") -> orchestrator_pb2.Verification:
        return await self.mesh.verify(ctx, query=message, answer=answer.text,
                                      evidence=self.answers.evidence(answer),
                                      patient=(session.patient_name, session.patient_cpf), language=lang,
                                      origin=origin, reference=reference if origin == REPHRASING else "")


def _max_tokens(plan: Plan, answer: Answer) -> int:
    if plan.kind == Kind.GENERAL:
        return GENERAL_MAX_TOKENS
    return min(REPHRASE_MAX_TOKENS, len(answer.text) // 3 + 48)  # ~3 characters a token, some slack
