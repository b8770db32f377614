"""Every call the orchestrator makes, and its encoding (like Online Boutique's rpc.go): the
verifier's screen and verdict, a planned step on a clinic or the tools, a clinic's doctors, an
escalation case.

Each upstream is a channel behind a Guard (breaker + retries + one deadline). Reads retry
on UNAVAILABLE only; writes retry only when they carry an idempotency key (the same key on every
attempt, so the clinic books once). Failures come back as values (an Outcome, a StepResult, a
None reply), never as exceptions.
"""

import asyncio
import contextlib
import datetime as dt
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import grpc
from opentelemetry import trace

from healthmesh.v1 import (
    clinic_pb2,
    clinic_pb2_grpc,
    common_pb2,
    escalation_pb2,
    escalation_pb2_grpc,
    orchestrator_pb2,
    tools_pb2,
    tools_pb2_grpc,
    verifier_pb2,
    verifier_pb2_grpc,
)
from orchestrator.context import RequestContext
from orchestrator.guarded import CircuitOpen, Guard, Outcome, Policy
from orchestrator.planning.planner import Directory
from orchestrator.planning.steps import TOOLS, Action, PlannedStep, StepResult, StepStatus
from orchestrator.slotreplica import SlotReplica
from runtime import tracing
from runtime.errors import bad_request_fields, error_info
from runtime.transport import Transport

tracer = trace.get_tracer("healthmesh.orchestrator")

COUNTED_BY_BREAKER = frozenset({
    grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.INTERNAL,
})

# Fast reconnects, so a clinic that comes back is reachable by the breaker's trial call. Keepalive
# pings while a call is open (a WatchSlots stream is, for good): a clinic that hangs or is cut off ends
# its stream within about 5 s, and its slot replica stops answering (the servers allow the pings). A
# ping every 3 s is one HTTP/2 frame per channel.
CHANNEL_OPTIONS = [
    ("grpc.initial_reconnect_backoff_ms", 200),
    ("grpc.min_reconnect_backoff_ms", 100),
    ("grpc.max_reconnect_backoff_ms", 2000),
    ("grpc.keepalive_time_ms", 3_000),
    ("grpc.keepalive_timeout_ms", 2_000),
    ("grpc.http2.ping_timeout_ms", 2_000),  # what grpc 1.85 waits for an ack (its default is a minute)
]

_BY_CODE = {
    grpc.StatusCode.OK: StepStatus.OK,
    grpc.StatusCode.NOT_FOUND: StepStatus.NOT_FOUND,
    grpc.StatusCode.FAILED_PRECONDITION: StepStatus.REJECTED,
    grpc.StatusCode.PERMISSION_DENIED: StepStatus.REJECTED,
    grpc.StatusCode.ALREADY_EXISTS: StepStatus.REJECTED,
    grpc.StatusCode.INVALID_ARGUMENT: StepStatus.INVALID,
    grpc.StatusCode.DEADLINE_EXCEEDED: StepStatus.TIMED_OUT,
}


def _counted(exc: BaseException) -> bool:
    return isinstance(exc, grpc.RpcError) and exc.code() in COUNTED_BY_BREAKER


def _unavailable(exc: BaseException) -> bool:
    return isinstance(exc, grpc.RpcError) and exc.code() == grpc.StatusCode.UNAVAILABLE


def code_of(outcome: Outcome) -> grpc.StatusCode | None:
    """The call's status code; None when no attempt could be made (open breaker, no time)."""
    if outcome.error is None:
        return grpc.StatusCode.OK
    return outcome.error.code() if isinstance(outcome.error, grpc.RpcError) else None


def status_of(outcome: Outcome) -> StepStatus:
    if isinstance(outcome.error, CircuitOpen):
        return StepStatus.CIRCUIT_OPEN
    code = code_of(outcome)
    if code is None:  # no time left for an attempt
        return StepStatus.TIMED_OUT
    return _BY_CODE.get(code, StepStatus.UNAVAILABLE)


@dataclass(frozen=True)
class Rpc:
    """One method of an upstream: its path (/package.Service/Method, the client span's name) and
    the stub's callable for it."""

    path: str
    invoke: Callable[..., Awaitable[Any]]


def rpcs(channel: grpc.aio.Channel, messages: Any, services: Any, name: str) -> dict[str, Rpc]:
    """The methods of service `name` (its _pb2 and _pb2_grpc modules) by name, on one stub for `channel`."""
    service = messages.DESCRIPTOR.services_by_name[name]
    stub = getattr(services, f"{name}Stub")(channel)
    return {m.name: Rpc(f"/{service.full_name}/{m.name}", getattr(stub, m.name)) for m in service.methods}


_CLINIC_METHODS = {
    Action.LIST_SLOTS: "ListAvailableSlots",
    Action.BOOK: "BookAppointment",
    Action.RESCHEDULE: "RescheduleAppointment",
    Action.CANCEL: "CancelAppointment",
    Action.LIST_APPOINTMENTS: "ListAppointments",
}


class Upstream:
    """One gRPC upstream: a channel and its guard."""

    def __init__(self, name: str, target: str, policy: Policy, transport: Transport) -> None:
        self.name = name
        self.target = target
        self.channel = transport.aio_channel(target, server=name, options=CHANNEL_OPTIONS)
        self.guard = Guard(name, policy, errors=(grpc.RpcError,), counted=_counted, transient=_unavailable)

    @property
    def breaker_state(self) -> str:
        return self.guard.state

    async def call(self, ctx: RequestContext, rpc: Rpc, request: Any, *, retry: bool,
                   timeout_cap: float | None = None) -> Outcome:
        """Calls `rpc` with `request`, each attempt in a client span; `retry` says whether an
        UNAVAILABLE may be retried (reads, and writes with an idempotency key). `timeout_cap`
        lowers the per-attempt cap."""

        async def attempt(seconds: float) -> Any:
            with tracing.client_span(rpc.path) as metadata:
                return await rpc.invoke(request, timeout=seconds, metadata=metadata)

        outcome = await self.guard.call(ctx, attempt, retry=retry, timeout_cap=timeout_cap)
        span = trace.get_current_span()
        span.set_attribute("healthmesh.attempts", outcome.attempts)
        span.set_attribute("healthmesh.breaker_state", self.breaker_state)
        return outcome

    async def close(self) -> None:
        await self.channel.close()


@dataclass
class Mesh:
    """The upstreams, wired in main, and the calls made to them."""

    clinics: dict[str, Upstream]
    verifier: Upstream
    tools: Upstream
    escalation: Upstream
    replicas: dict[str, SlotReplica] = field(default_factory=dict)  # by clinic, when slots are followed

    def __post_init__(self) -> None:
        self._following: list[asyncio.Task[None]] = []
        # Stubs are made once: a stub per call was measurable CPU on the Ask path.
        self._verifier = rpcs(self.verifier.channel, verifier_pb2, verifier_pb2_grpc, "VerifierService")
        self._escalation = rpcs(self.escalation.channel, escalation_pb2, escalation_pb2_grpc,
                                "EscalationService")
        self._clinics = {cid: rpcs(u.channel, clinic_pb2, clinic_pb2_grpc, "ClinicService")
                         for cid, u in self.clinics.items()}
        services = ("CalculatorService", "GuidelineService", "DrugService")
        calculators, guidelines, drugs = (rpcs(self.tools.channel, tools_pb2, tools_pb2_grpc, name)
                                          for name in services)
        self._tools = {
            Action.COMPUTE_SCORE: calculators["ComputeRiskScore"],
            Action.SEARCH_GUIDELINES: guidelines["SearchGuidelines"],
            Action.CHECK_DRUG_SAFETY: drugs["CheckDrugSafety"],
            Action.CHECK_INTERACTIONS: drugs["CheckInteractions"],
        }

    async def follow_slots(self, now: Callable[[], dt.datetime], wait_s: float) -> None:
        """Keeps a replica of every clinic's open slots to list from (orchestrator.slotreplica), and
        waits up to `wait_s` for their snapshots, so the first listings are answered like the later
        ones; a clinic not up by then is followed when it comes."""
        for clinic_id, methods in self._clinics.items():
            # A snapshot is the clinic answering: it closes a breaker that failed calls opened, which no
            # listing would otherwise try again.
            replica = SlotReplica(clinic_id, methods["WatchSlots"].invoke, now,
                                  reached=self.clinics[clinic_id].guard.reached)
            self.replicas[clinic_id] = replica
            self._following.append(asyncio.create_task(replica.follow(), name=f"follow slots of {clinic_id}"))
        snapshots = asyncio.gather(*(replica.in_sync.wait() for replica in self.replicas.values()))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(snapshots, wait_s)

    def upstreams(self) -> list[Upstream]:
        return [*self.clinics.values(), self.verifier, self.tools, self.escalation]

    async def screen(self, ctx: RequestContext, message: str,
                     language: str) -> verifier_pb2.ScreenInputResponse | None:
        """The safety screen's reading of the raw message; None when it could not be consulted."""
        request = verifier_pb2.ScreenInputRequest(message=message, language=language)
        outcome = await self.verifier.call(ctx, self._verifier["ScreenInput"], request, retry=True)
        return outcome.reply

    async def verify(self, ctx: RequestContext, *, query: str, answer: str, evidence: verifier_pb2.Evidence,
                     patient: tuple[str, str], language: str, origin: int,
                     reference: str) -> orchestrator_pb2.Verification:
        """The safety gate's verdict; unsafe when the gate could not be consulted (fail closed)."""
        request = verifier_pb2.VerifyAnswerRequest(
            user_query=query, answer=answer, evidence=evidence,
            current_patient=common_pb2.PatientIdentity(full_name=patient[0], cpf=patient[1]),
            language=language, origin=origin, reference_answer=reference)
        outcome = await self.verifier.call(ctx, self._verifier["VerifyAnswer"], request, retry=True)
        if outcome.reply is None:
            return orchestrator_pb2.Verification(safe=False, notes=["verifier unavailable"])
        notes = [v.note for v in outcome.reply.violations]  # each note starts with its rule, "R4: …"
        return orchestrator_pb2.Verification(safe=outcome.reply.safe, notes=notes)

    async def create_case(self, ctx: RequestContext, request: escalation_pb2.CreateCaseRequest
                          ) -> escalation_pb2.CreateCaseResponse | None:
        """Opens an escalation case; None when it could not be. Creation is a write whose idempotency key
        is the session and the reason, so it is retried like a read."""
        outcome = await self.escalation.call(ctx, self._escalation["CreateCase"], request, retry=True)
        return outcome.reply

    def _method(self, step: PlannedStep) -> tuple[Upstream, Rpc]:
        if step.upstream == TOOLS:
            return self.tools, self._tools[step.action]
        return self.clinics[step.upstream], self._clinics[step.upstream][_CLINIC_METHODS[step.action]]

    async def run_step(self, ctx: RequestContext, step: PlannedStep) -> StepResult:
        upstream, method = self._method(step)
        replica = self.replicas.get(step.upstream)
        with tracer.start_as_current_span(f"step {step.action.value}") as span:
            span.set_attribute("healthmesh.step_id", step.step_id)
            span.set_attribute("healthmesh.clinic_id", step.upstream)
            span.set_attribute("healthmesh.action", step.action.value)
            if replica is not None and step.action is Action.LIST_SLOTS \
                    and (listed := replica.listing(step.request)) is not None:
                span.set_attribute("healthmesh.served_by", "slot replica")
                span.set_attribute("healthmesh.step_status", StepStatus.OK.value)
                return StepResult(step, StepStatus.OK, listed, grpc.StatusCode.OK)
            outcome = await upstream.call(ctx, method, step.request, retry=step.retry_safe)
            status = status_of(outcome)
            span.set_attribute("healthmesh.step_status", status.value)
        if replica is not None:
            _tell(replica, step, outcome)
        result = StepResult(step, status, outcome.reply, code_of(outcome), outcome.attempts,
                            outcome.latency_ms)
        if isinstance(outcome.error, grpc.RpcError):  # the typed details a rule may act on
            metadata = outcome.error.trailing_metadata()
            result.extra = {"error_info": error_info(metadata),
                            "field": next(iter(bad_request_fields(metadata)), "")}
        return result

    async def learn_doctors(self, ctx: RequestContext, directory: Directory, *, retry: bool,
                            timeout_cap: float | None = None) -> None:
        """Asks every clinic whose doctors are unknown for them, in parallel; best effort: a clinic
        that does not answer is asked again on a later turn."""

        async def describe(clinic_id: str) -> None:
            outcome = await self.clinics[clinic_id].call(
                ctx, self._clinics[clinic_id]["DescribeClinic"], clinic_pb2.DescribeClinicRequest(),
                retry=retry, timeout_cap=timeout_cap)
            if outcome.reply is not None:
                directory.doctors[clinic_id] = [d.name for d in outcome.reply.doctors]

        async with asyncio.TaskGroup() as group:
            for clinic_id in directory.clinics:
                if not directory.doctors.get(clinic_id):
                    group.create_task(describe(clinic_id))

    async def close(self) -> None:
        for task in self._following:
            task.cancel()
        await asyncio.gather(*self._following, return_exceptions=True)
        for upstream in self.upstreams():
            await upstream.close()


def _tell(replica: SlotReplica, step: PlannedStep, outcome: Outcome) -> None:
    """What a clinic's answer to a write says about its slots, told to its replica at once: the slot
    booked or moved to, or refused as taken, is not open; the one cancelled or moved from is no longer
    hidden (its stream says when it is open)."""
    reply = outcome.reply
    if reply is not None and step.action in (Action.BOOK, Action.RESCHEDULE):
        replica.taken(reply.appointment.doctor, reply.appointment.date, reply.appointment.time)
    if reply is not None and step.action in (Action.CANCEL, Action.RESCHEDULE):
        freed = reply.original if step.action is Action.RESCHEDULE else reply.appointment
        replica.freed(freed.doctor, freed.date, freed.time)
    elif step.action is Action.BOOK and code_of(outcome) == grpc.StatusCode.FAILED_PRECONDITION:
        replica.taken(step.request.doctor, step.request.date, step.request.time)
