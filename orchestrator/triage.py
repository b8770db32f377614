"""A high-risk topic's deciding question (from the safety screen) comes before anything else,
and its answer decides: an emergency, or the message that raised it goes on."""

from opentelemetry import trace

from healthmesh.v1 import verifier_pb2
from orchestrator.answering.answer import Answer
from orchestrator.sessions import Session, TriageState
from orchestrator.understanding.understand import yes_or_no

MAX_TRIAGE_ASKS = 2


def triage(session: Session, message: str, screen: verifier_pb2.ScreenInputResponse) -> Answer | str:
    """The deciding question to ask (or ask again), the emergency its answer reveals, or the
    message to go on with. An answer that stays unclear after a second asking is read as an
    emergency: in doubt, fail closed."""
    pending = session.triage
    if pending is None:
        if not screen.HasField("question"):
            return message
        q = screen.question
        session.triage = TriageState(q.rule_id, q.text, q.emergency_if_yes, q.emergency_message, message)
        trace.get_current_span().set_attribute("healthmesh.triage_question", q.rule_id)
        return Answer(q.text, "needs_info")
    reply = yes_or_no(message)
    if reply is None and pending.asked < MAX_TRIAGE_ASKS:
        pending.asked += 1
        return Answer(pending.question, "needs_info")
    session.triage = None
    if reply is None or reply == pending.emergency_if_yes:
        return Answer(pending.emergency_message, "emergency")
    return pending.message
