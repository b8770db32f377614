"""Crash safety: a clinic killed (SIGKILL, no drain) in the middle of a booking burst loses no
acknowledged booking, books no slot twice, and answers every idempotent replay with the id it
gave; an orchestrator killed right after its replies has the audit record of every answered Ask."""

import sqlite3
import threading
from concurrent.futures import ThreadPoolExecutor

import grpc

from deploy.local.processes import start_all
from healthmesh.v1 import clinic_pb2 as pb
from healthmesh.v1 import clinic_pb2_grpc, common_pb2, orchestrator_pb2
from orchestrator.privacy.audit import local_log
from orchestrator.state import open_state
from runtime.settings import Settings
from tests.conftest import run_mesh

PATIENT = common_pb2.PatientIdentity(full_name="Maria Souza", cpf="529.982.247-25")
BOOKINGS = 60
KILL_AFTER = 15  # acknowledged bookings before the SIGKILL


def test_a_clinic_killed_mid_burst_keeps_every_acknowledged_booking_and_books_no_slot_twice(
        start_clinic, tmp_path):
    clinic = start_clinic(HEALTHMESH_CALLER_WRITES="100000")
    slots = list(clinic.stub.ListAvailableSlots(pb.ListAvailableSlotsRequest(page_size=BOOKINGS)).slots)
    # Two requests per slot under different keys: the clinic must refuse one of each pair.
    requests = [pb.BookAppointmentRequest(doctor=s.doctor, date=s.date, time=s.time, patient=PATIENT,
                                          idempotency_key=f"burst-{i}-{twin}")
                for i, s in enumerate(slots[:BOOKINGS // 2]) for twin in ("a", "b")]
    acknowledged: dict[str, str] = {}
    lock = threading.Lock()
    killed = threading.Event()
    service = clinic.service
    channel = service.channel()  # the clinic's address before the crash
    stub = clinic_pb2_grpc.ClinicServiceStub(channel)

    def book(request: pb.BookAppointmentRequest) -> None:
        try:
            reply = stub.BookAppointment(request, timeout=10)
        except grpc.RpcError:
            return  # refused, or lost in the crash: neither is acknowledged
        with lock:
            acknowledged[request.idempotency_key] = reply.appointment.appointment_id
            if len(acknowledged) >= KILL_AFTER and not killed.is_set():
                killed.set()
                service.kill()

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(book, requests))
    channel.close()
    assert killed.is_set(), "the burst ended before the crash"

    start_all([service])  # the same data directory
    clinic.close_channel()
    with sqlite3.connect(tmp_path / "data" / "clinic_a.sqlite3") as db:
        doubles = db.execute("SELECT slot_id FROM appointments WHERE status = 'BOOKED' "
                             "GROUP BY slot_id HAVING count(*) > 1").fetchall()
    assert doubles == []
    present = {a.appointment_id for a in clinic.stub.ListAppointments(
        pb.ListAppointmentsRequest(patient=PATIENT), timeout=10).appointments}
    assert set(acknowledged.values()) <= present
    for request in requests:  # a client retrying after the crash gets the same answer
        try:
            replay = clinic.stub.BookAppointment(request, timeout=10).appointment.appointment_id
        except grpc.RpcError as err:
            assert request.idempotency_key not in acknowledged, err
            assert err.code() == grpc.StatusCode.FAILED_PRECONDITION  # its twin holds the slot
            continue
        if request.idempotency_key in acknowledged:
            assert replay == acknowledged[request.idempotency_key]
        assert clinic.stub.BookAppointment(request, timeout=10).appointment.appointment_id == replay


def test_an_orchestrator_killed_right_after_its_replies_has_audited_every_answered_ask(tmp_path, monkeypatch):
    mesh = run_mesh(tmp_path / "mesh")
    try:
        sessions = []
        for message in ("list cardiology slots", "is warfarin safe with ibuprofen?", "hello",
                        "dermatology slots next week"):
            reply = mesh.stub.Ask(orchestrator_pb2.AskRequest(message=message), timeout=20)
            sessions.append(reply.session_id)
        mesh.mesh.orchestrator.kill()
        # The next start first commits what the turns' journal holds (orchestrator.recording).
        monkeypatch.setenv("HEALTHMESH_DATA_DIR", str(tmp_path / "mesh"))
        open_state(Settings.from_env()).close()
        audit = local_log(tmp_path / "mesh")
        assert audit.verify() == []
        assert set(sessions) <= {record["session_id"] for record in audit.records()}
    finally:
        mesh.close()
