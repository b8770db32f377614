"""End to end through the real mesh (clinics, verifier, tools, orchestrator on loopback): tool
answers with citations, the reactive tool loop, unknown drugs, a tools service that is down, and
a symptom consult that ends in a booking with its SOAP handoff packet."""

import re

import grpc
import pytest

from healthmesh.v1 import clinic_pb2, tools_pb2, tools_pb2_grpc
from healthmesh.v1 import orchestrator_pb2 as pb
from runtime.errors import bad_request_fields
from tests.conftest import MARIA, run_mesh
from tests.test_contracts import buf_curl, reflected_services

INTERNAL_NAMES = re.compile(r"check_interactions|check_drug_safety|search_guidelines|compute_risk_score"
                            r"|DrugService|GuidelineService|CalculatorService|NOT_FOUND|UNAVAILABLE")


def tool_steps(reply) -> list[tuple[str, str]]:
    return [(s.clinic_id, s.action) for s in reply.steps]


def assert_cited(reply) -> None:
    """Every citation is used in the text as [n] and listed under it; no internal names leak."""
    assert reply.citations, reply.answer
    assert [c.index for c in reply.citations] == list(range(1, len(reply.citations) + 1))
    for c in reply.citations:
        assert f"[{c.index}]" in reply.answer and c.source
        assert f"[{c.index}] {c.source} — {c.section}" in reply.answer
    assert not INTERNAL_NAMES.search(reply.answer), reply.answer
    assert reply.verification.safe, reply.verification.notes


def test_tool_services_answer_reflection_clients(mesh):
    tools = mesh.mesh.tools
    assert {"healthmesh.v1.CalculatorService", "healthmesh.v1.GuidelineService", "healthmesh.v1.DrugService",
            "grpc.health.v1.Health"} <= reflected_services(tools)
    reply = buf_curl(tools, "healthmesh.v1.CalculatorService/ComputeRiskScore",
                     {"qsofa": {"respiratoryRate": 24, "systolicBp": 95, "alteredMentation": True}})
    assert (reply["scoreName"], reply["score"], reply["riskTier"]) == ("qSOFA", 3, "RISK_TIER_HIGH")
    with tools.channel() as channel, pytest.raises(grpc.RpcError) as err:
        tools_pb2_grpc.CalculatorServiceStub(channel).ComputeRiskScore(tools_pb2.ComputeRiskScoreRequest(
            qsofa=tools_pb2.QsofaInputs(respiratory_rate=24, systolic_bp=500)), timeout=5)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert bad_request_fields(err.value.trailing_metadata()) == ["qsofa.systolic_bp"]


def test_interaction_answer_cites_its_sources(mesh):
    reply = mesh.ask("Is warfarin safe with ibuprofen?")
    assert reply.disposition == pb.DISPOSITION_ANSWERED, reply.answer
    assert tool_steps(reply) == [("tools", "check_interactions")]
    assert "Drug Interaction Report — warfarin, ibuprofen" in reply.answer
    assert re.search(r"ibuprofen \+ warfarin: (MAJOR|CONTRAINDICATED)", reply.answer)  # pairs in name order
    assert_cited(reply)


def test_portuguese_brand_and_alias_names_resolve(mesh):
    reply = mesh.ask("quais as interações entre varfarina e ibuprofeno?")
    assert reply.language == "pt"
    assert "Relatório de Interações Medicamentosas — warfarin, ibuprofen" in reply.answer
    assert_cited(reply)


def test_guideline_answer_and_show_source(mesh):
    reply = mesh.ask("What do guidelines say about anticoagulation in atrial fibrillation?")
    assert tool_steps(reply) == [("tools", "search_guidelines")]
    assert "Guideline Evidence" in reply.answer
    assert_cited(reply)
    # "Show source": the cited passage's full text, from the guideline service by its id.
    channel = mesh.mesh.tools.channel()
    passages = tools_pb2_grpc.GuidelineServiceStub(channel).GetPassages(tools_pb2.GetPassagesRequest(
        chunk_ids=[reply.citations[0].reference], highlight_terms=["anticoagulation"])).passages
    channel.close()
    assert passages[0].source == reply.citations[0].source
    assert "**" in passages[0].highlighted_text


def test_a_portuguese_report_quotes_the_english_passages_as_such(mesh):
    reply = mesh.ask("o que as diretrizes dizem sobre anticoagulação na fibrilação atrial?")
    assert reply.language == "pt" and "Evidência de Diretrizes" in reply.answer, reply.answer
    lines = reply.answer.splitlines()
    label = lines.index("Trechos citados das fontes, no original em inglês:")
    assert lines[label + 1].startswith("- “")


def test_score_is_followed_by_the_guideline_that_acts_on_it(mesh):
    reply = mesh.ask("CHA2DS2-VASc for a 78-year-old woman with hypertension and diabetes")
    assert tool_steps(reply) == [("tools", "compute_risk_score"), ("tools", "search_guidelines")]
    assert "Risk Score Report — CHA2DS2-VASc: 5 of 9 (high risk)" in reply.answer
    assert_cited(reply)


def test_two_questions_run_two_tools(mesh):
    reply = mesh.ask("Is warfarin safe with ibuprofen, and what do guidelines say about AF anticoagulation?")
    assert tool_steps(reply) == [("tools", "check_interactions"), ("tools", "search_guidelines")]
    assert "Drug Interaction Report" in reply.answer and "Guideline Evidence" in reply.answer
    assert_cited(reply)


def test_missing_score_inputs_are_asked_for(mesh):
    reply = mesh.ask("HEART score for a 61 year old patient")
    assert reply.disposition == pb.DISPOSITION_NEEDS_INFO
    assert not reply.steps
    assert "history" in reply.answer and "troponin" in reply.answer and "ECG" in reply.answer


def test_a_close_misspelling_is_read_as_the_drug(mesh):
    reply = mesh.ask("boxed warning for warfarn")
    assert reply.disposition == pb.DISPOSITION_ANSWERED
    assert reply.answer.startswith("Drug Safety Report — warfarin")


def test_unknown_drug_asks_back_with_suggestions(mesh):
    # Too far from any name to be read as one: the drug service is asked, and suggests.
    reply = mesh.ask("boxed warning for wafrn")
    assert reply.disposition == pb.DISPOSITION_NEEDS_INFO
    assert [s.status for s in reply.steps] == [pb.STEP_STATUS_NOT_FOUND]
    # The closest name comes first (the knowledge base knows some 400 drugs).
    assert 'I could not find the drug "wafrn". Did you mean:' in reply.answer and "warfarin" in reply.answer
    assert not INTERNAL_NAMES.search(reply.answer)


def test_consult_ends_in_a_booking_with_its_handoff_packet(mesh):
    opening = mesh.ask("I've had an itchy rash on my left forearm for two weeks", patient=MARIA)
    assert opening.disposition == pb.DISPOSITION_NEEDS_INFO, opening.answer
    assert opening.consult.stage == pb.CONSULT_STAGE_HISTORY
    assert not opening.steps  # questions first, no clinic is called yet
    session = opening.session_id

    assessed = mesh.ask("It started after gardening and scratching makes it worse. It is red and scaly, "
                        "about 4/10, and it comes and goes, mostly at night. I'm 34 years old.",
                        session_id=session)
    c = assessed.consult
    assert c.stage == pb.CONSULT_STAGE_RECOMMENDED, assessed.answer
    assert c.specialty == "dermatology" and 1 <= c.urgency <= 4 and not c.low_confidence
    assert {p.agent for p in c.proposals} == {"cardiology", "dermatology", "orthopedics", "general_practice"}
    assert "consistent with an evaluation in dermatology" in assessed.answer
    assert "not a diagnosis" in assessed.answer and assessed.verification.safe

    listing = mesh.ask("yes", session_id=session)
    assert {s.clinic_id for s in listing.steps} == {"clinic_b", "clinic_f"}, listing.answer
    earliest = min(listing.slots, key=lambda s: (s.date, s.time))

    booked = mesh.ask("the earliest one", session_id=session)
    assert booked.disposition == pb.DISPOSITION_ANSWERED, booked.answer
    assert booked.consult.stage == pb.CONSULT_STAGE_BOOKED
    a = booked.appointment
    assert (a.clinic_id, a.date, a.time) == (earliest.clinic_id, earliest.date, earliest.time)
    assert "SOAP" in booked.answer

    handoff = mesh.clinic_stub(a.clinic_id).GetHandoffPacket(
        clinic_pb2.GetHandoffPacketRequest(appointment_id=a.appointment_id))
    packet = handoff.packet
    assert handoff.appointment.appointment_id == a.appointment_id
    assert packet.subjective[0] == "Chief complaint: I've had an itchy rash on my left forearm for two weeks"
    assert any(line.startswith("Severity") for line in packet.subjective), list(packet.subjective)
    assert packet.assessment_specialty == "dermatology" and len(packet.proposals) == 4
    assert a.doctor in packet.plan and a.date in packet.plan
    assert packet.language == "en"


def test_consult_flags_a_minor_and_a_pregnancy(mesh):
    first = mesh.ask("Tenho espinhas no rosto há meses e estou grávida de 5 meses")
    assert first.consult.stage == pb.CONSULT_STAGE_HISTORY
    reply = mesh.ask("Começou há 6 meses, piora antes da menstruação, são espinhas vermelhas no rosto e nas "
                     "costas, 3 de 10, o tempo todo. Tenho 17 anos.", session_id=first.session_id)
    assert reply.language == "pt"
    assert set(reply.consult.flags) == {"pregnancy", "minor_needs_guardian"}, reply.answer
    assert "responsável legal" in reply.answer and "gravidez" in reply.answer


def test_red_flag_during_a_consult_answers_the_emergency(mesh):
    first = mesh.ask("My knee has been hurting for a week")
    assert first.consult.stage == pb.CONSULT_STAGE_HISTORY
    reply = mesh.ask("Now I have crushing chest pain and I'm sweating", session_id=first.session_id)
    assert reply.disposition == pb.DISPOSITION_EMERGENCY
    assert not reply.steps and "192" in reply.answer


@pytest.fixture(scope="module")
def mesh_without_tools(tmp_path_factory):
    handle = run_mesh(tmp_path_factory.mktemp("no-tools"), HEALTHMESH_RETRY_ATTEMPTS="2")
    handle.mesh.tools.stop()
    yield handle
    handle.close()


def test_tools_down_is_said_plainly_and_scheduling_still_works(mesh_without_tools):
    reply = mesh_without_tools.ask("Is warfarin safe with ibuprofen?")
    assert reply.disposition == pb.DISPOSITION_PARTIAL
    assert [s.status for s in reply.steps] == [pb.STEP_STATUS_UNAVAILABLE]
    assert reply.steps[0].attempts == 2  # retried (a read), then skipped
    assert "The Drug Interaction Report could not be produced right now" in reply.answer
    assert not INTERNAL_NAMES.search(reply.answer)
    listing = mesh_without_tools.ask("cardiology slots")
    assert listing.disposition == pb.DISPOSITION_ANSWERED and listing.slots
