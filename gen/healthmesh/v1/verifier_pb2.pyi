from healthmesh.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class RedFlagCategory(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RED_FLAG_CATEGORY_UNSPECIFIED: _ClassVar[RedFlagCategory]
    RED_FLAG_CATEGORY_CARDIORESPIRATORY: _ClassVar[RedFlagCategory]
    RED_FLAG_CATEGORY_NEUROLOGICAL: _ClassVar[RedFlagCategory]
    RED_FLAG_CATEGORY_MENTAL_HEALTH: _ClassVar[RedFlagCategory]
    RED_FLAG_CATEGORY_BLEEDING: _ClassVar[RedFlagCategory]
    RED_FLAG_CATEGORY_ALLERGIC: _ClassVar[RedFlagCategory]
    RED_FLAG_CATEGORY_POISONING: _ClassVar[RedFlagCategory]
    RED_FLAG_CATEGORY_TRAUMA: _ClassVar[RedFlagCategory]
    RED_FLAG_CATEGORY_INFECTION: _ClassVar[RedFlagCategory]
    RED_FLAG_CATEGORY_ABDOMINAL: _ClassVar[RedFlagCategory]
    RED_FLAG_CATEGORY_PREGNANCY: _ClassVar[RedFlagCategory]
    RED_FLAG_CATEGORY_DIABETIC: _ClassVar[RedFlagCategory]
    RED_FLAG_CATEGORY_ENVIRONMENTAL: _ClassVar[RedFlagCategory]

class AnswerOrigin(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ANSWER_ORIGIN_UNSPECIFIED: _ClassVar[AnswerOrigin]
    ANSWER_ORIGIN_DETERMINISTIC: _ClassVar[AnswerOrigin]
    ANSWER_ORIGIN_REPHRASING: _ClassVar[AnswerOrigin]
    ANSWER_ORIGIN_SUMMARY: _ClassVar[AnswerOrigin]

class Rule(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RULE_UNSPECIFIED: _ClassVar[Rule]
    RULE_R1_UNSUPPORTED_TREATMENT: _ClassVar[Rule]
    RULE_R2_PRIVACY: _ClassVar[Rule]
    RULE_R3_OUT_OF_SCOPE: _ClassVar[Rule]
    RULE_R4_UNFAITHFUL: _ClassVar[Rule]
RED_FLAG_CATEGORY_UNSPECIFIED: RedFlagCategory
RED_FLAG_CATEGORY_CARDIORESPIRATORY: RedFlagCategory
RED_FLAG_CATEGORY_NEUROLOGICAL: RedFlagCategory
RED_FLAG_CATEGORY_MENTAL_HEALTH: RedFlagCategory
RED_FLAG_CATEGORY_BLEEDING: RedFlagCategory
RED_FLAG_CATEGORY_ALLERGIC: RedFlagCategory
RED_FLAG_CATEGORY_POISONING: RedFlagCategory
RED_FLAG_CATEGORY_TRAUMA: RedFlagCategory
RED_FLAG_CATEGORY_INFECTION: RedFlagCategory
RED_FLAG_CATEGORY_ABDOMINAL: RedFlagCategory
RED_FLAG_CATEGORY_PREGNANCY: RedFlagCategory
RED_FLAG_CATEGORY_DIABETIC: RedFlagCategory
RED_FLAG_CATEGORY_ENVIRONMENTAL: RedFlagCategory
ANSWER_ORIGIN_UNSPECIFIED: AnswerOrigin
ANSWER_ORIGIN_DETERMINISTIC: AnswerOrigin
ANSWER_ORIGIN_REPHRASING: AnswerOrigin
ANSWER_ORIGIN_SUMMARY: AnswerOrigin
RULE_UNSPECIFIED: Rule
RULE_R1_UNSUPPORTED_TREATMENT: Rule
RULE_R2_PRIVACY: Rule
RULE_R3_OUT_OF_SCOPE: Rule
RULE_R4_UNFAITHFUL: Rule

class TriageQuestion(_message.Message):
    __slots__ = ("rule_id", "category", "text", "emergency_if_yes", "emergency_message")
    RULE_ID_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    EMERGENCY_IF_YES_FIELD_NUMBER: _ClassVar[int]
    EMERGENCY_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    rule_id: str
    category: RedFlagCategory
    text: str
    emergency_if_yes: bool
    emergency_message: str
    def __init__(self, rule_id: _Optional[str] = ..., category: _Optional[_Union[RedFlagCategory, str]] = ..., text: _Optional[str] = ..., emergency_if_yes: _Optional[bool] = ..., emergency_message: _Optional[str] = ...) -> None: ...

class ScreenInputRequest(_message.Message):
    __slots__ = ("message", "language")
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    message: str
    language: str
    def __init__(self, message: _Optional[str] = ..., language: _Optional[str] = ...) -> None: ...

class ScreenInputResponse(_message.Message):
    __slots__ = ("red_flag", "category", "rule_id", "emergency_message", "language", "advisory", "question")
    RED_FLAG_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    RULE_ID_FIELD_NUMBER: _ClassVar[int]
    EMERGENCY_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    ADVISORY_FIELD_NUMBER: _ClassVar[int]
    QUESTION_FIELD_NUMBER: _ClassVar[int]
    red_flag: bool
    category: RedFlagCategory
    rule_id: str
    emergency_message: str
    language: str
    advisory: str
    question: TriageQuestion
    def __init__(self, red_flag: _Optional[bool] = ..., category: _Optional[_Union[RedFlagCategory, str]] = ..., rule_id: _Optional[str] = ..., emergency_message: _Optional[str] = ..., language: _Optional[str] = ..., advisory: _Optional[str] = ..., question: _Optional[_Union[TriageQuestion, _Mapping]] = ...) -> None: ...

class Evidence(_message.Message):
    __slots__ = ("slots", "appointments", "doctors", "clinics", "facts")
    SLOTS_FIELD_NUMBER: _ClassVar[int]
    APPOINTMENTS_FIELD_NUMBER: _ClassVar[int]
    DOCTORS_FIELD_NUMBER: _ClassVar[int]
    CLINICS_FIELD_NUMBER: _ClassVar[int]
    FACTS_FIELD_NUMBER: _ClassVar[int]
    slots: _containers.RepeatedCompositeFieldContainer[_common_pb2.Slot]
    appointments: _containers.RepeatedCompositeFieldContainer[_common_pb2.Appointment]
    doctors: _containers.RepeatedScalarFieldContainer[str]
    clinics: _containers.RepeatedScalarFieldContainer[str]
    facts: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, slots: _Optional[_Iterable[_Union[_common_pb2.Slot, _Mapping]]] = ..., appointments: _Optional[_Iterable[_Union[_common_pb2.Appointment, _Mapping]]] = ..., doctors: _Optional[_Iterable[str]] = ..., clinics: _Optional[_Iterable[str]] = ..., facts: _Optional[_Iterable[str]] = ...) -> None: ...

class VerifyAnswerRequest(_message.Message):
    __slots__ = ("user_query", "answer", "evidence", "current_patient", "language", "origin", "reference_answer")
    USER_QUERY_FIELD_NUMBER: _ClassVar[int]
    ANSWER_FIELD_NUMBER: _ClassVar[int]
    EVIDENCE_FIELD_NUMBER: _ClassVar[int]
    CURRENT_PATIENT_FIELD_NUMBER: _ClassVar[int]
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    ORIGIN_FIELD_NUMBER: _ClassVar[int]
    REFERENCE_ANSWER_FIELD_NUMBER: _ClassVar[int]
    user_query: str
    answer: str
    evidence: Evidence
    current_patient: _common_pb2.PatientIdentity
    language: str
    origin: AnswerOrigin
    reference_answer: str
    def __init__(self, user_query: _Optional[str] = ..., answer: _Optional[str] = ..., evidence: _Optional[_Union[Evidence, _Mapping]] = ..., current_patient: _Optional[_Union[_common_pb2.PatientIdentity, _Mapping]] = ..., language: _Optional[str] = ..., origin: _Optional[_Union[AnswerOrigin, str]] = ..., reference_answer: _Optional[str] = ...) -> None: ...

class Violation(_message.Message):
    __slots__ = ("rule", "note")
    RULE_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    rule: Rule
    note: str
    def __init__(self, rule: _Optional[_Union[Rule, str]] = ..., note: _Optional[str] = ...) -> None: ...

class VerifyAnswerResponse(_message.Message):
    __slots__ = ("safe", "violations")
    SAFE_FIELD_NUMBER: _ClassVar[int]
    VIOLATIONS_FIELD_NUMBER: _ClassVar[int]
    safe: bool
    violations: _containers.RepeatedCompositeFieldContainer[Violation]
    def __init__(self, safe: _Optional[bool] = ..., violations: _Optional[_Iterable[_Union[Violation, _Mapping]]] = ...) -> None: ...
