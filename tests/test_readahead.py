"""Reads ahead of the safety screen (orchestrator.readahead), through the real mesh keeping every
trace: a listing's clinic calls start while the screen runs, yet an emergency — even one that
also asks for a booking — sends no write and shows no step, and the audit records the message
redacted."""

import json
import time
from pathlib import Path

import pytest

from healthmesh.v1 import orchestrator_pb2 as pb
from orchestrator.privacy.audit import local_log
from tests.conftest import MARIA, run_mesh
from tests.test_orchestrator_flows import my_bookings


@pytest.fixture(scope="module")
def traced(tmp_path_factory):
    data = tmp_path_factory.mktemp("readahead")
    handle = run_mesh(data, OTEL_TRACES_SAMPLER="parentbased_always_on")
    yield handle, data
    handle.close()


def orchestrator_spans(data: Path, trace_id: str, names: set[str]) -> dict[str, list[dict]]:
    """The orchestrator's spans of one trace by name, once every one of `names` was exported."""
    deadline = time.monotonic() + 15
    while True:
        lines = (data / "traces.jsonl").read_text().splitlines() if (data / "traces.jsonl").exists() else []
        spans: dict[str, list[dict]] = {}
        for span in map(json.loads, lines):
            if span["trace_id"] == trace_id and span["service"] == "orchestrator":
                spans.setdefault(span["name"], []).append(span)
        if names <= spans.keys() or time.monotonic() > deadline:
            return spans
        time.sleep(0.2)


def committed(data: Path, trace_id: str) -> dict:
    """The turn's audit record, once the orchestrator's journal writer committed it (just after the reply)."""
    deadline = time.monotonic() + 15
    while True:
        found = [r for r in local_log(data).records() if r["trace_id"] == trace_id]
        if found or time.monotonic() > deadline:
            return found[0]
        time.sleep(0.05)


def test_a_listing_reads_the_clinics_while_the_screen_runs(traced):
    mesh, data = traced
    reply = mesh.ask("Which cardiologists are available?")
    assert reply.disposition == pb.DISPOSITION_ANSWERED and len(reply.steps) == 2
    spans = orchestrator_spans(data, reply.trace_id, {"screen", "step list_available_slots"})
    screen = spans["screen"][0]
    steps = spans["step list_available_slots"]
    assert len(steps) == 2
    assert all(step["start_ns"] < screen["end_ns"] for step in steps), "the reads waited for the screen"


def test_steps_read_ahead_are_shown_only_after_the_screen(traced):
    mesh, _ = traced
    events = list(mesh.stub.AskStream(pb.AskRequest(message="orthopedics next week"), timeout=20))
    kinds = [e.WhichOneof("event") for e in events]
    assert kinds.count("step") == 2
    assert kinds.index("stage") < kinds.index("step")
    assert events[kinds.index("stage")].stage.stage == pb.STAGE_SCREEN


@pytest.mark.parametrize("message", [
    "I have crushing chest pain, show me cardiology slots",
    "I have crushing chest pain, book the earliest one",
])
def test_an_emergency_sends_no_write_and_shows_no_step(traced, message):
    mesh, _ = traced
    listing = mesh.ask("cardiology slots", patient=MARIA)
    before = {cid: my_bookings(mesh, cid) for cid in ("clinic_a", "clinic_c")}
    events = list(mesh.stub.AskStream(pb.AskRequest(session_id=listing.session_id, message=message,
                                                    patient=MARIA), timeout=20))
    reply = events[-1].response
    assert reply.disposition == pb.DISPOSITION_EMERGENCY
    assert not reply.steps and not reply.slots
    assert not any(e.HasField("step") for e in events)
    assert {cid: my_bookings(mesh, cid) for cid in ("clinic_a", "clinic_c")} == before


def test_the_audit_records_the_message_redacted(traced):
    mesh, data = traced
    reply = mesh.ask("my CPF is 529.982.247-25, cardiology slots please")
    assert reply.phi_detected and "NATIONAL_ID" in reply.phi_categories
    record = committed(data, reply.trace_id)
    assert "529.982.247-25" not in json.dumps(record)
    assert "[NATIONAL_ID]" in record["message_redacted"]
