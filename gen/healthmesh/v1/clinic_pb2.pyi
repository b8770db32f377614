from healthmesh.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class DescribeClinicRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Doctor(_message.Message):
    __slots__ = ("doctor_id", "name")
    DOCTOR_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    doctor_id: str
    name: str
    def __init__(self, doctor_id: _Optional[str] = ..., name: _Optional[str] = ...) -> None: ...

class DescribeClinicResponse(_message.Message):
    __slots__ = ("clinic_id", "name", "specialty", "doctors")
    CLINIC_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SPECIALTY_FIELD_NUMBER: _ClassVar[int]
    DOCTORS_FIELD_NUMBER: _ClassVar[int]
    clinic_id: str
    name: str
    specialty: _common_pb2.Specialty
    doctors: _containers.RepeatedCompositeFieldContainer[Doctor]
    def __init__(self, clinic_id: _Optional[str] = ..., name: _Optional[str] = ..., specialty: _Optional[_Union[_common_pb2.Specialty, str]] = ..., doctors: _Optional[_Iterable[_Union[Doctor, _Mapping]]] = ...) -> None: ...

class ListPatientsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class PatientSummary(_message.Message):
    __slots__ = ("patient_id", "condition")
    PATIENT_ID_FIELD_NUMBER: _ClassVar[int]
    CONDITION_FIELD_NUMBER: _ClassVar[int]
    patient_id: str
    condition: str
    def __init__(self, patient_id: _Optional[str] = ..., condition: _Optional[str] = ...) -> None: ...

class ListPatientsResponse(_message.Message):
    __slots__ = ("patients",)
    PATIENTS_FIELD_NUMBER: _ClassVar[int]
    patients: _containers.RepeatedCompositeFieldContainer[PatientSummary]
    def __init__(self, patients: _Optional[_Iterable[_Union[PatientSummary, _Mapping]]] = ...) -> None: ...

class GetPatientRequest(_message.Message):
    __slots__ = ("patient_id",)
    PATIENT_ID_FIELD_NUMBER: _ClassVar[int]
    patient_id: str
    def __init__(self, patient_id: _Optional[str] = ...) -> None: ...

class PatientRecord(_message.Message):
    __slots__ = ("patient_id", "full_name", "age", "condition", "medications", "allergies")
    PATIENT_ID_FIELD_NUMBER: _ClassVar[int]
    FULL_NAME_FIELD_NUMBER: _ClassVar[int]
    AGE_FIELD_NUMBER: _ClassVar[int]
    CONDITION_FIELD_NUMBER: _ClassVar[int]
    MEDICATIONS_FIELD_NUMBER: _ClassVar[int]
    ALLERGIES_FIELD_NUMBER: _ClassVar[int]
    patient_id: str
    full_name: str
    age: int
    condition: str
    medications: _containers.RepeatedScalarFieldContainer[str]
    allergies: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, patient_id: _Optional[str] = ..., full_name: _Optional[str] = ..., age: _Optional[int] = ..., condition: _Optional[str] = ..., medications: _Optional[_Iterable[str]] = ..., allergies: _Optional[_Iterable[str]] = ...) -> None: ...

class GetPatientResponse(_message.Message):
    __slots__ = ("patient",)
    PATIENT_FIELD_NUMBER: _ClassVar[int]
    patient: PatientRecord
    def __init__(self, patient: _Optional[_Union[PatientRecord, _Mapping]] = ...) -> None: ...

class SearchPatientsRequest(_message.Message):
    __slots__ = ("query",)
    QUERY_FIELD_NUMBER: _ClassVar[int]
    query: str
    def __init__(self, query: _Optional[str] = ...) -> None: ...

class SearchPatientsResponse(_message.Message):
    __slots__ = ("matches",)
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    matches: _containers.RepeatedCompositeFieldContainer[PatientSummary]
    def __init__(self, matches: _Optional[_Iterable[_Union[PatientSummary, _Mapping]]] = ...) -> None: ...

class ListAvailableSlotsRequest(_message.Message):
    __slots__ = ("doctor", "from_date", "to_date", "page_size", "page_token")
    DOCTOR_FIELD_NUMBER: _ClassVar[int]
    FROM_DATE_FIELD_NUMBER: _ClassVar[int]
    TO_DATE_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    doctor: str
    from_date: str
    to_date: str
    page_size: int
    page_token: str
    def __init__(self, doctor: _Optional[str] = ..., from_date: _Optional[str] = ..., to_date: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListAvailableSlotsResponse(_message.Message):
    __slots__ = ("slots", "next_page_token")
    SLOTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    slots: _containers.RepeatedCompositeFieldContainer[_common_pb2.Slot]
    next_page_token: str
    def __init__(self, slots: _Optional[_Iterable[_Union[_common_pb2.Slot, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class BookAppointmentRequest(_message.Message):
    __slots__ = ("doctor", "date", "time", "patient", "idempotency_key", "handoff")
    DOCTOR_FIELD_NUMBER: _ClassVar[int]
    DATE_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    PATIENT_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    HANDOFF_FIELD_NUMBER: _ClassVar[int]
    doctor: str
    date: str
    time: str
    patient: _common_pb2.PatientIdentity
    idempotency_key: str
    handoff: HandoffPacket
    def __init__(self, doctor: _Optional[str] = ..., date: _Optional[str] = ..., time: _Optional[str] = ..., patient: _Optional[_Union[_common_pb2.PatientIdentity, _Mapping]] = ..., idempotency_key: _Optional[str] = ..., handoff: _Optional[_Union[HandoffPacket, _Mapping]] = ...) -> None: ...

class BookAppointmentResponse(_message.Message):
    __slots__ = ("appointment",)
    APPOINTMENT_FIELD_NUMBER: _ClassVar[int]
    appointment: _common_pb2.Appointment
    def __init__(self, appointment: _Optional[_Union[_common_pb2.Appointment, _Mapping]] = ...) -> None: ...

class RescheduleAppointmentRequest(_message.Message):
    __slots__ = ("appointment_id", "doctor", "date", "time", "new_date", "new_time", "patient", "idempotency_key", "new_doctor")
    APPOINTMENT_ID_FIELD_NUMBER: _ClassVar[int]
    DOCTOR_FIELD_NUMBER: _ClassVar[int]
    DATE_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    NEW_DATE_FIELD_NUMBER: _ClassVar[int]
    NEW_TIME_FIELD_NUMBER: _ClassVar[int]
    PATIENT_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    NEW_DOCTOR_FIELD_NUMBER: _ClassVar[int]
    appointment_id: str
    doctor: str
    date: str
    time: str
    new_date: str
    new_time: str
    patient: _common_pb2.PatientIdentity
    idempotency_key: str
    new_doctor: str
    def __init__(self, appointment_id: _Optional[str] = ..., doctor: _Optional[str] = ..., date: _Optional[str] = ..., time: _Optional[str] = ..., new_date: _Optional[str] = ..., new_time: _Optional[str] = ..., patient: _Optional[_Union[_common_pb2.PatientIdentity, _Mapping]] = ..., idempotency_key: _Optional[str] = ..., new_doctor: _Optional[str] = ...) -> None: ...

class RescheduleAppointmentResponse(_message.Message):
    __slots__ = ("original", "appointment")
    ORIGINAL_FIELD_NUMBER: _ClassVar[int]
    APPOINTMENT_FIELD_NUMBER: _ClassVar[int]
    original: _common_pb2.Appointment
    appointment: _common_pb2.Appointment
    def __init__(self, original: _Optional[_Union[_common_pb2.Appointment, _Mapping]] = ..., appointment: _Optional[_Union[_common_pb2.Appointment, _Mapping]] = ...) -> None: ...

class CancelAppointmentRequest(_message.Message):
    __slots__ = ("appointment_id", "doctor", "date", "time", "patient", "idempotency_key")
    APPOINTMENT_ID_FIELD_NUMBER: _ClassVar[int]
    DOCTOR_FIELD_NUMBER: _ClassVar[int]
    DATE_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    PATIENT_FIELD_NUMBER: _ClassVar[int]
    IDEMPOTENCY_KEY_FIELD_NUMBER: _ClassVar[int]
    appointment_id: str
    doctor: str
    date: str
    time: str
    patient: _common_pb2.PatientIdentity
    idempotency_key: str
    def __init__(self, appointment_id: _Optional[str] = ..., doctor: _Optional[str] = ..., date: _Optional[str] = ..., time: _Optional[str] = ..., patient: _Optional[_Union[_common_pb2.PatientIdentity, _Mapping]] = ..., idempotency_key: _Optional[str] = ...) -> None: ...

class CancelAppointmentResponse(_message.Message):
    __slots__ = ("appointment",)
    APPOINTMENT_FIELD_NUMBER: _ClassVar[int]
    appointment: _common_pb2.Appointment
    def __init__(self, appointment: _Optional[_Union[_common_pb2.Appointment, _Mapping]] = ...) -> None: ...

class ListAppointmentsRequest(_message.Message):
    __slots__ = ("patient",)
    PATIENT_FIELD_NUMBER: _ClassVar[int]
    patient: _common_pb2.PatientIdentity
    def __init__(self, patient: _Optional[_Union[_common_pb2.PatientIdentity, _Mapping]] = ...) -> None: ...

class ListAppointmentsResponse(_message.Message):
    __slots__ = ("appointments",)
    APPOINTMENTS_FIELD_NUMBER: _ClassVar[int]
    appointments: _containers.RepeatedCompositeFieldContainer[_common_pb2.Appointment]
    def __init__(self, appointments: _Optional[_Iterable[_Union[_common_pb2.Appointment, _Mapping]]] = ...) -> None: ...

class HandoffPacket(_message.Message):
    __slots__ = ("subjective", "objective", "assessment_specialty", "assessment_urgency", "assessment_confidence", "proposals", "plan", "flags", "language")
    SUBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    ASSESSMENT_SPECIALTY_FIELD_NUMBER: _ClassVar[int]
    ASSESSMENT_URGENCY_FIELD_NUMBER: _ClassVar[int]
    ASSESSMENT_CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    PROPOSALS_FIELD_NUMBER: _ClassVar[int]
    PLAN_FIELD_NUMBER: _ClassVar[int]
    FLAGS_FIELD_NUMBER: _ClassVar[int]
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    subjective: _containers.RepeatedScalarFieldContainer[str]
    objective: _containers.RepeatedScalarFieldContainer[str]
    assessment_specialty: str
    assessment_urgency: int
    assessment_confidence: float
    proposals: _containers.RepeatedCompositeFieldContainer[_common_pb2.SpecialtyProposal]
    plan: str
    flags: _containers.RepeatedScalarFieldContainer[str]
    language: str
    def __init__(self, subjective: _Optional[_Iterable[str]] = ..., objective: _Optional[_Iterable[str]] = ..., assessment_specialty: _Optional[str] = ..., assessment_urgency: _Optional[int] = ..., assessment_confidence: _Optional[float] = ..., proposals: _Optional[_Iterable[_Union[_common_pb2.SpecialtyProposal, _Mapping]]] = ..., plan: _Optional[str] = ..., flags: _Optional[_Iterable[str]] = ..., language: _Optional[str] = ...) -> None: ...

class GetHandoffPacketRequest(_message.Message):
    __slots__ = ("appointment_id",)
    APPOINTMENT_ID_FIELD_NUMBER: _ClassVar[int]
    appointment_id: str
    def __init__(self, appointment_id: _Optional[str] = ...) -> None: ...

class GetHandoffPacketResponse(_message.Message):
    __slots__ = ("appointment", "packet", "created_at")
    APPOINTMENT_FIELD_NUMBER: _ClassVar[int]
    PACKET_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    appointment: _common_pb2.Appointment
    packet: HandoffPacket
    created_at: str
    def __init__(self, appointment: _Optional[_Union[_common_pb2.Appointment, _Mapping]] = ..., packet: _Optional[_Union[HandoffPacket, _Mapping]] = ..., created_at: _Optional[str] = ...) -> None: ...

class WatchSlotsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class WatchSlotsResponse(_message.Message):
    __slots__ = ("snapshot", "open", "closed", "doctors")
    SNAPSHOT_FIELD_NUMBER: _ClassVar[int]
    OPEN_FIELD_NUMBER: _ClassVar[int]
    CLOSED_FIELD_NUMBER: _ClassVar[int]
    DOCTORS_FIELD_NUMBER: _ClassVar[int]
    snapshot: bool
    open: _containers.RepeatedCompositeFieldContainer[_common_pb2.Slot]
    closed: _containers.RepeatedScalarFieldContainer[str]
    doctors: _containers.RepeatedCompositeFieldContainer[Doctor]
    def __init__(self, snapshot: _Optional[bool] = ..., open: _Optional[_Iterable[_Union[_common_pb2.Slot, _Mapping]]] = ..., closed: _Optional[_Iterable[str]] = ..., doctors: _Optional[_Iterable[_Union[Doctor, _Mapping]]] = ...) -> None: ...
