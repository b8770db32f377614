"""Emergencies as the public describes them, through the mesh: a public guidance line is an
emergency; a high-risk topic gets its deciding question before anything else and the answer
decides; a clinician's score question is answered with a reminder, not an emergency; a
symptom that says "move" is a consult, not a reschedule."""

from healthmesh.v1 import orchestrator_pb2 as pb
from tests.conftest import MARIA

EMERGENCY = pb.DISPOSITION_EMERGENCY


def test_public_guidance_lines_are_emergencies(mesh):
    for message in ("Loss of consciousness", "Perda de consciência", "Serious head injuries",
                    "Agressão por arma de fogo ou arma branca", "Queimaduras graves ou escaldaduras"):
        reply = mesh.ask(message)
        assert reply.disposition == EMERGENCY, message
        assert "192" in reply.answer and not reply.steps


def test_a_fall_is_asked_about_first_and_no_means_an_emergency(mesh):
    asked = mesh.ask("my father fell in the bathroom")
    assert asked.disposition == pb.DISPOSITION_NEEDS_INFO and asked.answer.endswith("yes or no.")
    assert not asked.steps
    reply = mesh.ask("no", session_id=asked.session_id)
    assert reply.disposition == EMERGENCY and "192" in reply.answer


def test_a_reassuring_answer_resumes_the_request(mesh):
    asked = mesh.ask("minha mãe caiu ontem e quero marcar ortopedia", patient=MARIA)
    assert asked.disposition == pb.DISPOSITION_NEEDS_INFO and "sim ou não" in asked.answer
    reply = mesh.ask("sim", session_id=asked.session_id)
    assert reply.disposition != EMERGENCY
    assert reply.slots and {s.clinic_id for s in reply.slots} <= {"clinic_d", "clinic_e"}


def test_an_unclear_answer_is_asked_again_then_read_as_an_emergency(mesh):
    asked = mesh.ask("I burned my hand on the stove")
    again = mesh.ask("it hurts", session_id=asked.session_id)
    assert again.disposition == pb.DISPOSITION_NEEDS_INFO and again.answer == asked.answer
    reply = mesh.ask("I don't know", session_id=asked.session_id)
    assert reply.disposition == EMERGENCY


def test_a_clinicians_score_question_is_computed_with_a_reminder(mesh):
    reply = mesh.ask("HEART score for a patient with chest pain, age 54, moderately suspicious history, "
                     "normal ECG, two risk factors, normal troponin")
    assert reply.disposition != EMERGENCY
    assert "HEART" in reply.answer and "If this is happening to someone now" in reply.answer
    assert reply.verification.safe


def test_move_in_a_symptom_is_not_a_reschedule(mesh):
    reply = mesh.ask("my knees hurt and it gets worse when I move my joints")
    assert reply.disposition == pb.DISPOSITION_NEEDS_INFO
    assert "full name and CPF" not in reply.answer and reply.consult.stage == pb.CONSULT_STAGE_HISTORY
