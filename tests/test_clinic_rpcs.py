"""Every ClinicService RPC through a real channel: the happy path and each documented error."""

import datetime as dt

import grpc
import pytest

from healthmesh.v1 import clinic_pb2 as pb
from healthmesh.v1 import common_pb2
from runtime.errors import bad_request_fields
from tests.conftest import JOAO, MARIA, monday_after


def rpc_error(call, request) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as info:
        call(request)
    return info.value


def first_slots(clinic, n: int = 2, **filters) -> list:
    return list(clinic.stub.ListAvailableSlots(pb.ListAvailableSlotsRequest(page_size=n, **filters)).slots)


def book(clinic, slot, who=MARIA, key: str = "") -> common_pb2.Appointment:
    return clinic.stub.BookAppointment(pb.BookAppointmentRequest(
        doctor=slot.doctor, date=slot.date, time=slot.time, patient=who, idempotency_key=key,
    )).appointment


def test_describe_clinic(start_clinic):
    reply = start_clinic("clinic_d").stub.DescribeClinic(pb.DescribeClinicRequest())
    assert reply.clinic_id == "clinic_d"
    assert reply.specialty == common_pb2.SPECIALTY_ORTHOPEDICS
    assert 2 <= len(reply.doctors) <= 3
    assert all(d.doctor_id.startswith("ORTH-D-") and d.name for d in reply.doctors)


def test_patients_are_minimised_in_lists_and_complete_by_id(clinic):
    listed = clinic.stub.ListPatients(pb.ListPatientsRequest()).patients
    assert 6 <= len(listed) <= 10
    assert [p.patient_id for p in listed] == sorted(p.patient_id for p in listed)
    assert listed[0].patient_id == "CARD-A001"
    assert not any(f.name == "full_name" for f in pb.PatientSummary.DESCRIPTOR.fields)

    record = clinic.stub.GetPatient(pb.GetPatientRequest(patient_id="CARD-A002")).patient
    assert record.full_name and record.age > 0 and record.condition == listed[1].condition
    assert list(record.medications)

    matches = clinic.stub.SearchPatients(pb.SearchPatientsRequest(query="FIBRIL")).matches
    assert [m.patient_id for m in matches] == ["CARD-A002"]


def test_patient_errors(clinic):
    err = rpc_error(clinic.stub.GetPatient, pb.GetPatientRequest(patient_id="CARD-A999"))
    assert err.code() == grpc.StatusCode.NOT_FOUND
    err = rpc_error(clinic.stub.GetPatient, pb.GetPatientRequest())
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert bad_request_fields(err.trailing_metadata()) == ["patient_id"]
    err = rpc_error(clinic.stub.SearchPatients, pb.SearchPatientsRequest(query="  "))
    assert bad_request_fields(err.trailing_metadata()) == ["query"]


def test_slots_are_open_future_sorted_and_paginated(clinic):
    now = dt.datetime.now()
    seen, token = [], ""
    while True:
        page = clinic.stub.ListAvailableSlots(
            pb.ListAvailableSlotsRequest(page_size=40, page_token=token))
        assert len(page.slots) <= 40
        seen.extend(page.slots)
        token = page.next_page_token
        if not token:
            break
    keys = [(s.date, s.time, s.doctor) for s in seen]
    assert keys == sorted(keys)
    assert len({s.slot_id for s in seen}) == len(seen) > 40
    dates = {dt.date.fromisoformat(s.date) for s in seen}
    assert all(d.weekday() < 5 for d in dates)
    assert min(dates) >= now.date() - dt.timedelta(days=1)
    assert max(dates) <= now.date() + dt.timedelta(days=29)

    # A booked slot disappears from the listing.
    target = seen[0]
    book(clinic, target)
    assert target.slot_id not in {s.slot_id for s in first_slots(clinic, 5)}


def test_slot_filters(clinic):
    doctors = clinic.stub.DescribeClinic(pb.DescribeClinicRequest()).doctors
    fernando = next(d for d in doctors if "Fernando" in d.name)
    by_name = first_slots(clinic, 20, doctor="fernando")
    assert by_name and {s.doctor for s in by_name} == {fernando.name}
    assert first_slots(clinic, 20, doctor=fernando.doctor_id) == by_name

    day = monday_after(dt.date.today()).isoformat()
    one_day = first_slots(clinic, 100, from_date=day, to_date=day)
    assert one_day and {s.date for s in one_day} == {day}


@pytest.mark.parametrize(("request_fields", "field"), [
    ({"from_date": "2026-02-30"}, "from_date"),
    ({"to_date": "tomorrow"}, "to_date"),
    ({"from_date": "2030-01-10", "to_date": "2030-01-01"}, "to_date"),
    ({"page_size": 501}, "page_size"),
    ({"page_size": -1}, "page_size"),
    ({"page_token": "not-a-token"}, "page_token"),
])
def test_slot_listing_rejects_bad_input(clinic, request_fields, field):
    err = rpc_error(clinic.stub.ListAvailableSlots, pb.ListAvailableSlotsRequest(**request_fields))
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert bad_request_fields(err.trailing_metadata()) == [field]
    assert field in err.details()


def test_unknown_doctor_in_listing_is_not_found(clinic):
    err = rpc_error(clinic.stub.ListAvailableSlots, pb.ListAvailableSlotsRequest(doctor="House"))
    assert err.code() == grpc.StatusCode.NOT_FOUND


def test_book_and_list_my_appointments(clinic):
    slot = first_slots(clinic, 1)[0]
    appointment = book(clinic, slot)
    assert appointment.appointment_id.startswith("CARD-A-APT-")
    assert (appointment.clinic_id, appointment.doctor, appointment.date, appointment.time) == (
        "clinic_a", slot.doctor, slot.date, slot.time)
    assert appointment.status == common_pb2.APPOINTMENT_STATUS_BOOKED

    mine = clinic.stub.ListAppointments(pb.ListAppointmentsRequest(patient=MARIA)).appointments
    assert [a.appointment_id for a in mine] == [appointment.appointment_id]
    # Another patient sees nothing of Maria's; the same CPF with another name neither.
    assert not clinic.stub.ListAppointments(pb.ListAppointmentsRequest(patient=JOAO)).appointments
    impostor = common_pb2.PatientIdentity(full_name="Someone Else", cpf=MARIA.cpf)
    assert not clinic.stub.ListAppointments(
        pb.ListAppointmentsRequest(patient=impostor)).appointments


def test_taken_slot_is_failed_precondition(clinic):
    slot = first_slots(clinic, 1)[0]
    book(clinic, slot, MARIA)
    err = rpc_error(clinic.stub.BookAppointment, pb.BookAppointmentRequest(
        doctor=slot.doctor, date=slot.date, time=slot.time, patient=JOAO))
    assert err.code() == grpc.StatusCode.FAILED_PRECONDITION


@pytest.mark.parametrize(("change", "field"), [
    ({"doctor": ""}, "doctor"),
    ({"date": ""}, "date"),
    ({"date": "18/07/2030"}, "date"),
    ({"time": "25:00"}, "time"),
    ({"time": "10h"}, "time"),
    ({"patient": common_pb2.PatientIdentity(full_name="Maria Souza", cpf="529.982.247-26")},
     "patient.cpf"),
    ({"patient": common_pb2.PatientIdentity(full_name="Maria Souza", cpf="111.111.111-11")},
     "patient.cpf"),
    ({"patient": common_pb2.PatientIdentity(full_name="Maria Souza", cpf="1234")}, "patient.cpf"),
    ({"patient": common_pb2.PatientIdentity(full_name="  ", cpf=MARIA.cpf)}, "patient.full_name"),
    ({"patient": None}, "patient"),
])
def test_booking_rejects_bad_input_and_writes_nothing(clinic, change, field):
    slot = first_slots(clinic, 1)[0]
    fields = {"doctor": slot.doctor, "date": slot.date, "time": slot.time, "patient": MARIA,
              **change}
    err = rpc_error(clinic.stub.BookAppointment,
                    pb.BookAppointmentRequest(**{k: v for k, v in fields.items() if v is not None}))
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert bad_request_fields(err.trailing_metadata()) == [field]
    assert first_slots(clinic, 1)[0] == slot


def test_unknown_doctor_or_slot_is_not_found(clinic):
    slot = first_slots(clinic, 1)[0]
    for doctor, time in (("Dr. House", slot.time), (slot.doctor, "06:15")):
        err = rpc_error(clinic.stub.BookAppointment, pb.BookAppointmentRequest(
            doctor=doctor, date=slot.date, time=time, patient=MARIA))
        assert err.code() == grpc.StatusCode.NOT_FOUND


def test_past_slot_is_failed_precondition(start_clinic):
    monday = monday_after(dt.date.today())
    clinic = start_clinic("clinic_a", HEALTHMESH_NOW=f"{monday}T07:00:00")
    slot = first_slots(clinic, 1)[0]
    assert slot.date == monday.isoformat()
    # A week later the same slot still exists, but it is in the past.
    clinic.restart(HEALTHMESH_NOW=f"{monday + dt.timedelta(days=7)}T07:00:00")
    err = rpc_error(clinic.stub.BookAppointment, pb.BookAppointmentRequest(
        doctor=slot.doctor, date=slot.date, time=slot.time, patient=MARIA))
    assert err.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "past" in err.details()


def test_idempotent_booking_returns_the_first_result(clinic):
    slot = first_slots(clinic, 1)[0]
    first = book(clinic, slot, key="key-1")
    assert book(clinic, slot, key="key-1") == first
    other = first_slots(clinic, 1)[0]
    err = rpc_error(clinic.stub.BookAppointment, pb.BookAppointmentRequest(
        doctor=other.doctor, date=other.date, time=other.time, patient=MARIA,
        idempotency_key="key-1"))
    assert err.code() == grpc.StatusCode.ALREADY_EXISTS
    assert "idempotency_key" in err.details()
    assert len(clinic.stub.ListAppointments(pb.ListAppointmentsRequest(patient=MARIA)).appointments) == 1


def test_reschedule_moves_atomically_and_frees_the_original(clinic):
    a, b = first_slots(clinic, 2)
    original = book(clinic, a)
    reply = clinic.stub.RescheduleAppointment(pb.RescheduleAppointmentRequest(
        appointment_id=original.appointment_id, new_date=b.date, new_time=b.time,
        new_doctor=b.doctor, patient=MARIA))
    assert reply.original.appointment_id == original.appointment_id
    assert reply.original.status == common_pb2.APPOINTMENT_STATUS_RESCHEDULED
    assert (reply.appointment.date, reply.appointment.time) == (b.date, b.time)
    open_ids = {s.slot_id for s in first_slots(clinic, 5)}
    assert a.slot_id in open_ids and b.slot_id not in open_ids


def test_reschedule_by_doctor_date_time_to_same_doctor(clinic):
    slots = first_slots(clinic, 30, doctor="fernando")
    original = book(clinic, slots[0])
    reply = clinic.stub.RescheduleAppointment(pb.RescheduleAppointmentRequest(
        doctor="Fernando", date=slots[0].date, time=slots[0].time,
        new_date=slots[1].date, new_time=slots[1].time, patient=MARIA))
    assert reply.original.appointment_id == original.appointment_id
    assert reply.appointment.doctor == slots[0].doctor


def test_cancel_reopens_the_slot(clinic):
    slot = first_slots(clinic, 1)[0]
    appointment = book(clinic, slot)
    cancelled = clinic.stub.CancelAppointment(pb.CancelAppointmentRequest(
        appointment_id=appointment.appointment_id, patient=MARIA)).appointment
    assert cancelled.status == common_pb2.APPOINTMENT_STATUS_CANCELLED
    assert first_slots(clinic, 1)[0].slot_id == slot.slot_id
    err = rpc_error(clinic.stub.CancelAppointment, pb.CancelAppointmentRequest(
        appointment_id=appointment.appointment_id, patient=MARIA))
    assert err.code() == grpc.StatusCode.FAILED_PRECONDITION


def test_someone_elses_appointment_is_permission_denied(clinic):
    a, b = first_slots(clinic, 2)
    appointment = book(clinic, a, MARIA)
    same_cpf_other_name = common_pb2.PatientIdentity(full_name="Mario Souza", cpf=MARIA.cpf)
    for who in (JOAO, same_cpf_other_name):
        err = rpc_error(clinic.stub.CancelAppointment, pb.CancelAppointmentRequest(
            appointment_id=appointment.appointment_id, patient=who))
        assert err.code() == grpc.StatusCode.PERMISSION_DENIED
        err = rpc_error(clinic.stub.RescheduleAppointment, pb.RescheduleAppointmentRequest(
            doctor=a.doctor, date=a.date, time=a.time, new_date=b.date, new_time=b.time,
            new_doctor=b.doctor, patient=who))
        assert err.code() == grpc.StatusCode.PERMISSION_DENIED
    # Name matching ignores case and accents; the CPF's punctuation does not matter.
    relaxed = common_pb2.PatientIdentity(full_name="maria  SOUZA", cpf="52998224725")
    clinic.stub.CancelAppointment(pb.CancelAppointmentRequest(
        appointment_id=appointment.appointment_id, patient=relaxed))


def test_reschedule_and_cancel_errors(clinic):
    a, b = first_slots(clinic, 2)
    appointment = book(clinic, a)
    cases = [
        (clinic.stub.CancelAppointment, pb.CancelAppointmentRequest(patient=MARIA),
         grpc.StatusCode.INVALID_ARGUMENT),
        (clinic.stub.CancelAppointment,
         pb.CancelAppointmentRequest(appointment_id="CARD-A-APT-NOPE", patient=MARIA),
         grpc.StatusCode.NOT_FOUND),
        (clinic.stub.RescheduleAppointment, pb.RescheduleAppointmentRequest(
            appointment_id=appointment.appointment_id, new_date="2030-01-01", new_time="9:00",
            patient=MARIA), grpc.StatusCode.INVALID_ARGUMENT),
        (clinic.stub.RescheduleAppointment, pb.RescheduleAppointmentRequest(
            appointment_id=appointment.appointment_id, new_date=b.date, new_time="06:15",
            new_doctor=b.doctor, patient=MARIA), grpc.StatusCode.NOT_FOUND),
    ]
    for call, request, code in cases:
        assert rpc_error(call, request).code() == code
    mine = clinic.stub.ListAppointments(pb.ListAppointmentsRequest(patient=MARIA)).appointments
    assert [(x.appointment_id, x.status) for x in mine] == [
        (appointment.appointment_id, common_pb2.APPOINTMENT_STATUS_BOOKED)]


def test_an_error_echoes_a_bounded_part_of_a_huge_input(clinic):
    """A 200 KB patient id is refused (over its limit, clinics.limits) with a short message the
    client can read, not a status trailer over gRPC's 16 KiB metadata limit."""
    with pytest.raises(grpc.RpcError) as info:
        clinic.stub.GetPatient(pb.GetPatientRequest(patient_id="ç" * 200_000), timeout=10)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert len(info.value.details()) <= 300
