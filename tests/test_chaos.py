"""Chaos as a test: under a steady Ask load, a clinic, the tools and the verifier are each
killed and hung in turn. The orchestrator never answers with a gRPC error, a clinic down turns
listings PARTIAL, the verifier down fails closed (BLOCKED), latency stays bounded by the call
caps, and once the service is back the answers are those of the healthy mesh."""

import asyncio

import pytest

from bench.chaos import FRAGILE, run_phases
from tests.conftest import run_mesh

SECONDS = 2.0


@pytest.fixture(scope="module")
def phases(tmp_path_factory):
    handle = run_mesh(tmp_path_factory.mktemp("chaos"), **FRAGILE)
    try:
        yield {p.name: p for p in asyncio.run(run_phases(handle.mesh, SECONDS, concurrency=4))}
    finally:
        handle.close()


def test_no_fault_of_one_service_turns_into_a_grpc_error(phases):
    for phase in phases.values():
        assert phase.asks > 0 and phase.codes == {"OK": phase.asks}, (phase.name, phase.codes)


def test_the_mesh_answers_as_before_once_the_service_is_back(phases):
    assert [p.name for p in phases.values() if p.recovered is False] == []


def test_a_clinic_down_turns_listings_partial_and_leaves_tool_answers_alone(phases):
    healthy = phases["healthy"].dispositions
    for name in ("clinic_c killed", "clinic_c hung"):
        seen = phases[name].dispositions
        assert {d for (m, d) in seen if m == "cardiology slots"} == {"DISPOSITION_PARTIAL"}, seen
        assert {d for (m, d) in seen if m != "cardiology slots"} == \
            {d for (m, d) in healthy if m != "cardiology slots"}


def test_the_verifier_down_fails_closed(phases):
    for name in ("verifier killed", "verifier hung"):
        assert {d for (_, d) in phases[name].dispositions} == {"DISPOSITION_BLOCKED"}


def test_the_tools_down_never_answer_a_tool_question_as_if_they_had(phases):
    healthy = {d for (m, d) in phases["healthy"].dispositions if m != "cardiology slots"}
    assert healthy == {"DISPOSITION_ANSWERED"}
    for name in ("tools killed", "tools hung"):
        seen = phases[name].dispositions
        assert "DISPOSITION_ANSWERED" not in {d for (m, d) in seen if m != "cardiology slots"}, seen
        assert {d for (m, d) in seen if m == "cardiology slots"} == {"DISPOSITION_ANSWERED"}


def test_latency_under_a_fault_stays_bounded_by_the_call_caps(phases):
    # Generous: one call cap (0.5 s) per stage that can meet the fault, never the Ask deadline.
    for phase in phases.values():
        assert phase.pct(0.95) < 3000, (phase.name, phase.pct(0.95))
