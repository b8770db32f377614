"""SOAP handoff packets booked with an appointment, through a real clinic process: stored in
the booking's transaction, validated, idempotent, carried by a reschedule, kept on cancel,
durable across restarts, and added to databases created before packets existed."""

import datetime as dt
import math
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import grpc
import pytest

from deploy.local.processes import start_all
from healthmesh.v1 import clinic_pb2 as pb
from healthmesh.v1 import common_pb2
from runtime.errors import bad_request_fields
from tests.conftest import MARIA


def packet(**changes: object) -> pb.HandoffPacket:
    """A fictional consult's packet; `changes` overrides its fields."""
    fields: dict[str, object] = {
        "subjective": ["chief complaint: palpitations", "onset: three days ago",
                       "timing: a few minutes, twice a day"],
        "objective": ["drug check: no interaction among the listed medicines"],
        "assessment_specialty": "cardiology",
        "assessment_urgency": 2,
        "assessment_confidence": 0.75,
        "proposals": [
            common_pb2.SpecialtyProposal(specialty="cardiology", urgency=2, confidence=0.9,
                                         agent="cardio", rationale="palpitations"),
            common_pb2.SpecialtyProposal(specialty="general_practice", urgency=1, confidence=0.6,
                                         agent="gp", rationale="no alarm signs"),
        ],
        "plan": "Appointment with the cardiologist",
        "flags": [],
        "language": "en",
        **changes,
    }
    return pb.HandoffPacket(**fields)


def rpc_error(call, request) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as info:
        call(request)
    return info.value


def first_slots(clinic, n: int = 1) -> list[common_pb2.Slot]:
    return list(clinic.stub.ListAvailableSlots(pb.ListAvailableSlotsRequest(page_size=n)).slots)


def book(clinic, slot, handoff: pb.HandoffPacket | None = None,
         key: str = "") -> common_pb2.Appointment:
    return clinic.stub.BookAppointment(pb.BookAppointmentRequest(
        doctor=slot.doctor, date=slot.date, time=slot.time, patient=MARIA,
        idempotency_key=key, handoff=handoff,
    )).appointment


def get(clinic, appointment_id: str) -> pb.GetHandoffPacketResponse:
    return clinic.stub.GetHandoffPacket(pb.GetHandoffPacketRequest(appointment_id=appointment_id))


@contextmanager
def database(tmp_path: Path) -> Iterator[sqlite3.Connection]:
    """The clinic's own SQLite file (autocommit), next to the running process."""
    with closing(sqlite3.connect(tmp_path / "data" / "clinic_a.sqlite3",
                                 isolation_level=None)) as conn:
        yield conn


def stored_packets(tmp_path: Path) -> list[str]:
    """Appointment ids in the clinic's handoff table."""
    with database(tmp_path) as conn:
        return sorted(r[0] for r in conn.execute("SELECT appointment_id FROM handoff_packets"))


def test_booked_packet_comes_back_intact(clinic):
    sent = packet(flags=["pregnancy"], language="pt",
                  subjective=["queixa principal: palpitações", "início: há três dias"])
    appointment = book(clinic, first_slots(clinic)[0], sent)
    reply = get(clinic, appointment.appointment_id)
    assert reply.packet == sent
    assert reply.appointment == appointment
    assert dt.datetime.fromisoformat(reply.created_at)


def test_missing_packet_or_appointment_is_not_found(clinic):
    without = book(clinic, first_slots(clinic)[0])
    for appointment_id in (without.appointment_id, "CARD-A-APT-NOPE"):
        assert rpc_error(clinic.stub.GetHandoffPacket, pb.GetHandoffPacketRequest(
            appointment_id=appointment_id)).code() == grpc.StatusCode.NOT_FOUND
    err = rpc_error(clinic.stub.GetHandoffPacket, pb.GetHandoffPacketRequest(appointment_id=" "))
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert bad_request_fields(err.trailing_metadata()) == ["appointment_id"]


@pytest.mark.parametrize(("change", "field"), [
    ({"assessment_specialty": "neurology"}, "handoff.assessment_specialty"),
    ({"assessment_specialty": ""}, "handoff.assessment_specialty"),
    ({"assessment_urgency": 0}, "handoff.assessment_urgency"),
    ({"assessment_urgency": 5}, "handoff.assessment_urgency"),
    ({"assessment_confidence": -0.01}, "handoff.assessment_confidence"),
    ({"assessment_confidence": 1.5}, "handoff.assessment_confidence"),
    ({"assessment_confidence": math.nan}, "handoff.assessment_confidence"),
    ({"language": "es"}, "handoff.language"),
    ({"language": ""}, "handoff.language"),
    ({"proposals": [common_pb2.SpecialtyProposal(specialty="cardiology", urgency=9,
                                                 confidence=0.5)]},
     "handoff.proposals[0].urgency"),
    ({"subjective": ["x" * 1024] * 33}, "handoff"),
])
def test_invalid_packet_books_nothing(clinic, tmp_path, change, field):
    slot = first_slots(clinic)[0]
    err = rpc_error(clinic.stub.BookAppointment, pb.BookAppointmentRequest(
        doctor=slot.doctor, date=slot.date, time=slot.time, patient=MARIA,
        handoff=packet(**change)))
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert bad_request_fields(err.trailing_metadata()) == [field]
    assert first_slots(clinic)[0] == slot
    assert not clinic.stub.ListAppointments(pb.ListAppointmentsRequest(patient=MARIA)).appointments
    assert stored_packets(tmp_path) == []


def test_packet_at_the_size_limit_is_accepted(clinic):
    sent = packet(plan="")
    sent.plan = "p" * (32 * 1024 - sent.ByteSize() - 4)  # tag and 3-byte length prefix
    assert sent.ByteSize() == 32 * 1024
    appointment = book(clinic, first_slots(clinic)[0], sent)
    assert get(clinic, appointment.appointment_id).packet == sent


def test_failed_packet_write_rolls_back_the_booking(clinic, tmp_path):
    # The database itself refuses the packet row, after the appointment row was written.
    with database(tmp_path) as conn:
        conn.execute("CREATE TRIGGER refuse BEFORE INSERT ON handoff_packets"
                     " BEGIN SELECT RAISE(ABORT, 'refused'); END")
    slot = first_slots(clinic)[0]
    with pytest.raises(grpc.RpcError):
        book(clinic, slot, packet())
    assert first_slots(clinic)[0] == slot
    assert not clinic.stub.ListAppointments(pb.ListAppointmentsRequest(patient=MARIA)).appointments


def test_idempotent_retry_with_the_same_packet_returns_the_first_booking(clinic, tmp_path):
    slot = first_slots(clinic)[0]
    first = book(clinic, slot, packet(), key="consult-1")
    assert book(clinic, slot, packet(), key="consult-1") == first
    assert stored_packets(tmp_path) == [first.appointment_id]
    assert get(clinic, first.appointment_id).packet == packet()


@pytest.mark.parametrize("retry", [packet(plan="another plan"), None])
def test_same_key_with_another_packet_is_already_exists(clinic, tmp_path, retry):
    slot = first_slots(clinic)[0]
    first = book(clinic, slot, packet(), key="consult-1")
    err = rpc_error(clinic.stub.BookAppointment, pb.BookAppointmentRequest(
        doctor=slot.doctor, date=slot.date, time=slot.time, patient=MARIA,
        idempotency_key="consult-1", handoff=retry))
    assert err.code() == grpc.StatusCode.ALREADY_EXISTS
    assert stored_packets(tmp_path) == [first.appointment_id]
    assert get(clinic, first.appointment_id).packet == packet()


def test_a_key_used_without_a_packet_rejects_a_retry_with_one(clinic):
    slot = first_slots(clinic)[0]
    book(clinic, slot, key="plain-1")
    assert book(clinic, slot, key="plain-1").date == slot.date
    err = rpc_error(clinic.stub.BookAppointment, pb.BookAppointmentRequest(
        doctor=slot.doctor, date=slot.date, time=slot.time, patient=MARIA,
        idempotency_key="plain-1", handoff=packet()))
    assert err.code() == grpc.StatusCode.ALREADY_EXISTS


def test_reschedule_carries_the_packet_and_cancel_keeps_it(clinic, tmp_path):
    a, b, taken = first_slots(clinic, 3)
    original = book(clinic, a, packet())
    created_at = get(clinic, original.appointment_id).created_at
    clinic.stub.BookAppointment(pb.BookAppointmentRequest(
        doctor=taken.doctor, date=taken.date, time=taken.time,
        patient=common_pb2.PatientIdentity(full_name="João Pereira", cpf="111.444.777-35")))

    # A reschedule that fails on its second half copies nothing.
    with pytest.raises(grpc.RpcError):
        clinic.stub.RescheduleAppointment(pb.RescheduleAppointmentRequest(
            appointment_id=original.appointment_id, new_doctor=taken.doctor,
            new_date=taken.date, new_time=taken.time, patient=MARIA))
    assert stored_packets(tmp_path) == [original.appointment_id]

    moved = clinic.stub.RescheduleAppointment(pb.RescheduleAppointmentRequest(
        appointment_id=original.appointment_id, new_doctor=b.doctor, new_date=b.date,
        new_time=b.time, patient=MARIA, idempotency_key="move-1")).appointment
    carried = get(clinic, moved.appointment_id)
    assert (carried.appointment, carried.packet, carried.created_at) == (moved, packet(), created_at)
    assert get(clinic, original.appointment_id).appointment.status == (
        common_pb2.APPOINTMENT_STATUS_RESCHEDULED)
    # A retried reschedule returns the first result and copies nothing more.
    clinic.stub.RescheduleAppointment(pb.RescheduleAppointmentRequest(
        appointment_id=original.appointment_id, new_doctor=b.doctor, new_date=b.date,
        new_time=b.time, patient=MARIA, idempotency_key="move-1"))
    assert stored_packets(tmp_path) == sorted([original.appointment_id, moved.appointment_id])

    clinic.stub.CancelAppointment(pb.CancelAppointmentRequest(
        appointment_id=moved.appointment_id, patient=MARIA))
    kept = get(clinic, moved.appointment_id)
    assert kept.packet == packet()
    assert kept.appointment.status == common_pb2.APPOINTMENT_STATUS_CANCELLED


def test_packet_survives_a_restart(clinic):
    appointment = book(clinic, first_slots(clinic)[0], packet())
    before = get(clinic, appointment.appointment_id)
    clinic.restart()
    assert get(clinic, appointment.appointment_id) == before


def test_database_from_before_packets_is_upgraded_on_start(clinic, tmp_path):
    old = book(clinic, first_slots(clinic)[0])
    clinic.close_channel()
    clinic.service.stop()
    with database(tmp_path) as conn:
        conn.execute("DROP TABLE handoff_packets")
    start_all([clinic.service])
    appointment = book(clinic, first_slots(clinic)[0], packet())
    assert get(clinic, appointment.appointment_id).packet == packet()
    mine = clinic.stub.ListAppointments(pb.ListAppointmentsRequest(patient=MARIA)).appointments
    assert [a.appointment_id for a in mine] == [old.appointment_id, appointment.appointment_id]
