"""50 clients race for one slot, from threads in two separate processes: the database lets
exactly one booking through, with or without a shared idempotency key."""

import multiprocessing as mp
import sqlite3
import threading
from pathlib import Path

import grpc

from healthmesh.v1 import clinic_pb2 as pb
from healthmesh.v1 import clinic_pb2_grpc, common_pb2
from runtime.transport import Transport

CLIENTS_PER_PROCESS = 25
PROCESSES = 2


def _race(transport: Transport, address: str, slot: tuple[str, str, str], key: str, ready: mp.Queue,
          go: mp.Event, out: mp.Queue) -> None:
    """One process: CLIENTS_PER_PROCESS threads, each with its own channel, fire together."""
    # When every thread has a connected channel, tell the parent; all fire on its signal.
    barrier = threading.Barrier(CLIENTS_PER_PROCESS, action=lambda: ready.put(True))
    results: list[tuple[str, str]] = []
    lock = threading.Lock()

    def client() -> None:
        who = common_pb2.PatientIdentity(full_name="Maria Souza", cpf="529.982.247-25")
        request = pb.BookAppointmentRequest(doctor=slot[0], date=slot[1], time=slot[2],
                                            patient=who, idempotency_key=key)
        with transport.channel(address) as channel:
            stub = clinic_pb2_grpc.ClinicServiceStub(channel)
            grpc.channel_ready_future(channel).result(timeout=10)
            barrier.wait()
            go.wait()
            try:
                reply = stub.BookAppointment(request, timeout=30)
                outcome = ("OK", reply.appointment.appointment_id)
            except grpc.RpcError as err:
                outcome = (err.code().name, "")
        with lock:
            results.append(outcome)

    threads = [threading.Thread(target=client) for _ in range(CLIENTS_PER_PROCESS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out.put(results)


def race(clinic, key: str = "") -> list[tuple[str, str]]:
    slot = clinic.stub.ListAvailableSlots(pb.ListAvailableSlotsRequest(page_size=1)).slots[0]
    ctx = mp.get_context("spawn")
    ready, go, out = ctx.Queue(), ctx.Event(), ctx.Queue()
    where = (clinic.service.transport(), clinic.address, (slot.doctor, slot.date, slot.time))
    procs = [ctx.Process(target=_race, args=(*where, key, ready, go, out))
             for _ in range(PROCESSES)]
    for p in procs:
        p.start()
    for _ in procs:
        ready.get(timeout=60)
    go.set()
    results = [r for _ in procs for r in out.get(timeout=120)]
    for p in procs:
        p.join(timeout=30)
    assert len(results) == CLIENTS_PER_PROCESS * PROCESSES
    return results


def booked_rows(data_dir: Path) -> int:
    with sqlite3.connect(data_dir / "clinic_a.sqlite3") as db:
        return db.execute("SELECT count(*) FROM appointments WHERE status = 'BOOKED'").fetchone()[0]


def test_fifty_racing_clients_book_once(clinic, tmp_path):
    results = race(clinic)
    codes = sorted(code for code, _ in results)
    assert codes.count("OK") == 1
    assert codes.count("FAILED_PRECONDITION") == len(results) - 1
    assert booked_rows(tmp_path / "data") == 1


def test_fifty_retries_with_one_idempotency_key_book_once(clinic, tmp_path):
    results = race(clinic, key="retry-key-42")
    assert {code for code, _ in results} == {"OK"}
    assert len({appointment_id for _, appointment_id in results}) == 1
    assert booked_rows(tmp_path / "data") == 1
