"""Reading a risk score's criteria from clinical sentences, in Portuguese and English.

Each criterion is read with the words it came from, so the report can show a clinician what
was read ("age 80, from 'is 80'"). Findings are read in context, NegEx-style: a negation
("no", "denies", "negative for", "sem", "nega") covers the findings after it up to the end of
its clause ("no diabetes, stroke or heart failure"), and a finding followed by ": no",
"absent" or "negativo" is denied. Numbers are read with their units and converted to the
score's own (BUN mg/dL x 0.357 and Brazilian urea mg/dL / 6.0 to urea mmol/L; a Brazilian
"PA 8x5" in cmHg to 80/50 mmHg). A finding that is not mentioned counts as absent, as in the
scores' published use; a number that is not given is missing and asked for by name.
"""

import re
from dataclasses import dataclass, field, replace

from healthmesh.v1 import tools_pb2
from runtime.text.fold import fold

SCORES = ("cha2ds2_vasc", "heart", "wells_pe", "curb65", "qsofa")
_COUNT_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "um": 1, "uma": 1, "dois": 2, "duas": 2,
                "tres": 3, "quatro": 4, "cinco": 5}


@dataclass(frozen=True)
class Criterion:
    """One criterion as read: its name, the value read and the message's words behind it."""

    name: str
    value: str
    words: str = ""  # empty: not mentioned, counted as absent


@dataclass
class ScoreReading:
    request: tools_pb2.ComputeRiskScoreRequest
    missing: list[str] = field(default_factory=list)  # "<score>.<criterion>"
    read: list[Criterion] = field(default_factory=list)


# -- context --------------------------------------------------------------------------------------

_PRE_NEGATION = re.compile(
    r"(?:\b(?:no|not|without|denies|denied|deny|negative for|free of|absence of|never|nor|sem|nega|negou|negando"
    r"|nao|nenhum|nenhuma|ausencia de|nem|negativo para|negativa para)\b|n't\b)"
    # An auxiliary right after the negation belongs to it: "never had", "has not had", "nunca teve".
    r"(?:\s+(?:had|have|has|been|got|shown|tive|teve|apresentou|apresenta|esta|estava|ta|foi|e))?")
# What ends a negation's scope: the clause ends, or a new assertion starts.
_SCOPE_END = re.compile(
    r"[.;)]|\d|\b(?:but|however|although|though|mas|porem|entretanto|contudo|with|com|has|have|had|presents?"
    r"|presenting|apresenta|tem|tinha|reports?|refere|positive|positivo|is|are|was|were|esta)\b"
    # A list item that asserts itself: "no diabetes, prior stroke".
    r"|,\s*(?:prior|previous|history of|known|recent|current|positive|hx|s/p|status post|old|previo|previa"
    r"|historia de|antecedente)\b")
_POST_NEGATION = re.compile(
    r"(?:\s*/\s*\w+|\s+or\s+\w+)*"  # "Stroke/TIA: no"
    r"\s*(?:[:=(-]\s*|\s(?:is|was|are|were|e|esta|foi)\s+)?(?:no|not present|absent|negative|none|nao|ausente"
    r"|negativ[oa]|negad[oa])\b")
_TEST_BEFORE = re.compile(r"\b(?:ecg|ekg|eletro|electrocardiogram|eletrocardiograma|exame|x-ray|rx|echo)\s*$")
_FORMER = re.compile(r"\b(?:former|ex|quit|stopped|previous|parou|deixou de)\b")
_WHEN_QUIT = re.compile(r"(\d+)\s*(days?|weeks?|months?|years?|dias?|semanas?|mes|meses|anos?)\b")
_DAYS = {"day": 1, "dia": 1, "week": 7, "semana": 7, "month": 30, "mes": 30, "mese": 30, "year": 365, "ano": 365}


def _days(when: re.Match[str]) -> int:
    """The days of a _WHEN_QUIT match ("3 weeks", "1 mes")."""
    return int(when.group(1)) * _DAYS.get(when.group(2).rstrip("s"), 365)


def _former(text: str, words: str) -> bool:
    """A smoker who quit more than three months ago (HEART counts current or recent smoking)."""
    at = text.find(words)
    clause = text[max(0, at - 40):at + len(words) + 40]
    if not _FORMER.search(clause):
        return False
    when = _WHEN_QUIT.search(clause)
    if when is None:
        return True
    return _days(when) > 90


def _abbreviation(text: str, original: str, abbreviation: str) -> str:
    """An upper-case abbreviation of the original message (HAS: hipertensão arterial
    sistêmica), not denied in its folded text."""
    if len(text) != len(original):
        return ""
    for m in re.finditer(rf"\b{abbreviation}\b", original):
        if not _denied(text, m.start(), m.end()):
            return m.group(0)
    return ""


def _denied(text: str, start: int, end: int) -> bool:
    """A finding at text[start:end] is denied by a negation before it in its clause, or right
    after it (": no", "negativo")."""
    if _POST_NEGATION.match(text, end):
        return True
    head = text[max(0, start - 120):start]
    last = None
    for m in _PRE_NEGATION.finditer(head):
        last = m
    if last is None or _SCOPE_END.search(head, last.end()):
        return False
    # A comma ends the scope after a phrase ("sem edema de MMII, TEP é…"), not inside a list of
    # single findings ("no diabetes, stroke or heart failure"); a test's "ECG sem alterações" is
    # about the test alone.
    negated, comma, _ = head[last.end():].partition(",")
    if comma and (len(negated.split()) > 2 or _TEST_BEFORE.search(head, 0, last.start())):
        return False
    return True


def _finding(text: str, pattern: str) -> str:
    """The words of the first mention of `pattern` that is not denied ("" when none)."""
    for m in re.finditer(pattern, text):
        if not _denied(text, m.start(), m.end()):
            return m.group(0)
    return ""


# -- numbers --------------------------------------------------------------------------------------

_NUM = r"(\d{1,3}(?:[.,]\d+)?)"
_AGE = re.compile(
    r"\b(\d{1,3})\s*-?\s*(?:years?|yrs?|y)\s*-?\s*(?:old|o)\b|\b(\d{1,3})\s*(?:yo|y/o)\b"
    r"|\b(?:aged|age|idade)\s*(?:of|de|is|:|=)?\s*(\d{1,3})\b|\b(\d{1,3})\s*anos\b"
    r"|\b(?:is|tem|he's|she's|'s|esta com)\s+(\d{2,3})\b(?!\s*(?:%|mg|mm|kg|cm|bpm|x|/))"
    r"|\b(\d{2,3})\s*years?\b(?!\s+ago)|\b(\d{2,3})(?:m|f)\b")
# A keyword, then its number within a few words ("respirations are 22/min", "a pressão está 13 por 8").
_GAP = r"\b[^.;\d]{0,28}?"
_RR = re.compile(
    rf"\b(?:rr|respiratory rate|resp(?:iratory)?\.? rate|respirations?|breathing|respiracao|respirando|tachypn\w*"
    rf"|taquipn\w*|fr|frequencia respiratoria){_GAP}{_NUM}|\b{_NUM}\s*(?:breaths?\s*(?:/|per)\s*min\w*|rpm|irpm|ipm|mrm)\b")
_HR = re.compile(
    rf"\b(?:hr|heart rate|pulse(?: rate)?|fc|frequencia cardiaca|pulso|coracao|tachycardic|taquicardic\w*){_GAP}"
    rf"(\d{{2,3}})\b|\b(\d{{2,3}})\s*(?:bpm|beats?\s*(?:/|per)\s*min\w*)")
_BP = re.compile(
    rf"\b(?:bp|blood pressure|pa|pressao arterial|pressao|ta){_GAP}(\d{{1,3}})\s*(?:/|x|over|por)\s*(\d{{1,3}})(?!\d)")
_SBP = re.compile(
    rf"\b(?:sbp|systolic(?: blood pressure| bp| pressure)?|pas|pressao (?:arterial )?sistolica|sistolica)"
    rf"\s*(?:of|de|is|was|=|:|em)?\s*{_NUM}")
_DBP = re.compile(
    rf"\b(?:dbp|diastolic(?: blood pressure| bp| pressure)?|pad|pressao (?:arterial )?diastolica|diastolica)"
    rf"\s*(?:of|de|is|was|=|:|em)?\s*{_NUM}")
_UREA = re.compile(
    rf"\b(bun|blood urea nitrogen|urea nitrogen|serum urea|urea|ureia){_GAP}{_NUM}\s*(mmol\s*/?\s*l|mg\s*/?\s*dl)?")
_GCS = re.compile(r"\b(?:gcs|glasgow(?: coma scale| score)?)\s*(?:of|de|is|was|=|:)?\s*(\d{1,2})\b")


def _value(m: re.Match[str]) -> float:
    return float(next(g for g in m.groups() if g is not None).replace(",", "."))


def _age(text: str) -> Criterion | None:
    for m in _AGE.finditer(text):
        age = int(next(g for g in m.groups() if g is not None))
        if 0 < age < 120:
            return Criterion("age", str(age), m.group(0))
    return None


def _number(name: str, pattern: re.Pattern[str], text: str) -> Criterion | None:
    m = pattern.search(text)
    return Criterion(name, f"{_value(m):g}", m.group(0)) if m else None


def _blood_pressure(text: str) -> tuple[Criterion | None, Criterion | None]:
    """Systolic and diastolic in mmHg; a Brazilian "8x5" is in cmHg."""
    if m := _BP.search(text):
        systolic, diastolic = int(m.group(1)), int(m.group(2))
        if systolic < 30 and diastolic < 30:  # cmHg
            systolic, diastolic = systolic * 10, diastolic * 10
        return Criterion("systolic_bp", str(systolic), m.group(0)), Criterion("diastolic_bp", str(diastolic), m.group(0))
    return _number("systolic_bp", _SBP, text), _number("diastolic_bp", _DBP, text)


def _urea(text: str) -> Criterion | None:
    """Urea in mmol/L: BUN in mg/dL x 0.357; urea in mg/dL (as Brazilian labs report it) / 6.0;
    without a unit, BUN is mg/dL and a urea above 25 is mg/dL."""
    m = _UREA.search(text)
    if not m:
        return None
    kind, value, unit = m.group(1), float(m.group(2).replace(",", ".")), (m.group(3) or "").replace(" ", "")
    if "bun" in kind or "nitrogen" in kind:
        mmol = value * 0.357 if unit != "mmol/l" else value
    elif unit.startswith("mg") or (not unit and value > 25):
        mmol = value / 6.0
    else:
        mmol = value
    return Criterion("urea_mmol_per_l", f"{mmol:.1f}", m.group(0))


# -- findings, by the scores' published definitions -------------------------------------------------

_HYPERTENSION = r"\b(?:hypertensi\w*|htn|high blood pressure|hipertens\w*|pressao alta)\b"
_DIABETES = r"\b(?:diabet\w*|dm|dm2|dm1|t2dm|t1dm|iddm|niddm)\b"
_CHF = (r"\b(?:heart failure|chf|congestive|insuficiencia cardiaca|icc|lv dysfunction|reduced ejection fraction"
        r"|hfref|disfuncao ventricular|fracao de ejecao reduzida)\b")
_STROKE = (r"\b(?:stroke|tia|transient ischemic attack|thromboembol\w*|avc|ait|ataque isquemico transitorio"
           r"|tromboembol\w*|embolia sistemica|(?:systemic|arterial|peripheral)\s+(?:arterial\s+)?embol\w*"
           r"|cerebral infarct\w*|infartos? cerebra\w*|ischemic stroke|avc isquemico|avci)\b")
_VASCULAR = (r"\b(?:prior mi|previous mi|old mi|myocardial infarction|heart attack|infarto|iam previo|pad"
             r"|peripheral arter\w*|aortic plaque|doenca arterial periferica|placa aortica|vascular disease"
             r"|doenca vascular|dap|doap)\b")
_CHOLESTEROL = (r"\b(?:hypercholesterol\w*|high cholesterol|hyperlipid\w*|dyslipid\w*|colesterol alto|dislipid\w*"
                r"|hipercolesterol\w*)\b")
_OBESITY = r"\b(?:obes\w*|(?:bmi|imc)\s*(?:of|de|is|=|:|>)?\s*(?:3\d|[4-6]\d))\b"
_SMOKING = r"\b(?:current(?:ly)? smok\w*|smok\w*|tabagis\w*|fumante|fuma|fumar|fumava|fumou)\b"
_FAMILY = (r"\b(?:family history|positive family|historia familiar|historico familiar|antecedente familiar"
           r"|father had|mother had|pai (?:teve|infartou)|mae (?:teve|infartou))\b")
_ATHEROSCLEROTIC = (r"\b(?:prior mi|previous mi|old mi|(?:prior|previous|old|history of|had an?) (?:myocardial infarction|heart attack)"
                    r"|pci|icp|dac|cabg|stent\w*"
                    r"|angioplast\w*|bypass|revasculari[sz]\w*|stroke|tia|avc|ait|pad|peripheral arter\w*"
                    r"|known (?:cad|coronary)|coronary artery disease|atherosclero\w*|ateroscler\w*|doenca coronaria"
                    r"|doenca arterial periferica|dap"
                    r"|infarto previo|iam previo)\b")
_FEMALE = (r"\b(?:woman|female|she|her|mrs|ms|lady|mother|mom|mum|daughter|sister|wife|grandmother|grandma|mulher"
           r"|feminino|feminina|senhora|sra|mae|filha|irma|esposa|paciente do sexo feminino|idosa|puerpera|gestante"
           r"|\d{2,3}f)\b")
_MALE = (r"\b(?:man|male|he|his|mr|gentleman|father|dad|son|brother|husband|grandfather|grandpa|homem|masculino"
         r"|senhor|sr|pai|filho|irmao|marido|idoso|\d{2,3}m)\b")
_CONFUSION = (r"\b(?:confus\w*|disorient\w*|altered mental\w*|altered mentation|altered consciousness|delirium"
              r"|lethargic|letargic\w*|somnolent|sonolent[oa]|obtund\w*|not oriented|a&ox[0-2]|oriented x ?[0-2]"
              r"|desorientad\w*|confus[oa]|rebaixamento do nivel de consciencia|alteracao (?:do nivel )?de consciencia)\b")


def _flag(name: str, text: str, pattern: str) -> tuple[bool, Criterion]:
    words = _finding(text, pattern)
    return bool(words), Criterion(name, "yes" if words else "no", words)


def _sex(text: str, original: str = "") -> Criterion | None:
    female, male = _finding(text, _FEMALE), _finding(text, _MALE)
    if not (female or male) and (m := re.search(r"\bav[óô]\b", original.lower())):  # avó / avô fold alike
        return Criterion("sex", "female" if m.group(0) == "avó" else "male", m.group(0))
    if bool(female) == bool(male):
        return None
    return Criterion("sex", "female" if female else "male", female or male)


def _mentation(text: str) -> tuple[bool, Criterion]:
    if gcs := _GCS.search(text):
        altered = int(gcs.group(1)) < 15
        return altered, Criterion("mentation", "altered" if altered else "normal", gcs.group(0))
    found, criterion = _flag("confusion", text, _CONFUSION)
    return found, criterion


# -- the scores -----------------------------------------------------------------------------------

def read_score(score: str, message: str) -> ScoreReading:
    text = fold(message)
    reading = {"cha2ds2_vasc": _cha2ds2_vasc, "heart": _heart, "wells_pe": _wells, "curb65": _curb65,
               "qsofa": _qsofa}[score](text, message)
    if len(text) == len(message):  # the fold kept offsets: quote the message's own spelling
        reading.read = [replace(c, words=_original(c.words, text, message)) for c in reading.read]
    return reading


def _original(words: str, text: str, message: str) -> str:
    parts = []
    for part in words.split(", "):
        at = text.find(part)
        parts.append(message[at:at + len(part)] if part and at >= 0 else part)
    return ", ".join(parts)


def _cha2ds2_vasc(text: str, original: str) -> ScoreReading:
    age, sex = _age(text), _sex(text, original)
    hypertension = _flag("hypertension", text, _HYPERTENSION)
    if not hypertension[0] and (has := _abbreviation(text, original, "HAS")):  # Brazilian abbreviation
        hypertension = (True, Criterion("hypertension", "yes", has))
    findings = {"chf": _flag("chf", text, _CHF), "hypertension": hypertension,
                "diabetes": _flag("diabetes", text, _DIABETES), "stroke": _flag("stroke", text, _STROKE),
                "vascular": _flag("vascular", text, _VASCULAR)}
    inputs = tools_pb2.Cha2ds2VascInputs(
        age=int(age.value) if age else 0,
        sex=(tools_pb2.SEX_FEMALE if sex.value == "female" else tools_pb2.SEX_MALE) if sex else tools_pb2.SEX_UNSPECIFIED,
        congestive_heart_failure=findings["chf"][0], hypertension=findings["hypertension"][0],
        diabetes=findings["diabetes"][0], stroke_tia_thromboembolism=findings["stroke"][0],
        vascular_disease=findings["vascular"][0])
    return ScoreReading(tools_pb2.ComputeRiskScoreRequest(cha2ds2_vasc=inputs),
                        _missing("cha2ds2_vasc", age=age, sex=sex),
                        [c for c in (age, sex) if c] + [c for _, c in findings.values()])


_HISTORY = ((tools_pb2.HEART_HISTORY_HIGHLY_SUSPICIOUS, "highly suspicious",
             r"\b(?:highly suspicious|high(?:ly)? suspicion|typical (?:angina|chest pain|history)|muito suspeit\w*"
             r"|altamente suspeit\w*|historia tipica|tipic[oa])\b"),
            (tools_pb2.HEART_HISTORY_MODERATELY_SUSPICIOUS, "moderately suspicious",
             r"\b(?:moderately suspicious|moderate(?:ly)? suspicion|moderadamente suspeit\w*|suspeita moderada)\b"),
            (tools_pb2.HEART_HISTORY_SLIGHTLY_SUSPICIOUS, "slightly suspicious",
             r"\b(?:slightly suspicious|low suspicion|slight suspicion|non-?specific history|atypical"
             r"|pouco suspeit\w*|levemente suspeit\w*|atipic[oa]|historia inespecifica)\b"))
_ECG = ((tools_pb2.HEART_ECG_SIGNIFICANT_ST_DEVIATION, "significant ST deviation",
         r"\b(?:significant st|st[- ](?:segment )?(?:depression|elevation|deviation)|st (?:depression|elevation)"
         r"|infradesnivel\w*|supradesnivel\w*|desnivelamento (?:do|de) st)\b"),
        (tools_pb2.HEART_ECG_NONSPECIFIC_REPOLARIZATION, "non-specific repolarization",
         r"\b(?:non-?specific|repolari[sz]ation|lbbb|left bundle branch block|bundle branch block|lvh"
         r"|left ventricular hypertrophy|paced|pacemaker rhythm|bre|bloqueio de ramo|hve|sobrecarga|marca-?passo"
         r"|t-wave (?:flattening|inversion)|t wave (?:flattening|inversion)|onda t (?:achatada|invertida)"
         r"|alteraca?o(?:es)? inespecific\w*|inespecific\w*)\b"),
        (tools_pb2.HEART_ECG_NORMAL, "normal",
         r"\b(?:normal (?:ecg|ekg|electrocardiogram)|(?:ecg|ekg|electrocardiogram|eletrocardiograma|eletro)\b[^.;]{0,12}?"
         r"(?:normal|unremarkable|sem alteraco\w*|without (?:changes|abnormalities)|no changes|no abnormalit\w*)"
         r"|unremarkable (?:ecg|ekg))\b"))
_TROPONIN_WORD = r"\b(?:troponin\w*|hs-?ctn\w*|ctn[it]?|tn[it])\b"
_TROPONIN = ((tools_pb2.HEART_TROPONIN_OVER_THREE_TIMES, "over 3x the normal limit",
              _TROPONIN_WORD + r"[^.;]{0,40}?(?:(?:>|over|above|more than|greater than|acima de|mais de|maior que)\s*"
              r"(?:3|three|tres)\b|(?<![\d.,])(?:[4-9]|\d\d)(?:[.,]\d)?\s*(?:x|times|vezes|vez)\b|(?<![\d.,])3[.,][1-9]\d*\s*(?:x|times|vezes|vez)\b"
              r"|tripl\w*)"),
             (tools_pb2.HEART_TROPONIN_ONE_TO_THREE_TIMES, "1-3x the normal limit",
              _TROPONIN_WORD + r"[^.;]{0,40}?(?:\b1\s*-\s*3\b|\b1 to 3\b|entre 1 e 3|(?<![\d.,])[123](?:[.,]0)?\s*(?:x|times|vezes|vez)|(?<![\d.,])[12][.,]\d+\s*(?:x|times|vezes|vez)"
              r"|twice|double|\bduas vezes|mildly elevated|slightly elevated|levemente elevad\w*|(?<!not )(?<!nao )elevad\w*"
              r"|(?<!not )elevated|positive|positiva)"),
             (tools_pb2.HEART_TROPONIN_NORMAL, "normal",
              _TROPONIN_WORD + r"[^.;]{0,25}?(?:normal|negative|negativa|within normal|undetectable|not elevated"
              r"|nao elevada|indetectavel|dentro do (?:limite da )?normal|below the (?:cutoff|cut-off|limit)|abaixo do (?:corte|limite))"
              r"|\b(?:normal|negative) troponin\w*"))
# A troponin value with its upper reference limit: "hs-cTnT 38 ng/L (URL 14 ng/L)".
_TROPONIN_RATIO = re.compile(
    _TROPONIN_WORD + r"[^.;\d]{0,20}(\d+(?:[.,]\d+)?)[^.;\d]{0,30}?\b(?:url|uln|upper (?:reference )?limit|99th"
    r"|percentil 99|limite superior|referencia)[^.;\d]{0,10}(\d+(?:[.,]\d+)?)")


def _graded(name: str, text: str, grades: tuple[tuple[int, str, str], ...], *, deniable: bool = True
            ) -> tuple[int, Criterion | None]:
    """The first grade (highest first) whose words the text has, not denied ("without ST
    deviation" is no ST deviation); a measured grade (troponin 4x) is never denied."""
    for value, label, pattern in grades:
        for m in re.finditer(pattern, text):
            if not deniable or not _denied(text, m.start(), m.end()):
                return value, Criterion(name, label, m.group(0))
    return 0, None


def _troponin(text: str) -> tuple[int, Criterion | None]:
    if m := _TROPONIN_RATIO.search(text):
        value, limit = (float(g.replace(",", ".")) for g in m.groups())
        ratio = value / limit if limit else 0
        grade = (tools_pb2.HEART_TROPONIN_NORMAL if ratio <= 1 else tools_pb2.HEART_TROPONIN_ONE_TO_THREE_TIMES
                 if ratio <= 3 else tools_pb2.HEART_TROPONIN_OVER_THREE_TIMES)
        return grade, Criterion("troponin", f"{ratio:.1f}x the upper limit", m.group(0))
    return _graded("troponin", text, _TROPONIN, deniable=False)


def _heart(text: str, original: str) -> ScoreReading:
    age = _age(text)
    history, history_read = _graded("history", text, _HISTORY, deniable=False)
    ecg, ecg_read = _graded("ecg", text, _ECG)
    troponin, troponin_read = _troponin(text)
    factors = [(name, _finding(text, pattern)) for name, pattern in (
        ("hypertension", _HYPERTENSION), ("hypercholesterolemia", _CHOLESTEROL), ("diabetes", _DIABETES),
        ("obesity", _OBESITY), ("smoking", _SMOKING), ("family history", _FAMILY))]
    if not factors[0][1]:
        factors[0] = ("hypertension", _abbreviation(text, original, "HAS"))
    factors = [(name, words) for name, words in factors if words and not (name == "smoking" and _former(text, words))]
    count = len(factors)
    if m := re.search(r"\b(\d|one|two|three|four|five|um|uma|dois|duas|tres|quatro|cinco|no|zero|nenhum|sem)\s+"
                      r"(?:known\s+|cardiovascular\s+|cardiac\s+|conventional\s+)?(?:risk factors?|fatores? de risco)",
                      text):
        stated = int(m.group(1)) if m.group(1).isdigit() else _COUNT_WORDS.get(m.group(1), 0)
        count = max(count, stated)
        factors.append(("stated count", m.group(0)))
    athero = _finding(text, _ATHEROSCLEROTIC)
    inputs = tools_pb2.HeartInputs(history=history, ecg=ecg, age=int(age.value) if age else 0,
                                   risk_factor_count=count, atherosclerotic_disease=bool(athero), troponin=troponin)
    read = [c for c in (history_read, ecg_read, age, troponin_read) if c]
    read.append(Criterion("risk factors", str(count), ", ".join(w for _, w in factors)))
    if athero:
        read.append(Criterion("atherosclerotic disease", "yes", athero))
    return ScoreReading(tools_pb2.ComputeRiskScoreRequest(heart=inputs),
                        _missing("heart", history=history_read, ecg=ecg_read, age=age, troponin=troponin_read),
                        read)


_DVT_SIGNS = (r"\b(?:(?:leg|calf)\s+(?:\w+\s+){0,2}(?:swollen|oedematous|edematous|tender)|tender\w*\s+(?:along|over)\s+"
              r"(?:the\s+)?deep veins|(?:pitting\s+)?o?edema\s+(?:of|in)\s+the\s+(?:\w+\s+)?leg|trajeto venoso profundo"
              r"|edema assimetrico|calf swelling|sinais clinicos de tvp"
              r"|clinical signs (?:and symptoms )?of dvt|signs (?:and symptoms )?of (?:dvt|deep vein thrombosis)"
              r"|dvt signs|leg swelling|swollen (?:left |right )?(?:leg|calf)|(?:leg|calf) (?:swelling|tenderness|edema)"
              r"|unilateral (?:leg )?(?:swelling|edema)|pain on palpation of the deep veins|sinais (?:clinicos )?de tvp"
              r"|edema (?:de|da|do|em) (?:perna|membro|panturrilha)|empastamento|panturrilha (?:edemaciada|inchada)"
              r"|sinais de trombose)\b|\b(?:signs of )?dvt\s*[:=-]\s*(?:yes|present|sim)\b")
_PE_LIKELY = (r"\b(?:pe (?:is |as )?(?:the )?(?:leading|most probable|likeliest)(?: diagnosis)?"
              r"|tep (?:e |como )?(?:o |a )?(?:diagnostico |hipotese )?(?:mais provavel|principal(?: hipotese)?)"
              r"|pe (?:is )?(?:the )?most likely(?: diagnosis)?|pe (?:is )?more likely|alternative diagnosis (?:is )?"
              r"(?:less likely|unlikely)|no (?:more likely )?alternative diagnosis|pe as the most likely"
              r"|tep (?:e )?(?:o )?(?:diagnostico )?mais provavel|diagnostico alternativo (?:e )?menos provavel"
              r"|most likely diagnosis (?:is|:) pe)\b|\bpe (?:is )?(?:the )?most likely(?: diagnosis)?\s*[:=-]\s*yes\b")
_IMMOBILE = (r"\b(?:immobili[sz]\w*|bedridden|bed rest|bed-bound|acamad[oa]|internad[oa] e acamad[oa]|recent(?:ly)? (?:surgery|operat\w*)|post-?operative"
             r"|(?:surgery|operation|operated)\b[^.;]{0,30}\b(?:\d|one|two|three|four|1|2|3|4)\s*(?:days?|weeks?) ago"
             r"|imobiliza\w*|acamad[oa]|repouso no leito|cirurgia recente|pos-?operatorio|operad[oa] ha)\b")
_PREVIOUS_VTE = (r"\b(?:(?:had|has had|tive|teve)\s+(?:a\s+|an\s+|uma\s+)?(?:pe|dvt|vte|clot|tep|tvp|trombose|embolia)\b"
                 r"|(?:previous|prior|history of|past|old)\s+(?:dvt|pe|vte|pulmonary embol\w*|deep vein thromb\w*"
                 r"|venous thromboembol\w*)|(?:tvp|tep|trombose|embolia pulmonar)\s+previ[ao]|(?:historia|historico|antecedente)"
                 r"\s+de\s+(?:tvp|tep|trombose|embolia))\b")
_HEMOPTYSIS = (r"\b(?:hemoptysis|haemoptysis|cough\w* (?:up )?blood|hemoptise|tosse com sangue|tossindo sangue"
               r"|escarro com sangue)\b")
_MALIGNANCY = (r"\b(?:cancer|malignan\w*|neoplas\w*|carcinoma|tumou?r|metasta\w*|chemotherapy|palliative|oncolog\w*"
               r"|lymphoma|leukemia|leukaemia|cancer|quimioterapia|paliativ\w*|linfoma|leucemia)\b")


_SURGERY = (r"\b(?:surgery|surgical|operation|operated|section|replacement|arthroplasty|ectomy|cesarea|cesariana"
            r"|cirurgia|operad[oa]|\w+ectomia|\w+ectomy|histerectomia)\b")
_POST_OP = r"\b(?:post-?op(?:erative)?(?: day)?|pos-?operatorio|puerpera|no mesmo dia|same day|cast|gesso|plaster)\b"


def _immobilization(text: str) -> tuple[bool, Criterion]:
    """Immobilization for 3 days or more, or surgery in the past 4 weeks (Wells 2000)."""
    if words := _finding(text, _IMMOBILE) or _finding(text, _POST_OP):
        when = _WHEN_QUIT.search(text, text.find(words), text.find(words) + len(words) + 40)
        recent = when is None or _days(when) <= 28
        if recent:
            return True, Criterion("immobilization", "yes", words)
    if words := _finding(text, _SURGERY):
        at = text.find(words)
        when = _WHEN_QUIT.search(text, at, at + 60) or _WHEN_QUIT.search(text, max(0, at - 40), at)
        week = re.search(r"\b(?:last|this) week|semana passada|esta semana|ontem|yesterday", text[at:at + 60])
        if week or (when and _days(when) <= 28):
            return True, Criterion("immobilization", "yes", words)
    return False, Criterion("immobilization", "no")


def _wells(text: str, original: str) -> ScoreReading:
    rate = _number("heart_rate", _HR, text)
    tachycardic = _finding(text, r"\b(?:tachycard\w*|taquicard\w*)\b")
    fast = (float(rate.value) > 100) if rate else bool(tachycardic)
    malignancy = _finding(text, _MALIGNANCY)
    if malignancy and re.search(r"\b(?:remission|remissao|cured|curad[oa]|years ago|anos atras|ha \d+ anos)\b",
                                text[text.find(malignancy):text.find(malignancy) + 80]):
        malignancy = ""
    findings = {"dvt_signs": _flag("dvt_signs", text, _DVT_SIGNS), "pe_most_likely": _flag("pe_most_likely", text, _PE_LIKELY),
                "immobilization": _immobilization(text),
                "previous_vte": _flag("previous_vte", text, _PREVIOUS_VTE),
                "hemoptysis": _flag("hemoptysis", text, _HEMOPTYSIS)}
    inputs = tools_pb2.WellsPeInputs(
        clinical_signs_of_dvt=findings["dvt_signs"][0], pe_most_likely_diagnosis=findings["pe_most_likely"][0],
        heart_rate_over_100=fast, immobilization_or_recent_surgery=findings["immobilization"][0],
        previous_dvt_or_pe=findings["previous_vte"][0], hemoptysis=findings["hemoptysis"][0],
        malignancy=bool(malignancy))
    read = [c for _, c in findings.values()]
    read.append(rate or Criterion("heart_rate_over_100", "yes" if fast else "no"))
    read.append(Criterion("malignancy", "yes" if malignancy else "no", malignancy))
    return ScoreReading(tools_pb2.ComputeRiskScoreRequest(wells_pe=inputs),
                        _missing("wells_pe", heart_rate=rate or tachycardic or None), read)


def _curb65(text: str, original: str) -> ScoreReading:
    confused, confusion = _mentation(text)
    urea, rate, age = _urea(text), _number("respiratory_rate", _RR, text), _age(text)
    systolic, diastolic = _blood_pressure(text)
    inputs = tools_pb2.Curb65Inputs(
        confusion=confused, urea_mmol_per_l=float(urea.value) if urea else 0,
        respiratory_rate=int(float(rate.value)) if rate else 0, systolic_bp=int(float(systolic.value)) if systolic else 0,
        diastolic_bp=int(float(diastolic.value)) if diastolic else 0, age=int(age.value) if age else 0)
    return ScoreReading(tools_pb2.ComputeRiskScoreRequest(curb65=inputs),
                        _missing("curb65", urea_mmol_per_l=urea, respiratory_rate=rate,
                                 blood_pressure=diastolic and systolic, age=age),
                        [c for c in (confusion, urea, rate, systolic, diastolic, age) if c])


def _qsofa(text: str, original: str) -> ScoreReading:
    altered, mentation = _mentation(text)
    rate = _number("respiratory_rate", _RR, text)
    systolic, _ = _blood_pressure(text)
    inputs = tools_pb2.QsofaInputs(respiratory_rate=int(float(rate.value)) if rate else 0, altered_mentation=altered,
                                   systolic_bp=int(float(systolic.value)) if systolic else 0)
    return ScoreReading(tools_pb2.ComputeRiskScoreRequest(qsofa=inputs),
                        _missing("qsofa", respiratory_rate=rate, systolic_bp=systolic),
                        [c for c in (rate, mentation, systolic) if c])


def _missing(score: str, **read: object) -> list[str]:
    return [f"{score}.{name}" for name, value in read.items() if value is None]
