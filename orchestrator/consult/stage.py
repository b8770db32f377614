"""Stage 4 for a symptom consult: the next history question, or the council's recommendation;
a booking made on that recommendation carries the consult's SOAP handoff packet."""

from opentelemetry import trace

from orchestrator.answering.answer import Answer
from orchestrator.consult import flow
from orchestrator.context import RequestContext
from orchestrator.planning.planner import Directory, Kind, Plan
from orchestrator.routing import steps_context
from orchestrator.sessions import ConsultState, Session, SlotRef

tracer = trace.get_tracer("healthmesh.orchestrator")


async def answer_consult(ctx: RequestContext, plan: Plan, session: Session, message: str, lang: str,
                         directory: Directory) -> Answer:
    state = session.consult
    if state is None or state.stage != "history":
        state = session.consult = ConsultState()
    state.texts.append(message)
    text = flow.questions(state, lang)
    if text is not None:
        return Answer(text, "needs_info")
    with tracer.start_as_current_span("council") as span:
        offered = sorted({c.specialty for c in directory.clinics.values()})
        await flow.assess(steps_context(ctx), state, offered)
        span.set_attribute("healthmesh.specialty", state.specialty)
        span.set_attribute("healthmesh.urgency", state.urgency)
        span.set_attribute("healthmesh.confidence", state.confidence)
        span.set_attribute("healthmesh.council_size", len(state.proposals))
    text, offer = flow.recommendation(state, lang)
    if offer:
        plan.specialty, plan.pending = state.specialty, "consult_slots"
    return Answer(text, "answered")


def attach_handoff(plan: Plan, session: Session, lang: str, directory: Directory) -> bool:
    """Puts the SOAP packet on a booking made on the consult's recommendation."""
    state = session.consult
    if plan.kind != Kind.BOOK or state is None or state.stage != "recommended" \
            or plan.specialty != state.specialty:
        return False
    step = plan.steps[0]
    slot = SlotRef(step.upstream, step.request.doctor, step.request.date, step.request.time)
    step.request.handoff.CopyFrom(
        flow.handoff_packet(state, slot, directory.clinics[step.upstream].name, lang))
    return True
