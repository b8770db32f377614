from healthmesh.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Disposition(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DISPOSITION_UNSPECIFIED: _ClassVar[Disposition]
    DISPOSITION_ANSWERED: _ClassVar[Disposition]
    DISPOSITION_PARTIAL: _ClassVar[Disposition]
    DISPOSITION_NEEDS_INFO: _ClassVar[Disposition]
    DISPOSITION_EMERGENCY: _ClassVar[Disposition]
    DISPOSITION_BLOCKED: _ClassVar[Disposition]
    DISPOSITION_OUT_OF_SCOPE: _ClassVar[Disposition]

class StepStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STEP_STATUS_UNSPECIFIED: _ClassVar[StepStatus]
    STEP_STATUS_OK: _ClassVar[StepStatus]
    STEP_STATUS_NOT_FOUND: _ClassVar[StepStatus]
    STEP_STATUS_REJECTED: _ClassVar[StepStatus]
    STEP_STATUS_UNAVAILABLE: _ClassVar[StepStatus]
    STEP_STATUS_TIMED_OUT: _ClassVar[StepStatus]
    STEP_STATUS_CIRCUIT_OPEN: _ClassVar[StepStatus]
    STEP_STATUS_INVALID: _ClassVar[StepStatus]

class ConsultStage(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CONSULT_STAGE_UNSPECIFIED: _ClassVar[ConsultStage]
    CONSULT_STAGE_HISTORY: _ClassVar[ConsultStage]
    CONSULT_STAGE_RECOMMENDED: _ClassVar[ConsultStage]
    CONSULT_STAGE_BOOKED: _ClassVar[ConsultStage]

class ModelRoute(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MODEL_ROUTE_UNSPECIFIED: _ClassVar[ModelRoute]
    MODEL_ROUTE_NONE: _ClassVar[ModelRoute]
    MODEL_ROUTE_LOCAL: _ClassVar[ModelRoute]
    MODEL_ROUTE_CLOUD: _ClassVar[ModelRoute]

class Stage(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STAGE_UNSPECIFIED: _ClassVar[Stage]
    STAGE_SCREEN: _ClassVar[Stage]
    STAGE_PLAN: _ClassVar[Stage]
    STAGE_ROUTE: _ClassVar[Stage]
    STAGE_ANSWER: _ClassVar[Stage]
    STAGE_VERIFY: _ClassVar[Stage]
    STAGE_MODEL: _ClassVar[Stage]

class BreakerState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    BREAKER_STATE_UNSPECIFIED: _ClassVar[BreakerState]
    BREAKER_STATE_CLOSED: _ClassVar[BreakerState]
    BREAKER_STATE_OPEN: _ClassVar[BreakerState]
    BREAKER_STATE_HALF_OPEN: _ClassVar[BreakerState]
DISPOSITION_UNSPECIFIED: Disposition
DISPOSITION_ANSWERED: Disposition
DISPOSITION_PARTIAL: Disposition
DISPOSITION_NEEDS_INFO: Disposition
DISPOSITION_EMERGENCY: Disposition
DISPOSITION_BLOCKED: Disposition
DISPOSITION_OUT_OF_SCOPE: Disposition
STEP_STATUS_UNSPECIFIED: StepStatus
STEP_STATUS_OK: StepStatus
STEP_STATUS_NOT_FOUND: StepStatus
STEP_STATUS_REJECTED: StepStatus
STEP_STATUS_UNAVAILABLE: StepStatus
STEP_STATUS_TIMED_OUT: StepStatus
STEP_STATUS_CIRCUIT_OPEN: StepStatus
STEP_STATUS_INVALID: StepStatus
CONSULT_STAGE_UNSPECIFIED: ConsultStage
CONSULT_STAGE_HISTORY: ConsultStage
CONSULT_STAGE_RECOMMENDED: ConsultStage
CONSULT_STAGE_BOOKED: ConsultStage
MODEL_ROUTE_UNSPECIFIED: ModelRoute
MODEL_ROUTE_NONE: ModelRoute
MODEL_ROUTE_LOCAL: ModelRoute
MODEL_ROUTE_CLOUD: ModelRoute
STAGE_UNSPECIFIED: Stage
STAGE_SCREEN: Stage
STAGE_PLAN: Stage
STAGE_ROUTE: Stage
STAGE_ANSWER: Stage
STAGE_VERIFY: Stage
STAGE_MODEL: Stage
BREAKER_STATE_UNSPECIFIED: BreakerState
BREAKER_STATE_CLOSED: BreakerState
BREAKER_STATE_OPEN: BreakerState
BREAKER_STATE_HALF_OPEN: BreakerState

class AskRequest(_message.Message):
    __slots__ = ("session_id", "message", "patient")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    PATIENT_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    message: str
    patient: _common_pb2.PatientIdentity
    def __init__(self, session_id: _Optional[str] = ..., message: _Optional[str] = ..., patient: _Optional[_Union[_common_pb2.PatientIdentity, _Mapping]] = ...) -> None: ...

class Step(_message.Message):
    __slots__ = ("step_id", "clinic_id", "action", "status", "message", "attempts", "latency_ms")
    STEP_ID_FIELD_NUMBER: _ClassVar[int]
    CLINIC_ID_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    ATTEMPTS_FIELD_NUMBER: _ClassVar[int]
    LATENCY_MS_FIELD_NUMBER: _ClassVar[int]
    step_id: str
    clinic_id: str
    action: str
    status: StepStatus
    message: str
    attempts: int
    latency_ms: float
    def __init__(self, step_id: _Optional[str] = ..., clinic_id: _Optional[str] = ..., action: _Optional[str] = ..., status: _Optional[_Union[StepStatus, str]] = ..., message: _Optional[str] = ..., attempts: _Optional[int] = ..., latency_ms: _Optional[float] = ...) -> None: ...

class Verification(_message.Message):
    __slots__ = ("safe", "notes")
    SAFE_FIELD_NUMBER: _ClassVar[int]
    NOTES_FIELD_NUMBER: _ClassVar[int]
    safe: bool
    notes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, safe: _Optional[bool] = ..., notes: _Optional[_Iterable[str]] = ...) -> None: ...

class AskResponse(_message.Message):
    __slots__ = ("session_id", "answer", "language", "disposition", "steps", "slots", "appointment", "verification", "trace_id", "phi_detected", "phi_categories", "model_route", "citations", "consult")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    ANSWER_FIELD_NUMBER: _ClassVar[int]
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    DISPOSITION_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    SLOTS_FIELD_NUMBER: _ClassVar[int]
    APPOINTMENT_FIELD_NUMBER: _ClassVar[int]
    VERIFICATION_FIELD_NUMBER: _ClassVar[int]
    TRACE_ID_FIELD_NUMBER: _ClassVar[int]
    PHI_DETECTED_FIELD_NUMBER: _ClassVar[int]
    PHI_CATEGORIES_FIELD_NUMBER: _ClassVar[int]
    MODEL_ROUTE_FIELD_NUMBER: _ClassVar[int]
    CITATIONS_FIELD_NUMBER: _ClassVar[int]
    CONSULT_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    answer: str
    language: str
    disposition: Disposition
    steps: _containers.RepeatedCompositeFieldContainer[Step]
    slots: _containers.RepeatedCompositeFieldContainer[_common_pb2.Slot]
    appointment: _common_pb2.Appointment
    verification: Verification
    trace_id: str
    phi_detected: bool
    phi_categories: _containers.RepeatedScalarFieldContainer[str]
    model_route: ModelRoute
    citations: _containers.RepeatedCompositeFieldContainer[Citation]
    consult: Consult
    def __init__(self, session_id: _Optional[str] = ..., answer: _Optional[str] = ..., language: _Optional[str] = ..., disposition: _Optional[_Union[Disposition, str]] = ..., steps: _Optional[_Iterable[_Union[Step, _Mapping]]] = ..., slots: _Optional[_Iterable[_Union[_common_pb2.Slot, _Mapping]]] = ..., appointment: _Optional[_Union[_common_pb2.Appointment, _Mapping]] = ..., verification: _Optional[_Union[Verification, _Mapping]] = ..., trace_id: _Optional[str] = ..., phi_detected: _Optional[bool] = ..., phi_categories: _Optional[_Iterable[str]] = ..., model_route: _Optional[_Union[ModelRoute, str]] = ..., citations: _Optional[_Iterable[_Union[Citation, _Mapping]]] = ..., consult: _Optional[_Union[Consult, _Mapping]] = ...) -> None: ...

class Citation(_message.Message):
    __slots__ = ("index", "source", "section", "reference")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    SECTION_FIELD_NUMBER: _ClassVar[int]
    REFERENCE_FIELD_NUMBER: _ClassVar[int]
    index: int
    source: str
    section: str
    reference: str
    def __init__(self, index: _Optional[int] = ..., source: _Optional[str] = ..., section: _Optional[str] = ..., reference: _Optional[str] = ...) -> None: ...

class Consult(_message.Message):
    __slots__ = ("stage", "specialty", "urgency", "confidence", "low_confidence", "proposals", "flags")
    STAGE_FIELD_NUMBER: _ClassVar[int]
    SPECIALTY_FIELD_NUMBER: _ClassVar[int]
    URGENCY_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    LOW_CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    PROPOSALS_FIELD_NUMBER: _ClassVar[int]
    FLAGS_FIELD_NUMBER: _ClassVar[int]
    stage: ConsultStage
    specialty: str
    urgency: int
    confidence: float
    low_confidence: bool
    proposals: _containers.RepeatedCompositeFieldContainer[_common_pb2.SpecialtyProposal]
    flags: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, stage: _Optional[_Union[ConsultStage, str]] = ..., specialty: _Optional[str] = ..., urgency: _Optional[int] = ..., confidence: _Optional[float] = ..., low_confidence: _Optional[bool] = ..., proposals: _Optional[_Iterable[_Union[_common_pb2.SpecialtyProposal, _Mapping]]] = ..., flags: _Optional[_Iterable[str]] = ...) -> None: ...

class StageEvent(_message.Message):
    __slots__ = ("stage", "detail", "elapsed_ms")
    STAGE_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    ELAPSED_MS_FIELD_NUMBER: _ClassVar[int]
    stage: Stage
    detail: str
    elapsed_ms: float
    def __init__(self, stage: _Optional[_Union[Stage, str]] = ..., detail: _Optional[str] = ..., elapsed_ms: _Optional[float] = ...) -> None: ...

class AskEvent(_message.Message):
    __slots__ = ("stage", "step", "response", "answer_chunk")
    STAGE_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_FIELD_NUMBER: _ClassVar[int]
    ANSWER_CHUNK_FIELD_NUMBER: _ClassVar[int]
    stage: StageEvent
    step: Step
    response: AskResponse
    answer_chunk: str
    def __init__(self, stage: _Optional[_Union[StageEvent, _Mapping]] = ..., step: _Optional[_Union[Step, _Mapping]] = ..., response: _Optional[_Union[AskResponse, _Mapping]] = ..., answer_chunk: _Optional[str] = ...) -> None: ...

class DescribeMeshRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Upstream(_message.Message):
    __slots__ = ("name", "address", "specialty", "health", "breaker")
    NAME_FIELD_NUMBER: _ClassVar[int]
    ADDRESS_FIELD_NUMBER: _ClassVar[int]
    SPECIALTY_FIELD_NUMBER: _ClassVar[int]
    HEALTH_FIELD_NUMBER: _ClassVar[int]
    BREAKER_FIELD_NUMBER: _ClassVar[int]
    name: str
    address: str
    specialty: _common_pb2.Specialty
    health: str
    breaker: BreakerState
    def __init__(self, name: _Optional[str] = ..., address: _Optional[str] = ..., specialty: _Optional[_Union[_common_pb2.Specialty, str]] = ..., health: _Optional[str] = ..., breaker: _Optional[_Union[BreakerState, str]] = ...) -> None: ...

class DescribeMeshResponse(_message.Message):
    __slots__ = ("upstreams",)
    UPSTREAMS_FIELD_NUMBER: _ClassVar[int]
    upstreams: _containers.RepeatedCompositeFieldContainer[Upstream]
    def __init__(self, upstreams: _Optional[_Iterable[_Union[Upstream, _Mapping]]] = ...) -> None: ...
