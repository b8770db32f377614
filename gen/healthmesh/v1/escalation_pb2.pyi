from healthmesh.v1 import clinic_pb2 as _clinic_pb2
from healthmesh.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class EscalationReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ESCALATION_REASON_UNSPECIFIED: _ClassVar[EscalationReason]
    ESCALATION_REASON_LOW_CONFIDENCE_CONSULT: _ClassVar[EscalationReason]
    ESCALATION_REASON_SEVERE_INTERACTION: _ClassVar[EscalationReason]
    ESCALATION_REASON_RED_FLAG_IN_HISTORY: _ClassVar[EscalationReason]
    ESCALATION_REASON_UPSTREAM_FAILURE: _ClassVar[EscalationReason]
    ESCALATION_REASON_PATIENT_REQUEST: _ClassVar[EscalationReason]

class CaseUrgency(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CASE_URGENCY_UNSPECIFIED: _ClassVar[CaseUrgency]
    CASE_URGENCY_ROUTINE: _ClassVar[CaseUrgency]
    CASE_URGENCY_SOON: _ClassVar[CaseUrgency]
    CASE_URGENCY_URGENT: _ClassVar[CaseUrgency]
    CASE_URGENCY_EMERGENCY: _ClassVar[CaseUrgency]

class CaseState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CASE_STATE_UNSPECIFIED: _ClassVar[CaseState]
    CASE_STATE_OPEN: _ClassVar[CaseState]
    CASE_STATE_CLAIMED: _ClassVar[CaseState]
    CASE_STATE_RESOLVED: _ClassVar[CaseState]
ESCALATION_REASON_UNSPECIFIED: EscalationReason
ESCALATION_REASON_LOW_CONFIDENCE_CONSULT: EscalationReason
ESCALATION_REASON_SEVERE_INTERACTION: EscalationReason
ESCALATION_REASON_RED_FLAG_IN_HISTORY: EscalationReason
ESCALATION_REASON_UPSTREAM_FAILURE: EscalationReason
ESCALATION_REASON_PATIENT_REQUEST: EscalationReason
CASE_URGENCY_UNSPECIFIED: CaseUrgency
CASE_URGENCY_ROUTINE: CaseUrgency
CASE_URGENCY_SOON: CaseUrgency
CASE_URGENCY_URGENT: CaseUrgency
CASE_URGENCY_EMERGENCY: CaseUrgency
CASE_STATE_UNSPECIFIED: CaseState
CASE_STATE_OPEN: CaseState
CASE_STATE_CLAIMED: CaseState
CASE_STATE_RESOLVED: CaseState

class CasePacket(_message.Message):
    __slots__ = ("summary", "details", "handoff", "patient", "language", "trace_id")
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    DETAILS_FIELD_NUMBER: _ClassVar[int]
    HANDOFF_FIELD_NUMBER: _ClassVar[int]
    PATIENT_FIELD_NUMBER: _ClassVar[int]
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    TRACE_ID_FIELD_NUMBER: _ClassVar[int]
    summary: str
    details: _containers.RepeatedScalarFieldContainer[str]
    handoff: _clinic_pb2.HandoffPacket
    patient: _common_pb2.PatientIdentity
    language: str
    trace_id: str
    def __init__(self, summary: _Optional[str] = ..., details: _Optional[_Iterable[str]] = ..., handoff: _Optional[_Union[_clinic_pb2.HandoffPacket, _Mapping]] = ..., patient: _Optional[_Union[_common_pb2.PatientIdentity, _Mapping]] = ..., language: _Optional[str] = ..., trace_id: _Optional[str] = ...) -> None: ...

class EscalationCase(_message.Message):
    __slots__ = ("case_id", "session_id", "reason", "urgency", "state", "suggested_specialty", "suggested_clinic_id", "created_at", "claimed_by", "claimed_at", "resolved_by", "resolved_at", "resolution", "returned")
    CASE_ID_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    URGENCY_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    SUGGESTED_SPECIALTY_FIELD_NUMBER: _ClassVar[int]
    SUGGESTED_CLINIC_ID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CLAIMED_BY_FIELD_NUMBER: _ClassVar[int]
    CLAIMED_AT_FIELD_NUMBER: _ClassVar[int]
    RESOLVED_BY_FIELD_NUMBER: _ClassVar[int]
    RESOLVED_AT_FIELD_NUMBER: _ClassVar[int]
    RESOLUTION_FIELD_NUMBER: _ClassVar[int]
    RETURNED_FIELD_NUMBER: _ClassVar[int]
    case_id: str
    session_id: str
    reason: EscalationReason
    urgency: CaseUrgency
    state: CaseState
    suggested_specialty: str
    suggested_clinic_id: str
    created_at: str
    claimed_by: str
    claimed_at: str
    resolved_by: str
    resolved_at: str
    resolution: str
    returned: int
    def __init__(self, case_id: _Optional[str] = ..., session_id: _Optional[str] = ..., reason: _Optional[_Union[EscalationReason, str]] = ..., urgency: _Optional[_Union[CaseUrgency, str]] = ..., state: _Optional[_Union[CaseState, str]] = ..., suggested_specialty: _Optional[str] = ..., suggested_clinic_id: _Optional[str] = ..., created_at: _Optional[str] = ..., claimed_by: _Optional[str] = ..., claimed_at: _Optional[str] = ..., resolved_by: _Optional[str] = ..., resolved_at: _Optional[str] = ..., resolution: _Optional[str] = ..., returned: _Optional[int] = ...) -> None: ...

class CaseNote(_message.Message):
    __slots__ = ("author", "text", "created_at")
    AUTHOR_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    author: str
    text: str
    created_at: str
    def __init__(self, author: _Optional[str] = ..., text: _Optional[str] = ..., created_at: _Optional[str] = ...) -> None: ...

class CreateCaseRequest(_message.Message):
    __slots__ = ("session_id", "reason", "urgency", "packet", "suggested_specialty", "suggested_clinic_id")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    URGENCY_FIELD_NUMBER: _ClassVar[int]
    PACKET_FIELD_NUMBER: _ClassVar[int]
    SUGGESTED_SPECIALTY_FIELD_NUMBER: _ClassVar[int]
    SUGGESTED_CLINIC_ID_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    reason: EscalationReason
    urgency: CaseUrgency
    packet: CasePacket
    suggested_specialty: str
    suggested_clinic_id: str
    def __init__(self, session_id: _Optional[str] = ..., reason: _Optional[_Union[EscalationReason, str]] = ..., urgency: _Optional[_Union[CaseUrgency, str]] = ..., packet: _Optional[_Union[CasePacket, _Mapping]] = ..., suggested_specialty: _Optional[str] = ..., suggested_clinic_id: _Optional[str] = ...) -> None: ...

class CreateCaseResponse(_message.Message):
    __slots__ = ("escalation_case", "created")
    ESCALATION_CASE_FIELD_NUMBER: _ClassVar[int]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    escalation_case: EscalationCase
    created: bool
    def __init__(self, escalation_case: _Optional[_Union[EscalationCase, _Mapping]] = ..., created: _Optional[bool] = ...) -> None: ...

class ListCasesRequest(_message.Message):
    __slots__ = ("states", "page_size", "page_token")
    STATES_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    states: _containers.RepeatedScalarFieldContainer[CaseState]
    page_size: int
    page_token: str
    def __init__(self, states: _Optional[_Iterable[_Union[CaseState, str]]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListCasesResponse(_message.Message):
    __slots__ = ("cases", "next_page_token")
    CASES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    cases: _containers.RepeatedCompositeFieldContainer[EscalationCase]
    next_page_token: str
    def __init__(self, cases: _Optional[_Iterable[_Union[EscalationCase, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class ClaimCaseRequest(_message.Message):
    __slots__ = ("case_id", "operator")
    CASE_ID_FIELD_NUMBER: _ClassVar[int]
    OPERATOR_FIELD_NUMBER: _ClassVar[int]
    case_id: str
    operator: str
    def __init__(self, case_id: _Optional[str] = ..., operator: _Optional[str] = ...) -> None: ...

class ClaimCaseResponse(_message.Message):
    __slots__ = ("escalation_case",)
    ESCALATION_CASE_FIELD_NUMBER: _ClassVar[int]
    escalation_case: EscalationCase
    def __init__(self, escalation_case: _Optional[_Union[EscalationCase, _Mapping]] = ...) -> None: ...

class GetCaseRequest(_message.Message):
    __slots__ = ("case_id", "operator")
    CASE_ID_FIELD_NUMBER: _ClassVar[int]
    OPERATOR_FIELD_NUMBER: _ClassVar[int]
    case_id: str
    operator: str
    def __init__(self, case_id: _Optional[str] = ..., operator: _Optional[str] = ...) -> None: ...

class GetCaseResponse(_message.Message):
    __slots__ = ("escalation_case", "packet", "notes")
    ESCALATION_CASE_FIELD_NUMBER: _ClassVar[int]
    PACKET_FIELD_NUMBER: _ClassVar[int]
    NOTES_FIELD_NUMBER: _ClassVar[int]
    escalation_case: EscalationCase
    packet: CasePacket
    notes: _containers.RepeatedCompositeFieldContainer[CaseNote]
    def __init__(self, escalation_case: _Optional[_Union[EscalationCase, _Mapping]] = ..., packet: _Optional[_Union[CasePacket, _Mapping]] = ..., notes: _Optional[_Iterable[_Union[CaseNote, _Mapping]]] = ...) -> None: ...

class AddNoteRequest(_message.Message):
    __slots__ = ("case_id", "operator", "text")
    CASE_ID_FIELD_NUMBER: _ClassVar[int]
    OPERATOR_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    case_id: str
    operator: str
    text: str
    def __init__(self, case_id: _Optional[str] = ..., operator: _Optional[str] = ..., text: _Optional[str] = ...) -> None: ...

class AddNoteResponse(_message.Message):
    __slots__ = ("note",)
    NOTE_FIELD_NUMBER: _ClassVar[int]
    note: CaseNote
    def __init__(self, note: _Optional[_Union[CaseNote, _Mapping]] = ...) -> None: ...

class ResolveCaseRequest(_message.Message):
    __slots__ = ("case_id", "operator", "resolution")
    CASE_ID_FIELD_NUMBER: _ClassVar[int]
    OPERATOR_FIELD_NUMBER: _ClassVar[int]
    RESOLUTION_FIELD_NUMBER: _ClassVar[int]
    case_id: str
    operator: str
    resolution: str
    def __init__(self, case_id: _Optional[str] = ..., operator: _Optional[str] = ..., resolution: _Optional[str] = ...) -> None: ...

class ResolveCaseResponse(_message.Message):
    __slots__ = ("escalation_case",)
    ESCALATION_CASE_FIELD_NUMBER: _ClassVar[int]
    escalation_case: EscalationCase
    def __init__(self, escalation_case: _Optional[_Union[EscalationCase, _Mapping]] = ...) -> None: ...
