"""Durability and lifecycle: restarts keep bookings, a reschedule is all-or-nothing even when
its process dies half-way, SIGTERM drains, and a launcher reports a service that fails."""

import subprocess
import sys
import textwrap

import grpc
import pytest

from deploy.local.processes import StartError, clinic_service, health_status, start_all
from healthmesh.v1 import clinic_pb2 as pb
from healthmesh.v1 import common_pb2
from tests.conftest import MARIA


def book_first(clinic) -> tuple[common_pb2.Appointment, common_pb2.Slot]:
    a, b = clinic.stub.ListAvailableSlots(pb.ListAvailableSlotsRequest(page_size=2)).slots
    appointment = clinic.stub.BookAppointment(pb.BookAppointmentRequest(
        doctor=a.doctor, date=a.date, time=a.time, patient=MARIA)).appointment
    return appointment, b


def my_appointments(clinic) -> list[tuple[str, str, str]]:
    reply = clinic.stub.ListAppointments(pb.ListAppointmentsRequest(patient=MARIA))
    return [(a.appointment_id, a.date, a.time) for a in reply.appointments]


def test_booking_survives_restart(clinic):
    appointment, _ = book_first(clinic)
    clinic.restart()
    assert my_appointments(clinic) == [(appointment.appointment_id, appointment.date,
                                        appointment.time)]


def test_failed_second_half_of_reschedule_keeps_the_original(clinic):
    appointment, target = book_first(clinic)
    # Someone else holds the target: the free-then-book transaction fails on its second half.
    clinic.stub.BookAppointment(pb.BookAppointmentRequest(
        doctor=target.doctor, date=target.date, time=target.time,
        patient=common_pb2.PatientIdentity(full_name="João Pereira", cpf="111.444.777-35")))
    with pytest.raises(grpc.RpcError) as info:
        clinic.stub.RescheduleAppointment(pb.RescheduleAppointmentRequest(
            appointment_id=appointment.appointment_id, new_doctor=target.doctor,
            new_date=target.date, new_time=target.time, patient=MARIA))
    assert info.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert my_appointments(clinic) == [(appointment.appointment_id, appointment.date,
                                        appointment.time)]


def test_process_killed_between_reschedule_halves_keeps_the_original(clinic, tmp_path):
    appointment, target = book_first(clinic)
    # A second process on the same database file dies (os._exit, no cleanup) right after the
    # first half of the reschedule has freed the original slot.
    script = textwrap.dedent(f"""
        import os
        from pathlib import Path
        from clinics.records import AppointmentRef, Identity
        from clinics.store import ClinicStore
        from runtime.settings import ClockSettings

        def die(*args, **kwargs):
            os._exit(9)

        db = ClinicStore(Path({str(tmp_path / "data" / "clinic_a.sqlite3")!r}), "clinic_a",
                         "cardiology", ClockSettings().clock())  # the clinic's own clock
        db._open_slot = die
        db.reschedule(AppointmentRef(appointment_id={appointment.appointment_id!r}),
                      {target.doctor!r}, {target.date!r}, {target.time!r},
                      Identity("Maria Souza", "52998224725"))
    """)
    died = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=60)
    assert died.returncode == 9, died.stderr.decode()
    assert my_appointments(clinic) == [(appointment.appointment_id, appointment.date,
                                        appointment.time)]
    open_slots = clinic.stub.ListAvailableSlots(pb.ListAvailableSlotsRequest(page_size=5)).slots
    assert target.slot_id in {s.slot_id for s in open_slots}
    # The database is usable afterwards: the reschedule goes through for real.
    clinic.stub.RescheduleAppointment(pb.RescheduleAppointmentRequest(
        appointment_id=appointment.appointment_id, new_doctor=target.doctor,
        new_date=target.date, new_time=target.time, patient=MARIA))
    assert [(d, t) for _, d, t in my_appointments(clinic)] == [(target.date, target.time)]


def test_sigterm_drains_and_exits_cleanly(clinic):
    assert health_status(clinic.service.transport("launcher"), clinic.address,
                         "healthmesh.v1.ClinicService") == "SERVING"
    clinic.close_channel()
    assert clinic.service.stop() == 0
    log = clinic.service.log_path.read_text()
    assert log.index('"draining"') < log.index('"stopped"')


def test_launcher_reports_a_service_that_fails_and_stops_the_others(tmp_path):
    env = {"HEALTHMESH_DATA_DIR": str(tmp_path), "HEALTHMESH_PORT": "0"}
    good = clinic_service("clinic_b", tmp_path / "logs", env)
    bad = clinic_service("clinic_z", tmp_path / "logs", env)
    with pytest.raises(StartError) as info:
        start_all([good, bad], timeout=30)
    assert "clinic_z" in str(info.value) and "unknown clinic" in str(info.value)
    assert good.proc is not None and good.proc.poll() is not None
