"""VerifierService through a real gRPC server: `python -m verifier` as a subprocess on an
ephemeral port, the standard health and reflection services, both RPCs and their errors."""

import sys
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from deploy.local.processes import Service, health_status, start_all, stop_all
from healthmesh.v1 import common_pb2, verifier_pb2, verifier_pb2_grpc
from runtime.errors import bad_request_fields
from tests.conftest import MARIA

SERVICE = "healthmesh.v1.VerifierService"


@pytest.fixture(scope="module")
def verifier(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    log_path = Path(tmp_path_factory.mktemp("verifier")) / "verifier.log"
    service = Service(name="verifier", argv=[sys.executable, "-m", "verifier"],
                      env={"HEALTHMESH_PORT": "0", "HEALTHMESH_SHUTDOWN_GRACE_S": "2",
                           "HEALTHMESH_TRACE_FILE": str(log_path.with_name("traces.jsonl"))},
                      health_name=SERVICE, log_path=log_path)
    start_all([service])
    yield service
    stop_all([service])


@pytest.fixture(scope="module")
def stub(verifier: Service) -> Iterator[verifier_pb2_grpc.VerifierServiceStub]:
    with verifier.channel() as channel:
        yield verifier_pb2_grpc.VerifierServiceStub(channel)


def rpc_error(call, request) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as info:
        call(request, timeout=5)
    return info.value


def test_health_and_reflection(verifier):
    assert health_status(verifier.transport("launcher"), verifier.address, SERVICE) == "SERVING"
    with verifier.channel() as channel:
        replies = reflection_pb2_grpc.ServerReflectionStub(channel).ServerReflectionInfo(
            iter([reflection_pb2.ServerReflectionRequest(list_services="")]), timeout=5)
        names = {s.name for reply in replies for s in reply.list_services_response.service}
    assert SERVICE in names


def test_screen_flags_an_emergency_in_the_users_language(stub):
    reply = stub.ScreenInput(verifier_pb2.ScreenInputRequest(message="estou com dor no peito"), timeout=5)
    assert reply.red_flag and reply.category == verifier_pb2.RED_FLAG_CATEGORY_CARDIORESPIRATORY
    assert reply.rule_id == "cardiac.chest_pain" and reply.language == "pt"
    assert "SAMU 192" in reply.emergency_message


def test_screen_gives_the_crisis_line_in_the_requested_language(stub):
    reply = stub.ScreenInput(verifier_pb2.ScreenInputRequest(message="quero me matar", language="en"),
                             timeout=5)
    assert reply.category == verifier_pb2.RED_FLAG_CATEGORY_MENTAL_HEALTH and reply.language == "en"
    assert "988" in reply.emergency_message and "CVV 188" in reply.emergency_message


def test_screen_passes_a_booking_request(stub):
    reply = stub.ScreenInput(verifier_pb2.ScreenInputRequest(message="book a cardiologist"), timeout=5)
    assert not reply.red_flag and reply.language == "en" and not reply.emergency_message


@pytest.mark.parametrize("request_, field", [
    (verifier_pb2.ScreenInputRequest(), "message"),
    (verifier_pb2.ScreenInputRequest(message="   "), "message"),
    (verifier_pb2.ScreenInputRequest(message="x" * 20_001), "message"),
    (verifier_pb2.ScreenInputRequest(message="chest pain", language="fr"), "language"),
])
def test_screen_rejects_bad_input_naming_the_field(stub, request_, field):
    err = rpc_error(stub.ScreenInput, request_)
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert bad_request_fields(err.trailing_metadata()) == [field]


def evidence() -> verifier_pb2.Evidence:
    return verifier_pb2.Evidence(
        slots=[common_pb2.Slot(slot_id="CARD-A-DR01-20261123-0900", doctor="Dr. Fernando Almeida",
                               date="2026-11-23", time="09:00", clinic_id="clinic_a")],
        doctors=["Dr. Fernando Almeida"], clinics=["Clínica Coração Paulista"],
    )


def test_verify_accepts_a_faithful_answer(stub):
    reply = stub.VerifyAnswer(verifier_pb2.VerifyAnswerRequest(
        user_query="quero cardiologista", language="pt", evidence=evidence(), current_patient=MARIA,
        answer="Mais cedo: seg 23/11/2026 09:00 com Dr. Fernando Almeida na Clínica Coração Paulista.",
    ), timeout=5)
    assert reply.safe and not reply.violations


def test_verify_blocks_an_unsafe_answer_with_rules_in_order(stub):
    reply = stub.VerifyAnswer(verifier_pb2.VerifyAnswerRequest(
        language="en", evidence=evidence(), current_patient=MARIA,
        answer="There is no available slots. You probably have arrhythmia; take 500 mg of aspirin.",
    ), timeout=5)
    assert not reply.safe
    rules = [v.rule for v in reply.violations]
    assert rules == sorted(rules)
    assert {verifier_pb2.RULE_R1_UNSUPPORTED_TREATMENT, verifier_pb2.RULE_R3_OUT_OF_SCOPE,
            verifier_pb2.RULE_R4_UNFAITHFUL} <= set(rules)
    assert all(v.note for v in reply.violations)


@pytest.mark.parametrize("request_, field", [
    (verifier_pb2.VerifyAnswerRequest(evidence=evidence()), "answer"),
    (verifier_pb2.VerifyAnswerRequest(answer="ok", language="es"), "language"),
])
def test_verify_rejects_bad_input_naming_the_field(stub, request_, field):
    err = rpc_error(stub.VerifyAnswer, request_)
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert bad_request_fields(err.trailing_metadata()) == [field]


def test_message_and_answer_text_never_reach_the_log(verifier, stub):
    stub.ScreenInput(verifier_pb2.ScreenInputRequest(message="Fábio Costa tem dor no peito"), timeout=5)
    stub.VerifyAnswer(verifier_pb2.VerifyAnswerRequest(answer="Fábio Costa, CPF 111.444.777-35"), timeout=5)
    log = verifier.log_path.read_text(encoding="utf-8")
    assert '"method": "/healthmesh.v1.VerifierService/ScreenInput"' in log
    assert "Fábio" not in log and "F\\u00e1bio" not in log and "111.444" not in log


def test_sigterm_drains_and_exits_cleanly_and_traces_carry_no_text(tmp_path):
    traces = tmp_path / "traces.jsonl"
    service = Service(name="verifier", argv=[sys.executable, "-m", "verifier"],
                      env={"HEALTHMESH_PORT": "0", "HEALTHMESH_TRACE_FILE": str(traces),
                           "OTEL_TRACES_SAMPLER": "always_on"},
                      health_name=SERVICE, log_path=tmp_path / "verifier.log")
    start_all([service])
    with service.channel() as channel:
        verifier_pb2_grpc.VerifierServiceStub(channel).ScreenInput(
            verifier_pb2.ScreenInputRequest(message="Fábio Costa tem dor no peito"), timeout=5)
    assert service.stop() == 0
    log = service.log_path.read_text(encoding="utf-8")
    assert '"draining"' in log and '"stopped"' in log
    spans = traces.read_text(encoding="utf-8")  # flushed on exit
    assert '"/healthmesh.v1.VerifierService/ScreenInput"' in spans and '"service":"verifier"' in spans
    assert "Costa" not in spans and "peito" not in spans


def test_a_models_text_is_read_against_what_it_rephrases(stub):
    reference = "Cancelado: seg 30/11/2026 10:00 com Dr. Fernando Almeida. O horário foi liberado."
    request = verifier_pb2.VerifyAnswerRequest(
        answer="Pronto, cancelado: seg 30/11/2026 10:00 com Dr. Fernando Almeida. O horário está livre.",
        reference_answer=reference, language="pt", origin=verifier_pb2.ANSWER_ORIGIN_REPHRASING,
        evidence=verifier_pb2.Evidence(doctors=["Dr. Fernando Almeida"], appointments=[common_pb2.Appointment(
            appointment_id="CARD-A-APT-1", doctor="Dr. Fernando Almeida", date="2026-11-30", time="10:00")]))
    assert stub.VerifyAnswer(request, timeout=5).safe
    request.answer = "Cancelado: 30/11/2026 10:00 com Dr. Fernando Almeida. Este desafío deleído."
    notes = [v.note for v in stub.VerifyAnswer(request, timeout=5).violations]
    assert any("weekday" in n for n in notes) and any("not Portuguese words" in n for n in notes)


def test_a_models_text_needs_its_reference_and_language(stub):
    request = verifier_pb2.VerifyAnswerRequest(answer="Booked.", language="en",
                                               origin=verifier_pb2.ANSWER_ORIGIN_REPHRASING)
    err = rpc_error(stub.VerifyAnswer, request)
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "reference_answer" in bad_request_fields(err.trailing_metadata())
    request = verifier_pb2.VerifyAnswerRequest(answer="Booked.", reference_answer="Booked.",
                                               origin=verifier_pb2.ANSWER_ORIGIN_SUMMARY)
    err = rpc_error(stub.VerifyAnswer, request)
    assert "language" in bad_request_fields(err.trailing_metadata())


def test_a_summary_states_only_what_its_passages_state(stub):
    passage = ("Hypertension is diagnosed when clinic blood pressure is 140/90 mmHg or higher, confirmed by "
               "ambulatory or home blood pressure monitoring.")
    request = verifier_pb2.VerifyAnswerRequest(
        user_query="what is a normal blood pressure?", language="en",
        origin=verifier_pb2.ANSWER_ORIGIN_SUMMARY,
        answer="Hypertension is diagnosed when clinic blood pressure is 140/90 mmHg or higher.",
        evidence=verifier_pb2.Evidence(facts=[passage]))
    assert stub.VerifyAnswer(request, timeout=5).safe
    request.answer = "A normal blood pressure is 120-129 mmHg for adults and 90-99 mmHg for children."
    notes = [v.note for v in stub.VerifyAnswer(request, timeout=5).violations]
    assert any("number(s) the passages do not state" in n for n in notes)
    assert any("word(s) the passages do not have" in n for n in notes)
