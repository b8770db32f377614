"""Risk calculators on worked cases: every tier edge on both sides, the pinned age conventions,
components that add up, and invalid inputs rejected with the field named."""

import math
import re

import pytest

from healthmesh.v1 import tools_pb2
from runtime.errors import InvalidArgument
from tools.calculators import compute

LOW, MODERATE, HIGH = tools_pb2.RISK_TIER_LOW, tools_pb2.RISK_TIER_MODERATE, tools_pb2.RISK_TIER_HIGH
FEMALE, MALE = tools_pb2.SEX_FEMALE, tools_pb2.SEX_MALE
H_SLIGHT, H_MODERATE, H_HIGH = (tools_pb2.HEART_HISTORY_SLIGHTLY_SUSPICIOUS,
                                tools_pb2.HEART_HISTORY_MODERATELY_SUSPICIOUS,
                                tools_pb2.HEART_HISTORY_HIGHLY_SUSPICIOUS)
ECG_NORMAL, ECG_NONSPECIFIC, ECG_ST = (tools_pb2.HEART_ECG_NORMAL,
                                       tools_pb2.HEART_ECG_NONSPECIFIC_REPOLARIZATION,
                                       tools_pb2.HEART_ECG_SIGNIFICANT_ST_DEVIATION)
TROP_NORMAL, TROP_1_3, TROP_OVER_3 = (tools_pb2.HEART_TROPONIN_NORMAL,
                                      tools_pb2.HEART_TROPONIN_ONE_TO_THREE_TIMES,
                                      tools_pb2.HEART_TROPONIN_OVER_THREE_TIMES)


# Builders start from a zero-point patient; each case names only what differs.
def heart(**kw: object) -> tools_pb2.ComputeRiskScoreRequest:
    base = {"history": H_SLIGHT, "ecg": ECG_NORMAL, "age": 40, "risk_factor_count": 0,
            "troponin": TROP_NORMAL}
    return tools_pb2.ComputeRiskScoreRequest(heart=tools_pb2.HeartInputs(**{**base, **kw}))


def cha2ds2(**kw: object) -> tools_pb2.ComputeRiskScoreRequest:
    base = {"age": 50, "sex": MALE}
    return tools_pb2.ComputeRiskScoreRequest(cha2ds2_vasc=tools_pb2.Cha2ds2VascInputs(**{**base, **kw}))


def wells(*flags: str) -> tools_pb2.ComputeRiskScoreRequest:
    return tools_pb2.ComputeRiskScoreRequest(wells_pe=tools_pb2.WellsPeInputs(**dict.fromkeys(flags, True)))


def curb(**kw: object) -> tools_pb2.ComputeRiskScoreRequest:
    base = {"urea_mmol_per_l": 5.0, "respiratory_rate": 16, "systolic_bp": 120, "diastolic_bp": 80, "age": 40}
    return tools_pb2.ComputeRiskScoreRequest(curb65=tools_pb2.Curb65Inputs(**{**base, **kw}))


def qsofa(**kw: object) -> tools_pb2.ComputeRiskScoreRequest:
    base = {"respiratory_rate": 16, "systolic_bp": 120}
    return tools_pb2.ComputeRiskScoreRequest(qsofa=tools_pb2.QsofaInputs(**{**base, **kw}))


def component(response: tools_pb2.ComputeRiskScoreResponse, prefix: str) -> float:
    (points,) = [c.points for c in response.components if c.name.startswith(prefix)]
    return points


# (request, score, tier, points per component in the score's order)
WORKED = {
    "heart: 70 y, moderately suspicious, nonspecific ECG, 3 risk factors, troponin 2x": (
        heart(history=H_MODERATE, ecg=ECG_NONSPECIFIC, age=70, risk_factor_count=3, troponin=TROP_1_3),
        7, HIGH, [1, 1, 2, 2, 1]),
    "heart: 50 y, slightly suspicious, prior PCI (atherosclerosis), normal ECG and troponin": (
        heart(age=50, atherosclerotic_disease=True), 3, LOW, [0, 0, 1, 2, 0]),
    "heart: every component at its maximum": (
        heart(history=H_HIGH, ecg=ECG_ST, age=80, risk_factor_count=6, troponin=TROP_OVER_3),
        10, HIGH, [2, 2, 2, 2, 2]),
    "cha2ds2: 76 y woman with hypertension and diabetes": (
        cha2ds2(age=76, sex=FEMALE, hypertension=True, diabetes=True), 5, HIGH, [0, 1, 2, 1, 0, 0, 0, 1]),
    "cha2ds2: 70 y man with heart failure and prior stroke": (
        cha2ds2(age=70, congestive_heart_failure=True, stroke_tia_thromboembolism=True),
        4, HIGH, [1, 0, 0, 0, 2, 0, 1, 0]),
    "cha2ds2: every item, 80 y woman (maximum 9)": (
        cha2ds2(age=80, sex=FEMALE, congestive_heart_failure=True, hypertension=True, diabetes=True,
                stroke_tia_thromboembolism=True, vascular_disease=True), 9, HIGH, [1, 1, 2, 1, 2, 1, 0, 1]),
    "wells: DVT signs and tachycardia": (
        wells("clinical_signs_of_dvt", "heart_rate_over_100"), 4.5, MODERATE, [3, 0, 1.5, 0, 0, 0, 0]),
    "wells: every item (maximum 12.5)": (
        wells("clinical_signs_of_dvt", "pe_most_likely_diagnosis", "heart_rate_over_100",
              "immobilization_or_recent_surgery", "previous_dvt_or_pe", "hemoptysis", "malignancy"),
        12.5, HIGH, [3, 3, 1.5, 1.5, 1.5, 1, 1]),
    "curb65: 78 y, confused, urea 9, RR 32, BP 85/50": (
        curb(confusion=True, urea_mmol_per_l=9.0, respiratory_rate=32, systolic_bp=85, diastolic_bp=50,
             age=78),
        5, HIGH, [1, 1, 1, 1, 1]),
    "curb65: 40 y, well, normal observations": (curb(), 0, LOW, [0, 0, 0, 0, 0]),
    "qsofa: RR 24, SBP 95, alert": (qsofa(respiratory_rate=24, systolic_bp=95), 2, HIGH, [1, 0, 1]),
    "qsofa: every criterion": (
        qsofa(respiratory_rate=30, systolic_bp=80, altered_mentation=True), 3, HIGH, [1, 1, 1]),
}


@pytest.mark.parametrize(("request_", "score", "tier", "points"), WORKED.values(), ids=WORKED.keys())
def test_worked_examples(request_, score, tier, points) -> None:
    response = compute(request_)
    assert (response.score, response.risk_tier) == (score, tier)
    assert [c.points for c in response.components] == points


@pytest.mark.parametrize("request_", [case[0] for case in WORKED.values()], ids=WORKED.keys())
def test_components_sum_to_score_and_answer_carries_source(request_) -> None:
    response = compute(request_)
    assert math.fsum(c.points for c in response.components) == response.score
    assert 0 <= response.score <= response.max_score
    assert response.source and response.convention and response.interpretation
    assert all(c.name for c in response.components)


@pytest.mark.parametrize(("request_", "name", "max_score"), [
    (heart(), "HEART", 10), (cha2ds2(), "CHA2DS2-VASc", 9), (wells(), "Wells PE", 12.5),
    (curb(), "CURB-65", 5), (qsofa(), "qSOFA", 3),
])
def test_score_name_and_maximum(request_, name, max_score) -> None:
    response = compute(request_)
    assert (response.score_name, response.max_score) == (name, max_score)


TIER_EDGES = {
    "heart 3": (heart(history=H_HIGH, age=45), 3, LOW),
    "heart 4": (heart(history=H_HIGH, age=45, troponin=TROP_1_3), 4, MODERATE),
    "heart 6": (heart(history=H_HIGH, ecg=ECG_ST, age=45, troponin=TROP_1_3), 6, MODERATE),
    "heart 7": (heart(history=H_HIGH, ecg=ECG_ST, age=65, troponin=TROP_1_3), 7, HIGH),
    "cha2ds2 man 0": (cha2ds2(), 0, LOW),
    "cha2ds2 man 1": (cha2ds2(hypertension=True), 1, MODERATE),
    "cha2ds2 man 2": (cha2ds2(hypertension=True, diabetes=True), 2, HIGH),
    "cha2ds2 man 2 by stroke alone": (cha2ds2(stroke_tia_thromboembolism=True), 2, HIGH),
    "cha2ds2 woman 1 (sex alone)": (cha2ds2(sex=FEMALE), 1, LOW),
    "cha2ds2 woman 2": (cha2ds2(sex=FEMALE, hypertension=True), 2, MODERATE),
    "cha2ds2 woman 2 by age 65": (cha2ds2(sex=FEMALE, age=65), 2, MODERATE),
    "cha2ds2 woman 3": (cha2ds2(sex=FEMALE, hypertension=True, diabetes=True), 3, HIGH),
    "wells 1.5": (wells("heart_rate_over_100"), 1.5, LOW),
    "wells 2": (wells("hemoptysis", "malignancy"), 2, MODERATE),
    "wells 6": (wells("clinical_signs_of_dvt", "pe_most_likely_diagnosis"), 6, MODERATE),
    "wells 6.5": (wells("clinical_signs_of_dvt", "heart_rate_over_100", "hemoptysis", "malignancy"),
                  6.5, HIGH),
    "curb65 1": (curb(age=65), 1, LOW),
    "curb65 2": (curb(age=65, confusion=True), 2, MODERATE),
    "curb65 3": (curb(age=65, confusion=True, respiratory_rate=30), 3, HIGH),
    "qsofa 1": (qsofa(altered_mentation=True), 1, LOW),
    "qsofa 2": (qsofa(altered_mentation=True, systolic_bp=100), 2, HIGH),
}


@pytest.mark.parametrize(("request_", "score", "tier"), TIER_EDGES.values(), ids=TIER_EDGES.keys())
def test_tier_edges(request_, score, tier) -> None:
    response = compute(request_)
    assert (response.score, response.risk_tier) == (score, tier)


@pytest.mark.parametrize(("age", "points"), [(18, 0), (44, 0), (45, 1), (64, 1), (65, 2), (120, 2)])
def test_heart_age_bands(age, points) -> None:
    assert component(compute(heart(age=age)), "Age") == points


@pytest.mark.parametrize(("count", "atherosclerosis", "points"), [
    (0, False, 0), (1, False, 1), (2, False, 1), (3, False, 2), (6, False, 2), (0, True, 2), (1, True, 2),
])
def test_heart_risk_factors(count, atherosclerosis, points) -> None:
    response = compute(heart(risk_factor_count=count, atherosclerotic_disease=atherosclerosis))
    assert component(response, "Risk factors") == points


@pytest.mark.parametrize(("age", "a2", "a"), [(18, 0, 0), (64, 0, 0), (65, 0, 1), (74, 0, 1), (75, 2, 0),
                                              (120, 2, 0)])
def test_cha2ds2_vasc_age_bands(age, a2, a) -> None:
    response = compute(cha2ds2(age=age))
    assert (component(response, "Age >=75"), component(response, "Age 65-74")) == (a2, a)
    assert response.score == a2 + a


@pytest.mark.parametrize(("flags", "reading"), [
    (("clinical_signs_of_dvt", "hemoptysis"), "PE unlikely"),  # 4
    (("clinical_signs_of_dvt", "heart_rate_over_100"), "PE likely"),  # 4.5
])
def test_wells_two_tier_reading(flags, reading) -> None:
    assert f"Two-tier reading: {reading} " in compute(wells(*flags)).interpretation


@pytest.mark.parametrize(("inputs", "criterion", "points"), [
    ({"urea_mmol_per_l": 7.0}, "Urea", 0), ({"urea_mmol_per_l": 7.1}, "Urea", 1),
    ({"respiratory_rate": 29}, "Respiratory", 0), ({"respiratory_rate": 30}, "Respiratory", 1),
    ({"systolic_bp": 90}, "Blood pressure", 0), ({"systolic_bp": 89}, "Blood pressure", 1),
    ({"diastolic_bp": 61}, "Blood pressure", 0), ({"diastolic_bp": 60}, "Blood pressure", 1),
    ({"systolic_bp": 85, "diastolic_bp": 55}, "Blood pressure", 1),
    ({"age": 64}, "Age", 0), ({"age": 65}, "Age", 1),
])
def test_curb65_thresholds(inputs, criterion, points) -> None:
    assert component(compute(curb(**inputs)), criterion) == points


@pytest.mark.parametrize(("inputs", "criterion", "points"), [
    ({"respiratory_rate": 21}, "Respiratory", 0), ({"respiratory_rate": 22}, "Respiratory", 1),
    ({"systolic_bp": 101}, "Systolic", 0), ({"systolic_bp": 100}, "Systolic", 1),
])
def test_qsofa_thresholds(inputs, criterion, points) -> None:
    assert component(compute(qsofa(**inputs)), criterion) == points


INVALID = {
    "no score": (tools_pb2.ComputeRiskScoreRequest(), "inputs"),
    "heart history unset": (heart(history=0), "heart.history"),
    "heart history unknown": (heart(history=99), "heart.history"),
    "heart ecg unset": (heart(ecg=0), "heart.ecg"),
    "heart troponin unset": (heart(troponin=0), "heart.troponin"),
    "heart age unset": (heart(age=0), "heart.age"),
    "heart age 17": (heart(age=17), "heart.age"),
    "heart age 121": (heart(age=121), "heart.age"),
    "heart risk factors -1": (heart(risk_factor_count=-1), "heart.risk_factor_count"),
    "heart risk factors 7": (heart(risk_factor_count=7), "heart.risk_factor_count"),
    "cha2ds2 sex unset": (cha2ds2(sex=0), "cha2ds2_vasc.sex"),
    "cha2ds2 sex unknown": (cha2ds2(sex=5), "cha2ds2_vasc.sex"),
    "cha2ds2 age 17": (cha2ds2(age=17), "cha2ds2_vasc.age"),
    "cha2ds2 age 121": (cha2ds2(age=121), "cha2ds2_vasc.age"),
    "curb65 urea nan": (curb(urea_mmol_per_l=math.nan), "curb65.urea_mmol_per_l"),
    "curb65 urea inf": (curb(urea_mmol_per_l=math.inf), "curb65.urea_mmol_per_l"),
    "curb65 urea -inf": (curb(urea_mmol_per_l=-math.inf), "curb65.urea_mmol_per_l"),
    "curb65 urea negative": (curb(urea_mmol_per_l=-0.1), "curb65.urea_mmol_per_l"),
    "curb65 urea 100.1": (curb(urea_mmol_per_l=100.1), "curb65.urea_mmol_per_l"),
    "curb65 rr unset": (curb(respiratory_rate=0), "curb65.respiratory_rate"),
    "curb65 rr 81": (curb(respiratory_rate=81), "curb65.respiratory_rate"),
    "curb65 sbp 29": (curb(systolic_bp=29), "curb65.systolic_bp"),
    "curb65 sbp 301": (curb(systolic_bp=301), "curb65.systolic_bp"),
    "curb65 dbp 9": (curb(diastolic_bp=9), "curb65.diastolic_bp"),
    "curb65 dbp 201": (curb(diastolic_bp=201), "curb65.diastolic_bp"),
    "curb65 age 17": (curb(age=17), "curb65.age"),
    "curb65 age 121": (curb(age=121), "curb65.age"),
    "qsofa rr unset": (qsofa(respiratory_rate=0), "qsofa.respiratory_rate"),
    "qsofa rr 81": (qsofa(respiratory_rate=81), "qsofa.respiratory_rate"),
    "qsofa sbp unset": (qsofa(systolic_bp=0), "qsofa.systolic_bp"),
    "qsofa sbp 301": (qsofa(systolic_bp=301), "qsofa.systolic_bp"),
}


@pytest.mark.parametrize(("request_", "field"), INVALID.values(), ids=INVALID.keys())
def test_invalid_input_names_the_field(request_, field) -> None:
    with pytest.raises(InvalidArgument) as raised:
        compute(request_)
    assert raised.value.field == field


def test_missing_score_lists_the_choices() -> None:
    with pytest.raises(InvalidArgument, match="one of heart, cha2ds2_vasc, wells_pe, curb65, qsofa"):
        compute(tools_pb2.ComputeRiskScoreRequest())


@pytest.mark.parametrize("urea", [math.nan, math.inf, -math.inf])
def test_non_finite_urea_is_called_out(urea) -> None:
    with pytest.raises(InvalidArgument, match="finite"):
        compute(curb(urea_mmol_per_l=urea))


def test_unknown_enum_value_lists_the_valid_ones() -> None:
    with pytest.raises(InvalidArgument, match="HEART_HISTORY_HIGHLY_SUSPICIOUS"):
        compute(heart(history=99))


@pytest.mark.parametrize("request_", [
    heart(age=18), heart(age=120), cha2ds2(age=18), cha2ds2(age=120, sex=FEMALE),
    curb(urea_mmol_per_l=0.0), curb(urea_mmol_per_l=100.0, respiratory_rate=80, systolic_bp=300,
                                    diastolic_bp=200, age=120),
    curb(respiratory_rate=1, systolic_bp=30, diastolic_bp=10, age=18),
    qsofa(respiratory_rate=1, systolic_bp=30), qsofa(respiratory_rate=80, systolic_bp=300),
])
def test_range_ends_are_accepted(request_) -> None:
    assert compute(request_).risk_tier != tools_pb2.RISK_TIER_UNSPECIFIED


_DOSE = re.compile(r"\d\s*(?:mg|mcg|µg|g|ml|units?|IU)\b", re.IGNORECASE)
_EVERY_TIER = [case[0] for case in (*WORKED.values(), *TIER_EDGES.values())]


@pytest.mark.parametrize("request_", _EVERY_TIER)
def test_interpretations_carry_no_doses(request_) -> None:
    assert not _DOSE.search(compute(request_).interpretation)
