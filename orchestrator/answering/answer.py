"""The deterministic, faithful answer built from a plan's step results, in the user's
language, together with the evidence the verifier checks it against."""

from dataclasses import dataclass, field, replace

import grpc

from healthmesh.v1 import common_pb2, orchestrator_pb2, verifier_pb2
from orchestrator.answering.phrases import SPECIALTY_NAME, day, say, when
from orchestrator.planning.planner import Directory, Kind, Plan
from orchestrator.planning.steps import StepResult, StepStatus
from orchestrator.sessions import AppointmentRef, SlotRef
from orchestrator.understanding.understand import Intent
from orchestrator.understanding.when import DAY_PART_HOURS


@dataclass
class Answer:
    text: str
    disposition: str  # answered | partial | needs_info | out_of_scope
    slots: list[common_pb2.Slot] = field(default_factory=list)
    appointment: common_pb2.Appointment | None = None
    evidence_slots: list[common_pb2.Slot] = field(default_factory=list)
    evidence_appointments: list[common_pb2.Appointment] = field(default_factory=list)
    # What the session learns from this turn.
    shown_slots: list[SlotRef] | None = None
    current_appointment: AppointmentRef | None = None
    appointment_closed: bool = False  # the session's appointment was cancelled or moved
    facts: list[str] = field(default_factory=list)  # tool results the answer states
    citations: list[orchestrator_pb2.Citation] = field(default_factory=list)
    passages: list[str] = field(default_factory=list)  # guideline passages a model may summarize


class AnswerBuilder:
    def __init__(self, directory: Directory) -> None:
        self.directory = directory

    def evidence(self, answer: Answer) -> verifier_pb2.Evidence:
        clinics = self.directory.clinics.values()
        return verifier_pb2.Evidence(
            slots=answer.evidence_slots or answer.slots,
            appointments=answer.evidence_appointments,
            doctors=self.directory.all_doctors(),
            clinics=[c.name for c in clinics],
            facts=[*(c.address for c in clinics), *answer.facts],
        )

    def reply(self, plan: Plan, language: str) -> Answer:
        # The values code put in the sentence (a date, a source) are its evidence.
        return Answer(say(language, plan.reply, **plan.reply_values), plan.disposition,
                      facts=list(plan.reply_values.values()))

    def build(self, plan: Plan, results: list[StepResult], lang: str, patient_name: str) -> Answer:
        if plan.kind == Kind.LIST:
            return self._list(plan, results, lang)
        if plan.kind == Kind.MY_APPOINTMENTS:
            return self._my_appointments(results, lang)
        return self._write(plan, results[0], lang, patient_name)

    def _clinic(self, clinic_id: str) -> str:
        return self.directory.clinics[clinic_id].name

    def _unreachable(self, results: list[StepResult], lang: str) -> list[str]:
        return [say(lang, "unreachable", clinic=self._clinic(r.step.upstream),
                    clinic_id=r.step.upstream) for r in results if r.status.failed_upstream]

    # -- listing --------------------------------------------------------------------------------

    def _list(self, plan: Plan, results: list[StepResult], lang: str) -> Answer:
        ok = [r for r in results if r.status == StepStatus.OK]
        kept = {id(r): _in_part_of_day(r.reply.slots, plan.part_of_day) for r in ok}
        lines: list[str] = [say(lang, "date_read", day=day(plan.day, lang))] if plan.day_guessed else []
        moving = plan.then == Intent.RESCHEDULE
        if plan.wanted_time:  # a move's or booking's time, not open: the day's open slots instead
            lines.append(say(lang, "move_not_open" if moving else "book_not_open", doctor=plan.doctor,
                             when=when(plan.day, plan.wanted_time, lang)))
        if plan.alternatives and any(s.doctor == plan.doctor for r in ok for s in kept[id(r)]):
            # The doctor asked for has slots that day: only hers are shown.
            kept = {key: [s for s in found if s.doctor == plan.doctor] for key, found in kept.items()}
            ok = [r for r in ok if kept[id(r)]]
        elif plan.alternatives and ok and not plan.wanted_time:
            lines.append(say(lang, "doctor_none_that_day", doctor=plan.doctor, day=day(plan.day, lang)))
        slots = [s for r in ok for s in kept[id(r)]]
        failures = self._unreachable(results, lang)
        specialty = SPECIALTY_NAME[lang][plan.specialty]
        if slots:
            earliest = min(slots, key=lambda s: (s.date, s.time))
            lines.append(say(lang, "list_header", specialty=specialty, scope=self._scope(plan, lang)))
            for r in ok:
                clinic, clinic_id = self._clinic(r.step.upstream), r.step.upstream
                if not kept[id(r)]:
                    lines.append(say(lang, "clinic_full", clinic=clinic, clinic_id=clinic_id))
                    continue
                lines.append(say(lang, "clinic_header", clinic=clinic, clinic_id=clinic_id))
                # A line per doctor and day, its times in order: an agenda, not a line per slot.
                days: dict[tuple[str, str], list[str]] = {}
                for s in sorted(kept[id(r)], key=lambda s: (s.date, s.time)):
                    mark = say(lang, "earliest_mark") if s is earliest else ""
                    days.setdefault((s.date, s.doctor), []).append(s.time + mark)
                lines += [f"- {day(date, lang)} — {doctor}: {', '.join(times)}"
                          for (date, doctor), times in days.items()]
            lines.append(say(lang, "earliest", when=when(earliest.date, earliest.time, lang),
                             doctor=earliest.doctor, clinic=self._clinic(earliest.clinic_id)))
        elif not failures:
            lines.append(say(lang, "none_open", specialty=specialty, period=self._period(plan, lang)))
        lines.extend(failures)
        if slots:
            lines.append(say(lang, "move_pick" if moving else "book_pick" if plan.wanted_time
                             else "ask_slot" if plan.ask_to_pick else "how_to_book"))
        disposition = "partial" if failures else "needs_info" if plan.ask_to_pick or plan.wanted_time \
            else "answered"
        shown = [SlotRef(s.clinic_id, s.doctor, s.date, s.time) for s in slots]
        return Answer("\n".join(lines), disposition, slots=slots, shown_slots=shown,
                      facts=[day(plan.day, lang)] if plan.day_guessed else [])

    def _scope(self, plan: Plan, lang: str) -> str:
        if plan.day:
            scope = say(lang, "scope_day", day=day(plan.day, lang))
        elif plan.date_range:
            scope = say(lang, "scope_range", start=day(plan.date_range[0], lang),
                        end=day(plan.date_range[1], lang))
        else:
            scope = say(lang, "scope_first", n=len(plan.steps) and plan.steps[0].request.page_size)
        if plan.part_of_day:
            scope += ", " + say(lang, f"part_{plan.part_of_day}")
        if plan.doctor and not plan.alternatives:
            scope += ", " + say(lang, "scope_doctor", doctor=plan.doctor)
        return scope

    def _period(self, plan: Plan, lang: str) -> str:
        if plan.day:
            period = say(lang, "period_day", day=day(plan.day, lang))
        elif plan.date_range:
            period = say(lang, "period_range", start=day(plan.date_range[0], lang),
                         end=day(plan.date_range[1], lang))
        else:
            period = say(lang, "period_default")
        return period + (" " + say(lang, f"part_{plan.part_of_day}") if plan.part_of_day else "")

    @staticmethod
    def is_open(check: Plan, results: list[StepResult]) -> bool:
        """Whether a move's listing has the time asked for with its doctor (a clinic that did not
        answer cannot say no: the move is asked about and the clinic decides)."""
        if any(r.status != StepStatus.OK for r in results):
            return True
        return any(s.doctor == check.doctor and s.time == check.wanted_time
                   for r in results for s in r.reply.slots)

    # -- the patient's appointments -------------------------------------------------------------

    def _my_appointments(self, results: list[StepResult], lang: str) -> Answer:
        found = found_appointments(results)
        lines = [say(lang, "my_header")] if found else [say(lang, "my_none")]
        lines += [self.appointment_line(a, lang) for a in found]
        failures = self._unreachable(results, lang)
        return Answer("\n".join(lines + failures), "partial" if failures else "answered",
                      evidence_appointments=found)

    def appointment_line(self, a: common_pb2.Appointment | AppointmentRef, lang: str) -> str:
        return say(lang, "my_line", when=when(a.date, a.time, lang), doctor=a.doctor,
                   clinic=self._clinic(a.clinic_id), appointment_id=a.appointment_id)

    def ask_back(self, plan: Plan, results: list[StepResult], lang: str) -> Answer:
        """A cancel or move not sent: no appointment to change, which one, or "yes?" (clinics the
        lookup could not reach are named: what they hold is not among the options)."""
        if plan.kind == Kind.REPLY:
            answer = self.reply(plan, lang)
        else:
            answer = self._confirm(plan, lang)
        answer.text = "\n".join([answer.text, *self._unreachable(results, lang)])
        return answer

    def _confirm(self, plan: Plan, lang: str) -> Answer:
        change = plan.change
        assert change is not None
        if change.appointment is None:
            lines = [say(lang, "ask_which_appointment")]
            lines += [self.appointment_line(a, lang) for a in change.options]
            return Answer("\n".join(lines), "needs_info", evidence_appointments=_protos(change.options))
        line = self.appointment_line(change.appointment, lang)
        if change.action == Kind.CANCEL.value:
            return Answer(say(lang, "confirm_cancel", line=line), "needs_info",
                          evidence_appointments=_protos([change.appointment]))
        new = when(change.new_date, change.new_time, lang)
        proposed = replace(change.appointment, date=change.new_date, time=change.new_time)
        return Answer(say(lang, "confirm_move", line=line, new=new), "needs_info",
                      evidence_appointments=_protos([change.appointment, proposed]))

    # -- writes ---------------------------------------------------------------------------------

    def _write(self, plan: Plan, result: StepResult, lang: str, patient_name: str) -> Answer:
        clinic_id = result.step.upstream
        entry = self.directory.clinics[clinic_id]
        if result.status == StepStatus.OK:
            if plan.kind == Kind.BOOK:
                a = result.reply.appointment
                text = say(lang, "booked", when=when(a.date, a.time, lang), doctor=a.doctor,
                           clinic=entry.name, address=entry.address, appointment_id=a.appointment_id,
                           patient=patient_name)
                return Answer(text, "answered", appointment=a, evidence_appointments=[a],
                              current_appointment=_ref(a))
            if plan.kind == Kind.RESCHEDULE:
                old, new = result.reply.original, result.reply.appointment
                text = say(lang, "moved", doctor=new.doctor, clinic=entry.name,
                           old=when(old.date, old.time, lang), new=when(new.date, new.time, lang),
                           appointment_id=new.appointment_id)
                return Answer(text, "answered", appointment=new, evidence_appointments=[old, new],
                              current_appointment=_ref(new), appointment_closed=True)
            a = result.reply.appointment
            text = say(lang, "cancelled", when=when(a.date, a.time, lang), doctor=a.doctor,
                       clinic=entry.name, appointment_id=a.appointment_id)
            return Answer(text, "answered", appointment=a, evidence_appointments=[a],
                          appointment_closed=True)
        if result.status.failed_upstream:
            return Answer(say(lang, "write_failed", clinic=entry.name), "partial")
        return Answer(self._refusal(plan, result, lang, plan.doctor, entry.name), "answered")

    def _refusal(self, plan: Plan, result: StepResult, lang: str, doctor: str, clinic: str) -> str:
        if result.code == grpc.StatusCode.PERMISSION_DENIED:  # a booking: the CPF is another name's
            return say(lang, "cpf_other_name" if plan.kind == Kind.BOOK else "not_yours")
        if plan.kind == Kind.BOOK:
            key = "slot_taken" if result.status == StepStatus.REJECTED else "slot_missing"
            return say(lang, key, doctor=doctor)
        if plan.kind == Kind.CANCEL:
            key = "not_changeable" if result.status == StepStatus.REJECTED else "appointment_missing"
            return say(lang, key, clinic=clinic)
        # Reschedule: the new slot is missing or taken, or the appointment can't change.
        key = "slot_taken" if result.status == StepStatus.REJECTED else "slot_missing"
        return say(lang, key, doctor=doctor)


def _in_part_of_day(slots: list[common_pb2.Slot], part: str) -> list[common_pb2.Slot]:
    if not part:
        return list(slots)
    start, end = DAY_PART_HOURS[part]
    return [s for s in slots if start <= s.time < end]


def found_appointments(results: list[StepResult]) -> list[common_pb2.Appointment]:
    found = [a for r in results if r.status == StepStatus.OK for a in r.reply.appointments]
    return sorted(found, key=lambda a: (a.date, a.time))


def _protos(refs: list[AppointmentRef]) -> list[common_pb2.Appointment]:
    return [common_pb2.Appointment(appointment_id=a.appointment_id, clinic_id=a.clinic_id, doctor=a.doctor,
                                   date=a.date, time=a.time) for a in refs]


def _ref(a: common_pb2.Appointment) -> AppointmentRef:
    return AppointmentRef(a.clinic_id, a.appointment_id, a.doctor, a.date, a.time)
