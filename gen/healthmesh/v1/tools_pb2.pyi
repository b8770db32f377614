from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Sex(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SEX_UNSPECIFIED: _ClassVar[Sex]
    SEX_FEMALE: _ClassVar[Sex]
    SEX_MALE: _ClassVar[Sex]

class HeartHistory(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    HEART_HISTORY_UNSPECIFIED: _ClassVar[HeartHistory]
    HEART_HISTORY_SLIGHTLY_SUSPICIOUS: _ClassVar[HeartHistory]
    HEART_HISTORY_MODERATELY_SUSPICIOUS: _ClassVar[HeartHistory]
    HEART_HISTORY_HIGHLY_SUSPICIOUS: _ClassVar[HeartHistory]

class HeartEcg(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    HEART_ECG_UNSPECIFIED: _ClassVar[HeartEcg]
    HEART_ECG_NORMAL: _ClassVar[HeartEcg]
    HEART_ECG_NONSPECIFIC_REPOLARIZATION: _ClassVar[HeartEcg]
    HEART_ECG_SIGNIFICANT_ST_DEVIATION: _ClassVar[HeartEcg]

class HeartTroponin(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    HEART_TROPONIN_UNSPECIFIED: _ClassVar[HeartTroponin]
    HEART_TROPONIN_NORMAL: _ClassVar[HeartTroponin]
    HEART_TROPONIN_ONE_TO_THREE_TIMES: _ClassVar[HeartTroponin]
    HEART_TROPONIN_OVER_THREE_TIMES: _ClassVar[HeartTroponin]

class RiskTier(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RISK_TIER_UNSPECIFIED: _ClassVar[RiskTier]
    RISK_TIER_LOW: _ClassVar[RiskTier]
    RISK_TIER_MODERATE: _ClassVar[RiskTier]
    RISK_TIER_HIGH: _ClassVar[RiskTier]

class InteractionSeverity(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    INTERACTION_SEVERITY_UNSPECIFIED: _ClassVar[InteractionSeverity]
    INTERACTION_SEVERITY_MINOR: _ClassVar[InteractionSeverity]
    INTERACTION_SEVERITY_MODERATE: _ClassVar[InteractionSeverity]
    INTERACTION_SEVERITY_MAJOR: _ClassVar[InteractionSeverity]
    INTERACTION_SEVERITY_CONTRAINDICATED: _ClassVar[InteractionSeverity]
SEX_UNSPECIFIED: Sex
SEX_FEMALE: Sex
SEX_MALE: Sex
HEART_HISTORY_UNSPECIFIED: HeartHistory
HEART_HISTORY_SLIGHTLY_SUSPICIOUS: HeartHistory
HEART_HISTORY_MODERATELY_SUSPICIOUS: HeartHistory
HEART_HISTORY_HIGHLY_SUSPICIOUS: HeartHistory
HEART_ECG_UNSPECIFIED: HeartEcg
HEART_ECG_NORMAL: HeartEcg
HEART_ECG_NONSPECIFIC_REPOLARIZATION: HeartEcg
HEART_ECG_SIGNIFICANT_ST_DEVIATION: HeartEcg
HEART_TROPONIN_UNSPECIFIED: HeartTroponin
HEART_TROPONIN_NORMAL: HeartTroponin
HEART_TROPONIN_ONE_TO_THREE_TIMES: HeartTroponin
HEART_TROPONIN_OVER_THREE_TIMES: HeartTroponin
RISK_TIER_UNSPECIFIED: RiskTier
RISK_TIER_LOW: RiskTier
RISK_TIER_MODERATE: RiskTier
RISK_TIER_HIGH: RiskTier
INTERACTION_SEVERITY_UNSPECIFIED: InteractionSeverity
INTERACTION_SEVERITY_MINOR: InteractionSeverity
INTERACTION_SEVERITY_MODERATE: InteractionSeverity
INTERACTION_SEVERITY_MAJOR: InteractionSeverity
INTERACTION_SEVERITY_CONTRAINDICATED: InteractionSeverity

class HeartInputs(_message.Message):
    __slots__ = ("history", "ecg", "age", "risk_factor_count", "atherosclerotic_disease", "troponin")
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    ECG_FIELD_NUMBER: _ClassVar[int]
    AGE_FIELD_NUMBER: _ClassVar[int]
    RISK_FACTOR_COUNT_FIELD_NUMBER: _ClassVar[int]
    ATHEROSCLEROTIC_DISEASE_FIELD_NUMBER: _ClassVar[int]
    TROPONIN_FIELD_NUMBER: _ClassVar[int]
    history: HeartHistory
    ecg: HeartEcg
    age: int
    risk_factor_count: int
    atherosclerotic_disease: bool
    troponin: HeartTroponin
    def __init__(self, history: _Optional[_Union[HeartHistory, str]] = ..., ecg: _Optional[_Union[HeartEcg, str]] = ..., age: _Optional[int] = ..., risk_factor_count: _Optional[int] = ..., atherosclerotic_disease: _Optional[bool] = ..., troponin: _Optional[_Union[HeartTroponin, str]] = ...) -> None: ...

class Cha2ds2VascInputs(_message.Message):
    __slots__ = ("age", "sex", "congestive_heart_failure", "hypertension", "diabetes", "stroke_tia_thromboembolism", "vascular_disease")
    AGE_FIELD_NUMBER: _ClassVar[int]
    SEX_FIELD_NUMBER: _ClassVar[int]
    CONGESTIVE_HEART_FAILURE_FIELD_NUMBER: _ClassVar[int]
    HYPERTENSION_FIELD_NUMBER: _ClassVar[int]
    DIABETES_FIELD_NUMBER: _ClassVar[int]
    STROKE_TIA_THROMBOEMBOLISM_FIELD_NUMBER: _ClassVar[int]
    VASCULAR_DISEASE_FIELD_NUMBER: _ClassVar[int]
    age: int
    sex: Sex
    congestive_heart_failure: bool
    hypertension: bool
    diabetes: bool
    stroke_tia_thromboembolism: bool
    vascular_disease: bool
    def __init__(self, age: _Optional[int] = ..., sex: _Optional[_Union[Sex, str]] = ..., congestive_heart_failure: _Optional[bool] = ..., hypertension: _Optional[bool] = ..., diabetes: _Optional[bool] = ..., stroke_tia_thromboembolism: _Optional[bool] = ..., vascular_disease: _Optional[bool] = ...) -> None: ...

class WellsPeInputs(_message.Message):
    __slots__ = ("clinical_signs_of_dvt", "pe_most_likely_diagnosis", "heart_rate_over_100", "immobilization_or_recent_surgery", "previous_dvt_or_pe", "hemoptysis", "malignancy")
    CLINICAL_SIGNS_OF_DVT_FIELD_NUMBER: _ClassVar[int]
    PE_MOST_LIKELY_DIAGNOSIS_FIELD_NUMBER: _ClassVar[int]
    HEART_RATE_OVER_100_FIELD_NUMBER: _ClassVar[int]
    IMMOBILIZATION_OR_RECENT_SURGERY_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_DVT_OR_PE_FIELD_NUMBER: _ClassVar[int]
    HEMOPTYSIS_FIELD_NUMBER: _ClassVar[int]
    MALIGNANCY_FIELD_NUMBER: _ClassVar[int]
    clinical_signs_of_dvt: bool
    pe_most_likely_diagnosis: bool
    heart_rate_over_100: bool
    immobilization_or_recent_surgery: bool
    previous_dvt_or_pe: bool
    hemoptysis: bool
    malignancy: bool
    def __init__(self, clinical_signs_of_dvt: _Optional[bool] = ..., pe_most_likely_diagnosis: _Optional[bool] = ..., heart_rate_over_100: _Optional[bool] = ..., immobilization_or_recent_surgery: _Optional[bool] = ..., previous_dvt_or_pe: _Optional[bool] = ..., hemoptysis: _Optional[bool] = ..., malignancy: _Optional[bool] = ...) -> None: ...

class Curb65Inputs(_message.Message):
    __slots__ = ("confusion", "urea_mmol_per_l", "respiratory_rate", "systolic_bp", "diastolic_bp", "age")
    CONFUSION_FIELD_NUMBER: _ClassVar[int]
    UREA_MMOL_PER_L_FIELD_NUMBER: _ClassVar[int]
    RESPIRATORY_RATE_FIELD_NUMBER: _ClassVar[int]
    SYSTOLIC_BP_FIELD_NUMBER: _ClassVar[int]
    DIASTOLIC_BP_FIELD_NUMBER: _ClassVar[int]
    AGE_FIELD_NUMBER: _ClassVar[int]
    confusion: bool
    urea_mmol_per_l: float
    respiratory_rate: int
    systolic_bp: int
    diastolic_bp: int
    age: int
    def __init__(self, confusion: _Optional[bool] = ..., urea_mmol_per_l: _Optional[float] = ..., respiratory_rate: _Optional[int] = ..., systolic_bp: _Optional[int] = ..., diastolic_bp: _Optional[int] = ..., age: _Optional[int] = ...) -> None: ...

class QsofaInputs(_message.Message):
    __slots__ = ("respiratory_rate", "altered_mentation", "systolic_bp")
    RESPIRATORY_RATE_FIELD_NUMBER: _ClassVar[int]
    ALTERED_MENTATION_FIELD_NUMBER: _ClassVar[int]
    SYSTOLIC_BP_FIELD_NUMBER: _ClassVar[int]
    respiratory_rate: int
    altered_mentation: bool
    systolic_bp: int
    def __init__(self, respiratory_rate: _Optional[int] = ..., altered_mentation: _Optional[bool] = ..., systolic_bp: _Optional[int] = ...) -> None: ...

class ComputeRiskScoreRequest(_message.Message):
    __slots__ = ("heart", "cha2ds2_vasc", "wells_pe", "curb65", "qsofa")
    HEART_FIELD_NUMBER: _ClassVar[int]
    CHA2DS2_VASC_FIELD_NUMBER: _ClassVar[int]
    WELLS_PE_FIELD_NUMBER: _ClassVar[int]
    CURB65_FIELD_NUMBER: _ClassVar[int]
    QSOFA_FIELD_NUMBER: _ClassVar[int]
    heart: HeartInputs
    cha2ds2_vasc: Cha2ds2VascInputs
    wells_pe: WellsPeInputs
    curb65: Curb65Inputs
    qsofa: QsofaInputs
    def __init__(self, heart: _Optional[_Union[HeartInputs, _Mapping]] = ..., cha2ds2_vasc: _Optional[_Union[Cha2ds2VascInputs, _Mapping]] = ..., wells_pe: _Optional[_Union[WellsPeInputs, _Mapping]] = ..., curb65: _Optional[_Union[Curb65Inputs, _Mapping]] = ..., qsofa: _Optional[_Union[QsofaInputs, _Mapping]] = ...) -> None: ...

class ScoreComponent(_message.Message):
    __slots__ = ("name", "points")
    NAME_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    name: str
    points: float
    def __init__(self, name: _Optional[str] = ..., points: _Optional[float] = ...) -> None: ...

class ComputeRiskScoreResponse(_message.Message):
    __slots__ = ("score_name", "score", "max_score", "risk_tier", "interpretation", "source", "convention", "components")
    SCORE_NAME_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    MAX_SCORE_FIELD_NUMBER: _ClassVar[int]
    RISK_TIER_FIELD_NUMBER: _ClassVar[int]
    INTERPRETATION_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    CONVENTION_FIELD_NUMBER: _ClassVar[int]
    COMPONENTS_FIELD_NUMBER: _ClassVar[int]
    score_name: str
    score: float
    max_score: float
    risk_tier: RiskTier
    interpretation: str
    source: str
    convention: str
    components: _containers.RepeatedCompositeFieldContainer[ScoreComponent]
    def __init__(self, score_name: _Optional[str] = ..., score: _Optional[float] = ..., max_score: _Optional[float] = ..., risk_tier: _Optional[_Union[RiskTier, str]] = ..., interpretation: _Optional[str] = ..., source: _Optional[str] = ..., convention: _Optional[str] = ..., components: _Optional[_Iterable[_Union[ScoreComponent, _Mapping]]] = ...) -> None: ...

class SearchGuidelinesRequest(_message.Message):
    __slots__ = ("query", "top_k")
    QUERY_FIELD_NUMBER: _ClassVar[int]
    TOP_K_FIELD_NUMBER: _ClassVar[int]
    query: str
    top_k: int
    def __init__(self, query: _Optional[str] = ..., top_k: _Optional[int] = ...) -> None: ...

class GuidelinePassage(_message.Message):
    __slots__ = ("chunk_id", "guideline_id", "source", "section", "snippet", "relevance_score", "specialty", "topic", "highlighted_text")
    CHUNK_ID_FIELD_NUMBER: _ClassVar[int]
    GUIDELINE_ID_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    SECTION_FIELD_NUMBER: _ClassVar[int]
    SNIPPET_FIELD_NUMBER: _ClassVar[int]
    RELEVANCE_SCORE_FIELD_NUMBER: _ClassVar[int]
    SPECIALTY_FIELD_NUMBER: _ClassVar[int]
    TOPIC_FIELD_NUMBER: _ClassVar[int]
    HIGHLIGHTED_TEXT_FIELD_NUMBER: _ClassVar[int]
    chunk_id: str
    guideline_id: str
    source: str
    section: str
    snippet: str
    relevance_score: float
    specialty: str
    topic: str
    highlighted_text: str
    def __init__(self, chunk_id: _Optional[str] = ..., guideline_id: _Optional[str] = ..., source: _Optional[str] = ..., section: _Optional[str] = ..., snippet: _Optional[str] = ..., relevance_score: _Optional[float] = ..., specialty: _Optional[str] = ..., topic: _Optional[str] = ..., highlighted_text: _Optional[str] = ...) -> None: ...

class GuidelineConflict(_message.Message):
    __slots__ = ("topic", "chunk_ids", "note")
    TOPIC_FIELD_NUMBER: _ClassVar[int]
    CHUNK_IDS_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    topic: str
    chunk_ids: _containers.RepeatedScalarFieldContainer[str]
    note: str
    def __init__(self, topic: _Optional[str] = ..., chunk_ids: _Optional[_Iterable[str]] = ..., note: _Optional[str] = ...) -> None: ...

class SearchGuidelinesResponse(_message.Message):
    __slots__ = ("passages", "confidence", "conflicts", "retrievers")
    PASSAGES_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    CONFLICTS_FIELD_NUMBER: _ClassVar[int]
    RETRIEVERS_FIELD_NUMBER: _ClassVar[int]
    passages: _containers.RepeatedCompositeFieldContainer[GuidelinePassage]
    confidence: float
    conflicts: _containers.RepeatedCompositeFieldContainer[GuidelineConflict]
    retrievers: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, passages: _Optional[_Iterable[_Union[GuidelinePassage, _Mapping]]] = ..., confidence: _Optional[float] = ..., conflicts: _Optional[_Iterable[_Union[GuidelineConflict, _Mapping]]] = ..., retrievers: _Optional[_Iterable[str]] = ...) -> None: ...

class GetPassagesRequest(_message.Message):
    __slots__ = ("chunk_ids", "highlight_terms")
    CHUNK_IDS_FIELD_NUMBER: _ClassVar[int]
    HIGHLIGHT_TERMS_FIELD_NUMBER: _ClassVar[int]
    chunk_ids: _containers.RepeatedScalarFieldContainer[str]
    highlight_terms: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, chunk_ids: _Optional[_Iterable[str]] = ..., highlight_terms: _Optional[_Iterable[str]] = ...) -> None: ...

class GetPassagesResponse(_message.Message):
    __slots__ = ("passages",)
    PASSAGES_FIELD_NUMBER: _ClassVar[int]
    passages: _containers.RepeatedCompositeFieldContainer[GuidelinePassage]
    def __init__(self, passages: _Optional[_Iterable[_Union[GuidelinePassage, _Mapping]]] = ...) -> None: ...

class SafetyItem(_message.Message):
    __slots__ = ("text", "source", "section")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    SECTION_FIELD_NUMBER: _ClassVar[int]
    text: str
    source: str
    section: str
    def __init__(self, text: _Optional[str] = ..., source: _Optional[str] = ..., section: _Optional[str] = ...) -> None: ...

class CheckDrugSafetyRequest(_message.Message):
    __slots__ = ("drug_name",)
    DRUG_NAME_FIELD_NUMBER: _ClassVar[int]
    drug_name: str
    def __init__(self, drug_name: _Optional[str] = ...) -> None: ...

class CheckDrugSafetyResponse(_message.Message):
    __slots__ = ("generic_name", "brand_names", "drug_class", "boxed_warnings", "contraindications", "major_cautions", "label_facts")
    GENERIC_NAME_FIELD_NUMBER: _ClassVar[int]
    BRAND_NAMES_FIELD_NUMBER: _ClassVar[int]
    DRUG_CLASS_FIELD_NUMBER: _ClassVar[int]
    BOXED_WARNINGS_FIELD_NUMBER: _ClassVar[int]
    CONTRAINDICATIONS_FIELD_NUMBER: _ClassVar[int]
    MAJOR_CAUTIONS_FIELD_NUMBER: _ClassVar[int]
    LABEL_FACTS_FIELD_NUMBER: _ClassVar[int]
    generic_name: str
    brand_names: _containers.RepeatedScalarFieldContainer[str]
    drug_class: str
    boxed_warnings: _containers.RepeatedCompositeFieldContainer[SafetyItem]
    contraindications: _containers.RepeatedCompositeFieldContainer[SafetyItem]
    major_cautions: _containers.RepeatedCompositeFieldContainer[SafetyItem]
    label_facts: bool
    def __init__(self, generic_name: _Optional[str] = ..., brand_names: _Optional[_Iterable[str]] = ..., drug_class: _Optional[str] = ..., boxed_warnings: _Optional[_Iterable[_Union[SafetyItem, _Mapping]]] = ..., contraindications: _Optional[_Iterable[_Union[SafetyItem, _Mapping]]] = ..., major_cautions: _Optional[_Iterable[_Union[SafetyItem, _Mapping]]] = ..., label_facts: _Optional[bool] = ...) -> None: ...

class Interaction(_message.Message):
    __slots__ = ("drug_a", "drug_b", "severity", "mechanism", "management", "source")
    DRUG_A_FIELD_NUMBER: _ClassVar[int]
    DRUG_B_FIELD_NUMBER: _ClassVar[int]
    SEVERITY_FIELD_NUMBER: _ClassVar[int]
    MECHANISM_FIELD_NUMBER: _ClassVar[int]
    MANAGEMENT_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    drug_a: str
    drug_b: str
    severity: InteractionSeverity
    mechanism: str
    management: str
    source: str
    def __init__(self, drug_a: _Optional[str] = ..., drug_b: _Optional[str] = ..., severity: _Optional[_Union[InteractionSeverity, str]] = ..., mechanism: _Optional[str] = ..., management: _Optional[str] = ..., source: _Optional[str] = ...) -> None: ...

class CheckInteractionsRequest(_message.Message):
    __slots__ = ("drug_names",)
    DRUG_NAMES_FIELD_NUMBER: _ClassVar[int]
    drug_names: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, drug_names: _Optional[_Iterable[str]] = ...) -> None: ...

class CheckInteractionsResponse(_message.Message):
    __slots__ = ("generic_names", "interactions")
    GENERIC_NAMES_FIELD_NUMBER: _ClassVar[int]
    INTERACTIONS_FIELD_NUMBER: _ClassVar[int]
    generic_names: _containers.RepeatedScalarFieldContainer[str]
    interactions: _containers.RepeatedCompositeFieldContainer[Interaction]
    def __init__(self, generic_names: _Optional[_Iterable[str]] = ..., interactions: _Optional[_Iterable[_Union[Interaction, _Mapping]]] = ...) -> None: ...
