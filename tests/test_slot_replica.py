"""The orchestrator's replica of a clinic's open slots (HEALTHMESH_SLOT_REPLICA), kept by the clinic's
WatchSlots stream: it lists exactly what the clinic lists, follows every write whoever makes it,
hides at once a slot the clinic said is taken, answers nothing out of sync (a clinic stopped, or hung
and found by keepalive pings), and a draining clinic ends its watch streams cleanly. A real clinic
process; the replica in this test's event loop, on a channel with the orchestrator's options."""

import asyncio
import datetime as dt
import os
import signal
import time
from collections.abc import Awaitable, Callable

import grpc

from healthmesh.v1 import clinic_pb2 as pb
from healthmesh.v1 import clinic_pb2_grpc
from orchestrator.slotreplica import SlotReplica
from orchestrator.upstreams import CHANNEL_OPTIONS
from tests.conftest import MARIA, monday_after, run_mesh

MONDAY = monday_after(dt.date.today())
NOW = dt.datetime.combine(MONDAY, dt.time(7, 0))


async def _until(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("condition not reached")


Check = Callable[[SlotReplica, clinic_pb2_grpc.ClinicServiceStub], Awaitable[None]]


def _following(clinic, test: Check) -> None:
    """Runs `test` with a synced replica of `clinic` and an async stub to it."""

    async def run() -> None:
        channel = clinic.service.transport().aio_channel(clinic.address, server=clinic.service.name,
                                                         options=CHANNEL_OPTIONS)
        stub = clinic_pb2_grpc.ClinicServiceStub(channel)
        replica = SlotReplica("clinic_a", stub.WatchSlots, lambda: NOW)
        task = asyncio.create_task(replica.follow())
        try:
            await _until(lambda: replica.synced)
            await test(replica, stub)
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            await channel.close()

    asyncio.run(run())


def test_replica_lists_what_the_clinic_lists(start_clinic):
    clinic = start_clinic("clinic_a", HEALTHMESH_NOW=NOW.isoformat())
    doctors = clinic.stub.DescribeClinic(pb.DescribeClinicRequest()).doctors
    day, later = MONDAY.isoformat(), (MONDAY + dt.timedelta(days=3)).isoformat()
    requests = [
        pb.ListAvailableSlotsRequest(),
        pb.ListAvailableSlotsRequest(page_size=3),
        pb.ListAvailableSlotsRequest(page_size=500),
        pb.ListAvailableSlotsRequest(from_date=day, to_date=day),
        pb.ListAvailableSlotsRequest(from_date=later, page_size=7),
        pb.ListAvailableSlotsRequest(to_date=later, page_size=200),
        pb.ListAvailableSlotsRequest(doctor=doctors[0].name.split()[-1].lower(), page_size=9),
        pb.ListAvailableSlotsRequest(doctor=doctors[1].doctor_id, from_date=later, to_date=later),
    ]

    async def check(replica: SlotReplica, stub: clinic_pb2_grpc.ClinicServiceStub) -> None:
        for request in requests:
            assert replica.listing(request) == await stub.ListAvailableSlots(request), request
        # What only the clinic can answer, or refuses: left to it.
        token = (await stub.ListAvailableSlots(pb.ListAvailableSlotsRequest(page_size=2))).next_page_token
        for request in (pb.ListAvailableSlotsRequest(page_token=token),
                        pb.ListAvailableSlotsRequest(doctor="Nobody Here"),
                        pb.ListAvailableSlotsRequest(from_date="2026-13-01"),
                        pb.ListAvailableSlotsRequest(from_date=later, to_date=day),
                        pb.ListAvailableSlotsRequest(page_size=501)):
            assert replica.listing(request) is None, request

    _following(clinic, check)


def test_replica_follows_bookings_moves_and_cancellations_by_anyone(start_clinic):
    clinic = start_clinic("clinic_a", HEALTHMESH_NOW=NOW.isoformat())
    everything = pb.ListAvailableSlotsRequest(page_size=500)

    async def check(replica: SlotReplica, stub: clinic_pb2_grpc.ClinicServiceStub) -> None:
        first, second = (await stub.ListAvailableSlots(pb.ListAvailableSlotsRequest(page_size=2))).slots

        def listed() -> set[str]:
            return {s.slot_id for s in replica.listing(everything).slots}

        # Another client (not this replica's owner) books: the stream says so.
        booked = (await stub.BookAppointment(pb.BookAppointmentRequest(
            doctor=first.doctor, date=first.date, time=first.time, patient=MARIA))).appointment
        await _until(lambda: first.slot_id not in listed())
        moved = await stub.RescheduleAppointment(pb.RescheduleAppointmentRequest(
            appointment_id=booked.appointment_id, new_date=second.date, new_time=second.time,
            new_doctor=second.doctor, patient=MARIA))
        await _until(lambda: first.slot_id in listed() and second.slot_id not in listed())
        await stub.CancelAppointment(pb.CancelAppointmentRequest(
            appointment_id=moved.appointment.appointment_id, patient=MARIA))
        await _until(lambda: second.slot_id in listed())
        assert replica.listing(everything) == await stub.ListAvailableSlots(everything)

    _following(clinic, check)


def test_a_slot_the_clinic_said_is_taken_is_hidden_at_once(start_clinic):
    clinic = start_clinic("clinic_a", HEALTHMESH_NOW=NOW.isoformat())

    async def check(replica: SlotReplica, stub: clinic_pb2_grpc.ClinicServiceStub) -> None:
        slot = replica.listing(pb.ListAvailableSlotsRequest(page_size=1)).slots[0]
        replica.taken(slot.doctor.split()[-1], slot.date, slot.time)  # as a booking names the doctor
        assert slot not in replica.listing(pb.ListAvailableSlotsRequest(page_size=500)).slots

    _following(clinic, check)


def test_out_of_sync_the_replica_answers_nothing_and_a_drain_ends_the_watch(start_clinic):
    clinic = start_clinic("clinic_a", HEALTHMESH_NOW=NOW.isoformat())

    async def check(replica: SlotReplica, stub: clinic_pb2_grpc.ClinicServiceStub) -> None:
        watch = stub.WatchSlots(pb.WatchSlotsRequest())
        snapshot = await watch.read()
        assert snapshot.snapshot and snapshot.open and snapshot.doctors
        await asyncio.to_thread(clinic.service.stop)  # SIGTERM: the clinic drains
        assert await watch.read() is grpc.aio.EOF  # ended by the clinic, not cut at the grace's end
        assert await watch.code() == grpc.StatusCode.OK
        await _until(lambda: not replica.synced)
        assert replica.listing(pb.ListAvailableSlotsRequest()) is None

    _following(clinic, check)


def test_a_hung_clinic_is_found_by_keepalive_and_its_replica_stops_answering(start_clinic):
    clinic = start_clinic("clinic_a", HEALTHMESH_NOW=NOW.isoformat())

    async def check(replica: SlotReplica, stub: clinic_pb2_grpc.ClinicServiceStub) -> None:
        os.kill(clinic.service.proc.pid, signal.SIGSTOP)  # connections stay up; nothing is answered
        try:
            await _until(lambda: not replica.synced, seconds=40)
            assert replica.listing(pb.ListAvailableSlotsRequest()) is None
        finally:
            os.kill(clinic.service.proc.pid, signal.SIGCONT)
        await _until(lambda: replica.synced, seconds=40)

    _following(clinic, check)


def test_the_mesh_lists_from_replicas_and_never_shows_what_it_booked(tmp_path):
    handle = run_mesh(tmp_path)  # the default: listings from slot replicas
    try:
        listed = handle.ask("show me Dr. Fernando's slots", patient=MARIA)
        assert {s.doctor for s in listed.slots} == {"Dr. Fernando Almeida"}
        # Answered from the replica: no attempt made on the clinic.
        assert [(step.clinic_id, step.attempts) for step in listed.steps] == [("clinic_a", 0)]
        slot = listed.slots[0]
        day = dt.date.fromisoformat(slot.date)
        booked = handle.ask(f"book Dr. Fernando on {day:%d/%m} at {slot.time}", listed.session_id)
        assert (booked.appointment.date, booked.appointment.time) == (slot.date, slot.time), booked.answer
        again = handle.ask("show me Dr. Fernando's slots", booked.session_id)
        assert again.slots and slot.slot_id not in {s.slot_id for s in again.slots}
        # Cancelled: shown again once its clinic's stream says it is open.
        cancelled = handle.ask(f"cancel my appointment on {day:%d/%m} at {slot.time}", booked.session_id)
        assert "Cancelled:" in cancelled.answer, cancelled.answer
        for _ in range(100):
            if slot.slot_id in {s.slot_id for s in handle.ask("show me Dr. Fernando's slots").slots}:
                break
            time.sleep(0.05)
        else:
            raise AssertionError("the cancelled slot was not listed again")
    finally:
        handle.close()


def test_watches_the_client_leaves_end_without_an_error_in_the_clinic_log(start_clinic):
    # Closed by asyncio's generator finalizer, in a copy of the RPC's context: the interceptor must not
    # try to reset its context variables there.
    clinic = start_clinic("clinic_a")
    channel = clinic.service.channel()
    try:
        for n in range(40):
            call = clinic_pb2_grpc.ClinicServiceStub(channel).WatchSlots(pb.WatchSlotsRequest(), timeout=10)
            if n % 2:
                assert next(call).snapshot
            call.cancel()
    finally:
        channel.close()
    time.sleep(0.5)
    clinic.service.stop()
    assert "Traceback" not in clinic.service.log_path.read_text(encoding="utf-8")
