"""One clinic on loopback: slot listing and booking next to a bare health Check (the floor)."""

import asyncio
import tempfile
import time
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from rich.console import Console

from bench.stats import Result, measure, table
from deploy.local.processes import clinic_service, start_all, stop_all
from healthmesh.v1 import clinic_pb2 as pb
from healthmesh.v1 import clinic_pb2_grpc, common_pb2

PATIENT = common_pb2.PatientIdentity(full_name="Bench Patient", cpf="529.982.247-25")


async def run(console: Console, requests: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        # The store's speed is measured, not the per-caller write limit (100/s by default).
        env = {"HEALTHMESH_DATA_DIR": tmp, "HEALTHMESH_PORT": "0", "HEALTHMESH_LOG_LEVEL": "WARNING",
               "HEALTHMESH_CALLER_WRITES": "1000000"}
        svc = clinic_service("clinic_a", Path(tmp) / "logs", env)
        start_all([svc])
        try:
            async with svc.transport().aio_channel(svc.address) as channel:
                results, floor = await _measure(channel, requests)
        finally:
            stop_all([svc])
    console.print(table("ClinicService on loopback (one clinic)", results, floor,
                        "health", "target: ListAvailableSlots p50 within 3x the health-check floor"))


async def _measure(channel: grpc.aio.Channel, requests: int
                   ) -> tuple[list[Result], dict[int, Result]]:
    health = health_pb2_grpc.HealthStub(channel)
    clinic = clinic_pb2_grpc.ClinicServiceStub(channel)
    check = health_pb2.HealthCheckRequest(service="healthmesh.v1.ClinicService")
    listing = pb.ListAvailableSlotsRequest(page_size=20)
    # Each booking takes a free slot from the pool, books it (timed), cancels it (untimed)
    # and returns it, so the bench never runs out of slots and never collides.
    pool: asyncio.Queue = asyncio.Queue()
    for slot in (await clinic.ListAvailableSlots(pb.ListAvailableSlotsRequest(page_size=64))).slots:
        pool.put_nowait(slot)

    async def book(_: int) -> float:
        slot = await pool.get()
        start = time.perf_counter()
        reply = await clinic.BookAppointment(pb.BookAppointmentRequest(
            doctor=slot.doctor, date=slot.date, time=slot.time, patient=PATIENT))
        elapsed = (time.perf_counter() - start) * 1000
        await clinic.CancelAppointment(pb.CancelAppointmentRequest(
            appointment_id=reply.appointment.appointment_id, patient=PATIENT))
        pool.put_nowait(slot)
        return elapsed

    results: list[Result] = []
    floor: dict[int, Result] = {}
    for concurrency in (1, 32):
        floor[concurrency] = await measure("health Check (floor)", lambda _: health.Check(check),
                                           concurrency=concurrency, requests=requests)
        results.append(floor[concurrency])
        results.append(await measure("ListAvailableSlots", lambda _: clinic.ListAvailableSlots(
            listing), concurrency=concurrency, requests=requests))
        results.append(await measure("BookAppointment", book, concurrency=concurrency,
                                     requests=requests))
    return results, floor
