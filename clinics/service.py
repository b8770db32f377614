"""gRPC face of one clinic: validates requests (string lengths first, clinics.limits), runs store
calls on the clinic's thread pool, maps results to messages. Domain errors become statuses in
runtime.interceptors."""

import datetime as dt
import re
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

import grpc

from clinics.feed import SlotFeed, slot_messages
from clinics.limits import MAX_HANDOFF_BYTES, check_lengths
from clinics.records import Appointment, AppointmentRef, Identity
from clinics.store import ClinicStore
from healthmesh.v1 import clinic_pb2, clinic_pb2_grpc, common_pb2
from runtime import sqlite
from runtime.authz import caller_key
from runtime.errors import InvalidArgument
from runtime.identity import normalize_cpf, normalize_name
from runtime.listing import DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, decode_token, encode_token
from runtime.ratelimit import RateLimiter
from runtime.registry import ClinicEntry
from runtime.specialties import SPECIALTIES, SPECIALTY_ENUM

T = TypeVar("T")

# What HandoffPacket and SpecialtyProposal allow (common.proto, clinic.proto).
HANDOFF_SPECIALTIES = (*SPECIALTIES, "general_practice")
HANDOFF_LANGUAGES = ("pt", "en")
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_HH_MM = re.compile(r"\d{2}:\d{2}")


class ClinicService(clinic_pb2_grpc.ClinicServiceServicer):
    def __init__(self, entry: ClinicEntry, db: ClinicStore, pool: ThreadPoolExecutor,
                 writes: RateLimiter, feed: SlotFeed) -> None:
        self.entry = entry
        self.db = db
        self.pool = pool
        self.writes = writes  # per caller: bookings, moves and cancellations
        self.feed = feed  # told of every committed write, for WatchSlots

    async def _run(self, fn: Callable[..., T], *args: object) -> T:
        return await sqlite.run(fn, *args, pool=self.pool)

    async def DescribeClinic(self, request: clinic_pb2.DescribeClinicRequest,
                             context: grpc.aio.ServicerContext) -> clinic_pb2.DescribeClinicResponse:
        doctors = await self._run(self.db.doctors)
        return clinic_pb2.DescribeClinicResponse(
            clinic_id=self.entry.id,
            name=self.entry.name,
            specialty=SPECIALTY_ENUM[self.entry.specialty],
            doctors=[clinic_pb2.Doctor(doctor_id=d.doctor_id, name=d.name) for d in doctors],
        )

    async def ListPatients(self, request: clinic_pb2.ListPatientsRequest,
                           context: grpc.aio.ServicerContext) -> clinic_pb2.ListPatientsResponse:
        rows = await self._run(self.db.patient_summaries)
        return clinic_pb2.ListPatientsResponse(patients=[_summary(r) for r in rows])

    async def GetPatient(self, request: clinic_pb2.GetPatientRequest,
                         context: grpc.aio.ServicerContext) -> clinic_pb2.GetPatientResponse:
        check_lengths(request)
        patient_id = _required(request.patient_id, "patient_id")
        p = await self._run(self.db.patient, patient_id)
        return clinic_pb2.GetPatientResponse(patient=clinic_pb2.PatientRecord(
            patient_id=p.patient_id, full_name=p.full_name, age=p.age, condition=p.condition,
            medications=p.medications, allergies=p.allergies,
        ))

    async def SearchPatients(self, request: clinic_pb2.SearchPatientsRequest,
                             context: grpc.aio.ServicerContext
                             ) -> clinic_pb2.SearchPatientsResponse:
        check_lengths(request)
        query = _required(request.query, "query")
        rows = await self._run(self.db.patient_summaries, query)
        return clinic_pb2.SearchPatientsResponse(matches=[_summary(r) for r in rows])

    async def ListAvailableSlots(self, request: clinic_pb2.ListAvailableSlotsRequest,
                                 context: grpc.aio.ServicerContext
                                 ) -> clinic_pb2.ListAvailableSlotsResponse:
        check_lengths(request)
        from_date = _date(request.from_date, "from_date", required=False)
        to_date = _date(request.to_date, "to_date", required=False)
        if from_date and to_date and from_date > to_date:
            raise InvalidArgument("to_date", "must not be before from_date")
        page_size = request.page_size or DEFAULT_PAGE_SIZE
        if not 1 <= page_size <= MAX_PAGE_SIZE:
            raise InvalidArgument("page_size", f"must be between 1 and {MAX_PAGE_SIZE}")
        after = decode_token(request.page_token)
        # On the loop, not the pool: an indexed read of at most one page never waits for a writer
        # in WAL mode, and takes less time (~50 µs) than the hop to a thread and back.
        slots, more = self.db.open_slots(request.doctor.strip(), from_date, to_date, page_size, after)
        last = slots[-1] if more else None
        token = encode_token((last.date, last.time, last.doctor, last.slot_id)) if last else ""
        return clinic_pb2.ListAvailableSlotsResponse(slots=slot_messages(slots, self.entry.id),
                                                     next_page_token=token)

    async def WatchSlots(self, request: clinic_pb2.WatchSlotsRequest,
                         context: grpc.aio.ServicerContext) -> AsyncIterator[clinic_pb2.WatchSlotsResponse]:
        async for message in self.feed.watch():
            yield message

    async def BookAppointment(self, request: clinic_pb2.BookAppointmentRequest,
                              context: grpc.aio.ServicerContext
                              ) -> clinic_pb2.BookAppointmentResponse:
        check_lengths(request)
        self.writes.take(caller_key(context))
        doctor = _required(request.doctor, "doctor")
        date = _date(request.date, "date")
        time = _time(request.time, "time")
        who = _identity(request)
        handoff = _handoff(request)
        appointment = await self._run(
            self.db.book, doctor, date, time, who, request.idempotency_key, handoff
        )
        self.feed.changed([appointment])
        return clinic_pb2.BookAppointmentResponse(appointment=self._appointment(appointment))

    async def RescheduleAppointment(self, request: clinic_pb2.RescheduleAppointmentRequest,
                                    context: grpc.aio.ServicerContext
                                    ) -> clinic_pb2.RescheduleAppointmentResponse:
        check_lengths(request)
        self.writes.take(caller_key(context))
        ref = _ref(request)
        new_date = _date(request.new_date, "new_date")
        new_time = _time(request.new_time, "new_time")
        who = _identity(request)
        original, moved = await self._run(
            self.db.reschedule, ref, request.new_doctor.strip(), new_date, new_time, who,
            request.idempotency_key,
        )
        self.feed.changed([original, moved])
        return clinic_pb2.RescheduleAppointmentResponse(
            original=self._appointment(original), appointment=self._appointment(moved)
        )

    async def CancelAppointment(self, request: clinic_pb2.CancelAppointmentRequest,
                                context: grpc.aio.ServicerContext
                                ) -> clinic_pb2.CancelAppointmentResponse:
        check_lengths(request)
        self.writes.take(caller_key(context))
        ref = _ref(request)
        who = _identity(request)
        cancelled = await self._run(self.db.cancel, ref, who, request.idempotency_key)
        self.feed.changed([cancelled])
        return clinic_pb2.CancelAppointmentResponse(appointment=self._appointment(cancelled))

    async def ListAppointments(self, request: clinic_pb2.ListAppointmentsRequest,
                               context: grpc.aio.ServicerContext
                               ) -> clinic_pb2.ListAppointmentsResponse:
        check_lengths(request)
        who = _identity(request)
        appointments = await self._run(self.db.appointments_of, who)
        return clinic_pb2.ListAppointmentsResponse(
            appointments=[self._appointment(a) for a in appointments]
        )

    async def GetHandoffPacket(self, request: clinic_pb2.GetHandoffPacketRequest,
                               context: grpc.aio.ServicerContext
                               ) -> clinic_pb2.GetHandoffPacketResponse:
        check_lengths(request)
        appointment_id = _required(request.appointment_id, "appointment_id")
        found = await self._run(self.db.handoff, appointment_id)
        return clinic_pb2.GetHandoffPacketResponse(
            appointment=self._appointment(found.appointment),
            packet=clinic_pb2.HandoffPacket.FromString(found.packet),
            created_at=found.created_at,
        )

    def _appointment(self, a: Appointment) -> common_pb2.Appointment:
        return common_pb2.Appointment(
            appointment_id=a.appointment_id, clinic_id=self.entry.id, doctor=a.doctor,
            date=a.date, time=a.time,
            status=common_pb2.AppointmentStatus.Value(f"APPOINTMENT_STATUS_{a.status}"),
        )


def _summary(row: tuple[str, str]) -> clinic_pb2.PatientSummary:
    return clinic_pb2.PatientSummary(patient_id=row[0], condition=row[1])


def _required(value: str, field: str) -> str:
    value = value.strip()
    if not value:
        raise InvalidArgument(field, "is required")
    return value


def _date(value: str, field: str, *, required: bool = True) -> str:
    value = value.strip()
    if not value and not required:
        return ""
    _required(value, field)
    try:
        if not _ISO_DATE.fullmatch(value):
            raise ValueError(value)
        return dt.date.fromisoformat(value).isoformat()
    except ValueError:
        raise InvalidArgument(field, f"{value!r} is not a date in YYYY-MM-DD form") from None


def _time(value: str, field: str) -> str:
    value = _required(value, field)
    try:
        if not _HH_MM.fullmatch(value):
            raise ValueError(value)
        return dt.time.fromisoformat(value).strftime("%H:%M")
    except ValueError:
        raise InvalidArgument(field, f"{value!r} is not a time in HH:MM form") from None


def _identity(request: object) -> Identity:
    if not request.HasField("patient"):  # type: ignore[attr-defined]
        raise InvalidArgument("patient", "is required")
    patient = request.patient  # type: ignore[attr-defined]
    return Identity(normalize_name(patient.full_name), normalize_cpf(patient.cpf))


def _handoff(request: clinic_pb2.BookAppointmentRequest) -> bytes | None:
    """The packet serialized for storage, or None without one. Problems name the field but never
    echo its value: packets carry the patient's own account of their symptoms."""
    if not request.HasField("handoff"):
        return None
    packet = request.handoff
    # Deterministic, so a retry of the same packet serializes (and fingerprints) the same.
    raw = packet.SerializeToString(deterministic=True)
    if len(raw) > MAX_HANDOFF_BYTES:
        raise InvalidArgument("handoff", f"is {len(raw)} bytes serialized; at most "
                                         f"{MAX_HANDOFF_BYTES} are accepted")
    _assessment("handoff.assessment_", packet.assessment_specialty, packet.assessment_urgency,
                packet.assessment_confidence)
    for index, proposal in enumerate(packet.proposals):
        _assessment(f"handoff.proposals[{index}].", proposal.specialty, proposal.urgency,
                    proposal.confidence)
    if packet.language not in HANDOFF_LANGUAGES:
        raise InvalidArgument("handoff.language", f"must be one of {', '.join(HANDOFF_LANGUAGES)}")
    return raw


def _assessment(prefix: str, specialty: str, urgency: int, confidence: float) -> None:
    if specialty not in HANDOFF_SPECIALTIES:
        raise InvalidArgument(f"{prefix}specialty",
                              f"must be one of {', '.join(HANDOFF_SPECIALTIES)}")
    if not 1 <= urgency <= 4:
        raise InvalidArgument(f"{prefix}urgency", "must be between 1 and 4")
    if not 0.0 <= confidence <= 1.0:  # also false for NaN
        raise InvalidArgument(f"{prefix}confidence", "must be between 0 and 1")


def _ref(request: object) -> AppointmentRef:
    appointment_id = request.appointment_id.strip()  # type: ignore[attr-defined]
    if appointment_id:
        return AppointmentRef(appointment_id=appointment_id)
    if not request.doctor.strip():  # type: ignore[attr-defined]
        raise InvalidArgument("appointment_id", "is required (or doctor, date and time)")
    return AppointmentRef(
        doctor=request.doctor.strip(),  # type: ignore[attr-defined]
        date=_date(request.date, "date"),  # type: ignore[attr-defined]
        time=_time(request.time, "time"),  # type: ignore[attr-defined]
    )
