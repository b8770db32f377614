"""Failure handling with real processes: a clinic killed mid-conversation (partial answer,
breaker opens, closes again when the clinic is back), a clinic that hangs (the deadline
holds), retries only where safe, and the breaker never serializing concurrent calls."""

import asyncio
import contextlib
import os
import signal
import time

import grpc
import pytest

from deploy.local.processes import start_all
from healthmesh.v1 import clinic_pb2, clinic_pb2_grpc
from healthmesh.v1 import orchestrator_pb2 as pb
from orchestrator.context import RequestContext
from orchestrator.guarded import CircuitOpen, Guard, Policy
from orchestrator.planning.steps import Action, PlannedStep
from orchestrator.upstreams import Upstream, code_of, rpcs
from runtime.transport import Transport
from tests.conftest import MARIA, run_mesh


@contextlib.contextmanager
def fragile(tmp_path, replica: str):
    handle = run_mesh(tmp_path, HEALTHMESH_BREAKER_FAIL_MAX="3", HEALTHMESH_BREAKER_RESET_S="1",
                      HEALTHMESH_CALL_TIMEOUT_S="1", HEALTHMESH_SLOT_REPLICA=replica)
    try:
        yield handle
    finally:
        for svc in handle.mesh.clinics.values():  # a stopped process must be resumed to stop
            if svc.proc is not None and svc.proc.poll() is None:
                os.kill(svc.proc.pid, signal.SIGCONT)
        handle.close()


@pytest.fixture
def fragile_mesh(tmp_path):
    # Listings ask every clinic here: the call path's deadlines, retries and breakers are the subject
    # (tests/test_slot_replica.py has the replica's view of a clinic that hangs).
    with fragile(tmp_path, replica="false") as handle:
        yield handle


@contextlib.contextmanager
def frozen(service):
    """The process hangs (SIGSTOP): connections are accepted, nothing is answered."""
    os.kill(service.proc.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(service.proc.pid, signal.SIGCONT)

PLAIN = Transport.plain("orchestrator")  # the stand-in servers here speak plaintext


def step_of(reply, clinic_id: str):
    return next(s for s in reply.steps if s.clinic_id == clinic_id)


def breaker_of(mesh, name: str) -> int:
    reply = mesh.stub.DescribeMesh(pb.DescribeMeshRequest(), timeout=10)
    return next(u.breaker for u in reply.upstreams if u.name == name)


@pytest.mark.parametrize("replica", ["false", "true"])
def test_clinic_killed_mid_conversation(tmp_path, replica):
    with fragile(tmp_path, replica) as mesh:
        _killed_mid_conversation(mesh)


def _killed_mid_conversation(mesh) -> None:
    first = mesh.ask("cardiology slots", patient=MARIA)
    assert first.disposition == pb.DISPOSITION_ANSWERED
    clinic_c = mesh.mesh.clinics["clinic_c"]
    port = clinic_c.port
    clinic_c.kill()

    # From a slot replica, the listing asks the clinic once its stream has ended (at once, as a
    # killed process's connections close), and the call fails.
    deadline = time.monotonic() + 5
    while (down := mesh.ask("cardiology slots", session_id=first.session_id)).disposition \
            == pb.DISPOSITION_ANSWERED and time.monotonic() < deadline:
        time.sleep(0.05)
    assert down.disposition == pb.DISPOSITION_PARTIAL, down.answer
    assert down.verification.safe
    assert step_of(down, "clinic_c").status == pb.STEP_STATUS_UNAVAILABLE
    assert step_of(down, "clinic_c").attempts == 3  # a read: retried on UNAVAILABLE
    assert step_of(down, "clinic_a").status == pb.STEP_STATUS_OK
    assert {s.clinic_id for s in down.slots} == {"clinic_a"}
    assert "Instituto Cardio Campinas (clinic_c) could not be reached" in down.answer
    assert breaker_of(mesh, "clinic_c") == pb.BREAKER_STATE_OPEN

    # While open, the clinic is not called at all: the step fails fast.
    fast = mesh.ask("cardiology slots", session_id=first.session_id)
    step = step_of(fast, "clinic_c")
    assert step.status == pb.STEP_STATUS_CIRCUIT_OPEN and step.attempts == 0
    assert step.latency_ms < 50

    # The clinic comes back on its port; after the reset timeout one trial call closes it.
    clinic_c.env = {**clinic_c.env, "HEALTHMESH_PORT": str(port)}
    start_all([clinic_c])
    time.sleep(1.2)
    back = mesh.ask("cardiology slots", session_id=first.session_id)
    assert back.disposition == pb.DISPOSITION_ANSWERED, back.answer
    assert {s.clinic_id for s in back.slots} == {"clinic_a", "clinic_c"}
    assert breaker_of(mesh, "clinic_c") == pb.BREAKER_STATE_CLOSED


def test_hanging_clinic_does_not_hold_the_answer(fragile_mesh):
    mesh = fragile_mesh
    mesh.ask("dermatology slots")  # warm channels
    with frozen(mesh.mesh.clinics["clinic_f"]):
        start = time.monotonic()
        reply = mesh.ask("dermatology slots", timeout=2.0)
        elapsed = time.monotonic() - start
    assert elapsed < 2.0
    assert reply.disposition == pb.DISPOSITION_PARTIAL
    assert step_of(reply, "clinic_f").status == pb.STEP_STATUS_TIMED_OUT
    assert {s.clinic_id for s in reply.slots} == {"clinic_b"}


def test_a_short_caller_deadline_bounds_every_call(fragile_mesh):
    mesh = fragile_mesh
    with frozen(mesh.mesh.clinics["clinic_f"]):
        start = time.monotonic()
        reply = mesh.ask("dermatology slots", timeout=0.8)
        elapsed = time.monotonic() - start
    assert elapsed < 0.8
    assert step_of(reply, "clinic_f").status == pb.STEP_STATUS_TIMED_OUT


def test_retries_only_where_safe(unused_port):
    async def attempts_for(request, *, retry: bool) -> int:
        policy = Policy(backoff_s=0.01, breaker_fail_max=50)
        upstream = Upstream("down", f"127.0.0.1:{unused_port}", policy, PLAIN)
        method = rpcs(upstream.channel, clinic_pb2, clinic_pb2_grpc, "ClinicService")[
            type(request).__name__.removesuffix("Request")]
        outcome = await upstream.call(RequestContext.with_timeout(5), method, request, retry=retry)
        await upstream.close()
        assert code_of(outcome) == grpc.StatusCode.UNAVAILABLE
        return outcome.attempts

    read = PlannedStep("s1", "x", Action.LIST_SLOTS, clinic_pb2.ListAvailableSlotsRequest())
    write = PlannedStep("s2", "x", Action.BOOK, clinic_pb2.BookAppointmentRequest(doctor="d"))
    keyed = PlannedStep("s3", "x", Action.BOOK, clinic_pb2.BookAppointmentRequest(idempotency_key="k"))
    assert (read.retry_safe, write.retry_safe, keyed.retry_safe) == (True, False, True)
    for step, expected in ((read, 3), (write, 1), (keyed, 3)):
        assert asyncio.run(attempts_for(step.request, retry=step.retry_safe)) == expected


class SlowClinic(clinic_pb2_grpc.ClinicServiceServicer):
    async def ListAvailableSlots(self, request, context):
        await asyncio.sleep(0.3)
        return clinic_pb2.ListAvailableSlotsResponse()


def test_breaker_does_not_serialize_concurrent_calls():
    async def scenario() -> float:
        server = grpc.aio.server()
        clinic_pb2_grpc.add_ClinicServiceServicer_to_server(SlowClinic(), server)
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        upstream = Upstream("slow", f"127.0.0.1:{port}", Policy(), PLAIN)
        listing = rpcs(upstream.channel, clinic_pb2, clinic_pb2_grpc, "ClinicService")["ListAvailableSlots"]
        ctx = RequestContext.with_timeout(10)
        start = time.monotonic()
        outcomes = await asyncio.gather(*(upstream.call(ctx, listing,
                                                        clinic_pb2.ListAvailableSlotsRequest(), retry=True)
                                          for _ in range(10)))
        elapsed = time.monotonic() - start
        assert all(o.error is None for o in outcomes)
        await upstream.close()
        await server.stop(0)
        return elapsed

    # Ten 0.3 s calls through one breaker finish together, not one after another (3 s).
    assert asyncio.run(scenario()) < 1.5


def test_a_recovering_breaker_lets_one_trial_through_at_a_time():
    """Past the reset time only one call tries the upstream; the concurrent ones fail fast, so a
    hung upstream stalls one turn, not all of them. (A coroutine stands in for the upstream: the
    breaker's admission is what is under test.)"""
    guard = Guard("flaky", Policy(breaker_fail_max=1, breaker_reset_s=0.05),
                  errors=(ConnectionError,), counted=lambda _: True, transient=lambda _: False)
    tried: list[int] = []

    async def fail(_: float) -> None:
        raise ConnectionError("down")

    async def slow(_: float) -> str:
        tried.append(1)
        await asyncio.sleep(0.2)
        return "ok"

    async def scenario() -> list:
        ctx = RequestContext.with_timeout(5)
        await guard.call(ctx, fail, retry=False)  # opens the breaker
        await asyncio.sleep(0.1)  # past the reset time
        return await asyncio.gather(*(guard.call(ctx, slow, retry=False) for _ in range(5)))

    outcomes = asyncio.run(scenario())
    assert len(tried) == 1
    assert sum(o.reply == "ok" for o in outcomes) == 1
    assert sum(isinstance(o.error, CircuitOpen) for o in outcomes) == 4
    assert guard.state == "closed"  # the trial succeeded
