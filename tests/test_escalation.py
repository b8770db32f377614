"""Escalation to a human, end to end through the mesh (real processes, mutual TLS): the situations
that open a case open exactly one (a retried turn finds it), the patient is told how it goes on, an
operator claims, reads, notes and resolves it, anyone else is refused, the case and its audit chain
survive a restart, a silent claim returns to the queue, and the queue is measured."""

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from rich.console import Console

from clients.operator import OperatorConsole
from deploy.local.processes import Service, escalation_service, start_all, stop_all
from escalation import metrics
from escalation.store import Actor, CaseStore
from healthmesh.v1 import escalation_pb2 as pb
from healthmesh.v1 import escalation_pb2_grpc
from healthmesh.v1 import orchestrator_pb2 as opb
from runtime.auditchain import ChainKey, SqliteChain
from tests.conftest import JOAO, MARIA, MeshHandle, run_mesh

ROOT = Path(__file__).resolve().parent.parent


def request(session_id: str, urgency: int) -> pb.CreateCaseRequest:
    return pb.CreateCaseRequest(session_id=session_id, reason=pb.ESCALATION_REASON_PATIENT_REQUEST,
                                urgency=urgency, packet=pb.CasePacket(summary="a redacted summary"))


def stub(service: Service, identity: str) -> escalation_pb2_grpc.EscalationServiceStub:
    return escalation_pb2_grpc.EscalationServiceStub(service.channel(identity))


@pytest.fixture(scope="module")
def mesh(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MeshHandle]:
    handle = run_mesh(tmp_path_factory.mktemp("escalation"))
    yield handle
    handle.close()


@pytest.fixture(scope="module")
def operator(mesh: MeshHandle) -> escalation_pb2_grpc.EscalationServiceStub:
    return stub(mesh.mesh.escalation, "operator")


def cases_of(operator, session_id: str) -> list[pb.EscalationCase]:
    states = [pb.CASE_STATE_OPEN, pb.CASE_STATE_CLAIMED, pb.CASE_STATE_RESOLVED]
    every = operator.ListCases(pb.ListCasesRequest(states=states, page_size=100), timeout=10)
    return [c for c in every.cases if c.session_id == session_id]


def the_case(operator, session_id: str, reason: int) -> pb.EscalationCase:
    [case] = cases_of(operator, session_id)
    assert case.reason == reason
    return case


def test_asking_for_a_person_opens_one_case_and_says_how_it_goes_on(mesh, operator) -> None:
    first = mesh.ask("I want to talk to a person, please", patient=MARIA)
    assert first.disposition == opb.DISPOSITION_ANSWERED
    case = the_case(operator, first.session_id, pb.ESCALATION_REASON_PATIENT_REQUEST)
    assert case.state == pb.CASE_STATE_OPEN and case.urgency == pb.CASE_URGENCY_ROUTINE
    assert "A person from our care team will follow up" in first.answer and case.case_id in first.answer
    assert "contact you using the details in your clinic record" in first.answer
    again = mesh.ask("I want to talk to a person, please", session_id=first.session_id)
    assert case.case_id in again.answer
    assert len(cases_of(operator, first.session_id)) == 1  # a repeat finds the case already opened

    portuguese = mesh.ask("quero falar com um atendente")
    pt_case = the_case(operator, portuguese.session_id, pb.ESCALATION_REASON_PATIENT_REQUEST)
    assert portuguese.answer.startswith("Uma pessoa da nossa equipe de atendimento vai dar continuidade")
    assert f"cite {pt_case.case_id} ao ligar para a clínica" in portuguese.answer  # no identity given
    for message in ("quero falar com uma pessoa", "quero falar com um humano", "can I speak to a human?"):
        assert mesh.ask(message).disposition == opb.DISPOSITION_ANSWERED


def test_a_severe_interaction_in_the_patients_own_medicines_opens_one_case(mesh, operator) -> None:
    message = "I take warfarin and ibuprofen every day, is that safe?"
    reply = mesh.ask(message, patient=MARIA)
    assert "warfarin" in reply.answer and "MAJOR" in reply.answer, reply.answer
    assert reply.verification.safe
    case = the_case(operator, reply.session_id, pb.ESCALATION_REASON_SEVERE_INTERACTION)
    assert case.urgency == pb.CASE_URGENCY_URGENT and case.case_id in reply.answer
    mesh.ask(message, session_id=reply.session_id)  # the turn again: no second case
    assert len(cases_of(operator, reply.session_id)) == 1
    details = operator.GetCase(pb.GetCaseRequest(case_id=case.case_id), timeout=10).packet.details
    assert any({"warfarin", "ibuprofen", "INTERACTION_SEVERITY_MAJOR"} <= set(d.replace(":", "").split())
               for d in details), details

    question = mesh.ask("is warfarin safe with ibuprofen?")  # a question, not her own medicines
    assert "MAJOR" in question.answer and not cases_of(operator, question.session_id)


def test_a_consult_still_unsure_after_two_rounds_of_questions_opens_one_case(mesh, operator) -> None:
    opening = mesh.ask("I have pain", patient=MARIA)
    assert opening.consult.stage == opb.CONSULT_STAGE_HISTORY, opening.answer
    second = mesh.ask("I don't know", session_id=opening.session_id)
    assert second.consult.stage == opb.CONSULT_STAGE_HISTORY, second.answer
    assessed = mesh.ask("not sure", session_id=opening.session_id)
    assert assessed.consult.stage == opb.CONSULT_STAGE_RECOMMENDED and assessed.consult.low_confidence
    assert assessed.verification.safe, assessed.verification.notes
    case = the_case(operator, opening.session_id, pb.ESCALATION_REASON_LOW_CONFIDENCE_CONSULT)
    assert case.case_id in assessed.answer and case.suggested_specialty == "general_practice"
    packet = operator.GetCase(pb.GetCaseRequest(case_id=case.case_id), timeout=10).packet
    assert packet.handoff.subjective[0] == "Chief complaint: I have pain"
    assert packet.patient.cpf == "".join(c for c in MARIA.cpf if c.isdigit()) and packet.language == "en"
    mesh.ask("yes", session_id=opening.session_id)  # later turns of the consult open nothing more
    assert len(cases_of(operator, opening.session_id)) == 1


def test_a_red_flag_during_history_keeps_the_emergency_answer_and_opens_a_case(mesh, operator) -> None:
    opening = mesh.ask("I've had a rash on my arm for two weeks")
    assert opening.consult.stage == opb.CONSULT_STAGE_HISTORY
    emergency = mesh.ask("now I have crushing chest pain and I can't breathe", session_id=opening.session_id)
    assert emergency.disposition == opb.DISPOSITION_EMERGENCY
    case = the_case(operator, opening.session_id, pb.ESCALATION_REASON_RED_FLAG_IN_HISTORY)
    first_line, told = emergency.answer.splitlines()[0], emergency.answer.splitlines()[-1]
    assert "192" in first_line and told == f"Our care team has also been told (case {case.case_id})."
    assert case.urgency == pb.CASE_URGENCY_EMERGENCY
    # Most urgent first.
    queue = operator.ListCases(pb.ListCasesRequest(), timeout=10).cases
    assert queue[0].case_id == case.case_id
    assert [c.urgency for c in queue] == sorted((c.urgency for c in queue), reverse=True)


def test_an_operator_claims_reads_notes_and_resolves_a_case(mesh, operator) -> None:
    reply = mesh.ask("quero falar com uma pessoa", patient=MARIA)
    case = the_case(operator, reply.session_id, pb.ESCALATION_REASON_PATIENT_REQUEST)
    claimed = operator.ClaimCase(pb.ClaimCaseRequest(case_id=case.case_id, operator="ana"), timeout=10)
    assert claimed.escalation_case.state == pb.CASE_STATE_CLAIMED
    assert claimed.escalation_case.claimed_by == "ana"
    with pytest.raises(grpc.RpcError) as taken:
        operator.ClaimCase(pb.ClaimCaseRequest(case_id=case.case_id, operator="bruno"), timeout=10)
    assert taken.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "claimed by ana" in taken.value.details()
    read = operator.GetCase(pb.GetCaseRequest(case_id=case.case_id, operator="ana"), timeout=10)
    assert read.packet.summary == "quero falar com uma pessoa"
    assert read.packet.patient.full_name == MARIA.full_name
    operator.AddNote(pb.AddNoteRequest(case_id=case.case_id, operator="ana", text="called, no answer"),
                     timeout=10)
    with pytest.raises(grpc.RpcError) as not_holder:
        operator.ResolveCase(pb.ResolveCaseRequest(case_id=case.case_id, operator="bruno", resolution="x"),
                             timeout=10)
    assert not_holder.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    resolved = operator.ResolveCase(pb.ResolveCaseRequest(case_id=case.case_id, operator="ana",
                                                          resolution="called back, booked"), timeout=10)
    done = resolved.escalation_case
    assert (done.state, done.resolved_by) == (pb.CASE_STATE_RESOLVED, "ana")
    assert done.resolution == "called back, booked"
    assert done.resolved_at >= done.claimed_at >= done.created_at
    queue = operator.ListCases(pb.ListCasesRequest(), timeout=10).cases
    assert case.case_id not in {c.case_id for c in queue}
    with pytest.raises(grpc.RpcError) as final:
        operator.AddNote(pb.AddNoteRequest(case_id=case.case_id, text="more"), timeout=10)
    assert final.value.code() == grpc.StatusCode.FAILED_PRECONDITION

    records = [r for r in audit_records(mesh) if r.get("case_id") == case.case_id]
    assert [r["action"] for r in records] == ["created", "claimed", "read", "noted", "resolved"]
    assert {r["operator"] for r in records[1:]} == {"ana"}
    assert all(r["caller"].endswith("/sa/operator") for r in records[1:])
    assert records[0]["caller"].endswith("/sa/orchestrator")
    assert "called, no answer" not in str(records)  # a note's digest, never its text


def test_the_chat_clients_operator_mode_works_a_case(mesh) -> None:
    reply = mesh.ask("quero falar com um humano", patient=JOAO)
    console = Console(record=True, width=240)
    operator = OperatorConsole(stub(mesh.mesh.escalation, "operator"), console, "carla")
    operator.run("list")
    [case_id] = [line.split()[0] for line in console.export_text().splitlines() if "patient request" in line
                 and line.split()[0] in reply.answer]
    for line in (f"claim {case_id}", f"note {case_id} ligou, sem resposta",
                 f"resolve {case_id} retornou, marcado", f"show {case_id}", "list all", "nonsense"):
        operator.run(line)
    shown = console.export_text()
    assert f"{case_id} claimed by carla" in shown and f"{case_id} resolved" in shown
    assert "patient: João Pereira 11144477735" in shown and "summary: quero falar com um humano" in shown
    assert "note by carla at" in shown and "resolved by carla at" in shown
    assert "resolve <case> <text>" in shown  # an unknown command shows the commands


def test_only_operators_work_cases_and_only_the_orchestrator_opens_them(mesh) -> None:
    service = mesh.mesh.escalation
    calls = [("orchestrator", "ListCases", pb.ListCasesRequest()),
             ("clinic_a", "ListCases", pb.ListCasesRequest()),
             ("orchestrator", "ClaimCase", pb.ClaimCaseRequest(case_id="esc-0000000000")),
             ("clinic_a", "GetCase", pb.GetCaseRequest(case_id="esc-0000000000")),
             ("tools", "ResolveCase", pb.ResolveCaseRequest(case_id="esc-0000000000", resolution="x")),
             ("operator", "CreateCase", request("s", pb.CASE_URGENCY_ROUTINE))]
    for identity, method, message in calls:
        with pytest.raises(grpc.RpcError) as refused:
            getattr(stub(service, identity), method)(message, timeout=10)
        assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED, (identity, method)


def audit_records(mesh: MeshHandle) -> list[dict]:
    data_dir = Path(mesh.mesh.escalation.env["HEALTHMESH_DATA_DIR"])
    chain = SqliteChain(data_dir / "escalation-audit.sqlite3",
                        ChainKey.load(data_dir / "pki" / "escalation-audit.key"), create=False)
    return list(chain.records())


def verify_cli(mesh: MeshHandle) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "HEALTHMESH_DATA_DIR": mesh.mesh.escalation.env["HEALTHMESH_DATA_DIR"]}
    return subprocess.run([sys.executable, "-m", "escalation.audit", "verify"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)


def test_cases_and_their_audit_survive_a_restart_and_a_down_service_is_said_honestly(mesh, operator) -> None:
    reply = mesh.ask("I want to speak to someone", patient=MARIA)
    case = the_case(operator, reply.session_id, pb.ESCALATION_REASON_PATIENT_REQUEST)
    operator.AddNote(pb.AddNoteRequest(case_id=case.case_id, text="will call at 3pm"), timeout=10)
    before = audit_records(mesh)
    service = mesh.mesh.escalation
    service.stop()

    down = mesh.ask("I want to talk to a person", patient=MARIA)  # the answer still comes, honestly
    assert down.disposition == opb.DISPOSITION_ANSWERED
    assert "I could not pass this to a person right now" in down.answer

    service.restart("restarted by the test")
    service.wait_healthy(time.monotonic() + 30)
    read = operator.GetCase(pb.GetCaseRequest(case_id=case.case_id), timeout=10)
    assert read.escalation_case == case and [n.text for n in read.notes] == ["will call at 3pm"]
    assert audit_records(mesh)[:len(before)] == before
    verified = verify_cli(mesh)
    assert verified.returncode == 0 and "audit log intact" in verified.stdout, verified.stdout
    # Once it is back (and the orchestrator's channel has reconnected), asking again opens her case.
    deadline = time.monotonic() + 20
    while not cases_of(operator, down.session_id) and time.monotonic() < deadline:
        again = mesh.ask("I want to talk to a person", session_id=down.session_id)
        time.sleep(0.2)
    assert the_case(operator, down.session_id, pb.ESCALATION_REASON_PATIENT_REQUEST).case_id in again.answer


def test_a_turn_failed_closed_because_the_safety_check_was_down_opens_a_case(mesh, operator) -> None:
    """Stops the verifier (restarted after), so it runs late in this module."""
    verifier = mesh.mesh.verifier
    verifier.stop()
    try:
        reply = mesh.ask("cardiology slots", patient=MARIA)
    finally:
        verifier.restart("restarted after the escalation test stopped it")
        verifier.wait_healthy(time.monotonic() + 30)
        deadline = time.monotonic() + 30  # the orchestrator reconnects, and its breaker closes, in time
        while mesh.ask("hello").disposition == opb.DISPOSITION_BLOCKED and time.monotonic() < deadline:
            time.sleep(0.2)
    assert reply.disposition == opb.DISPOSITION_BLOCKED and not reply.slots
    case = the_case(operator, reply.session_id, pb.ESCALATION_REASON_UPSTREAM_FAILURE)
    assert case.case_id in reply.answer


def test_a_turn_whose_every_upstream_failed_opens_a_case(mesh, operator) -> None:
    """Last in this module: it stops the dermatology clinics."""
    for clinic in ("clinic_b", "clinic_f"):
        mesh.mesh.clinics[clinic].stop()
    reply = mesh.ask("dermatology slots", patient=MARIA)
    assert all(s.status != opb.STEP_STATUS_OK for s in reply.steps) and reply.steps
    case = the_case(operator, reply.session_id, pb.ESCALATION_REASON_UPSTREAM_FAILURE)
    assert case.case_id in reply.answer and case.suggested_specialty == "dermatology"


@pytest.fixture
def lone_service(tmp_path: Path) -> Iterator[Service]:
    """The escalation service alone, with a claim that lapses after a second."""
    svc = escalation_service(tmp_path / "logs", {"HEALTHMESH_DATA_DIR": str(tmp_path / "data"),
                                                  "HEALTHMESH_PORT": "0", "HEALTHMESH_SHUTDOWN_GRACE_S": "1",
                                                  "HEALTHMESH_CLAIM_TIMEOUT_S": "1"})
    start_all([svc])
    yield svc
    stop_all([svc])


def test_a_silent_claim_returns_to_the_queue(lone_service: Service) -> None:
    opened = stub(lone_service, "orchestrator").CreateCase(request("s-1", pb.CASE_URGENCY_SOON), timeout=10)
    assert opened.created
    case_id = opened.escalation_case.case_id
    operator = stub(lone_service, "operator")
    operator.ClaimCase(pb.ClaimCaseRequest(case_id=case_id, operator="ana"), timeout=10)
    assert not operator.ListCases(pb.ListCasesRequest(), timeout=10).cases
    time.sleep(1.5)  # ana goes silent
    [back] = operator.ListCases(pb.ListCasesRequest(), timeout=10).cases
    assert (back.case_id, back.state, back.claimed_by, back.returned) == (case_id, pb.CASE_STATE_OPEN, "", 1)
    taken = operator.ClaimCase(pb.ClaimCaseRequest(case_id=case_id, operator="bruno"), timeout=10)
    assert taken.escalation_case.claimed_by == "bruno"
    again = stub(lone_service, "orchestrator").CreateCase(request("s-1", pb.CASE_URGENCY_SOON), timeout=10)
    assert (again.created, again.escalation_case.case_id) == (False, case_id)


def test_list_pages_through_the_queue_by_urgency(lone_service: Service) -> None:
    creator, operator = stub(lone_service, "orchestrator"), stub(lone_service, "operator")
    for n, urgency in enumerate([1, 3, 2, 3, 4, 1]):
        creator.CreateCase(request(f"s-{n}", urgency), timeout=10)
    seen, token = [], ""
    while True:
        page = operator.ListCases(pb.ListCasesRequest(page_size=4, page_token=token), timeout=10)
        seen += [(c.urgency, c.session_id) for c in page.cases]
        if not (token := page.next_page_token):
            break
    assert seen == [(4, "s-4"), (3, "s-1"), (3, "s-3"), (2, "s-2"), (1, "s-0"), (1, "s-5")]
    for bad in (pb.ListCasesRequest(page_token="bm90IGEgdG9rZW4="), pb.ListCasesRequest(page_size=101)):
        with pytest.raises(grpc.RpcError) as refused:
            operator.ListCases(bad, timeout=10)
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT


def test_the_queue_size_and_oldest_age_are_metrics_labelled_by_urgency_only(tmp_path: Path) -> None:
    key = ChainKey.load(tmp_path / "key", create=True)
    store = CaseStore(tmp_path / "cases.sqlite3", SqliteChain(tmp_path / "audit.sqlite3", key), 900)
    reader = InMemoryMetricReader()
    metrics.observe(store, MeterProvider(metric_readers=[reader]).get_meter("test"))
    orchestrator = Actor("orchestrator", "spiffe://healthmesh.local/ns/local/sa/orchestrator")
    for n, urgency in enumerate([pb.CASE_URGENCY_URGENT, pb.CASE_URGENCY_URGENT, pb.CASE_URGENCY_ROUTINE]):
        store.create(request(f"s-{n}", urgency), orchestrator)
    time.sleep(0.2)
    scopes = [sm for rm in reader.get_metrics_data().resource_metrics for sm in rm.scope_metrics]
    points = {m.name: {p.attributes["urgency"]: p.value for p in m.data.data_points}
              for sm in scopes for m in sm.metrics}
    assert points["healthmesh.escalation.queue_size"] == {"urgent": 2, "routine": 1}
    assert all(age >= 0.2 for age in points["healthmesh.escalation.oldest_open_age"].values())
