"""Faithful words or none, end to end: with the real bundled model writing, what reaches the
patient is the deterministic answer or a text the verifier proved faithful to it; a model
never holds the turn past its writing budget, and the stream says when it starts and is
dropped; general questions are answered from cited guideline passages; a turn that holds
PHI never uses the cloud (a real llama_cpp.server behind a recording proxy)."""

import datetime as dt
import re
from collections.abc import Iterator

import pytest

from healthmesh.v1 import orchestrator_pb2 as pb
from healthmesh.v1 import verifier_pb2
from orchestrator.models.local import default_model_path
from tests.cloud_stub import RecordingProxy, free_port, start_llama_server, stop_process
from tests.conftest import MARIA, MeshHandle, run_mesh
from verifier.rephrasing import unfaithful_rephrasing

# The cases the issue found delivered garbled, wrong-language or false (each its own session).
CONVERSATIONS = [
    ["quais os horários de neurologia?"],
    ["quero marcar com um oftalmologista"],
    ["what can you do?"],
    ["my appointments"],
    ["cardiology slots", "I'll take the earliest one", "move it to Friday at 14:00"],
]
GARBAGE = ("desafío", "deleído", "Estejaço", "I'm sure I can help", "O que você gostaria")
APPOINTMENT_ID = re.compile(r"\b[A-Z]+-[A-Z]-APT-[0-9A-F]+\b")


@pytest.fixture(scope="module")
def meshes(tmp_path_factory) -> Iterator[tuple[MeshHandle, MeshHandle]]:
    """The same seed twice: one mesh where the bundled model may rephrase, one with no writer."""
    writing = run_mesh(tmp_path_factory.mktemp("writing"), HEALTHMESH_WRITERS="local",
                       HEALTHMESH_REPHRASE_MAX_CHARS="400", HEALTHMESH_WRITING_BUDGET_S="20")
    plain = run_mesh(tmp_path_factory.mktemp("plain"), HEALTHMESH_WRITERS="none")
    yield writing, plain
    writing.close()
    plain.close()


def converse(mesh: MeshHandle, turns: list[str]) -> list[pb.AskResponse]:
    replies, session = [], ""
    for message in turns:
        reply = mesh.ask(message, session_id=session, patient=MARIA, timeout=60)
        session = reply.session_id
        replies.append(reply)
    return replies


def same_ids(text: str, ids: list[str]) -> str:
    """`text` with its appointment ids replaced, in order, by `ids`."""
    given = iter(ids)
    return APPOINTMENT_ID.sub(lambda m: next(given, m.group(0)), text)


def test_patients_read_the_deterministic_answer_or_a_proven_rephrasing(meshes):
    writing, plain = meshes
    for turns in CONVERSATIONS:
        for got, want in zip(converse(writing, turns), converse(plain, turns), strict=True):
            assert got.verification.safe and got.disposition == want.disposition
            assert not any(g in got.answer for g in GARBAGE)
            # The two meshes hold the same seed; only the random appointment ids differ.
            deterministic = same_ids(want.answer, APPOINTMENT_ID.findall(got.answer))
            if got.model_route == pb.MODEL_ROUTE_NONE:
                assert got.answer == deterministic
            else:
                assert got.model_route == pb.MODEL_ROUTE_LOCAL
                assert not unfaithful_rephrasing(got.answer, deterministic, verifier_pb2.Evidence(),
                                                 want.language)


def test_a_dropped_model_text_names_its_reason(meshes):
    writing, _ = meshes
    reply = writing.ask("quais os horários de neurologia?", timeout=60)
    if reply.model_route == pb.MODEL_ROUTE_NONE:
        notes = [n for n in reply.verification.notes if n.startswith("model text dropped (local)")]
        assert notes and all("R4" in n or n.endswith(("budget", "unusable", "unavailable")) for n in notes)


def test_a_past_date_is_not_turned_into_an_offer_of_help(meshes):
    writing, _ = meshes
    past = (dt.date.today() - dt.timedelta(days=3)).isoformat()
    reply = writing.ask(f"book Dr. Fernando on {past} at 10:00", patient=MARIA, timeout=60)
    assert "help" not in reply.answer.lower() and "Fernando" in reply.answer
    assert not reply.appointment.appointment_id


def test_general_questions_are_answered_from_cited_passages(meshes):
    writing, plain = meshes
    for mesh in (writing, plain):
        reply = mesh.ask("what is a normal blood pressure?", timeout=60)
        assert reply.disposition == pb.DISPOSITION_ANSWERED and reply.citations
        assert reply.verification.safe
        # The false range the bundled model once wrote never reaches the patient.
        assert "120-129" not in reply.answer and "90-99" not in reply.answer


def test_the_stream_shows_the_model_starting_and_being_dropped(tmp_path):
    """A budget far below what the bundled model needs: the deterministic answer goes out, and
    the stream said the model started and was dropped for the budget."""
    mesh = run_mesh(tmp_path, HEALTHMESH_WRITERS="local", HEALTHMESH_REPHRASE_MAX_CHARS="400",
                    HEALTHMESH_WRITING_BUDGET_S="0.01")
    try:
        events = list(mesh.stub.AskStream(pb.AskRequest(message="what can you do?"), timeout=30))
    finally:
        mesh.close()
    model = [e.stage.detail for e in events if e.HasField("stage") and e.stage.stage == pb.STAGE_MODEL]
    assert model == ["writing: local", "dropped: budget"]
    final = events[-1].response
    assert final.model_route == pb.MODEL_ROUTE_NONE and final.verification.safe
    assert "model text dropped (local): budget" in final.verification.notes


@pytest.fixture(scope="module")
def cloud(tmp_path_factory) -> Iterator[tuple[RecordingProxy, MeshHandle]]:
    proc = start_llama_server(default_model_path(), free_port())
    port = proc.args[proc.args.index("--port") + 1]
    proxy = RecordingProxy(f"http://127.0.0.1:{port}").start()
    mesh = run_mesh(tmp_path_factory.mktemp("cloud"), HEALTHMESH_WRITERS="local,cloud",
                    HEALTHMESH_REPHRASE_MAX_CHARS="400", HEALTHMESH_WRITING_BUDGET_S="20",
                    HEALTHMESH_CLOUD_BASE_URL=proxy.url, HEALTHMESH_CLOUD_MODEL="smollm2")
    yield proxy, mesh
    mesh.close()
    proxy.stop()
    stop_process(proc)


PHI_QUERIES = [
    "Meu CPF é 390.533.447-05, quais exames de colesterol existem?",
    "I was born on 14/03/1961, what is a normal blood pressure?",
    "Please call me at (11) 98765-4321, what is hypertension?",
    "Patient Johnathan Smithers, MRN 00123456: what is psoriasis?",
]


def test_a_turn_that_holds_phi_never_uses_the_cloud(cloud):
    proxy, mesh = cloud
    before = len(proxy.bodies)
    free = mesh.ask("what is psoriasis?", timeout=60)
    assert not free.phi_detected and len(proxy.bodies) > before  # the cloud is really there
    for query in PHI_QUERIES:
        before = len(proxy.bodies)
        reply = mesh.ask(query, timeout=60)
        assert reply.phi_detected, query
        assert reply.model_route != pb.MODEL_ROUTE_CLOUD and len(proxy.bodies) == before, query
    # Once a session said something private, its later PHI-free turns stay local too.
    session = mesh.ask("Meu CPF é 390.533.447-05", timeout=60).session_id
    before = len(proxy.bodies)
    later = mesh.ask("what can you do?", session_id=session, timeout=60)
    assert later.model_route != pb.MODEL_ROUTE_CLOUD and len(proxy.bodies) == before
