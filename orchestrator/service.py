"""gRPC face of the orchestrator: Ask, AskStream and DescribeMesh."""

import asyncio
import contextlib
from collections.abc import AsyncIterator

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from opentelemetry import trace

from healthmesh.v1 import orchestrator_pb2, orchestrator_pb2_grpc
from orchestrator.admission import Admission
from orchestrator.context import RequestContext
from orchestrator.edge import Edge
from orchestrator.events import ignored
from orchestrator.pipeline import Orchestrator
from orchestrator.upstreams import Upstream
from runtime.specialties import SPECIALTY_ENUM

BREAKER = {
    "closed": orchestrator_pb2.BREAKER_STATE_CLOSED,
    "open": orchestrator_pb2.BREAKER_STATE_OPEN,
    "half-open": orchestrator_pb2.BREAKER_STATE_HALF_OPEN,
}


class OrchestratorService(orchestrator_pb2_grpc.OrchestratorServiceServicer):
    def __init__(self, orchestrator: Orchestrator, edge: Edge, admission: Admission,
                 default_deadline_s: float) -> None:
        self.orchestrator = orchestrator
        self.edge = edge
        self.admission = admission
        self.default_deadline_s = default_deadline_s

    def _context(self, context: grpc.aio.ServicerContext) -> RequestContext:
        """The turn's deadline is the caller's, or the default when the caller set none."""
        remaining = context.time_remaining()
        seconds = self.default_deadline_s if remaining is None else min(remaining, self.default_deadline_s)
        span_context = trace.get_current_span().get_span_context()
        trace_id = f"{span_context.trace_id:032x}" if span_context.is_valid else ""
        return RequestContext.with_timeout(seconds, trace_id=trace_id)

    async def Ask(self, request: orchestrator_pb2.AskRequest,
                  context: grpc.aio.ServicerContext) -> orchestrator_pb2.AskResponse:
        patient = self.edge.patient(context.invocation_metadata(), request)
        async with self.admission.turn(context.time_remaining()):
            return await self.orchestrator.ask(self._context(context), request, patient, ignored)

    async def AskStream(self, request: orchestrator_pb2.AskRequest,
                        context: grpc.aio.ServicerContext) -> AsyncIterator[orchestrator_pb2.AskEvent]:
        events: asyncio.Queue[orchestrator_pb2.AskEvent | BaseException] = asyncio.Queue()
        patient = self.edge.patient(context.invocation_metadata(), request)

        async def turn() -> None:
            try:
                response = await self.orchestrator.ask(self._context(context), request, patient, events.put)
                await events.put(orchestrator_pb2.AskEvent(response=response))
            except Exception as exc:  # handed to the stream, which re-raises it
                await events.put(exc)

        async with self.admission.turn(context.time_remaining()):
            # The task never outlives this handler: it is cancelled and awaited on the way out.
            task = asyncio.create_task(turn())
            try:
                while True:
                    item = await events.get()
                    if isinstance(item, BaseException):
                        raise item
                    yield item
                    if item.HasField("response"):
                        return
            finally:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    async def DescribeMesh(self, request: orchestrator_pb2.DescribeMeshRequest,
                           context: grpc.aio.ServicerContext) -> orchestrator_pb2.DescribeMeshResponse:
        mesh = self.orchestrator.mesh
        entries = self.orchestrator.directory.clinics
        upstreams = mesh.upstreams()
        async with asyncio.TaskGroup() as group:
            checks = [group.create_task(_health(u)) for u in upstreams]
        described = [
            orchestrator_pb2.Upstream(
                name=u.name, address=u.target, health=check.result(),
                specialty=SPECIALTY_ENUM.get(entries[u.name].specialty, 0) if u.name in entries else 0,
                breaker=BREAKER[u.breaker_state])
            for u, check in zip(upstreams, checks, strict=True)
        ]
        cloud = self.orchestrator.writer.cloud
        if cloud is not None:  # no health protocol there; its breaker tells how it has been doing
            described.append(orchestrator_pb2.Upstream(
                name="cloud_model", address=cloud.base_url, health="UNKNOWN",
                breaker=BREAKER[cloud.breaker_state]))
        return orchestrator_pb2.DescribeMeshResponse(upstreams=described)


async def _health(upstream: Upstream) -> str:
    try:
        reply = await health_pb2_grpc.HealthStub(upstream.channel).Check(
            health_pb2.HealthCheckRequest(), timeout=1.0)
    except grpc.RpcError as err:
        return err.code().name
    return health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)
