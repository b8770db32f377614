"""Clinic input limits (every request string bounded, errors that never echo it) and one name per
CPF per clinic, through a real clinic process."""

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import grpc
from google.protobuf.descriptor import Descriptor, FieldDescriptor

from clinics.limits import BOUNDED_AS_A_WHOLE, FIELD_LIMITS, MAX_ID_CHARS, MAX_NAME_CHARS
from healthmesh.v1 import clinic_pb2 as pb
from healthmesh.v1 import common_pb2
from runtime.errors import bad_request_fields
from tests.conftest import JOAO, MARIA
from tests.test_clinic_rpcs import book, first_slots, rpc_error

SERVICE = pb.DESCRIPTOR.services_by_name["ClinicService"]
# An error about an oversized field says which field and how long; this is plenty for that.
SHORT_MESSAGE = 120


def string_paths(message: Descriptor, prefix: str = "") -> Iterator[str]:
    """Paths of the strings a request can carry, as InvalidArgument names them."""
    for field in message.fields:
        path = prefix + field.name
        if path in BOUNDED_AS_A_WHOLE:
            continue
        assert not field.is_repeated, f"{path}: repeated fields need a limit"
        if field.message_type is not None:
            yield from string_paths(field.message_type, path + ".")
        elif field.type == FieldDescriptor.TYPE_STRING:
            yield path


CASES = [(method.name, path) for method in SERVICE.methods for path in string_paths(method.input_type)]


def request_with(method: str, path: str, value: str):
    request = getattr(pb, SERVICE.methods_by_name[method].input_type.name)()
    *parents, name = path.split(".")
    target = request
    for parent in parents:
        target = getattr(target, parent)
    setattr(target, name, value)
    return request


def table(db_dir: Path, name: str) -> list[tuple]:
    with closing(sqlite3.connect(db_dir / "clinic_a.sqlite3")) as db:
        return db.execute(f"SELECT * FROM {name}").fetchall()


def test_every_request_string_has_a_limit():
    assert CASES
    assert {path for _, path in CASES} == set(FIELD_LIMITS)


def test_each_field_over_its_limit_is_invalid_argument_naming_it(clinic):
    for method, path in CASES:
        limit = FIELD_LIMITS[path]
        err = rpc_error(getattr(clinic.stub, method), request_with(method, path, "Z" * (limit + 1)))
        assert err.code() == grpc.StatusCode.INVALID_ARGUMENT, (method, path)
        assert bad_request_fields(err.trailing_metadata()) == [path], (method, path)
        assert len(err.details()) <= SHORT_MESSAGE and "ZZZZZ" not in err.details(), (method, path)
        assert str(limit) in err.details()


def test_values_at_the_limit_are_accepted(clinic):
    slot = first_slots(clinic, 1)[0]
    # Whitespace around the CPF's punctuation still fits; a 200-letter name is still a name.
    who = common_pb2.PatientIdentity(full_name="Maria " + "S" * (MAX_NAME_CHARS - 6),
                                     cpf=" 529 . 982 . 247-25 ")
    appointment = book(clinic, slot, who, key="k" * MAX_ID_CHARS)
    assert appointment.status == common_pb2.APPOINTMENT_STATUS_BOOKED
    err = rpc_error(clinic.stub.GetHandoffPacket,
                    pb.GetHandoffPacketRequest(appointment_id="A" * MAX_ID_CHARS))
    assert err.code() == grpc.StatusCode.NOT_FOUND


def test_three_megabyte_idempotency_key_is_refused_and_not_stored(clinic, tmp_path):
    slot = first_slots(clinic, 1)[0]
    err = rpc_error(clinic.stub.BookAppointment, pb.BookAppointmentRequest(
        doctor=slot.doctor, date=slot.date, time=slot.time, patient=MARIA,
        idempotency_key="k" * (3 * 1024 * 1024)))
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert bad_request_fields(err.trailing_metadata()) == ["idempotency_key"]
    assert len(err.details()) <= SHORT_MESSAGE
    assert table(tmp_path / "data", "idempotency") == []
    assert table(tmp_path / "data", "appointments") == []
    assert first_slots(clinic, 1)[0] == slot


def test_huge_doctor_name_is_not_echoed(clinic):
    err = rpc_error(clinic.stub.ListAvailableSlots,
                    pb.ListAvailableSlotsRequest(doctor="Dr. " + "x" * 100_000))
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert bad_request_fields(err.trailing_metadata()) == ["doctor"]
    assert len(err.details()) <= SHORT_MESSAGE and "xxxxx" not in err.details()


def test_a_known_cpf_under_another_name_books_nothing(clinic, tmp_path):
    a, b = first_slots(clinic, 2)
    book(clinic, a, MARIA)
    impostor = common_pb2.PatientIdentity(full_name="Mario Souza", cpf="52998224725")
    err = rpc_error(clinic.stub.BookAppointment, pb.BookAppointmentRequest(
        doctor=b.doctor, date=b.date, time=b.time, patient=impostor, idempotency_key="impostor"))
    assert err.code() == grpc.StatusCode.PERMISSION_DENIED
    assert "Maria" not in err.details() and "Souza" not in err.details()
    assert [row[3] for row in table(tmp_path / "data", "appointments")] == ["52998224725"]
    assert [row[0] for row in table(tmp_path / "data", "idempotency")] == []
    assert b.slot_id in {s.slot_id for s in first_slots(clinic, 5)}
    assert not clinic.stub.ListAppointments(pb.ListAppointmentsRequest(patient=impostor)).appointments


def test_the_same_person_in_other_case_and_accents_still_books(clinic):
    a, b, c = first_slots(clinic, 3)
    first = book(clinic, a, MARIA)
    same = common_pb2.PatientIdentity(full_name="  MÁRIA   souza ", cpf="529.982.247-25")
    second = book(clinic, b, same)
    mine = clinic.stub.ListAppointments(pb.ListAppointmentsRequest(patient=MARIA)).appointments
    assert [m.appointment_id for m in mine] == [first.appointment_id, second.appointment_id]
    # Another CPF is another person, whatever the name.
    assert book(clinic, c, JOAO).status == common_pb2.APPOINTMENT_STATUS_BOOKED


def test_a_known_cpf_under_another_name_cannot_move_or_cancel(clinic, tmp_path):
    a, b = first_slots(clinic, 2)
    appointment = book(clinic, a, MARIA)
    impostor = common_pb2.PatientIdentity(full_name="Mario Souza", cpf=MARIA.cpf)
    for call, request in (
        (clinic.stub.CancelAppointment,
         pb.CancelAppointmentRequest(appointment_id=appointment.appointment_id, patient=impostor)),
        (clinic.stub.RescheduleAppointment, pb.RescheduleAppointmentRequest(
            appointment_id=appointment.appointment_id, new_date=b.date, new_time=b.time,
            new_doctor=b.doctor, patient=impostor)),
    ):
        assert rpc_error(call, request).code() == grpc.StatusCode.PERMISSION_DENIED
    assert [row[4] for row in table(tmp_path / "data", "appointments")] == ["BOOKED"]
