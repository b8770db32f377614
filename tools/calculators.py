"""Clinical risk scores (HEART, CHA2DS2-VASc, Wells PE, CURB-65, qSOFA) as pure functions.

Each answer carries its published source and, where published tables differ or leave an edge
open, the convention pinned here:

- HEART (Six et al., Neth Heart J 2008; Backus et al., Int J Cardiol 2013): age <45 -> 0,
  45-64 -> 1, >=65 -> 2. The original bands (<=45, 45-65, >=65) share their edges; 45 scores 1
  and 65 scores 2, as MDCalc does. Risk factors 0 -> 0, 1-2 -> 1, >=3 or known
  atherosclerotic disease -> 2. Tiers 0-3 low, 4-6 moderate, 7-10 high.
- CHA2DS2-VASc (Lip et al., Chest 2010; ESC 2020 AF guideline): tiers follow ESC 2020, which
  treats female sex as a risk modifier, not a risk factor on its own: the tier is read from the
  points other than sex (0 low, 1 moderate, >=2 high), i.e. a total of 0/1/>=2 in men and
  1/2/>=3 in women.
- Wells PE (Wells et al., Thromb Haemost 2000): the three-tier reading sets the tier (<2 low,
  2-6 moderate, >6 high); the two-tier reading (<=4 PE unlikely, >4 PE likely) is stated in the
  interpretation.
- CURB-65 (Lim et al., Thorax 2003; BTS 2009): urea >7 mmol/L, RR >=30, SBP <90 or DBP <=60
  (one point for either), age >=65, new confusion. 0-1 low, 2 moderate, 3-5 high.
- qSOFA (Seymour et al., JAMA 2016; Sepsis-3): RR >=22, altered mentation, SBP <=100. 0-1 low,
  2-3 high; there is no moderate tier.

Interpretations are information for clinicians (published risk and what the source proposes),
never instructions to a patient, and carry no drug doses.
"""

from collections.abc import Callable

from healthmesh.v1 import tools_pb2
from runtime.errors import InvalidArgument
from tools.scoring import HIGH, LOW, MODERATE, Score, Tier, adult_age, band, enum_points, float_in, int_in

RESPIRATORY_RATE_RANGE = (1, 80)
SYSTOLIC_BP_RANGE = (30, 300)
DIASTOLIC_BP_RANGE = (10, 200)
UREA_RANGE = (0.0, 100.0)


# ---- HEART -----------------------------------------------------------------------------------

HEART = Score(
    name="HEART",
    max_score=10,
    source="Six AJ, Backus BE, Kelder JC. Neth Heart J 2008;16(6):191-196; "
           "Backus BE et al. Int J Cardiol 2013;168(3):2153-2158",
    convention="Age <45: 0, 45-64: 1, >=65: 2 (the original bands <=45, 45-65, >=65 share their edges; "
               "45 scores 1 and 65 scores 2, as MDCalc does). Risk factors 0: 0, 1-2: 1, "
               ">=3 or known atherosclerotic disease: 2.",
    tiers=(
        Tier(0, LOW, "Low risk (0-3): 6-week MACE about 0.9-1.7% (Six 2008; Backus 2013). "
                     "The authors proposed early discharge as an option for this group."),
        Tier(4, MODERATE, "Moderate risk (4-6): 6-week MACE about 12-16.6%. "
                          "The authors proposed clinical observation and non-invasive investigation."),
        Tier(7, HIGH, "High risk (7-10): 6-week MACE about 50-65%. "
                      "The authors proposed early invasive strategies."),
    ),
)
_HEART_HISTORY = {
    tools_pb2.HEART_HISTORY_SLIGHTLY_SUSPICIOUS: 0,
    tools_pb2.HEART_HISTORY_MODERATELY_SUSPICIOUS: 1,
    tools_pb2.HEART_HISTORY_HIGHLY_SUSPICIOUS: 2,
}
_HEART_ECG = {
    tools_pb2.HEART_ECG_NORMAL: 0,
    tools_pb2.HEART_ECG_NONSPECIFIC_REPOLARIZATION: 1,
    tools_pb2.HEART_ECG_SIGNIFICANT_ST_DEVIATION: 2,
}
_HEART_TROPONIN = {
    tools_pb2.HEART_TROPONIN_NORMAL: 0,
    tools_pb2.HEART_TROPONIN_ONE_TO_THREE_TIMES: 1,
    tools_pb2.HEART_TROPONIN_OVER_THREE_TIMES: 2,
}
_HEART_AGE_BANDS = ((65, 2), (45, 1))
_HEART_RISK_FACTOR_BANDS = ((3, 2), (1, 1))


def heart(inputs: tools_pb2.HeartInputs) -> tools_pb2.ComputeRiskScoreResponse:
    history = enum_points(inputs.history, "heart.history", _HEART_HISTORY, tools_pb2.HeartHistory)
    ecg = enum_points(inputs.ecg, "heart.ecg", _HEART_ECG, tools_pb2.HeartEcg)
    age = adult_age(inputs.age, "heart.age")
    count = int_in(inputs.risk_factor_count, "heart.risk_factor_count", 0, 6)
    troponin = enum_points(inputs.troponin, "heart.troponin", _HEART_TROPONIN, tools_pb2.HeartTroponin)
    risk = 2 if inputs.atherosclerotic_disease else band(count, _HEART_RISK_FACTOR_BANDS)
    return HEART.respond([
        ("History", history), ("ECG", ecg), ("Age", band(age, _HEART_AGE_BANDS)),
        ("Risk factors", risk), ("Troponin", troponin),
    ])


# ---- CHA2DS2-VASc ----------------------------------------------------------------------------

CHA2DS2_VASC = Score(
    name="CHA2DS2-VASc",
    max_score=9,
    source="Lip GYH et al. Chest 2010;137(2):263-272; "
           "Hindricks G et al. 2020 ESC Guidelines for atrial fibrillation. Eur Heart J 2021;42(5):373-498",
    convention="Age 65-74: 1, >=75: 2; female sex: 1. Tiers follow ESC 2020, where female sex is a risk "
               "modifier, not a risk factor on its own: the tier is read from the points other than sex "
               "(0 low, 1 moderate, >=2 high), i.e. a total of 0/1/>=2 in men and 1/2/>=3 in women.",
    tiers=(
        Tier(0, LOW, "Low stroke risk (0 in men, 1 in women): ESC 2020 identifies these patients as not "
                     "needing antithrombotic therapy for stroke prevention."),
        Tier(1, MODERATE, "Moderate stroke risk (1 in men, 2 in women): ESC 2020 - oral anticoagulation "
                          "should be considered (class IIa)."),
        Tier(2, HIGH, "High stroke risk (>=2 in men, >=3 in women): ESC 2020 - oral anticoagulation is "
                      "recommended (class I)."),
    ),
)
_SEX = {tools_pb2.SEX_FEMALE: 1, tools_pb2.SEX_MALE: 0}


def cha2ds2_vasc(inputs: tools_pb2.Cha2ds2VascInputs) -> tools_pb2.ComputeRiskScoreResponse:
    age = adult_age(inputs.age, "cha2ds2_vasc.age")
    sex = enum_points(inputs.sex, "cha2ds2_vasc.sex", _SEX, tools_pb2.Sex)
    components = [
        ("Congestive heart failure (C)", int(inputs.congestive_heart_failure)),
        ("Hypertension (H)", int(inputs.hypertension)),
        ("Age >=75 (A2)", 2 if age >= 75 else 0),
        ("Diabetes (D)", int(inputs.diabetes)),
        ("Stroke/TIA/thromboembolism (S2)", 2 if inputs.stroke_tia_thromboembolism else 0),
        ("Vascular disease (V)", int(inputs.vascular_disease)),
        ("Age 65-74 (A)", 1 if 65 <= age < 75 else 0),
        ("Sex category: female (Sc)", sex),
    ]
    risk_factor_points = sum(points for _, points in components) - sex
    return CHA2DS2_VASC.respond(components, tier_basis=risk_factor_points)


# ---- Wells PE --------------------------------------------------------------------------------

_TWO_TIER = ("Two-tier reading: {reading} (<=4 PE unlikely, >4 PE likely); in the PE-unlikely group a "
             "negative D-dimer has been used to exclude PE (Wells 2001).")
WELLS_PE = Score(
    name="Wells PE",
    max_score=12.5,
    source="Wells PS et al. Thromb Haemost 2000;83(3):416-420; "
           "Wells PS et al. Ann Intern Med 2001;135(2):98-107 (two-tier reading with D-dimer)",
    convention="Three-tier reading sets the tier: <2 low, 2-6 moderate, >6 high. "
               "The two-tier reading (<=4 PE unlikely, >4 PE likely) is given in the interpretation.",
    tiers=(
        Tier(0, LOW, "Low clinical probability (<2): PE prevalence about 1.3% in the Wells 2000 "
                     "validation set."),
        Tier(2, MODERATE, "Moderate clinical probability (2-6): PE prevalence about 16.2% in the Wells 2000 "
                          "validation set."),
        # Points move in steps of 0.5, so ">6" starts at 6.5.
        Tier(6.5, HIGH, "High clinical probability (>6): PE prevalence about 40.6% in the Wells 2000 "
                        "validation set."),
    ),
)
_WELLS_ITEMS = (
    ("clinical_signs_of_dvt", "Clinical signs of DVT", 3.0),
    ("pe_most_likely_diagnosis", "PE most likely diagnosis", 3.0),
    ("heart_rate_over_100", "Heart rate >100", 1.5),
    ("immobilization_or_recent_surgery", "Immobilization or recent surgery", 1.5),
    ("previous_dvt_or_pe", "Previous DVT or PE", 1.5),
    ("hemoptysis", "Hemoptysis", 1.0),
    ("malignancy", "Malignancy", 1.0),
)


def wells_pe(inputs: tools_pb2.WellsPeInputs) -> tools_pb2.ComputeRiskScoreResponse:
    components = [(name, points if getattr(inputs, field) else 0.0) for field, name, points in _WELLS_ITEMS]
    response = WELLS_PE.respond(components)
    reading = "PE likely" if response.score > 4 else "PE unlikely"
    response.interpretation += " " + _TWO_TIER.format(reading=reading)
    return response


# ---- CURB-65 ---------------------------------------------------------------------------------

CURB65 = Score(
    name="CURB-65",
    max_score=5,
    source="Lim WS et al. Thorax 2003;58(5):377-382; "
           "BTS guidelines for community acquired pneumonia in adults, Thorax 2009;64(Suppl 3):iii1-iii55",
    convention="Urea >7 mmol/L; respiratory rate >=30/min; systolic BP <90 or diastolic BP <=60 mmHg "
               "(one point for either); age >=65; new confusion.",
    tiers=(
        Tier(0, LOW, "Low severity (0-1): 30-day mortality about 1.5% (Lim 2003); BTS: outpatient care is "
                     "usually appropriate."),
        Tier(2, MODERATE, "Moderate severity (2): 30-day mortality about 9.2%; BTS: consider hospital care."),
        Tier(3, HIGH, "High severity (3-5): 30-day mortality about 22%; BTS: hospital care as severe "
                      "pneumonia; at 4-5 assess for intensive care."),
    ),
)


def curb65(inputs: tools_pb2.Curb65Inputs) -> tools_pb2.ComputeRiskScoreResponse:
    urea = float_in(inputs.urea_mmol_per_l, "curb65.urea_mmol_per_l", *UREA_RANGE)
    rr = int_in(inputs.respiratory_rate, "curb65.respiratory_rate", *RESPIRATORY_RATE_RANGE)
    sbp = int_in(inputs.systolic_bp, "curb65.systolic_bp", *SYSTOLIC_BP_RANGE)
    dbp = int_in(inputs.diastolic_bp, "curb65.diastolic_bp", *DIASTOLIC_BP_RANGE)
    age = adult_age(inputs.age, "curb65.age")
    return CURB65.respond([
        ("Confusion", int(inputs.confusion)),
        ("Urea >7 mmol/L", int(urea > 7)),
        ("Respiratory rate >=30", int(rr >= 30)),
        ("Blood pressure (SBP <90 or DBP <=60)", int(sbp < 90 or dbp <= 60)),
        ("Age >=65", int(age >= 65)),
    ])


# ---- qSOFA -----------------------------------------------------------------------------------

QSOFA = Score(
    name="qSOFA",
    max_score=3,
    source="Seymour CW et al. JAMA 2016;315(8):762-774; Singer M et al. (Sepsis-3) JAMA 2016;315(8):801-810",
    convention="Respiratory rate >=22/min; altered mentation (GCS <15); systolic BP <=100 mmHg. "
               "Two tiers only: 0-1 low, 2-3 high.",
    tiers=(
        Tier(0, LOW, "Not at higher risk by qSOFA (0-1). A low qSOFA does not exclude sepsis: Sepsis-3 "
                     "advises against deferring investigation or treatment of infection on its basis, "
                     "and the Surviving Sepsis Campaign 2021 recommends against qSOFA as a single "
                     "screening tool."),
        Tier(2, HIGH, "Higher risk (2-3): with suspected infection, in-hospital mortality 3- to 14-fold "
                      "higher than with qSOFA <2 across baseline-risk deciles (Seymour 2016); Sepsis-3 "
                      "proposes assessing for organ dysfunction (SOFA)."),
    ),
)


def qsofa(inputs: tools_pb2.QsofaInputs) -> tools_pb2.ComputeRiskScoreResponse:
    rr = int_in(inputs.respiratory_rate, "qsofa.respiratory_rate", *RESPIRATORY_RATE_RANGE)
    sbp = int_in(inputs.systolic_bp, "qsofa.systolic_bp", *SYSTOLIC_BP_RANGE)
    return QSOFA.respond([
        ("Respiratory rate >=22", int(rr >= 22)),
        ("Altered mentation", int(inputs.altered_mentation)),
        ("Systolic BP <=100", int(sbp <= 100)),
    ])


# ---- dispatch --------------------------------------------------------------------------------

_CALCULATORS: dict[str, Callable[..., tools_pb2.ComputeRiskScoreResponse]] = {
    "heart": heart, "cha2ds2_vasc": cha2ds2_vasc, "wells_pe": wells_pe, "curb65": curb65, "qsofa": qsofa,
}


def compute(request: tools_pb2.ComputeRiskScoreRequest) -> tools_pb2.ComputeRiskScoreResponse:
    """Computes the score whose inputs the request carries."""
    which = request.WhichOneof("inputs")
    if which is None:
        raise InvalidArgument("inputs", f"one of {', '.join(_CALCULATORS)} is required")
    return _CALCULATORS[which](getattr(request, which))
