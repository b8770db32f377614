"""Chaos as a test: under a steady Ask load, a clinic, the tools and the verifier are each
killed and hung in turn, with listings from slot replicas (the default) and asking every clinic. The
orchestrator never answers with a gRPC error, a clinic down turns listings PARTIAL (from a replica: once
its stream has ended, at once when killed; a hung clinic's slots are listed until keepalive finds it,
longer than a phase here), the verifier down fails closed (BLOCKED), latency stays bounded by the call
caps, and once the service is back the answers are those of the healthy mesh."""

import asyncio

import pytest

from bench.chaos import FRAGILE, run_phases
from tests.conftest import run_mesh

SECONDS = 2.0


class Phases(dict):
    """The phases by name, and whether listings came from slot replicas."""

    replica: bool


@pytest.fixture(scope="module", params=["true", "false"], ids=["slot replica", "every clinic asked"])
def phases(request, tmp_path_factory):
    handle = run_mesh(tmp_path_factory.mktemp("chaos"), **FRAGILE, HEALTHMESH_SLOT_REPLICA=request.param)
    try:
        phases = Phases((p.name, p) for p in asyncio.run(run_phases(handle.mesh, SECONDS, concurrency=4)))
        phases.replica = request.param == "true"
        yield phases
    finally:
        handle.close()


def test_no_fault_of_one_service_turns_into_a_grpc_error(phases):
    for phase in phases.values():
        assert phase.asks > 0 and phase.codes == {"OK": phase.asks}, (phase.name, phase.codes)


def test_the_mesh_answers_as_before_once_the_service_is_back(phases):
    assert [p.name for p in phases.values() if p.recovered is False] == []


def test_a_clinic_down_turns_listings_partial_and_leaves_tool_answers_alone(phases):
    healthy = phases["healthy"].dispositions
    replica = phases.replica
    for name in ("clinic_c killed", "clinic_c hung"):
        seen = phases[name].dispositions
        listings = {d for (m, d) in seen if m == "cardiology slots"}
        if not replica:
            assert listings == {"DISPOSITION_PARTIAL"}, seen
        elif name.endswith("killed"):  # the Asks already past the listing when the stream ended
            assert "DISPOSITION_PARTIAL" in listings, seen
            assert listings <= {"DISPOSITION_PARTIAL", "DISPOSITION_ANSWERED"}, seen
        else:
            assert listings <= {"DISPOSITION_PARTIAL", "DISPOSITION_ANSWERED"}, seen
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
