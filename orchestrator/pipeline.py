"""The flow of one Ask, stage by stage (`Orchestrator._turn` reads as these numbers):

1. Screen the raw message before anything else: an emergency is answered at once; a high-risk
   topic asks its deciding question first.
2. Detect PHI: once a session has said something private, none of its model calls goes to the cloud.
   A patient asking for a person gets an escalation case (orchestrator.escalation), as do a red
   flag during history taking (besides the emergency answer) and what stage 4 finds.
3. Understand and plan, by deterministic code.
4. Route: run the plan's calls on the clinics or the tools, or the consult; a lookup's second
   round changes the appointment it found. 5. Answer deterministically.
6. A model may phrase the answer; 7. the safety gate verifies it: nothing leaves unverified, and
   when the gate cannot be consulted the turn fails closed.
8. Record: the session, then the PHI-redacted audit record.

Every I/O call takes the turn's RequestContext first and gets its deadline from it.
"""

import asyncio
import contextlib
import datetime as dt
import logging
import weakref
from collections.abc import Callable

from opentelemetry import trace

from healthmesh.v1 import common_pb2, orchestrator_pb2, verifier_pb2
from orchestrator.answering import encode
from orchestrator.answering.answer import Answer, AnswerBuilder, found_appointments
from orchestrator.answering.phrases import say
from orchestrator.consult import flow as consult
from orchestrator.consult.stage import answer_consult, attach_handoff
from orchestrator.context import RequestContext
from orchestrator.escalation import Escalation
from orchestrator.events import Emit, ignored, stage
from orchestrator.models.phrasing import Phrasing
from orchestrator.models.writer import NO_PHI, PhiDecision, PhiReading, Writer
from orchestrator.planning.planner import Kind, Plan, Planner
from orchestrator.planning.steps import StepResult
from orchestrator.privacy.audit import AuditRecord
from orchestrator.readahead import ReadAhead
from orchestrator.recording import Recorder
from orchestrator.routing import Route, steps_context
from orchestrator.sessions import AppointmentRef, Session
from orchestrator.toolquestions.requests import ToolTask
from orchestrator.toolquestions.requests import read as read_tools
from orchestrator.toolquestions.stage import answer_general, answer_tools
from orchestrator.triage import triage
from orchestrator.understanding.understand import OutOfScope, Understanding, understand
from orchestrator.upstreams import Mesh
from runtime.errors import InvalidArgument, PermissionDenied
from runtime.identity import same_name
from runtime.ratelimit import RateLimiter
from runtime.text.language import detect_language

tracer = trace.get_tracer("healthmesh.orchestrator")

log = logging.getLogger("orchestrator")

MAX_MESSAGE = 2000


class Orchestrator:
    def __init__(self, mesh: Mesh, planner: Planner, answers: AnswerBuilder, recorder: Recorder,
                 writer: Writer, today: Callable[[], dt.date], fanout: int, writes: RateLimiter) -> None:
        self.mesh = mesh
        self.writer = writer
        self.recorder = recorder
        self.planner = planner
        self.directory = planner.directory
        self.answers = answers
        self.phrasing = Phrasing(mesh, writer, answers)
        self.escalation = Escalation(mesh, writer.redact)
        self.today = today
        self.fanout = fanout  # calls of one turn in flight at once
        self.writes = writes  # per patient: bookings, moves and cancellations
        # Turns of one session run in order.
        self._session_locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    async def ask(self, ctx: RequestContext, request: orchestrator_pb2.AskRequest,
                  patient: common_pb2.PatientIdentity | None, emit: Emit) -> orchestrator_pb2.AskResponse:
        """One turn; `patient` is who the edge found the caller to be (orchestrator.edge)."""
        message = request.message.strip()
        if not message:
            raise InvalidArgument("message", "is required")
        if len(message) > MAX_MESSAGE:
            raise InvalidArgument("message", f"must be at most {MAX_MESSAGE} characters")
        # Turns of one session run in order; its state is read once the turn holds the lock.
        lock: contextlib.AbstractAsyncContextManager = contextlib.nullcontext()
        if request.session_id:
            lock = self._session_locks.setdefault(request.session_id, asyncio.Lock())
        async with lock:
            session = await self.recorder.load(request.session_id)
            _bind(session, patient)
            ctx = ctx.for_patient(session.patient_name)
            response, reading = await self._turn(ctx, session, message, emit)
            response.session_id = session.session_id
            response.trace_id = ctx.trace_id
            # 8. Record: the session (which the next turn reads) and the audit record (which an
            # answered turn must have, even if the process dies right after replying), kept so that
            # neither can be lost once the reply is sent (orchestrator.recording).
            with tracer.start_as_current_span("record"):
                await self.recorder.keep(session, self._audit_record(response, message, reading, session))
        return response

    async def _turn(self, ctx: RequestContext, session: Session, message: str,
                    emit: Emit) -> tuple[orchestrator_pb2.AskResponse, PhiReading | None]:
        """The turn's response, and its one PHI reading of the message when stage 2 ran."""
        # A cancel or move asked back about is answered by this turn, or dropped.
        change, session.change = session.change, None
        route = Route(self.mesh, emit, self.fanout)
        # 1. Screen the raw message before anything else. While the screen's round trip runs, the
        # message is understood, planned and read for PHI, and a plan of reads starts them
        # (orchestrator.readahead): nothing is written, shown or kept before the screen passes.
        screening = asyncio.create_task(self._screen(ctx, session, message))
        await asyncio.sleep(0)  # the screen's request goes out first
        ahead: ReadAhead | None = None
        try:
            early, reading = None, None
            if session.triage is None:  # else the message answers a triage question: it is not planned
                early = await self._plan(ctx, session, message, change)
                ahead = ReadAhead.start(ctx, route, early[2])
                reading = self._read_phi(message, ctx)
            screen = await screening
            response = await self._screened(ctx, session, message, emit, route, screen, change,
                                            early, reading, ahead)
        finally:
            if not screening.done():
                screening.cancel()
            if ahead is not None and not ahead.task.done():
                await ahead.discard()
        return response, reading

    async def _screen(self, ctx: RequestContext, session: Session,
                      message: str) -> verifier_pb2.ScreenInputResponse | None:
        with tracer.start_as_current_span("screen") as span:
            # The message's own language first: an emergency is answered in the language it was written in.
            screen = await self.mesh.screen(ctx, message, detect_language(message, session.language or None))
            span.set_attribute("healthmesh.red_flag", screen is not None and screen.red_flag)
        return screen

    async def _plan(self, ctx: RequestContext, session: Session, message: str,
                    change: object) -> tuple[Understanding, ToolTask, Plan]:
        """3. Understand and plan (deterministic code)."""
        await self._refresh_directory(ctx)
        with tracer.start_as_current_span("plan") as span:
            u = understand(message, today=self.today(), known_doctors=self.directory.all_doctors(),
                           previous_language=session.language or None)
            tools = read_tools(message) if u.out_of_scope != OutOfScope.OTHER_PATIENT else ToolTask()
            plan = self.planner.plan(u, session, message, tool_task=bool(tools), change=change)
            span.set_attribute("healthmesh.intent", u.intent.value)
            span.set_attribute("healthmesh.plan", plan.kind.value)
            span.set_attribute("healthmesh.steps", len(plan.steps))
        return u, tools, plan

    def _read_phi(self, message: str, ctx: RequestContext) -> PhiReading:
        """2. Detect PHI in what the user sent (the payload of any model call is checked too)."""
        with tracer.start_as_current_span("phi") as span:
            reading = self.writer.read(message, ctx.patient_names)
            span.set_attribute("healthmesh.phi_detected", reading.decision.found)
            span.set_attribute("healthmesh.phi_categories", list(reading.decision.categories))
        return reading

    async def _screened(self, ctx: RequestContext, session: Session, message: str, emit: Emit, route: Route,
                        screen: verifier_pb2.ScreenInputResponse | None, change: object,
                        early: tuple[Understanding, ToolTask, Plan] | None, reading: PhiReading | None,
                        ahead: ReadAhead | None) -> orchestrator_pb2.AskResponse:
        """Stages 2 to 7, once the screen answered (`screen`; None when it could not be consulted).
        `early` is the message planned, `reading` its PHI and `ahead` its reads, while the screen ran."""
        red_flag = screen is not None and screen.red_flag
        await stage(emit, ctx, orchestrator_pb2.STAGE_SCREEN, "red flag" if red_flag else "clear")
        if screen is not None and screen.red_flag:
            session.language = screen.language or session.language
            emergency = Answer(screen.emergency_message, "emergency")
            await self.escalation.on_emergency(ctx, session, message, emergency, screen.language)
            return self._finish(session, emergency, screen.language, [], verification=None)
        if screen is not None:
            # A high-risk topic's deciding question comes first; a "no emergency" answer resumes
            # the message that raised it.
            pending = triage(session, message, screen)
            if isinstance(pending, Answer):
                await self.escalation.on_emergency(ctx, session, message, pending, screen.language)
                return self._finish(session, pending, screen.language or session.language, [],
                                    verification=None)
            if pending != message:  # the resumed message is another one: planned and read anew
                early = None
            message = pending

        # 2. PHI: once a session has said something private, none of its turns goes to the cloud,
        # whatever the payload of a model call holds.
        if early is None or reading is None:
            reading = self._read_phi(message, ctx)  # the resumed message (the audit records the sent one)
        phi = reading.decision
        session.phi_seen = session.phi_seen or phi.found
        if screen is not None:  # a person asked for: the case is the answer
            lang = screen.language or session.language or "en"
            if (asked := await self.escalation.on_request(ctx, session, message, lang)) is not None:
                return self._finish(session, asked, lang, [], verification=None, phi=phi)

        # 3. Understand and plan (unless planned while the screen ran).
        u, tools, plan = early if early is not None else await self._plan(ctx, session, message, change)
        lang = u.language
        if screen is None:  # the safety screen could not run: fail closed, and a person follows up
            trace.get_current_span().set_attribute("healthmesh.fail_closed", True)
            told = await self.escalation.on_unverified(ctx, session, message, lang)
            blocked = Answer(f"{say(lang, 'unverified')}\n{told}", "blocked")
            return self._finish(session, blocked, lang, [], verification=orchestrator_pb2.Verification(
                safe=False, notes=["screening unavailable"]), phi=phi)
        await stage(emit, ctx, orchestrator_pb2.STAGE_PLAN, f"{plan.kind}: {len(plan.steps)} steps")

        # 4. Route, 5. answer deterministically.
        answer, plan, results = await self._route(ctx, route, plan, u, tools, session, message, lang,
                                                  ahead if early is not None else None)
        await self.escalation.after_route(ctx, session, message, plan, results, answer, lang)
        if screen.advisory:  # a clinician's question with red-flag words: the reminder goes with it
            answer.text += "\n" + screen.advisory
            answer.facts.append(screen.advisory)
        await stage(emit, ctx, orchestrator_pb2.STAGE_ROUTE, f"{len(results)} steps run")
        await stage(emit, ctx, orchestrator_pb2.STAGE_ANSWER, answer.disposition)

        # 6. A model may phrase it; 7. verify: nothing leaves unverified.
        answer, model_route, verdict, phi = await self.phrasing.phrase_and_verify(
            ctx, session, message, plan, answer, lang, phi, emit)
        await stage(emit, ctx, orchestrator_pb2.STAGE_VERIFY, "safe" if verdict.safe else "blocked")
        if not verdict.safe:
            blocked = encode.blocked(lang, verdict)
            if list(verdict.notes) == ["verifier unavailable"]:
                blocked.text += "\n" + await self.escalation.on_unverified(ctx, session, message, lang)
            return self._finish(session, blocked, lang, results, verdict, phi=phi)
        self._learn(session, plan, answer)
        if emit is not ignored:
            for sentence in encode.sentences(answer.text):  # only now: the whole answer passed
                await emit(orchestrator_pb2.AskEvent(answer_chunk=sentence))
        return self._finish(session, answer, lang, results, verdict, phi=phi, route=model_route)

    async def _route(self, ctx: RequestContext, route: Route, plan: Plan, u: Understanding, tools: ToolTask,
                     session: Session, message: str, lang: str,
                     ahead: ReadAhead | None) -> tuple[Answer, Plan, list[StepResult]]:
        """Stages 4 and 5 for each kind of plan: the answer, the plan it answers and the steps run
        (`ahead`: this plan's reads, started while the screen ran)."""
        if plan.kind == Kind.TOOLS:
            answer, results = await answer_tools(ctx, route, tools, session, lang)
            return answer, plan, results
        if plan.kind == Kind.CONSULT:
            return await answer_consult(ctx, plan, session, message, lang, self.directory), plan, []
        if plan.kind == Kind.GENERAL:
            answer, results = await answer_general(ctx, route, self.answers, plan, session, message, lang)
            return answer, plan, results
        if plan.kind == Kind.REPLY:
            return self.answers.reply(plan, lang), plan, []
        if plan.kind == Kind.CONFIRM:
            return self.answers.ask_back(plan, [], lang), plan, []
        handoff = attach_handoff(plan, session, lang, self.directory)
        self._limit_writes(plan, session)
        if ahead is not None:
            results = await ahead.results(route.emit)
        else:
            results = await route.run(steps_context(ctx), plan.steps)
        if plan.kind == Kind.LOOKUP:
            # 4b. The lookup's second round: change the appointment named exactly, or ask which or "yes?".
            refs = [AppointmentRef(a.clinic_id, a.appointment_id, a.doctor, a.date, a.time)
                    for a in found_appointments(results)]
            follow = self.planner.second_round(plan, refs, u, session)
            if check := self.planner.move_check(follow, first=len(plan.steps) + 1):
                # A move's new time is checked before the patient is asked to confirm it.
                listed = await route.run(steps_context(ctx), check.steps)
                if not self.answers.is_open(check, listed):
                    answer = self.answers.build(check, listed, lang, session.patient_name)
                    return answer, check, results + listed
                results += listed
            if not follow.steps:
                return self.answers.ask_back(follow, results, lang), follow, results
            self._limit_writes(follow, session)
            more = await route.run(steps_context(ctx), follow.steps)
            return self.answers.build(follow, more, lang, session.patient_name), follow, results + more
        if results and (check := self.planner.book_check(plan, results[0], first=len(plan.steps) + 1)):
            # The time asked for is not open: that day's open slots instead, to pick from.
            listed = await route.run(steps_context(ctx), check.steps)
            return self.answers.build(check, listed, lang, session.patient_name), check, results + listed
        answer = self.answers.build(plan, results, lang, session.patient_name)
        if handoff and answer.current_appointment is not None and session.consult is not None:
            session.consult.stage = "booked"
            clinic = self.directory.clinics[answer.current_appointment.clinic_id].name
            answer.text += "\n" + say(lang, "consult_handoff", clinic=clinic)
        return answer, plan, results

    def _limit_writes(self, plan: Plan, session: Session) -> None:
        """A booking, move or cancellation spends one of the patient's; over the limit the turn is
        RESOURCE_EXHAUSTED with when to try again, and nothing was sent or saved."""
        if any(step.action.is_write for step in plan.steps):
            self.writes.take(session.patient_cpf)

    async def _refresh_directory(self, ctx: RequestContext) -> None:
        """Learns the doctors of clinics not heard from yet (e.g. down at start); they are
        public names for the PHI detector from then on."""
        if any(not self.directory.doctors.get(cid) for cid in self.directory.clinics):
            with tracer.start_as_current_span("directory"):
                await self.mesh.learn_doctors(ctx, self.directory, retry=False, timeout_cap=0.5)
            self.writer.detector.know_doctors(self.directory.all_doctors())

    def _learn(self, session: Session, plan: Plan, answer: Answer) -> None:
        if plan.specialty:
            session.specialty = plan.specialty
        if answer.citations:  # "show source [1]" refers back to them
            session.citations = [{"index": c.index, "source": c.source, "section": c.section,
                                  "reference": c.reference} for c in answer.citations]
        if answer.shown_slots is not None:
            session.shown_slots = answer.shown_slots
        if answer.appointment_closed:
            session.booking_epoch += 1
            session.appointment = None
        if answer.current_appointment is not None:
            session.appointment = answer.current_appointment
            session.shown_slots = []
        session.pending = plan.pending
        session.change = plan.change

    def _finish(self, session: Session, answer: Answer, lang: str,
                results: list[StepResult], verification: orchestrator_pb2.Verification | None, *,
                phi: PhiDecision = NO_PHI, route: str = "none") -> orchestrator_pb2.AskResponse:
        session.language = lang
        return encode.response(answer, lang, results, verification, phi, route,
                               consult.summary(session.consult))

    def _audit_record(self, response: orchestrator_pb2.AskResponse, message: str, reading: PhiReading | None,
                      session: Session) -> AuditRecord:
        """The turn's PHI-redacted audit record (`reading`: the message's, when stage 2 made it)."""
        return AuditRecord(
            session_id=session.session_id,
            disposition=orchestrator_pb2.Disposition.Name(response.disposition),
            route=orchestrator_pb2.ModelRoute.Name(response.model_route),
            phi_categories=tuple(response.phi_categories),
            steps=tuple({"step_id": s.step_id, "clinic_id": s.clinic_id, "action": s.action,
                         "status": orchestrator_pb2.StepStatus.Name(s.status), "attempts": s.attempts}
                        for s in response.steps),
            verdict={"safe": response.verification.safe, "notes": list(response.verification.notes)},
            trace_id=response.trace_id,
            message_redacted=reading.redacted if reading is not None
            else self.writer.redact(message, [session.patient_name]),
        )


def _bind(session: Session, patient: common_pb2.PatientIdentity | None) -> None:
    """A session's patient is set once, and every later turn must come from her: another identity
    naming the session, or none, is refused, so a session id alone is never a bearer token (the
    name is compared as clinics do)."""
    if patient is None:
        if session.patient_cpf:
            raise PermissionDenied("this session belongs to a patient: send her token (or, in development, "
                                   "her name and CPF) with every request")
        return
    if not session.patient_cpf:
        session.patient_name, session.patient_cpf = patient.full_name, patient.cpf
    elif session.patient_cpf != patient.cpf or not same_name(session.patient_name, patient.full_name):
        raise PermissionDenied("this session belongs to another patient; start a new session")
