"""The number of clinics is the registry's: clinic ids beyond the six of deploy/registry.json start
with seed data drawn from their id, and the orchestrator fans a listing out to all of them."""

import pytest

from bench.scale import cardiology_registry
from deploy.local.mesh import start_mesh
from healthmesh.v1 import clinic_pb2, orchestrator_pb2
from tests.conftest import MeshHandle

EXTRA = [f"cardio_{n}" for n in range(1, 7)]


@pytest.fixture(scope="module")
def eight_clinics(tmp_path_factory):
    data = tmp_path_factory.mktemp("eight")
    handle = MeshHandle(start_mesh(data, ephemeral_ports=True, registry_path=cardiology_registry(
        data / "cardiology.json", EXTRA), env={"HEALTHMESH_SHUTDOWN_GRACE_S": "2",
                                                "HEALTHMESH_REPHRASE_MAX_CHARS": "0",
                                                "HEALTHMESH_SLOTS_PER_CLINIC": "1"}))
    yield handle
    handle.close()


def test_a_listing_reaches_every_clinic_of_the_registry(eight_clinics):
    reply = eight_clinics.ask("cardiology slots")
    assert reply.disposition == orchestrator_pb2.DISPOSITION_ANSWERED, reply.answer
    assert {s.clinic_id for s in reply.steps} == {"clinic_a", "clinic_c", *EXTRA}
    assert {s.clinic_id for s in reply.slots} == {"clinic_a", "clinic_c", *EXTRA}
    assert all(s.status == orchestrator_pb2.STEP_STATUS_OK for s in reply.steps if s.clinic_id in EXTRA)


def test_a_drawn_clinic_lists_its_own_doctors_slots(eight_clinics):
    listing = eight_clinics.ask("cardiology slots")
    drawn = next(s for s in listing.slots if s.clinic_id == "cardio_4")
    described = eight_clinics.clinic_stub("cardio_4").DescribeClinic(clinic_pb2.DescribeClinicRequest(),
                                                                    timeout=5)
    assert described.clinic_id == "cardio_4" and drawn.doctor in {d.name for d in described.doctors}
