"""Escalation to a human: when the orchestrator opens a case on the escalation service, what the case
carries, and what the patient is told.

A case is opened for
- a consult whose council stayed low-confidence after two rounds of history questions;
- a major or contraindicated interaction between medicines the patient says they take;
- a red flag raised while the consult was taking the history (the emergency answer stays first and
  whole: the case is opened as well, never instead);
- a turn whose every upstream call failed after retries, or whose safety check could not run,
  leaving the patient without the answer;
- a patient asking for a person ("I want to talk to a person", "quero falar com um atendente").

One case per session and reason, the service's idempotency key: a retried call or a request made again
finds the case already opened. The patient is told plainly that a person will follow up, how, and the
case's reference; when no case could be opened, that too, and what to do instead. A case carries the
session's PHI-redacted summary (the consult's SOAP lines redacted the same way) and, when the session
names a patient, her identity so the person can call back; none of it goes to logs, spans or metrics.
"""

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass

from opentelemetry import trace

from healthmesh.v1 import clinic_pb2, common_pb2, tools_pb2
from healthmesh.v1 import escalation_pb2 as pb
from orchestrator.answering.answer import Answer
from orchestrator.consult import flow
from orchestrator.context import RequestContext
from orchestrator.planning.planner import Kind, Plan
from orchestrator.planning.steps import TOOLS, Action, StepResult, StepStatus
from orchestrator.sessions import Session
from orchestrator.upstreams import Mesh
from runtime.text.fold import fold_latin

tracer = trace.get_tracer("healthmesh.orchestrator")
log = logging.getLogger("orchestrator.escalation")

Redact = Callable[[str, list[str]], str]  # (text, the patient's names) → text with PHI replaced

# Asked for a person, in either language (matched on the folded message: lower case, no accents).
_PERSON = re.compile(
    r"\b(?:talk|speak|chat)\s+(?:to|with)\s+(?:a\s+|an\s+|some\s+)?(?:real\s+|actual\s+|live\s+)?"
    r"(?:person|human(?: being)?|someone|somebody|agent|operator|attendant|representative|staff)\b"
    r"|\b(?:want|need|get me|give me|connect me (?:to|with)|transfer me to)\s+(?:a\s+|an\s+)?"
    r"(?:real\s+|actual\s+|live\s+)?(?:person|human|agent|operator|attendant)\b"
    r"|\bfalar\s+com\s+(?:uma?\s+|o\s+|a\s+)?(?:pessoa|atendente|humano|humana|ser humano|alguem"
    r"|operador|operadora|funcionari[oa])\b"
    r"|\b(?:quero|preciso de|gostaria de)\s+(?:uma?\s+)?(?:atendente|humano|pessoa)\b"
    r"|\batendimento humano\b")
# The patient says she takes the medicines (not "can I take …?", a question about taking one).
_OWN_MEDICINES = re.compile(
    r"(?<!can )(?<!could )(?<!should )(?<!may )\bi(?:'m| am)?\s+(?:take|taking|on|using|use)\b"
    r"|\bim\s+(?:taking|on|using)\b|\bi(?:'ve| have) been (?:taking|on)\b"
    r"|\bmy (?:medications?|medicines?|meds|pills|prescriptions?)\b"
    r"|\b(?:tomo|uso|faco uso)\b|\b(?:estou|to|tou|ando) (?:tomando|usando)\b"
    r"|\bmeus? (?:remedios?|medicamentos?)\b|\bminhas? medicac(?:ao|oes)\b")
SEVERE = (tools_pb2.INTERACTION_SEVERITY_MAJOR, tools_pb2.INTERACTION_SEVERITY_CONTRAINDICATED)
# A consult's urgency (1 routine … 4 emergency) is a case's urgency of the same number.
URGENCY = {1: pb.CASE_URGENCY_ROUTINE, 2: pb.CASE_URGENCY_SOON, 3: pb.CASE_URGENCY_URGENT,
           4: pb.CASE_URGENCY_EMERGENCY}

TEXT = {
    "en": {
        "opened": "A person from our care team will follow up: I have opened case {case} for them with a "
                  "summary of this conversation, and they will contact you using the details in your "
                  "clinic record. You can also quote {case} when you call the clinic.",
        "opened_anonymous": "A person from our care team will follow up: I have opened case {case} for them "
                            "with a summary of this conversation. As I do not know who you are, quote {case} "
                            "when you call the clinic.",
        "failed": "I could not pass this to a person right now (the case service did not answer). Please "
                  "call the clinic directly.",
        "emergency_opened": "Our care team has also been told (case {case}).",
        "emergency_failed": "I could not alert our care team as well: follow the instructions above.",
    },
    "pt": {
        "opened": "Uma pessoa da nossa equipe de atendimento vai dar continuidade: abri o caso {case} para "
                  "ela com um resumo desta conversa, e ela vai entrar em contato pelos dados do seu cadastro "
                  "na clínica. Você também pode citar {case} ao ligar para a clínica.",
        "opened_anonymous": "Uma pessoa da nossa equipe de atendimento vai dar continuidade: abri o caso "
                            "{case} para ela com um resumo desta conversa. Como não sei quem você é, cite "
                            "{case} ao ligar para a clínica.",
        "failed": "Não consegui passar isto para uma pessoa agora (o serviço de casos não respondeu). "
                  "Ligue diretamente para a clínica.",
        "emergency_opened": "Nossa equipe de atendimento também foi avisada (caso {case}).",
        "emergency_failed": "Não consegui avisar também a nossa equipe: siga as instruções acima.",
    },
}


def asks_for_person(message: str) -> bool:
    return bool(_PERSON.search(fold_latin(message)))


def states_own_medicines(message: str) -> bool:
    return bool(_OWN_MEDICINES.search(fold_latin(message)))


@dataclass(frozen=True)
class Trigger:
    """A case to open: why, how soon, and what the person needs to know."""

    reason: int
    urgency: int
    details: tuple[str, ...] = ()
    specialty: str = ""
    clinic_id: str = ""


def _say(lang: str, key: str, **values: str) -> str:
    return TEXT.get(lang, TEXT["en"])[key].format(**values)


class Escalation:
    """Opens cases through the mesh's escalation upstream; `redact` is the PHI detector's redaction."""

    def __init__(self, mesh: Mesh, redact: Redact) -> None:
        self.mesh = mesh
        self.redact = redact

    async def open(self, ctx: RequestContext, session: Session, message: str, trigger: Trigger,
                   lang: str) -> str | None:
        """The case's id (new or already opened for this session and reason); None when it could not be
        opened, which the caller says to the patient instead."""
        names = [session.patient_name]
        patient = common_pb2.PatientIdentity(full_name=session.patient_name, cpf=session.patient_cpf) \
            if session.patient_cpf else None
        reason = pb.EscalationReason.Name(trigger.reason)
        handoff: clinic_pb2.HandoffPacket | None = None
        if session.consult is not None and session.consult.texts:
            handoff = flow.soap(session.consult, f"Escalated to a person: {reason}", lang,
                                lambda text: self.redact(text, names))
        request = pb.CreateCaseRequest(
            session_id=session.session_id, reason=trigger.reason, urgency=trigger.urgency,
            suggested_specialty=trigger.specialty, suggested_clinic_id=trigger.clinic_id,
            packet=pb.CasePacket(summary=self.redact(message, names), details=trigger.details,
                                 handoff=handoff, patient=patient, language=lang, trace_id=ctx.trace_id))
        with tracer.start_as_current_span("escalate") as span:
            span.set_attribute("healthmesh.escalation.reason", reason)
            reply = await self.mesh.create_case(ctx, request)
            span.set_attribute("healthmesh.escalation.opened", reply is not None)
            if reply is not None:
                span.set_attribute("healthmesh.escalation.created", reply.created)
        if reply is None:
            log.warning("escalation case not opened", extra={"reason": reason})
            return None
        return reply.escalation_case.case_id

    async def _tell(self, ctx: RequestContext, session: Session, message: str, trigger: Trigger,
                    lang: str) -> tuple[str, str | None]:
        """The sentence for the patient, and the case id it names (None: not opened)."""
        case = await self.open(ctx, session, message, trigger, lang)
        if case is None:
            return _say(lang, "failed"), None
        return _say(lang, "opened" if session.patient_cpf else "opened_anonymous", case=case), case

    async def on_request(self, ctx: RequestContext, session: Session, message: str,
                         lang: str) -> Answer | None:
        """The answer to a patient asking for a person; None when the message asks no such thing."""
        if not asks_for_person(message):
            return None
        consult = session.consult
        trigger = Trigger(pb.ESCALATION_REASON_PATIENT_REQUEST,
                          URGENCY.get(consult.urgency, pb.CASE_URGENCY_ROUTINE) if consult else
                          pb.CASE_URGENCY_ROUTINE, specialty=session.specialty or "")
        text, case = await self._tell(ctx, session, message, trigger, lang)
        return Answer(text, "answered", facts=[case] if case else [])

    async def on_emergency(self, ctx: RequestContext, session: Session, message: str, answer: Answer,
                           lang: str) -> None:
        """A red flag during the consult's history taking: the case too, told after the emergency text."""
        if answer.disposition != "emergency" or session.consult is None or session.consult.stage != "history":
            return
        trigger = Trigger(pb.ESCALATION_REASON_RED_FLAG_IN_HISTORY, pb.CASE_URGENCY_EMERGENCY,
                          details=("Red flag raised during history taking; the patient was told to call "
                                   "emergency services.",))
        case = await self.open(ctx, session, message, trigger, lang)
        key = "emergency_failed" if case is None else "emergency_opened"
        answer.text += "\n" + _say(lang, key, case=case or "")

    async def on_unverified(self, ctx: RequestContext, session: Session, message: str, lang: str) -> str:
        """The safety check could not run after its retries, so the turn fails closed with no answer: a
        case as for any upstream failure, and the sentence that tells the patient."""
        trigger = Trigger(pb.ESCALATION_REASON_UPSTREAM_FAILURE, pb.CASE_URGENCY_SOON,
                          details=("verifier: the safety check was unavailable after retries; the patient "
                                   "got no answer",), specialty=session.specialty or "")
        return (await self._tell(ctx, session, message, trigger, lang))[0]

    async def after_route(self, ctx: RequestContext, session: Session, message: str, plan: Plan,
                          results: list[StepResult], answer: Answer, lang: str) -> None:
        """A case for what the turn found, told at the end of its answer (which the gate then verifies)."""
        trigger = _low_confidence(session, plan) or _severe_interaction(message, results) \
            or _upstream_failure(plan, results)
        if trigger is None:
            return
        text, case = await self._tell(ctx, session, message, trigger, lang)
        answer.text += "\n" + text
        if case is not None:
            answer.facts.append(case)


def _low_confidence(session: Session, plan: Plan) -> Trigger | None:
    """The council ran this turn and stayed unsure after the history questions."""
    state = session.consult
    if plan.kind != Kind.CONSULT or state is None or state.stage != "recommended" \
            or not state.low_confidence or state.rounds < flow.MAX_ROUNDS:
        return None
    votes = [f"{p['agent']} → {p['specialty']} ({p['confidence']:.2f})" for p in state.proposals]
    summary = f"Council confidence {state.confidence:.2f} after {state.rounds} rounds of questions"
    return Trigger(pb.ESCALATION_REASON_LOW_CONFIDENCE_CONSULT,
                   URGENCY.get(state.urgency, pb.CASE_URGENCY_SOON), details=(summary, *votes),
                   specialty=state.specialty)


def _severe_interaction(message: str, results: list[StepResult]) -> Trigger | None:
    found = [i for r in results if r.step.action == Action.CHECK_INTERACTIONS and r.status == StepStatus.OK
             for i in r.reply.interactions if i.severity in SEVERE]
    if not found or not states_own_medicines(message):
        return None
    details = tuple(f"{i.drug_a} + {i.drug_b}: {tools_pb2.InteractionSeverity.Name(i.severity)}: "
                    f"{i.management}" for i in found)
    return Trigger(pb.ESCALATION_REASON_SEVERE_INTERACTION, pb.CASE_URGENCY_URGENT, details=details)


def _upstream_failure(plan: Plan, results: list[StepResult]) -> Trigger | None:
    """Every call the turn needed failed after its retries: the patient has no answer."""
    if not results or not all(r.status.failed_upstream for r in results):
        return None
    details = tuple(f"{r.step.upstream}: {r.step.action.value} {r.status.value} after {r.attempts} attempts"
                    for r in results)
    upstreams = {r.step.upstream for r in results} - {TOOLS}
    return Trigger(pb.ESCALATION_REASON_UPSTREAM_FAILURE, pb.CASE_URGENCY_SOON, details=details,
                   specialty=plan.specialty or "", clinic_id=upstreams.pop() if len(upstreams) == 1 else "")
