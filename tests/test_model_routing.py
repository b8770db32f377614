"""Model routing end to end: PHI-bearing payloads are answered by the bundled GGUF through
llama.cpp on this machine and never reach the cloud; PHI-free ones reach a real
OpenAI-compatible server (llama_cpp.server behind a recording proxy); when that server
stops, answers fall back to local and the cloud breaker opens. Every answer stays verified."""

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from healthmesh.v1 import orchestrator_pb2 as pb
from orchestrator.context import RequestContext
from orchestrator.models.cloud import CloudModel
from orchestrator.models.local import default_model_path
from orchestrator.models.prompts import rephrase_messages
from orchestrator.models.writer import Draft, Writer, egress_guard
from orchestrator.privacy.phi import PhiDetector
from runtime.settings import WRITER_ROUTES as ROUTES
from tests.cloud_stub import RecordingProxy, free_port, start_llama_server, stop_process
from tests.conftest import MARIA, run_mesh

LABELED = Path(__file__).with_name("phi_labeled.json")


def labeled_set() -> list[dict]:
    return json.loads(LABELED.read_text(encoding="utf-8"))


def phi_texts() -> list[str]:
    return [item["text"] for item in labeled_set() if item["categories"]]


def model_spans(trace_file: Path, trace_id: str) -> list[dict]:
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        if trace_file.exists():
            spans = [json.loads(line) for line in trace_file.read_text().splitlines() if trace_id in line]
            found = [s for s in spans if s["name"] == "model" and s["trace_id"] == trace_id]
            if found:
                return found
        time.sleep(0.2)
    return []


@pytest.fixture(scope="module")
def cloud_server() -> Iterator[tuple]:
    proc = start_llama_server(default_model_path(), free_port())
    port = proc.args[proc.args.index("--port") + 1]
    proxy = RecordingProxy(f"http://127.0.0.1:{port}").start()
    yield proc, proxy
    proxy.stop()
    stop_process(proc)


def test_phi_free_payloads_reach_the_cloud_and_phi_never_does(cloud_server):
    """The whole labeled set through the real detector and the real cloud client: every
    PHI-free payload is sent, no PHI message ever reaches the server."""
    _, proxy = cloud_server
    detector = PhiDetector()
    cloud = CloudModel(proxy.url, "smollm2", guard=egress_guard(detector))
    writer = Writer(detector, None, cloud, rephrase_max_chars=400, budget_s=30, routes=ROUTES)
    before = len(proxy.bodies)

    async def send_all() -> int:
        sent = 0
        for item in labeled_set():
            messages = rephrase_messages(item["text"], "pt")
            names = item.get("patient_names", [])  # the session's patient, when the label needs it
            phi = writer.payload_phi(messages, names)
            ctx = RequestContext.with_timeout(30).for_patient(*names)
            draft = await writer.draft(ctx, messages, phi.found, max_tokens=1, sentences=1)
            sent += not phi.found
            assert not (phi.found and isinstance(draft, Draft) and draft.route == "cloud")
        await cloud.close()
        return sent

    sent = asyncio.run(send_all())
    bodies = [b.decode() for b in proxy.bodies[before:]]
    # PHI-free questions do reach it, but for the few the egress guard (which also reads the
    # decoded wire JSON) refused on its own.
    assert len(bodies) == sent - cloud.refusals > 40
    for text in phi_texts():
        assert not any(json.dumps(text, ensure_ascii=False)[1:-1] in body or text in body for body in bodies)


def test_local_model_answers_a_general_question_through_the_mesh(tmp_path):
    mesh = run_mesh(tmp_path, HEALTHMESH_REPHRASE_MAX_CHARS="400", HEALTHMESH_WRITERS="local",
                    HEALTHMESH_WRITING_BUDGET_S="20")
    try:
        reply = mesh.ask("what is hypertension?", timeout=30)
        booked = mesh.ask("I'll take the earliest one", session_id=mesh.ask(
            "cardiology slots", patient=MARIA).session_id, timeout=30)
    finally:
        mesh.close()
    assert reply.verification.safe and not reply.phi_detected
    spans = model_spans(tmp_path / "traces.jsonl", reply.trace_id)
    assert spans and spans[0]["attributes"]["healthmesh.models_called"] == ["local"]  # real inference ran
    # Grounded: the answer cites the guideline passages it came from, with or without a summary.
    assert reply.disposition == pb.DISPOSITION_ANSWERED and reply.citations
    if reply.model_route == pb.MODEL_ROUTE_LOCAL:
        assert "not medical advice" in reply.answer
    else:  # the verifier refused the model's summary: the passages themselves are sent, and why
        assert any(n.startswith("model text dropped (local)") for n in reply.verification.notes)
    # A booking confirmation names the patient: PHI, so only the local model may phrase it.
    assert booked.phi_detected and "NAME" in booked.phi_categories
    assert booked.model_route in (pb.MODEL_ROUTE_LOCAL, pb.MODEL_ROUTE_NONE)
    assert booked.appointment.appointment_id and booked.verification.safe


def test_cloud_route_fallback_and_breaker_through_the_mesh(tmp_path, cloud_server):
    proc, proxy = cloud_server
    mesh = run_mesh(tmp_path, HEALTHMESH_REPHRASE_MAX_CHARS="400", HEALTHMESH_CLOUD_BASE_URL=proxy.url,
                    HEALTHMESH_CLOUD_MODEL="smollm2", HEALTHMESH_WRITERS="local,cloud",
                    HEALTHMESH_WRITING_BUDGET_S="30")
    try:
        before = len(proxy.bodies)
        free = mesh.ask("what is psoriasis?", timeout=60)
        assert len(proxy.bodies) > before and "psoriasis" in proxy.bodies[-1].decode()
        assert not free.phi_detected
        assert free.model_route in (pb.MODEL_ROUTE_CLOUD, pb.MODEL_ROUTE_NONE)
        assert model_spans(tmp_path / "traces.jsonl", free.trace_id)[0]["attributes"][
            "healthmesh.models_called"] == ["cloud"]

        before = len(proxy.bodies)
        secret = mesh.ask("Sou Maria Souza, CPF 529.982.247-25. O que é psoríase?", timeout=60)
        assert secret.phi_detected and {"NAME", "NATIONAL_ID"} <= set(secret.phi_categories)
        assert secret.model_route in (pb.MODEL_ROUTE_LOCAL, pb.MODEL_ROUTE_NONE)
        assert len(proxy.bodies) == before  # nothing reached the cloud

        stop_process(proc)  # the cloud goes away mid-run: the proxy now answers 502
        for _ in range(2):
            fallback = mesh.ask("what is acne?", timeout=60)
            assert fallback.verification.safe
            assert fallback.model_route in (pb.MODEL_ROUTE_LOCAL, pb.MODEL_ROUTE_NONE)
        assert model_spans(tmp_path / "traces.jsonl", fallback.trace_id)[0]["attributes"][
            "healthmesh.models_called"] == ["cloud", "local"]
        described = mesh.stub.DescribeMesh(pb.DescribeMeshRequest(), timeout=10)
        cloud = next(u for u in described.upstreams if u.name == "cloud_model")
        assert cloud.breaker == pb.BREAKER_STATE_OPEN
    finally:
        mesh.close()
