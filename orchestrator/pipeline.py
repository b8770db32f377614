"""The flow of one Ask: screen → understand and plan → route → answer → verify → record.

Every I/O call takes the turn's RequestContext first and gets its deadline from it. Fan-out
is structured (a TaskGroup bounded by a semaphore); each step ends as a typed StepResult.
When the safety gate cannot be consulted the turn fails closed.
"""

import asyncio
import contextlib
import datetime as dt
import logging
import re
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace

import grpc
from opentelemetry import trace

from healthmesh.v1 import (
    clinic_pb2,
    clinic_pb2_grpc,
    common_pb2,
    orchestrator_pb2,
    tools_pb2,
    tools_pb2_grpc,
    verifier_pb2,
    verifier_pb2_grpc,
)
from orchestrator.answering.answer import Answer, AnswerBuilder, found_appointments
from orchestrator.answering.phrases import say
from orchestrator.consult import flow as consult
from orchestrator.context import RequestContext
from orchestrator.models.prompts import rephrase_messages, summary_messages
from orchestrator.models.writer import NO_PHI, Draft, PhiDecision, Writer
from orchestrator.planning.planner import Directory, Kind, Plan, Planner, select_appointment
from orchestrator.planning.steps import Action, PlannedStep, StepResult, StepStatus, status_of
from orchestrator.privacy.audit import AuditLog, AuditRecord
from orchestrator.resilience import Upstream
from orchestrator.sessions import AppointmentRef, ConsultState, Session, SessionStore, SlotRef, TriageState
from orchestrator.toolquestions import loop as toolloop
from orchestrator.toolquestions.reports import missing_inputs, tool_report
from orchestrator.toolquestions.requests import ToolCall, ToolTask
from orchestrator.toolquestions.requests import read as read_tools
from orchestrator.understanding.understand import Intent, OutOfScope, Understanding, understand, yes_or_no
from runtime.errors import InvalidArgument, bad_request_fields, error_info
from runtime.identity import normalize_cpf, normalize_name

tracer = trace.get_tracer("healthmesh.orchestrator")
log = logging.getLogger("orchestrator")

Emit = Callable[[orchestrator_pb2.AskEvent], Awaitable[None]]
MAX_MESSAGE = 2000
ANSWER_RESERVE_S = 0.3
GENERAL_MAX_TOKENS = 160
GENERAL_SENTENCES = 3
GENERAL_PASSAGES = 3
MAX_TRIAGE_ASKS = 2
REPHRASE_MAX_TOKENS = 400

DISPOSITION = {
    "answered": orchestrator_pb2.DISPOSITION_ANSWERED,
    "partial": orchestrator_pb2.DISPOSITION_PARTIAL,
    "needs_info": orchestrator_pb2.DISPOSITION_NEEDS_INFO,
    "out_of_scope": orchestrator_pb2.DISPOSITION_OUT_OF_SCOPE,
    "emergency": orchestrator_pb2.DISPOSITION_EMERGENCY,
    "blocked": orchestrator_pb2.DISPOSITION_BLOCKED,
}
MODEL_ROUTE = {"none": orchestrator_pb2.MODEL_ROUTE_NONE, "local": orchestrator_pb2.MODEL_ROUTE_LOCAL,
               "cloud": orchestrator_pb2.MODEL_ROUTE_CLOUD}
STEP_STATUS = {s: orchestrator_pb2.StepStatus.Value(f"STEP_STATUS_{s.name}") for s in StepStatus}


@dataclass
class Mesh:
    """The upstreams, wired in main."""

    clinics: dict[str, Upstream]
    verifier: Upstream
    tools: Upstream


class Orchestrator:
    def __init__(self, mesh: Mesh, planner: Planner, answers: AnswerBuilder, sessions: SessionStore,
                 writer: Writer, audit: AuditLog, today: Callable[[], dt.date], fanout: int) -> None:
        self.mesh = mesh
        self.writer = writer
        self.audit = audit
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
        await self._record(response, message, session)
        return response

    async def _record(self, response: orchestrator_pb2.AskResponse, message: str, session: Session) -> None:
        """Appends the PHI-redacted audit record. A failure is logged loudly but does not undo
        a turn whose bookings already happened."""
        record = AuditRecord(
            session_id=session.session_id,
            disposition=orchestrator_pb2.Disposition.Name(response.disposition),
            route=orchestrator_pb2.ModelRoute.Name(response.model_route),
            phi_categories=tuple(response.phi_categories),
            steps=tuple({"step_id": s.step_id, "clinic_id": s.clinic_id, "action": s.action,
                         "status": orchestrator_pb2.StepStatus.Name(s.status), "attempts": s.attempts}
                        for s in response.steps),
            verdict={"safe": response.verification.safe, "notes": list(response.verification.notes)},
            trace_id=response.trace_id,
            message_redacted=self.writer.redact(message, [session.patient_name]),
        )
        try:
            await asyncio.to_thread(self.audit.append, record)
        except Exception:
            log.exception("audit append failed", extra={"trace_id": response.trace_id})

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
        if screen.reply is not None:
            # A high-risk topic: its deciding question comes before anything else, and the
            # answer decides; a "no emergency" answer resumes the message that raised it.
            triage = self._triage(session, message, screen.reply)
            if isinstance(triage, Answer):
                lang = screen.reply.language or session.language
                return self._finish(session, message, triage, lang, [], verification=None)
            message = triage

        # 2. Detect PHI in what the user sent (the payload of any model call is checked too).
        with tracer.start_as_current_span("phi") as span:
            phi = self.writer.detect(message, [session.patient_name])
            span.set_attribute("healthmesh.phi_detected", phi.found)
            span.set_attribute("healthmesh.phi_categories", list(phi.categories))
            # The rule is about the query: once a session has said something private, none of
            # its turns goes to the cloud, whatever the payload of a model call holds.
            session.phi_seen = session.phi_seen or phi.found

        # 3. Understand and plan (deterministic code).
        await self._refresh_directory(ctx)
        with tracer.start_as_current_span("plan") as span:
            u = understand(message, today=self.today(), known_doctors=self.directory.all_doctors(),
                           previous_language=session.language or None)
            lang = u.language
            if screen.reply is None:  # the safety screen could not run: fail closed
                span.set_attribute("healthmesh.fail_closed", True)
                return self._finish(session, message, Answer(say(lang, "unverified"), "blocked"), lang, [],
                                    verification=orchestrator_pb2.Verification(
                                        safe=False, notes=["screening unavailable"]), phi=phi)
            tools = read_tools(message) if u.out_of_scope != OutOfScope.OTHER_PATIENT else ToolTask()
            plan = self._plan(u, session, message, tools)
            span.set_attribute("healthmesh.intent", u.intent.value)
            span.set_attribute("healthmesh.plan", plan.kind)
            span.set_attribute("healthmesh.steps", len(plan.steps))
        await _stage(emit, ctx, orchestrator_pb2.STAGE_PLAN, f"{plan.kind}: {len(plan.steps)} steps")

        # 4. Route, 5. answer deterministically.
        results: list[StepResult] = []
        if plan.kind == Kind.TOOLS:
            answer, results = await self._tools(ctx, tools, session, lang, emit)
        elif plan.kind == Kind.CONSULT:
            answer = await self._consult(plan, session, message, lang)
        elif plan.kind == Kind.GENERAL:
            answer, results = await self._general(ctx, plan, session, message, lang, emit)
        elif plan.kind == Kind.REPLY:
            answer = self.answers.reply(plan, lang)
        else:
            handoff = self._attach_handoff(plan, session, lang)
            results = await self._run(ctx, plan.steps, emit)
            answer, plan, more = await self._answer(ctx, plan, results, u, session, lang, emit)
            results += more
            if handoff and answer.current_appointment is not None and session.consult is not None:
                session.consult.stage = "booked"
                clinic = self.directory.clinics[answer.current_appointment.clinic_id].name
                answer.text += "\n" + say(lang, "consult_handoff", clinic=clinic)
        if screen.reply.advisory:  # a clinician's question with red-flag words: the reminder goes with it
            answer.text += "\n" + screen.reply.advisory
            answer.facts.append(screen.reply.advisory)
        await _stage(emit, ctx, orchestrator_pb2.STAGE_ROUTE, f"{len(results)} steps run")
        await _stage(emit, ctx, orchestrator_pb2.STAGE_ANSWER, answer.disposition)

        # 6. A model may phrase it; 7. verify: nothing leaves unverified.
        answer, route, verdict, phi = await self._phrase_and_verify(ctx, session, message, plan, answer,
                                                                    lang, phi, emit)
        await _stage(emit, ctx, orchestrator_pb2.STAGE_VERIFY, "safe" if verdict.safe else "blocked")
        if not verdict.safe:
            key = "blocked" if verdict.notes != ["verifier unavailable"] else "unverified"
            blocked = Answer(_blocked_text(lang, key, verdict), "blocked")
            return self._finish(session, message, blocked, lang, results, verdict, phi=phi)
        self._learn(session, plan, answer)
        for sentence in _sentences(answer.text):  # only now: the whole answer passed
            await emit(orchestrator_pb2.AskEvent(answer_chunk=sentence))
        return self._finish(session, message, answer, lang, results, verdict, phi=phi, route=route)

    async def _phrase_and_verify(self, ctx: RequestContext, session: Session, message: str, plan: Plan,
                                 answer: Answer, lang: str, phi: PhiDecision, emit: Emit
                                 ) -> tuple[Answer, str, orchestrator_pb2.Verification, PhiDecision]:
        """A model's text is used only when the verifier finds it faithful to what it rephrases
        or summarizes; otherwise the deterministic answer is verified and sent, and the
        verification notes say why the model's text was dropped."""
        writing = self._writing(plan, answer, message, lang)
        dropped: list[str] = []
        if writing is not None and self.writer.writers(session.phi_seen):
            messages, origin = writing
            payload_phi = self.writer.payload_phi(messages, [session.patient_name])
            phi = phi | payload_phi
            local_only = session.phi_seen or payload_phi.found
            if self.writer.writers(local_only):
                written = await self._model_text(ctx, session, message, plan, answer, lang, emit, messages,
                                                 origin, local_only)
                if isinstance(written, tuple):
                    return (*written, phi)
                dropped = written
        with tracer.start_as_current_span("verify") as span:
            verdict = await self._verify(ctx, message, answer, session, lang)
            span.set_attribute("healthmesh.safe", verdict.safe)
        if verdict.safe:
            verdict.notes.extend(dropped)
        return answer, "none", verdict, phi

    async def _model_text(self, ctx: RequestContext, session: Session, message: str, plan: Plan,
                          answer: Answer, lang: str, emit: Emit, messages: list[dict], origin: int,
                          local_only: bool) -> tuple[Answer, str, orchestrator_pb2.Verification] | list[str]:
        """The model's text with its route and verdict when the verifier finds it faithful, else
        the notes saying why it was dropped."""
        writers = self.writer.writers(local_only)
        await _stage(emit, ctx, orchestrator_pb2.STAGE_MODEL, f"writing: {', '.join(writers)}")
        with tracer.start_as_current_span("model") as span:
            span.set_attribute("healthmesh.local_only", local_only)
            draft = await self.writer.draft(
                ctx.within(max(0.0, ctx.remaining() - ANSWER_RESERVE_S)), messages, local_only,
                [session.patient_name], max_tokens=_max_tokens(plan, answer),
                sentences=GENERAL_SENTENCES if origin == verifier_pb2.ANSWER_ORIGIN_SUMMARY else None)
            span.set_attribute("healthmesh.model_route", draft.route if isinstance(draft, Draft) else "none")
        if isinstance(draft, Draft):
            candidate = self._candidate(answer, draft, origin, lang)
            with tracer.start_as_current_span("verify") as span:
                verdict = await self._verify(ctx, message, candidate, session, lang, origin=origin,
                                             reference=answer.text)
                span.set_attribute("healthmesh.safe", verdict.safe)
                span.set_attribute("healthmesh.model_text", True)
                span.set_attribute("healthmesh.rules_broken", sorted({n[:2] for n in verdict.notes}))
            if verdict.safe:
                await _stage(emit, ctx, orchestrator_pb2.STAGE_MODEL, f"accepted: {draft.route}")
                return candidate, draft.route, verdict
            dropped = [f"model text dropped ({draft.route}): {n}" for n in verdict.notes]
        else:
            dropped = [f"model text dropped ({draft.route}): {draft.reason}"]
        trace.get_current_span().set_attribute("healthmesh.model_dropped", dropped)
        await _stage(emit, ctx, orchestrator_pb2.STAGE_MODEL,
                     "dropped: " + ("not faithful" if isinstance(draft, Draft) else draft.reason))
        return dropped

    def _writing(self, plan: Plan, answer: Answer, message: str, lang: str
                 ) -> tuple[list[dict], int] | None:
        """What a model would be asked to write this turn, if anything: a summary of the passages
        found for a general question, or a rephrasing of a short answer. Cited reports,
        consults, emergencies and blocks stay verbatim."""
        if plan.kind == Kind.GENERAL:
            if not answer.passages:
                return None
            return summary_messages(message, answer.passages, lang), verifier_pb2.ANSWER_ORIGIN_SUMMARY
        if (plan.kind in (Kind.TOOLS, Kind.CONSULT) or answer.disposition in ("emergency", "blocked")
                or len(answer.text) > self.writer.rephrase_max_chars):
            return None
        return rephrase_messages(answer.text, lang), verifier_pb2.ANSWER_ORIGIN_REPHRASING

    @staticmethod
    def _candidate(answer: Answer, draft: Draft, origin: int, lang: str) -> Answer:
        """The answer with the model's text: a summary keeps the sources and gets the disclaimer,
        and everything it may state (passages, sources, disclaimer) is its evidence."""
        if origin != verifier_pb2.ANSWER_ORIGIN_SUMMARY:
            return replace(answer, text=draft.text)
        tail = [say(lang, "sources"), *(f"[{c.index}] {c.source} — {c.section}" for c in answer.citations),
                say(lang, "disclaimer")]
        return replace(answer, text="\n".join([draft.text, "", *tail]), facts=[*answer.facts, *tail])

    async def _general(self, ctx: RequestContext, plan: Plan, session: Session, message: str, lang: str,
                       emit: Emit) -> tuple[Answer, list[StepResult]]:
        """A general health question is answered from the guideline knowledge base: the cited
        passages themselves (a model may summarize them), or a plain "I can't answer that here"
        with what the assistant can do when none is found."""
        search = tools_pb2.SearchGuidelinesRequest(query=message, top_k=GENERAL_PASSAGES)
        task = ToolTask(calls=[ToolCall(Action.SEARCH_GUIDELINES, search)])
        answer, results = await self._tools(ctx, task, session, lang, emit)
        passages = [p.snippet for r in results if r.status == StepStatus.OK for p in r.reply.passages]
        if not passages:
            return self.answers.reply(plan, lang), results
        answer.passages = passages
        return answer, results

    @staticmethod
    def _triage(session: Session, message: str, screen: verifier_pb2.ScreenInputResponse) -> Answer | str:
        """The deciding question to ask (or ask again), the emergency its answer reveals, or
        the message to go on with. An answer that stays unclear after a second asking is read
        as an emergency: in doubt, fail closed."""
        pending = session.triage
        if pending is None:
            if not screen.HasField("question"):
                return message
            q = screen.question
            session.triage = TriageState(q.rule_id, q.text, q.emergency_if_yes, q.emergency_message, message)
            trace.get_current_span().set_attribute("healthmesh.triage_question", q.rule_id)
            return Answer(q.text, "needs_info")
        reply = yes_or_no(message)
        if reply is None and pending.asked < MAX_TRIAGE_ASKS:
            pending.asked += 1
            return Answer(pending.question, "needs_info")
        session.triage = None
        if reply is None or reply == pending.emergency_if_yes:
            return Answer(pending.emergency_message, "emergency")
        return pending.message

    def _plan(self, u: Understanding, session: Session, message: str, tools: ToolTask) -> Plan:
        """Tool questions and symptom consults first; everything else is the planner's."""
        if tools:
            return Plan(Kind.TOOLS)
        if consult.answers_questions(session, u, message) or consult.opens_consult(message, u):
            return Plan(Kind.CONSULT)
        if consult.wants_slots(session, u):
            assert session.consult is not None
            u = replace(u, intent=Intent.LIST, specialty=session.consult.specialty)
        return self.planner.plan(u, session)

    async def _tools(self, ctx: RequestContext, task: ToolTask, session: Session, lang: str,
                     emit: Emit) -> tuple[Answer, list[StepResult]]:
        if task.missing:
            return Answer(missing_inputs(task.score, task.missing, lang), "needs_info"), []

        async def run_step(step_ctx: RequestContext, step: PlannedStep) -> StepResult:
            result = await self._step(step_ctx, step)
            await emit(orchestrator_pb2.AskEvent(step=_step_message(result)))
            return result

        with tracer.start_as_current_span("tool loop") as span:
            loop = await toolloop.run(self._steps_ctx(ctx), task, run_step)
            span.set_attribute("healthmesh.tool_steps", len(loop.results))
            span.set_attribute("healthmesh.tool_ask", loop.ask.kind if loop.ask else "")
        report = tool_report(loop, lang, task.readings)
        if session.consult is not None:
            session.consult.objective += report.objective
        return Answer(report.text, report.disposition, facts=report.facts, citations=report.citations), \
            loop.results

    async def _consult(self, plan: Plan, session: Session, message: str, lang: str) -> Answer:
        state = session.consult
        if state is None or state.stage != "history":
            state = session.consult = ConsultState()
        state.texts.append(message)
        text = consult.questions(state, lang)
        if text is not None:
            return Answer(text, "needs_info")
        with tracer.start_as_current_span("council") as span:
            offered = sorted({c.specialty for c in self.directory.clinics.values()})
            await consult.assess(state, offered)
            span.set_attribute("healthmesh.specialty", state.specialty)
            span.set_attribute("healthmesh.urgency", state.urgency)
            span.set_attribute("healthmesh.confidence", state.confidence)
            span.set_attribute("healthmesh.council_size", len(state.proposals))
        text, offer = consult.recommendation(state, lang)
        if offer:
            plan.specialty, plan.pending = state.specialty, "consult_slots"
        return Answer(text, "answered")

    def _attach_handoff(self, plan: Plan, session: Session, lang: str) -> bool:
        """A booking made on the consult's recommendation carries its SOAP packet."""
        state = session.consult
        if plan.kind != Kind.BOOK or state is None or state.stage != "recommended" \
                or plan.specialty != state.specialty:
            return False
        step = plan.steps[0]
        slot = SlotRef(step.clinic_id, step.request.doctor, step.request.date, step.request.time)
        step.request.handoff.CopyFrom(
            consult.handoff_packet(state, slot, self.directory.clinics[step.clinic_id].name, lang))
        return True

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
        ctx = self._steps_ctx(ctx)
        results: list[StepResult | None] = [None] * len(steps)

        async def run_one(i: int, step: PlannedStep) -> None:
            async with self._fanout:
                results[i] = await self._step(ctx, step)
            await emit(orchestrator_pb2.AskEvent(step=_step_message(results[i])))

        async with asyncio.TaskGroup() as group:
            for i, step in enumerate(steps):
                group.create_task(run_one(i, step))
        return [r for r in results if r is not None]

    @staticmethod
    def _steps_ctx(ctx: RequestContext) -> RequestContext:
        """Steps get the turn's deadline minus a reserve, so a slow upstream still leaves time
        to answer and verify within the caller's deadline."""
        reserve = min(ANSWER_RESERVE_S, ctx.remaining() * 0.2)
        return RequestContext(deadline=ctx.deadline - reserve, session_id=ctx.session_id,
                              trace_id=ctx.trace_id, started=ctx.started)

    def _method(self, step: PlannedStep) -> tuple[Upstream, Callable]:
        if step.clinic_id == toolloop.TOOLS:
            channel = self.mesh.tools.channel
            return self.mesh.tools, {
                Action.COMPUTE_SCORE: tools_pb2_grpc.CalculatorServiceStub(channel).ComputeRiskScore,
                Action.SEARCH_GUIDELINES: tools_pb2_grpc.GuidelineServiceStub(channel).SearchGuidelines,
                Action.CHECK_DRUG_SAFETY: tools_pb2_grpc.DrugServiceStub(channel).CheckDrugSafety,
                Action.CHECK_INTERACTIONS: tools_pb2_grpc.DrugServiceStub(channel).CheckInteractions,
            }[step.action]
        upstream = self.mesh.clinics[step.clinic_id]
        stub = clinic_pb2_grpc.ClinicServiceStub(upstream.channel)
        return upstream, {
            Action.LIST_SLOTS: stub.ListAvailableSlots,
            Action.BOOK: stub.BookAppointment,
            Action.RESCHEDULE: stub.RescheduleAppointment,
            Action.CANCEL: stub.CancelAppointment,
            Action.LIST_APPOINTMENTS: stub.ListAppointments,
        }[step.action]

    async def _step(self, ctx: RequestContext, step: PlannedStep) -> StepResult:
        upstream, method = self._method(step)
        with tracer.start_as_current_span(f"step {step.action.value}") as span:
            span.set_attribute("healthmesh.step_id", step.step_id)
            span.set_attribute("healthmesh.clinic_id", step.clinic_id)
            span.set_attribute("healthmesh.action", step.action.value)
            outcome = await upstream.call(ctx, method, step.request, retry=step.retry_safe)
            status = status_of(outcome)
            span.set_attribute("healthmesh.step_status", status.value)
        result = StepResult(step, status, outcome.reply, outcome.code, outcome.attempts, outcome.latency_ms)
        if isinstance(outcome.error, grpc.RpcError):  # the typed details a rule may act on
            metadata = outcome.error.trailing_metadata()
            result.extra = {"error_info": error_info(metadata),
                            "field": next(iter(bad_request_fields(metadata)), "")}
        return result

    async def _refresh_directory(self, ctx: RequestContext) -> None:
        """Learns the doctors of clinics not heard from yet (e.g. down at start)."""
        if any(not self.directory.doctors.get(cid) for cid in self.directory.clinics):
            with tracer.start_as_current_span("directory"):
                await learn_doctors(ctx, self.mesh, self.directory, retry=False, timeout_cap=0.5)

    async def _verify(self, ctx: RequestContext, message: str, answer: Answer, session: Session,
                      lang: str, *, origin: int = verifier_pb2.ANSWER_ORIGIN_DETERMINISTIC,
                      reference: str = "") -> orchestrator_pb2.Verification:
        request = verifier_pb2.VerifyAnswerRequest(
            user_query=message, answer=answer.text, evidence=self.answers.evidence(answer),
            current_patient=common_pb2.PatientIdentity(full_name=session.patient_name,
                                                       cpf=session.patient_cpf),
            language=lang, origin=origin,
            reference_answer=reference if origin == verifier_pb2.ANSWER_ORIGIN_REPHRASING else "")
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
                results: list[StepResult], verification: orchestrator_pb2.Verification | None, *,
                phi: PhiDecision = NO_PHI, route: str = "none") -> orchestrator_pb2.AskResponse:
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
            phi_detected=phi.found,
            phi_categories=phi.categories,
            model_route=MODEL_ROUTE[route],
            citations=answer.citations if answer.disposition != "blocked" else [],
            consult=consult.summary(session.consult),
        )


async def learn_doctors(ctx: RequestContext, mesh: Mesh, directory: Directory, *, retry: bool,
                        timeout_cap: float | None = None) -> None:
    """Asks every clinic whose doctors are unknown for them, in parallel; best effort: a clinic
    that does not answer is asked again on a later turn."""

    async def describe(clinic_id: str) -> None:
        upstream = mesh.clinics[clinic_id]
        stub = clinic_pb2_grpc.ClinicServiceStub(upstream.channel)
        outcome = await upstream.call(ctx, stub.DescribeClinic, clinic_pb2.DescribeClinicRequest(),
                                      retry=retry, timeout_cap=timeout_cap)
        if outcome.reply is not None:
            directory.doctors[clinic_id] = [d.name for d in outcome.reply.doctors]

    async with asyncio.TaskGroup() as group:
        for clinic_id in directory.clinics:
            if not directory.doctors.get(clinic_id):
                group.create_task(describe(clinic_id))


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


def _max_tokens(plan: Plan, answer: Answer) -> int:
    if plan.kind == Kind.GENERAL:
        return GENERAL_MAX_TOKENS
    return min(REPHRASE_MAX_TOKENS, len(answer.text) // 3 + 48)  # ~3 characters a token, some slack


def _sentences(text: str) -> list[str]:
    """Lines, then sentences within a line, each kept with its own punctuation."""
    return [part for line in text.splitlines() for part in re.split(r"(?<=[.!?])\s+", line) if part.strip()]


def _blocked_text(lang: str, key: str, verdict: orchestrator_pb2.Verification) -> str:
    notes = "\n".join(f"- {n}" for n in verdict.notes if key == "blocked")
    return say(lang, key) + (f"\n{notes}" if notes else "")
