"""The flow of one Ask: screen → understand and plan → route → answer → verify → record.

Every I/O call takes the turn's RequestContext first and gets its deadline from it. Fan-out
is structured (a TaskGroup bounded by a semaphore); each step ends as a typed StepResult.
When the safety gate cannot be consulted the turn fails closed.
"""

import asyncio
import contextlib
import datetime as dt
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from opentelemetry import trace

from healthmesh.v1 import (
    clinic_pb2,
    clinic_pb2_grpc,
    common_pb2,
    orchestrator_pb2,
    verifier_pb2,
    verifier_pb2_grpc,
)
from orchestrator.answer import Answer, AnswerBuilder, found_appointments
from orchestrator.context import RequestContext
from orchestrator.phrases import say
from orchestrator.planner import Kind, Plan, Planner, select_appointment
from orchestrator.resilience import Upstream
from orchestrator.sessions import AppointmentRef, Session, SessionStore
from orchestrator.steps import PlannedStep, StepResult, StepStatus, status_of
from orchestrator.understand import understand
from runtime.errors import InvalidArgument
from runtime.identity import normalize_cpf, normalize_name

tracer = trace.get_tracer("healthmesh.orchestrator")

Emit = Callable[[orchestrator_pb2.AskEvent], Awaitable[None]]
MAX_MESSAGE = 2000
ANSWER_RESERVE_S = 0.3

DISPOSITION = {
    "answered": orchestrator_pb2.DISPOSITION_ANSWERED,
    "partial": orchestrator_pb2.DISPOSITION_PARTIAL,
    "needs_info": orchestrator_pb2.DISPOSITION_NEEDS_INFO,
    "out_of_scope": orchestrator_pb2.DISPOSITION_OUT_OF_SCOPE,
    "emergency": orchestrator_pb2.DISPOSITION_EMERGENCY,
    "blocked": orchestrator_pb2.DISPOSITION_BLOCKED,
}
STEP_STATUS = {s: orchestrator_pb2.StepStatus.Value(f"STEP_STATUS_{s.name}") for s in StepStatus}


@dataclass
class Mesh:
    """The upstreams, wired in main."""

    clinics: dict[str, Upstream]
    verifier: Upstream


class Orchestrator:
    def __init__(self, mesh: Mesh, planner: Planner, answers: AnswerBuilder, sessions: SessionStore,
                 today: Callable[[], dt.date], fanout: int) -> None:
        self.mesh = mesh
        self.planner = planner
        self.directory = planner.directory
        self.answers = answers
        self.sessions = sessions
        self.today = today
        self._fanout = asyncio.Semaphore(fanout)
        # Session I/O runs one call at a time off the loop; turns of one session run in order.
        self._db = asyncio.Semaphore(1)
        self._session_locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    async def ask(self, ctx: RequestContext, request: orchestrator_pb2.AskRequest,
                  emit: Emit) -> orchestrator_pb2.AskResponse:
        message = request.message.strip()
        if not message:
            raise InvalidArgument("message", "is required")
        if len(message) > MAX_MESSAGE:
            raise InvalidArgument("message", f"must be at most {MAX_MESSAGE} characters")
        patient = _validated_patient(request)
        # Turns of one session run in order; its state is read once the turn holds the lock.
        lock: contextlib.AbstractAsyncContextManager = contextlib.nullcontext()
        if request.session_id:
            lock = self._session_locks.setdefault(request.session_id, asyncio.Lock())
        async with lock:
            session = await self._session_io(self.sessions.load, request.session_id) \
                if request.session_id else self.sessions.load("")
            if patient is not None:
                session.patient_name, session.patient_cpf = patient.full_name, patient.cpf
            ctx.session_id = session.session_id
            response = await self._turn(ctx, session, message, emit)
            await self._session_io(self.sessions.save, session)
        response.session_id = session.session_id
        response.trace_id = ctx.trace_id
        return response

    async def _session_io(self, fn: Callable, *args: object) -> Session:
        async with self._db:
            return await asyncio.to_thread(fn, *args)

    async def _turn(self, ctx: RequestContext, session: Session, message: str,
                    emit: Emit) -> orchestrator_pb2.AskResponse:
        # 1. Screen the raw message before anything else.
        with tracer.start_as_current_span("screen") as span:
            screen = await self.mesh.verifier.call(
                ctx, verifier_pb2_grpc.VerifierServiceStub(self.mesh.verifier.channel).ScreenInput,
                verifier_pb2.ScreenInputRequest(message=message, language=session.language),
                retry=True)
            span.set_attribute("healthmesh.red_flag", bool(screen.reply and screen.reply.red_flag))
        await _stage(emit, ctx, orchestrator_pb2.STAGE_SCREEN,
                     "red flag" if screen.reply and screen.reply.red_flag else "clear")
        if screen.reply is not None and screen.reply.red_flag:
            session.language = screen.reply.language or session.language
            return self._finish(session, message, Answer(screen.reply.emergency_message, "emergency"),
                                screen.reply.language, [], verification=None)

        # 2. Understand and plan (deterministic code).
        await self._refresh_directory(ctx)
        with tracer.start_as_current_span("plan") as span:
            u = understand(message, today=self.today(), known_doctors=self.directory.all_doctors(),
                           previous_language=session.language or None)
            lang = u.language
            if screen.reply is None:  # the safety screen could not run: fail closed
                span.set_attribute("healthmesh.fail_closed", True)
                return self._finish(session, message, Answer(say(lang, "unverified"), "blocked"), lang, [],
                                    verification=orchestrator_pb2.Verification(
                                        safe=False, notes=["screening unavailable"]))
            plan = self.planner.plan(u, session)
            span.set_attribute("healthmesh.intent", u.intent.value)
            span.set_attribute("healthmesh.plan", plan.kind)
            span.set_attribute("healthmesh.steps", len(plan.steps))
        await _stage(emit, ctx, orchestrator_pb2.STAGE_PLAN, f"{plan.kind}: {len(plan.steps)} steps")

        # 3. Route, 4. answer.
        results: list[StepResult] = []
        if plan.kind == Kind.REPLY:
            answer = self.answers.reply(plan, lang)
        else:
            results = await self._run(ctx, plan.steps, emit)
            answer, plan, more = await self._answer(ctx, plan, results, u, session, lang, emit)
            results += more
        await _stage(emit, ctx, orchestrator_pb2.STAGE_ROUTE, f"{len(results)} steps run")
        await _stage(emit, ctx, orchestrator_pb2.STAGE_ANSWER, answer.disposition)

        # 5. Verify: nothing leaves unverified.
        with tracer.start_as_current_span("verify") as span:
            verdict = await self._verify(ctx, message, answer, session, lang)
            span.set_attribute("healthmesh.safe", verdict.safe)
        await _stage(emit, ctx, orchestrator_pb2.STAGE_VERIFY, "safe" if verdict.safe else "blocked")
        if not verdict.safe:
            key = "blocked" if verdict.notes != ["verifier unavailable"] else "unverified"
            blocked = Answer(_blocked_text(lang, key, verdict), "blocked")
            return self._finish(session, message, blocked, lang, results, verdict, plan)
        self._learn(session, plan, answer)
        return self._finish(session, message, answer, lang, results, verdict, plan)

    async def _answer(self, ctx: RequestContext, plan: Plan, results: list[StepResult], u, session: Session,
                      lang: str, emit: Emit) -> tuple[Answer, Plan, list[StepResult]]:
        """Builds the answer; a lookup first finds the appointment, then changes it."""
        if plan.kind != Kind.LOOKUP:
            return self.answers.build(plan, results, lang, session.patient_name), plan, []
        found = found_appointments(results)
        refs = [AppointmentRef(a.clinic_id, a.appointment_id, a.doctor, a.date, a.time) for a in found]
        assert plan.then is not None
        chosen = select_appointment(refs, u, plan.then)
        if isinstance(chosen, str):
            return self.answers.ask_which(chosen, found, results, lang), plan, []
        follow = self.planner.change_step(plan.then, u, session, chosen)
        follow.steps = [PlannedStep(f"s{len(results) + i + 1}", s.clinic_id, s.action, s.request)
                        for i, s in enumerate(follow.steps)]
        more = await self._run(ctx, follow.steps, emit)
        return self.answers.build(follow, more, lang, session.patient_name), follow, more

    async def _run(self, ctx: RequestContext, steps: list[PlannedStep], emit: Emit) -> list[StepResult]:
        # Steps get the turn's deadline minus a reserve, so a slow clinic still leaves time to
        # answer and verify within the caller's deadline.
        reserve = min(ANSWER_RESERVE_S, ctx.remaining() * 0.2)
        ctx = RequestContext(deadline=ctx.deadline - reserve, session_id=ctx.session_id,
                             trace_id=ctx.trace_id, started=ctx.started)
        results: list[StepResult | None] = [None] * len(steps)

        async def run_one(i: int, step: PlannedStep) -> None:
            async with self._fanout:
                results[i] = await self._step(ctx, step)
            await emit(orchestrator_pb2.AskEvent(step=_step_message(results[i])))

        async with asyncio.TaskGroup() as group:
            for i, step in enumerate(steps):
                group.create_task(run_one(i, step))
        return [r for r in results if r is not None]

    async def _step(self, ctx: RequestContext, step: PlannedStep) -> StepResult:
        upstream = self.mesh.clinics[step.clinic_id]
        stub = clinic_pb2_grpc.ClinicServiceStub(upstream.channel)
        method = {
            "list_available_slots": stub.ListAvailableSlots,
            "book_appointment": stub.BookAppointment,
            "reschedule_appointment": stub.RescheduleAppointment,
            "cancel_appointment": stub.CancelAppointment,
            "list_appointments": stub.ListAppointments,
        }[step.action.value]
        with tracer.start_as_current_span(f"step {step.action.value}") as span:
            span.set_attribute("healthmesh.step_id", step.step_id)
            span.set_attribute("healthmesh.clinic_id", step.clinic_id)
            span.set_attribute("healthmesh.action", step.action.value)
            outcome = await upstream.call(ctx, method, step.request, retry=step.retry_safe)
            status = status_of(outcome)
            span.set_attribute("healthmesh.step_status", status.value)
        return StepResult(step, status, outcome.reply, outcome.code, outcome.attempts, outcome.latency_ms)

    async def _refresh_directory(self, ctx: RequestContext) -> None:
        """Learns the doctors of clinics not heard from yet (e.g. down at start)."""
        missing = [cid for cid in self.directory.clinics if not self.directory.doctors.get(cid)]
        if not missing:
            return

        async def describe(clinic_id: str) -> None:
            upstream = self.mesh.clinics[clinic_id]
            stub = clinic_pb2_grpc.ClinicServiceStub(upstream.channel)
            outcome = await upstream.call(ctx, stub.DescribeClinic, clinic_pb2.DescribeClinicRequest(),
                                          retry=False, timeout_cap=0.5)
            if outcome.reply is not None:
                self.directory.doctors[clinic_id] = [d.name for d in outcome.reply.doctors]

        with tracer.start_as_current_span("directory"):
            async with asyncio.TaskGroup() as group:
                for clinic_id in missing:
                    group.create_task(describe(clinic_id))

    async def _verify(self, ctx: RequestContext, message: str, answer: Answer, session: Session,
                      lang: str) -> orchestrator_pb2.Verification:
        request = verifier_pb2.VerifyAnswerRequest(
            user_query=message, answer=answer.text, evidence=self.answers.evidence(answer),
            current_patient=common_pb2.PatientIdentity(full_name=session.patient_name,
                                                       cpf=session.patient_cpf),
            language=lang)
        stub = verifier_pb2_grpc.VerifierServiceStub(self.mesh.verifier.channel)
        outcome = await self.mesh.verifier.call(ctx, stub.VerifyAnswer, request, retry=True)
        if outcome.reply is None:
            return orchestrator_pb2.Verification(safe=False, notes=["verifier unavailable"])
        notes = [v.note for v in outcome.reply.violations]  # each note starts with its rule, "R4: …"
        return orchestrator_pb2.Verification(safe=outcome.reply.safe, notes=notes)

    def _learn(self, session: Session, plan: Plan, answer: Answer) -> None:
        if plan.specialty:
            session.specialty = plan.specialty
        if answer.shown_slots is not None:
            session.shown_slots = answer.shown_slots
        if answer.appointment_closed:
            session.booking_epoch += 1
            session.appointment = None
        if answer.current_appointment is not None:
            session.appointment = answer.current_appointment
            session.shown_slots = []
        session.pending = plan.pending

    def _finish(self, session: Session, message: str, answer: Answer, lang: str,
                results: list[StepResult], verification: orchestrator_pb2.Verification | None,
                plan: Plan | None = None) -> orchestrator_pb2.AskResponse:
        session.language = lang
        session.remember("user", message)
        session.remember("assistant", answer.text)
        return orchestrator_pb2.AskResponse(
            answer=answer.text,
            language=lang,
            disposition=DISPOSITION[answer.disposition],
            steps=[_step_message(r) for r in results],
            slots=answer.slots if answer.disposition != "blocked" else [],
            appointment=answer.appointment,
            verification=verification,
        )


def _validated_patient(request: orchestrator_pb2.AskRequest) -> common_pb2.PatientIdentity | None:
    if not request.HasField("patient") or not (request.patient.full_name or request.patient.cpf):
        return None
    return common_pb2.PatientIdentity(full_name=normalize_name(request.patient.full_name),
                                      cpf=normalize_cpf(request.patient.cpf))


def _step_message(r: StepResult) -> orchestrator_pb2.Step:
    return orchestrator_pb2.Step(step_id=r.step.step_id, clinic_id=r.step.clinic_id,
                                 action=r.step.action.value, status=STEP_STATUS[r.status],
                                 message=r.status.value.replace("_", " "), attempts=r.attempts,
                                 latency_ms=round(r.latency_ms, 3))


async def _stage(emit: Emit, ctx: RequestContext, stage: int, detail: str) -> None:
    await emit(orchestrator_pb2.AskEvent(stage=orchestrator_pb2.StageEvent(
        stage=stage, detail=detail, elapsed_ms=round(ctx.elapsed_ms(), 3))))


def _blocked_text(lang: str, key: str, verdict: orchestrator_pb2.Verification) -> str:
    notes = "\n".join(f"- {n}" for n in verdict.notes if key == "blocked")
    return say(lang, key) + (f"\n{notes}" if notes else "")
