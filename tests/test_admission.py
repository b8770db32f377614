"""Admission control: past its capacity the orchestrator refuses at once with a retry hint,
never starts a turn whose deadline has passed, and serves again as soon as the load drops."""

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor

import grpc
import pytest
from google.rpc import error_details_pb2, status_pb2

from healthmesh.v1 import orchestrator_pb2
from orchestrator.admission import STANDING_S, Admission
from runtime.errors import DeadlineExceeded, Overloaded, status_metadata
from tests.conftest import run_mesh


def test_turns_beyond_the_limit_wait_for_a_place_then_the_queue_refuses_at_once() -> None:
    async def scenario() -> None:
        admission = Admission(limit=1, queue=1, max_wait_s=5.0)
        release = asyncio.Event()
        order: list[str] = []

        async def turn(name: str) -> None:
            async with admission.turn(None):
                order.append(name)
                await release.wait()

        first = asyncio.create_task(turn("first"))
        await asyncio.sleep(0)
        second = asyncio.create_task(turn("second"))  # waits in the queue
        await asyncio.sleep(0.01)
        assert admission.waiting == 1
        with pytest.raises(Overloaded) as refused:
            async with admission.turn(None):
                pytest.fail("a turn beyond the queue must not start")
        assert refused.value.retry_after_s > 0
        assert "try again in" in refused.value.message
        release.set()
        await asyncio.gather(first, second)
        assert order == ["first", "second"]

    asyncio.run(scenario())


def test_a_waiting_turn_is_refused_when_no_place_frees_up_in_time() -> None:
    async def scenario() -> None:
        admission = Admission(limit=1, queue=4, max_wait_s=0.05)
        async with admission.turn(None):
            with pytest.raises(Overloaded):
                async with admission.turn(None):
                    pass
            # The caller's deadline is shorter than the queue wait: that is what ran out.
            with pytest.raises(DeadlineExceeded):
                async with admission.turn(0.01):
                    pass
        assert admission.waiting == 0
        async with admission.turn(1.0):  # the place is free again
            pass

    asyncio.run(scenario())


def test_a_standing_queue_sheds_new_arrivals_at_once_while_a_burst_may_wait() -> None:
    async def scenario() -> None:
        admission = Admission(limit=1, queue=4, max_wait_s=5.0)
        release = asyncio.Event()

        async def holder() -> None:
            async with admission.turn(None):
                await release.wait()

        async def waiter() -> None:
            async with admission.turn(None):
                pass

        running = asyncio.create_task(holder())
        await asyncio.sleep(0)
        burst = asyncio.create_task(waiter())  # the queue was empty: may wait its full time
        await asyncio.sleep(STANDING_S + 0.05)
        assert not burst.done()
        started = time.monotonic()
        with pytest.raises(Overloaded):  # the queue has stood: overload, shed at once
            async with admission.turn(None):
                pass
        assert time.monotonic() - started < 1.0
        release.set()
        await asyncio.gather(running, burst)

    asyncio.run(scenario())


def test_a_request_whose_deadline_has_passed_is_not_started() -> None:
    async def scenario() -> None:
        admission = Admission(limit=4, queue=4, max_wait_s=1.0)
        with pytest.raises(DeadlineExceeded):
            async with admission.turn(0.0):
                pytest.fail("an expired request must not start")

    asyncio.run(scenario())


def test_the_refusal_carries_retry_info_and_grpc_pushback() -> None:
    metadata = dict(status_metadata(Overloaded("at capacity", 0.25)))
    assert metadata["grpc-retry-pushback-ms"] == "250"
    status = status_pb2.Status.FromString(metadata["grpc-status-details-bin"])
    info = error_details_pb2.RetryInfo()
    assert status.details[0].Unpack(info)
    assert info.retry_delay.ToNanoseconds() == 250_000_000


@pytest.fixture(scope="module")
def small_mesh(tmp_path_factory):
    handle = run_mesh(tmp_path_factory.mktemp("admission"), HEALTHMESH_MAX_TURNS="1",
                      HEALTHMESH_TURN_QUEUE="0")
    yield handle
    handle.close()


def test_overload_is_refused_quickly_and_the_mesh_recovers_at_once(small_mesh) -> None:
    def ask(_: int) -> grpc.StatusCode:
        try:
            small_mesh.stub.Ask(orchestrator_pb2.AskRequest(message="list cardiology slots"), timeout=20)
        except grpc.RpcError as err:
            if err.code() == grpc.StatusCode.RESOURCE_EXHAUSTED:
                assert "at capacity" in err.details() and len(err.details()) < 300
                pushback = dict(err.trailing_metadata() or ())["grpc-retry-pushback-ms"]
                assert int(pushback) > 0
            return err.code()
        return grpc.StatusCode.OK

    with ThreadPoolExecutor(16) as pool:
        codes = list(pool.map(ask, range(16)))
    assert set(codes) <= {grpc.StatusCode.OK, grpc.StatusCode.RESOURCE_EXHAUSTED}, codes
    assert grpc.StatusCode.OK in codes
    assert grpc.StatusCode.RESOURCE_EXHAUSTED in codes
    reply = small_mesh.ask("list cardiology slots")  # the burst is over: served at once
    assert reply.disposition == orchestrator_pb2.DISPOSITION_ANSWERED
