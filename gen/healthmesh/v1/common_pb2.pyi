from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Specialty(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SPECIALTY_UNSPECIFIED: _ClassVar[Specialty]
    SPECIALTY_CARDIOLOGY: _ClassVar[Specialty]
    SPECIALTY_DERMATOLOGY: _ClassVar[Specialty]
    SPECIALTY_ORTHOPEDICS: _ClassVar[Specialty]

class AppointmentStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    APPOINTMENT_STATUS_UNSPECIFIED: _ClassVar[AppointmentStatus]
    APPOINTMENT_STATUS_BOOKED: _ClassVar[AppointmentStatus]
    APPOINTMENT_STATUS_CANCELLED: _ClassVar[AppointmentStatus]
    APPOINTMENT_STATUS_RESCHEDULED: _ClassVar[AppointmentStatus]
SPECIALTY_UNSPECIFIED: Specialty
SPECIALTY_CARDIOLOGY: Specialty
SPECIALTY_DERMATOLOGY: Specialty
SPECIALTY_ORTHOPEDICS: Specialty
APPOINTMENT_STATUS_UNSPECIFIED: AppointmentStatus
APPOINTMENT_STATUS_BOOKED: AppointmentStatus
APPOINTMENT_STATUS_CANCELLED: AppointmentStatus
APPOINTMENT_STATUS_RESCHEDULED: AppointmentStatus

class PatientIdentity(_message.Message):
    __slots__ = ("full_name", "cpf")
    FULL_NAME_FIELD_NUMBER: _ClassVar[int]
    CPF_FIELD_NUMBER: _ClassVar[int]
    full_name: str
    cpf: str
    def __init__(self, full_name: _Optional[str] = ..., cpf: _Optional[str] = ...) -> None: ...

class Slot(_message.Message):
    __slots__ = ("slot_id", "doctor", "date", "time", "clinic_id")
    SLOT_ID_FIELD_NUMBER: _ClassVar[int]
    DOCTOR_FIELD_NUMBER: _ClassVar[int]
    DATE_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    CLINIC_ID_FIELD_NUMBER: _ClassVar[int]
    slot_id: str
    doctor: str
    date: str
    time: str
    clinic_id: str
    def __init__(self, slot_id: _Optional[str] = ..., doctor: _Optional[str] = ..., date: _Optional[str] = ..., time: _Optional[str] = ..., clinic_id: _Optional[str] = ...) -> None: ...

class Appointment(_message.Message):
    __slots__ = ("appointment_id", "clinic_id", "doctor", "date", "time", "status")
    APPOINTMENT_ID_FIELD_NUMBER: _ClassVar[int]
    CLINIC_ID_FIELD_NUMBER: _ClassVar[int]
    DOCTOR_FIELD_NUMBER: _ClassVar[int]
    DATE_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    appointment_id: str
    clinic_id: str
    doctor: str
    date: str
    time: str
    status: AppointmentStatus
    def __init__(self, appointment_id: _Optional[str] = ..., clinic_id: _Optional[str] = ..., doctor: _Optional[str] = ..., date: _Optional[str] = ..., time: _Optional[str] = ..., status: _Optional[_Union[AppointmentStatus, str]] = ...) -> None: ...

class SpecialtyProposal(_message.Message):
    __slots__ = ("specialty", "urgency", "confidence", "agent", "rationale")
    SPECIALTY_FIELD_NUMBER: _ClassVar[int]
    URGENCY_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    AGENT_FIELD_NUMBER: _ClassVar[int]
    RATIONALE_FIELD_NUMBER: _ClassVar[int]
    specialty: str
    urgency: int
    confidence: float
    agent: str
    rationale: str
    def __init__(self, specialty: _Optional[str] = ..., urgency: _Optional[int] = ..., confidence: _Optional[float] = ..., agent: _Optional[str] = ..., rationale: _Optional[str] = ...) -> None: ...
