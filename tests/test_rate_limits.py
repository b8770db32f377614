"""Bookings, moves and cancellations are rate limited per patient (at the orchestrator) and per
caller (at each clinic), answered with RESOURCE_EXHAUSTED and when to try again."""

import grpc
import pytest
from google.rpc import error_details_pb2, status_pb2

from healthmesh.v1 import clinic_pb2 as pb
from runtime.errors import RateLimited
from runtime.ratelimit import MAX_KEYS, RateLimiter
from tests.conftest import JOAO, MARIA, run_mesh


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def retry_after(err: grpc.RpcError) -> int:
    for key, value in err.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            for detail in status_pb2.Status.FromString(value).details:
                info = error_details_pb2.RetryInfo()
                if detail.Unpack(info):
                    return info.retry_delay.seconds
    raise AssertionError("no RetryInfo detail")


def test_a_bucket_allows_its_burst_then_says_when_to_come_back():
    clock = Clock()
    limiter = RateLimiter("bookings", burst=2, window_s=60, clock=clock)
    limiter.take("a")
    limiter.take("a")
    with pytest.raises(RateLimited) as refused:
        limiter.take("a")
    assert refused.value.retry_after_s == 30 and "try again in 30 s" in refused.value.message
    limiter.take("b")  # another key has its own budget
    clock.now = 30
    limiter.take("a")  # one call back after window / burst


def test_throwaway_keys_do_not_grow_memory_without_bound():
    clock = Clock()
    limiter = RateLimiter("bookings", burst=1, window_s=1, clock=clock)
    for i in range(MAX_KEYS):
        limiter.take(f"k{i}")
    clock.now = 5  # every bucket is full again
    limiter.take("one more")
    assert len(limiter._buckets) == 1


def test_a_patient_over_the_limit_gets_resource_exhausted_through_the_mesh(tmp_path):
    mesh = run_mesh(tmp_path, HEALTHMESH_PATIENT_WRITES="1")
    try:
        listing = mesh.ask("cardiology slots", patient=MARIA)
        first = mesh.ask("1", session_id=listing.session_id)
        assert first.HasField("appointment"), first.answer
        asked = mesh.ask("cancel my appointment", session_id=listing.session_id)  # a read, then "sure?"
        assert asked.answer.startswith("Cancel this appointment?"), asked.answer
        with pytest.raises(grpc.RpcError) as err:
            mesh.ask("yes", session_id=listing.session_id)  # the cancel itself: over her limit
        assert err.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and retry_after(err.value) >= 1
        # Nothing was sent: her appointment stands, and another patient still books.
        mine = mesh.ask("what appointments do I have?", session_id=listing.session_id)
        assert first.appointment.appointment_id in mine.answer
        other = mesh.ask("cardiology slots", patient=JOAO)
        assert mesh.ask("1", session_id=other.session_id).HasField("appointment")
    finally:
        mesh.close()


def test_a_caller_over_its_limit_gets_resource_exhausted_at_the_clinic(start_clinic):
    clinic = start_clinic(HEALTHMESH_CALLER_WRITES="2", HEALTHMESH_CALLER_WRITES_WINDOW_S="600")
    slots = clinic.stub.ListAvailableSlots(pb.ListAvailableSlotsRequest(page_size=3)).slots
    for slot in slots[:2]:
        clinic.stub.BookAppointment(pb.BookAppointmentRequest(doctor=slot.doctor, date=slot.date,
                                                              time=slot.time, patient=MARIA))
    with pytest.raises(grpc.RpcError) as err:
        clinic.stub.BookAppointment(pb.BookAppointmentRequest(doctor=slots[2].doctor, date=slots[2].date,
                                                              time=slots[2].time, patient=MARIA))
    assert err.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and retry_after(err.value) == 300
