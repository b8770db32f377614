"""The turn's answer as the client reads it: the AskResponse, the sentences AskStream sends, and
the text of a blocked answer."""

import re

from healthmesh.v1 import orchestrator_pb2
from orchestrator.answering.answer import Answer
from orchestrator.answering.phrases import say
from orchestrator.events import step_message
from orchestrator.models.writer import PhiDecision
from orchestrator.planning.steps import StepResult

DISPOSITION = {
    "answered": orchestrator_pb2.DISPOSITION_ANSWERED,
    "partial": orchestrator_pb2.DISPOSITION_PARTIAL,
    "needs_info": orchestrator_pb2.DISPOSITION_NEEDS_INFO,
    "out_of_scope": orchestrator_pb2.DISPOSITION_OUT_OF_SCOPE,
    "emergency": orchestrator_pb2.DISPOSITION_EMERGENCY,
    "blocked": orchestrator_pb2.DISPOSITION_BLOCKED,
}
MODEL_ROUTE = {"none": orchestrator_pb2.MODEL_ROUTE_NONE, "local": orchestrator_pb2.MODEL_ROUTE_LOCAL,
               "cloud": orchestrator_pb2.MODEL_ROUTE_CLOUD}


def response(answer: Answer, lang: str, results: list[StepResult],
             verification: orchestrator_pb2.Verification | None, phi: PhiDecision, route: str,
             consult: orchestrator_pb2.Consult | None) -> orchestrator_pb2.AskResponse:
    shown = answer.disposition != "blocked"  # a blocked answer shows no slot and no source
    return orchestrator_pb2.AskResponse(
        answer=answer.text,
        language=lang,
        disposition=DISPOSITION[answer.disposition],
        steps=[step_message(r) for r in results],
        slots=answer.slots if shown else [],
        appointment=answer.appointment,
        verification=verification,
        phi_detected=phi.found,
        phi_categories=phi.categories,
        model_route=MODEL_ROUTE[route],
        citations=answer.citations if shown else [],
        consult=consult,
    )


def sentences(text: str) -> list[str]:
    """Lines, then sentences within a line, each kept with its own punctuation."""
    return [part for line in text.splitlines() for part in re.split(r"(?<=[.!?])\s+", line) if part.strip()]


def blocked(lang: str, verdict: orchestrator_pb2.Verification) -> Answer:
    """What the patient reads when the gate blocked the answer (its notes) or could not run."""
    key = "blocked" if verdict.notes != ["verifier unavailable"] else "unverified"
    notes = "\n".join(f"- {n}" for n in verdict.notes if key == "blocked")
    return Answer(say(lang, key) + (f"\n{notes}" if notes else ""), "blocked")
