"""Deterministic planning, the one planner of every kind of plan: an Understanding of the message
plus the session become a tool task, a consult turn, a direct reply or a set of (clinic, action)
steps; a lookup's found appointments become its second round. Code decides; nothing is guessed: whatever
cannot be resolved becomes a question back.

The patient's identity is put only into booking, rescheduling and cancelling requests (and
into the lookup of the patient's own appointments, which those need).
"""

import enum
import hashlib
from dataclasses import dataclass, field, replace

import grpc

from healthmesh.v1 import clinic_pb2, common_pb2
from orchestrator.answering.phrases import day
from orchestrator.consult import flow as consult
from orchestrator.planning.steps import Action, PlannedStep, StepResult, StepStatus
from orchestrator.sessions import AppointmentRef, PendingChange, Session, SlotRef
from orchestrator.understanding.understand import Intent, OutOfScope, Understanding
from runtime.registry import ClinicEntry
from runtime.text.fold import fold_words as fold


class Kind(enum.StrEnum):
    """What the answer builder makes of a plan's results."""

    REPLY = "reply"
    LIST = "list"
    BOOK = "book"
    RESCHEDULE = "reschedule"
    CANCEL = "cancel"
    MY_APPOINTMENTS = "my_appointments"
    LOOKUP = "lookup"  # find the patient's appointment, then cancel or reschedule it
    CONFIRM = "confirm"  # a cancel or move waits for the patient's yes, or for which appointment
    GENERAL = "general"  # a health question a model may answer; the reply is the fallback
    TOOLS = "tools"  # risk scores, drug safety, guidelines: the tool loop
    CONSULT = "consult"  # a symptom consult: history questions, then the council


@dataclass
class Plan:
    kind: Kind
    steps: list[PlannedStep] = field(default_factory=list)
    reply: str = ""  # phrase key, for REPLY plans
    reply_values: dict[str, str] = field(default_factory=dict)
    disposition: str = "answered"  # for REPLY plans: answered | needs_info | out_of_scope
    specialty: str = ""
    day: str = ""  # list filters, for the answer header
    date_range: tuple[str, str] | None = None
    day_guessed: bool = False  # `day` had no month or year written: the answer says which day it is
    part_of_day: str = ""  # "morning" | "afternoon" | "evening": the listing keeps those hours
    alternatives: bool = False  # LIST: every doctor asked, others' slots stand in when `doctor` has none
    wanted_time: str = ""  # LIST checking a move or booking (`then`): the time asked for, found not open
    move_to: SlotRef | None = None  # LOOKUP of a move to a slot picked from a listing
    doctor: str = ""  # the listing's doctor filter, or the doctor of a write
    ask_to_pick: bool = False  # a listing shown because a booking needs a slot
    then: Intent | None = None  # for LOOKUP plans: the intent to finish; for checks, what was asked
    pending: str = ""  # what the session waits for after this turn
    change: PendingChange | None = None  # for CONFIRM plans: the cancel or move asked back about


@dataclass
class Directory:
    """Who works where: the registry plus the doctors each clinic reported."""

    clinics: dict[str, ClinicEntry]
    doctors: dict[str, list[str]] = field(default_factory=dict)

    def clinics_of(self, specialty: str) -> list[str]:
        return [cid for cid, entry in self.clinics.items() if entry.specialty == specialty]

    def clinic_of(self, doctor: str) -> str | None:
        return next((cid for cid, names in self.doctors.items() if doctor in names), None)

    def all_doctors(self) -> list[str]:
        return [name for names in self.doctors.values() for name in names]


class Planner:
    def __init__(self, directory: Directory, slots_per_clinic: int) -> None:
        self.directory = directory
        self.slots_per_clinic = slots_per_clinic

    def plan(self, u: Understanding, session: Session, message: str, *, tool_task: bool,
             change: PendingChange | None = None) -> Plan:
        """The answer to a cancel or move asked back about (`change`, from the last turn), then tool
        questions and symptom consults, then the patient's appointments."""
        if change is not None and (follow := self._continue_change(change, u, session)) is not None:
            return follow
        if tool_task:
            return Plan(Kind.TOOLS)
        if consult.answers_questions(session, u, message) or consult.opens_consult(message, u):
            return Plan(Kind.CONSULT)
        if consult.wants_slots(session, u):
            assert session.consult is not None
            u = replace(u, intent=Intent.LIST, specialty=session.consult.specialty)
        return self._appointments(u, session)

    def second_round(self, lookup: Plan, found: list[AppointmentRef], u: Understanding,
                     session: Session) -> Plan:
        """A lookup's second round: the change of the one appointment it found (numbered after the
        lookup's steps) when the message named it exactly, otherwise the question back: which one,
        or "yes?"."""
        assert lookup.then is not None
        options = _candidates(found, u, lookup.then)
        if not options:
            return _reply("no_appointment", "needs_info")
        if lookup.move_to is not None:
            to = lookup.move_to
            change = PendingChange(lookup.then.value, None, to.date, to.time, to.doctor)
        else:
            change = PendingChange(lookup.then.value, None, u.date.isoformat() if u.date else "",
                                   u.time or "", u.doctors[0] if u.doctors else "")
        if len(options) > 1:
            change.options = options
            return Plan(Kind.CONFIRM, change=change)
        change.appointment = options[0]
        # The id, or a cancel's exact day and time, is already the patient's confirmation.
        named = bool(u.appointment_id) or (lookup.then == Intent.CANCEL and bool(u.date and u.time))
        if not named:
            return Plan(Kind.CONFIRM, change=change)
        follow = self.change_step(change, session)
        first = len(lookup.steps) + 1
        follow.steps = [replace(s, step_id=f"s{first + i}") for i, s in enumerate(follow.steps)]
        return follow

    def _continue_change(self, change: PendingChange, u: Understanding, session: Session) -> Plan | None:
        """The reply to the last turn's question: "yes" sends the change, "no" drops it, naming one of
        the options picks it; None when the message is about something else (the change is dropped)."""
        if change.appointment is not None:
            if u.confirmation is True:
                return self.change_step(change, session)
            if u.confirmation is False:
                a = change.appointment
                return _reply("change_kept", "answered", appointment_id=a.appointment_id, doctor=a.doctor)
            return None
        if u.specialty or u.intent not in (Intent.UNKNOWN, Intent.LIST, Intent.BOOK, Intent(change.action)):
            return None
        picked = _pick(change.options, u)
        if picked is None:
            return None
        change = replace(change, appointment=picked, options=[])
        if u.appointment_id or (u.date and u.time):  # named exactly: no need to ask again
            return self.change_step(change, session)
        return Plan(Kind.CONFIRM, change=change)

    def _appointments(self, u: Understanding, session: Session) -> Plan:
        intent = self._effective_intent(u, session)
        if intent == Intent.OUT_OF_SCOPE:
            reason = u.out_of_scope or OutOfScope.OTHER
            return _reply(f"oos_{reason.value}", "out_of_scope",
                          word=u.unsupported_specialty or "")
        if intent == Intent.GENERAL_QUESTION:
            plan = _reply("oos_general_question", "out_of_scope")
            plan.kind = Kind.GENERAL
            return plan
        if intent == Intent.GREETING:
            return _reply("greeting", "answered")
        if intent == Intent.SOURCES:
            return _sources(u, session)
        if u.date_past and u.date and intent in (Intent.LIST, Intent.BOOK, Intent.RESCHEDULE):
            # Said, never moved to next year nor answered as "no slots".
            when = day(u.date.isoformat(), u.language)
            plan = _reply("date_past_doctor", "needs_info", day=when, doctor=u.doctors[0]) \
                if len(u.doctors) == 1 else _reply("date_past", "needs_info", day=when)
            plan.pending = intent.value if intent != Intent.LIST else ""
            return plan
        if intent in (Intent.BOOK, Intent.RESCHEDULE, Intent.CANCEL, Intent.MY_APPOINTMENTS) \
                and not session.has_patient:
            plan = _reply("ask_identity", "needs_info")
            plan.pending = intent.value
            return plan
        if len(u.doctors) > 1 and intent in (Intent.BOOK, Intent.LIST):
            return _reply("ask_doctor", "needs_info", name=", ".join(u.doctors[:1]),
                          options=", ".join(u.doctors))
        if intent == Intent.LIST:
            return self._list(u, session)
        if intent == Intent.BOOK:
            return self._book(u, session)
        if intent in (Intent.RESCHEDULE, Intent.CANCEL):
            return self._change(intent, u, session)
        if intent == Intent.MY_APPOINTMENTS:
            return Plan(Kind.MY_APPOINTMENTS, steps=self._lookup_steps(session))
        return _reply("help", "needs_info")

    def _effective_intent(self, u: Understanding, session: Session) -> Intent:
        """A bare follow-up ("friday at 14:00", "the earliest") continues what the session
        was waiting for."""
        follow_up = u.intent in (Intent.UNKNOWN, Intent.LIST, Intent.BOOK)
        if session.pending == Intent.RESCHEDULE.value and follow_up and (
                u.date or u.time or (session.shown_slots and (u.choice or u.earliest))):
            return Intent.RESCHEDULE
        if session.pending in (Intent.BOOK.value, Intent.CANCEL.value, Intent.MY_APPOINTMENTS.value) \
                and u.intent == Intent.UNKNOWN:
            return Intent(session.pending)
        if u.intent == Intent.UNKNOWN and session.shown_slots and (u.earliest or u.choice or u.time):
            return Intent.BOOK
        if u.intent == Intent.UNKNOWN and (u.specialty or u.doctors):
            return Intent.LIST
        return u.intent

    # -- listing --------------------------------------------------------------------------------

    def _list(self, u: Understanding, session: Session, *, ask_to_pick: bool = False) -> Plan:
        specialty = u.specialty or self._doctor_specialty(u) or (
            session.specialty if (u.refers_to_previous or u.date or u.date_range or u.time
                                  or ask_to_pick) else "")
        if not specialty:
            plan = _reply("ask_specialty", "needs_info")
            plan.pending = Intent.BOOK.value if ask_to_pick else ""
            return plan
        doctor = u.doctors[0] if u.doctors else ""
        day = u.date.isoformat() if u.date else ""
        # A doctor on a day: every clinic of the specialty is asked, so that when she has nothing
        # that day the other doctors' slots are offered instead.
        alternatives = bool(doctor and day)
        clinic_ids = self.directory.clinics_of(specialty)
        if doctor and not alternatives:
            clinic_ids = [cid for cid in clinic_ids if cid == self.directory.clinic_of(doctor)]
        start, end = (d.isoformat() for d in u.date_range) if u.date_range else ("", "")
        filtered = bool(day or start or doctor or u.part_of_day)
        steps = [
            PlannedStep(f"s{i + 1}", cid, Action.LIST_SLOTS, clinic_pb2.ListAvailableSlotsRequest(
                doctor="" if alternatives else doctor, from_date=day or start, to_date=day or end,
                page_size=self.slots_per_clinic * (4 if filtered else 1)))
            for i, cid in enumerate(clinic_ids)
        ]
        return Plan(Kind.LIST, steps=steps, specialty=specialty, day=day,
                    date_range=(start, end) if start else None, doctor=doctor,
                    ask_to_pick=ask_to_pick, pending=Intent.BOOK.value if ask_to_pick else "",
                    day_guessed=bool(day) and u.date_guessed, part_of_day=u.part_of_day or "",
                    alternatives=alternatives)

    def move_check(self, confirm: Plan, first: int) -> Plan | None:
        """For a move about to be confirmed: the listing of the new day at the appointment's clinic
        (steps numbered from `first`), so a time not open is said before asking, with what is."""
        change = confirm.change
        if change is None or change.appointment is None or change.action != Intent.RESCHEDULE.value:
            return None
        target = change.appointment
        doctor = change.new_doctor if self.directory.clinic_of(change.new_doctor) == target.clinic_id \
            else target.doctor
        return self._day_check([target.clinic_id], first, change.new_date, change.new_time, doctor,
                               Intent.RESCHEDULE)

    def book_check(self, book: Plan, result: StepResult, first: int) -> Plan | None:
        """For a booking the clinic refused because the time is not open (no such slot, or taken): that
        day's listing in the specialty, so the answer says so and offers what is open instead."""
        if book.kind != Kind.BOOK or not (result.status == StepStatus.NOT_FOUND
                                          or result.code == grpc.StatusCode.FAILED_PRECONDITION):
            return None
        asked = result.step.request
        clinic_ids = self.directory.clinics_of(self.directory.clinics[result.step.upstream].specialty)
        return self._day_check(clinic_ids, first, asked.date, asked.time, asked.doctor, Intent.BOOK)

    def _day_check(self, clinic_ids: list[str], first: int, date: str, time: str, doctor: str,
                   then: Intent) -> Plan:
        """A day's open slots at `clinic_ids`, asked because `doctor` at `time` is wanted; a pick from
        them continues `then`."""
        request = clinic_pb2.ListAvailableSlotsRequest(from_date=date, to_date=date,
                                                       page_size=self.slots_per_clinic * 4)
        steps = [PlannedStep(f"s{first + i}", cid, Action.LIST_SLOTS, request)
                 for i, cid in enumerate(clinic_ids)]
        specialty = self.directory.clinics[clinic_ids[0]].specialty
        return Plan(Kind.LIST, steps=steps, specialty=specialty, day=date, doctor=doctor, alternatives=True,
                    wanted_time=time, then=then, pending=then.value)

    def _doctor_specialty(self, u: Understanding) -> str:
        for doctor in u.doctors:
            clinic_id = self.directory.clinic_of(doctor)
            if clinic_id:
                return self.directory.clinics[clinic_id].specialty
        return ""

    # -- booking --------------------------------------------------------------------------------

    def _book(self, u: Understanding, session: Session) -> Plan:
        slot = self._pick_slot(u, session)
        if isinstance(slot, Plan):
            return slot
        if slot is None:
            return self._list(u, session, ask_to_pick=True)
        request = clinic_pb2.BookAppointmentRequest(
            doctor=slot.doctor, date=slot.date, time=slot.time, patient=_identity(session),
            idempotency_key=_key(session, "book", slot.clinic_id, slot.doctor, slot.date, slot.time))
        specialty = self.directory.clinics[slot.clinic_id].specialty
        return Plan(Kind.BOOK, steps=[PlannedStep("s1", slot.clinic_id, Action.BOOK, request)],
                    specialty=specialty, doctor=slot.doctor)

    def _pick_slot(self, u: Understanding, session: Session) -> SlotRef | Plan | None:
        shown = session.shown_slots
        if u.earliest and shown and not (u.specialty and u.specialty != session.specialty):
            return min(shown, key=lambda s: (s.date, s.time))
        if u.choice:
            if 1 <= u.choice <= len(shown):
                return shown[u.choice - 1]
            return _reply("choice_missing", "needs_info")
        doctor = u.doctors[0] if u.doctors else ""
        if doctor and u.date and u.time:
            clinic_id = self.directory.clinic_of(doctor)
            if clinic_id:
                return SlotRef(clinic_id, doctor, u.date.isoformat(), u.time)
        if u.date or u.time or doctor:
            matches = [s for s in shown if (not doctor or s.doctor == doctor)
                       and (not u.date or s.date == u.date.isoformat())
                       and (not u.time or s.time == u.time)]
            if len(matches) == 1:
                return matches[0]
        return None

    # -- rescheduling and cancelling ------------------------------------------------------------

    def _change(self, intent: Intent, u: Understanding, session: Session) -> Plan:
        """A cancel or move always looks the patient's appointments up first: she may have several,
        or the one this session knows may have changed elsewhere."""
        move_to = None
        if intent == Intent.RESCHEDULE and not (u.date and u.time):
            # One of the slots just offered for the move ("the first one", "14:00"), or ask.
            picked = self._pick_slot(u, session) if session.pending == Intent.RESCHEDULE.value else None
            if not isinstance(picked, SlotRef):
                plan = _reply("ask_new_time", "needs_info")
                plan.pending = Intent.RESCHEDULE.value
                return plan
            move_to = picked
        return Plan(Kind.LOOKUP, steps=self._lookup_steps(session), then=intent, move_to=move_to)

    def change_step(self, change: PendingChange, session: Session) -> Plan:
        """The write a confirmed (or exactly named) change sends."""
        target = change.appointment
        assert target is not None
        specialty = self.directory.clinics[target.clinic_id].specialty
        if change.action == Intent.CANCEL.value:
            request = clinic_pb2.CancelAppointmentRequest(
                appointment_id=target.appointment_id, patient=_identity(session),
                idempotency_key=_key(session, "cancel", target.clinic_id, target.appointment_id))
            step = PlannedStep("s1", target.clinic_id, Action.CANCEL, request)
            return Plan(Kind.CANCEL, steps=[step], specialty=specialty, doctor=target.doctor)
        # A doctor named with a move is the new doctor only when she works where the appointment is.
        new_doctor = change.new_doctor if self.directory.clinic_of(change.new_doctor) == target.clinic_id \
            and change.new_doctor != target.doctor else ""
        request = clinic_pb2.RescheduleAppointmentRequest(
            appointment_id=target.appointment_id, new_date=change.new_date, new_time=change.new_time,
            new_doctor=new_doctor, patient=_identity(session),
            idempotency_key=_key(session, "reschedule", target.clinic_id, target.appointment_id,
                                 change.new_date, change.new_time, new_doctor))
        step = PlannedStep("s1", target.clinic_id, Action.RESCHEDULE, request)
        return Plan(Kind.RESCHEDULE, steps=[step], specialty=specialty, doctor=new_doctor or target.doctor)

    def _lookup_steps(self, session: Session) -> list[PlannedStep]:
        request = clinic_pb2.ListAppointmentsRequest(patient=_identity(session))
        return [PlannedStep(f"s{i + 1}", cid, Action.LIST_APPOINTMENTS, request)
                for i, cid in enumerate(self.directory.clinics)]


def _candidates(found: list[AppointmentRef], u: Understanding, intent: Intent) -> list[AppointmentRef]:
    """The appointments a cancel/reschedule may mean. For a reschedule the date and time in the
    message are the new ones, so only the doctor narrows the choice."""
    if u.appointment_id:  # "cancel appointment DERM-F-APT-03AE504A37" means that one
        return [a for a in found if a.appointment_id == u.appointment_id]
    candidates = [a for a in found if not u.doctors or a.doctor in u.doctors]
    if intent == Intent.CANCEL:
        candidates = [a for a in candidates if (not u.date or a.date == u.date.isoformat())
                      and (not u.time or a.time == u.time)]
    return candidates


def _pick(options: list[AppointmentRef], u: Understanding) -> AppointmentRef | None:
    """The one of `options` (as listed) a reply names: by id, position, doctor, day or time."""
    if u.appointment_id:
        return next((a for a in options if a.appointment_id == u.appointment_id), None)
    if u.choice:
        return options[u.choice - 1] if u.choice <= len(options) else None
    if not (u.doctors or u.date or u.time):
        return None
    matches = [a for a in options if (not u.doctors or a.doctor in u.doctors)
               and (not u.date or a.date == u.date.isoformat()) and (not u.time or a.time == u.time)]
    return matches[0] if len(matches) == 1 else None


def _sources(u: Understanding, session: Session) -> Plan:
    """The citations of the last cited answer: all, or the one asked for."""
    lines = [f"[{c['index']}] {c['source']} — {c['section']}" for c in session.citations]
    if not lines:
        return _reply("no_sources", "answered")
    if u.source is None:
        return _reply("sources_of_last", "answered", lines="\n".join(lines))
    if 1 <= u.source <= len(lines):
        return _reply("sources_of_last", "answered", lines=lines[u.source - 1])
    return _reply("source_missing", "needs_info", n=str(u.source), lines="\n".join(lines))


def _reply(key: str, disposition: str, **values: str) -> Plan:
    return Plan(Kind.REPLY, reply=key, reply_values=values, disposition=disposition)


def _identity(session: Session) -> common_pb2.PatientIdentity:
    return common_pb2.PatientIdentity(full_name=session.patient_name, cpf=session.patient_cpf)


def _key(session: Session, *parts: str) -> str:
    """The same booking asked again in the same session (a client retry) maps to the same
    key, so the clinic returns the first result; after a cancel or move the epoch changes, so
    booking that slot again is a new request."""
    raw = "|".join([session.session_id, str(session.booking_epoch), session.patient_cpf,
                    *(fold(p) for p in parts)])
    return hashlib.sha256(raw.encode()).hexdigest()[:32]
