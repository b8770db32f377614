"""Deterministic reading of tool questions: risk scores, drug safety, drug interactions and
guideline questions, in Portuguese and English. Code extracts the arguments; whatever a score
needs and the message does not say is reported as missing, so the user is asked, never guessed.

One message may ask several things ("is warfarin safe with ibuprofen, and what do guidelines
say about anticoagulation in AF?"); each becomes one call, in the order asked.
"""

import re
from dataclasses import dataclass, field

from google.protobuf.message import Message

from healthmesh.v1 import tools_pb2
from orchestrator.language import fold
from orchestrator.steps import Action


@dataclass(frozen=True)
class ToolCall:
    action: Action
    request: Message

    @property
    def key(self) -> tuple[str, bytes]:
        """Identity for de-duplication: the same tool with the same arguments."""
        return self.action.value, self.request.SerializeToString(deterministic=True)


@dataclass
class ToolTask:
    calls: list[ToolCall] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # "<score>.<field>" the user must give
    score: str = ""  # the score asked for, when one is

    def __bool__(self) -> bool:
        return bool(self.calls or self.missing)


def _re(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


# -- scores ---------------------------------------------------------------------------------------

_SCORES = (
    ("cha2ds2_vasc", _re(r"\bcha2?ds2?[- ]?vasc\b|\bchads[- ]?vasc\b")),
    ("heart", _re(r"\bheart\s+(?:score|escore|risk\s+score)\b|\b(?:escore|score)\s+heart\b")),
    ("wells_pe", _re(r"\bwells\b")),
    ("curb65", _re(r"\bcurb[- ]?65\b")),
    ("qsofa", _re(r"\bq[- ]?sofa\b")),
)
_AGE = _re(r"\b(\d{1,3})\s*(?:-\s*)?(?:years?[- ]old|year[- ]old|yo\b|y/o|anos\b)|\b(?:age|aged|idade)\s*:?\s*(\d{1,3})\b")
_FEMALE = _re(r"\b(?:woman|female|she|her|mulher|feminino|feminina|paciente do sexo feminino|senhora)\b")
_MALE = _re(r"\b(?:man|male|he|his|homem|masculino|senhor)\b")
_NEGATION = r"(?:no|without|denies|sem|nega|nao)\s+(?:\w+\s+){0,2}?"


def _flag(text: str, words: str) -> bool:
    """A finding named and not negated just before ("no diabetes", "sem diabetes")."""
    found = False
    for m in re.finditer(rf"\b(?:{words})", text):
        if re.search(rf"{_NEGATION}$", text[max(0, m.start() - 30):m.start()]):
            continue
        found = True
    return found


_CHF = r"heart failure|chf\b|insuficiencia cardiaca|lv dysfunction|disfuncao ventricular"
_HYPERTENSION = r"hypertensi|htn\b|high blood pressure|hipertens|pressao alta"
_DIABETES = r"diabet"
_STROKE = r"stroke|tia\b|thromboembol|avc\b|ait\b|tromboembol"
_VASCULAR = (r"vascular disease|prior mi\b|myocardial infarction|peripheral arter|aortic plaque|infarto previo"
             r"|doenca vascular|doenca arterial periferica")
_CHOLESTEROL = r"hypercholesterol|high cholesterol|hyperlipid|dyslipid|colesterol alto|dislipid|hipercolesterol"
_OBESITY = r"obes"
_SMOKING = r"smok|tabagis|fumante|fuma\b"
_FAMILY = r"family history|historia familiar|historico familiar"
_ATHEROSCLEROTIC = (r"prior mi\b|previous mi\b|myocardial infarction|\bpci\b|cabg|stent|angioplast|infarto previo"
                    r"|peripheral arter|known (?:cad|coronary)|doenca coronaria")
_RISK_FACTOR_COUNT = _re(r"\b(\d)\s+(?:risk factors|fatores de risco)")


def _age(text: str) -> int | None:
    m = _AGE.search(text)
    return int(m.group(1) or m.group(2)) if m else None


def _sex(text: str) -> int:
    female, male = bool(_FEMALE.search(text)), bool(_MALE.search(text))
    if female == male:
        return tools_pb2.SEX_UNSPECIFIED
    return tools_pb2.SEX_FEMALE if female else tools_pb2.SEX_MALE


def _number(text: str, pattern: str) -> float | None:
    m = re.search(pattern, text)
    return float(m.group(1).replace(",", ".")) if m else None


_BP = r"\b(?:bp|pa|blood pressure|pressao(?: arterial)?)\s*(?:of|de|:)?\s*(\d{2,3})\s*/\s*(\d{2,3})"
_SBP = rf"{_BP}|\b(?:sbp|systolic(?: bp)?|pas|sistolica)\s*(?:of|de|:)?\s*(\d{{2,3}})"
_RR = r"\b(?:rr|respiratory rate|resp rate|fr|frequencia respiratoria)\s*(?:of|de|:)?\s*(\d{1,2})"
_UREA = r"\b(?:urea|ureia)\s*(?:of|de|:)?\s*(\d{1,3}(?:[.,]\d+)?)"
_CONFUSED = r"confus|disorient|desorientad|altered mentation|alteracao (?:do nivel )?de consciencia|gcs\s*(?:<|of)?\s*1[0-4]"


def _blood_pressure(text: str) -> tuple[int | None, int | None]:
    if m := re.search(_BP, text):
        return int(m.group(1)), int(m.group(2))
    if m := re.search(_SBP, text):
        return int(m.group(3)), None
    return None, None


def _score_call(score: str, text: str) -> tuple[ToolCall, list[str]]:
    missing: list[str] = []
    age = _age(text)
    if score == "cha2ds2_vasc":
        inputs = tools_pb2.Cha2ds2VascInputs(
            age=age or 0, sex=_sex(text), congestive_heart_failure=_flag(text, _CHF),
            hypertension=_flag(text, _HYPERTENSION), diabetes=_flag(text, _DIABETES),
            stroke_tia_thromboembolism=_flag(text, _STROKE), vascular_disease=_flag(text, _VASCULAR))
        missing += ["age"] * (age is None) + ["sex"] * (inputs.sex == tools_pb2.SEX_UNSPECIFIED)
        request = tools_pb2.ComputeRiskScoreRequest(cha2ds2_vasc=inputs)
    elif score == "heart":
        history = (tools_pb2.HEART_HISTORY_HIGHLY_SUSPICIOUS if re.search(r"highly suspicious|typical|muito suspeit|tipic", text)
                   else tools_pb2.HEART_HISTORY_MODERATELY_SUSPICIOUS if re.search(r"moderately suspicious|moderadamente suspeit", text)
                   else tools_pb2.HEART_HISTORY_SLIGHTLY_SUSPICIOUS if re.search(r"slightly suspicious|low suspicion|pouco suspeit|nonspecific history", text)
                   else tools_pb2.HEART_HISTORY_UNSPECIFIED)
        ecg = (tools_pb2.HEART_ECG_SIGNIFICANT_ST_DEVIATION if re.search(r"st (?:depression|elevation|deviation)|infradesnivel|supradesnivel|desnivelamento", text)
               else tools_pb2.HEART_ECG_NONSPECIFIC_REPOLARIZATION if re.search(r"nonspecific|non-specific|repolari[sz]|lbbb|lvh|bre\b|paced|inespecific", text)
               else tools_pb2.HEART_ECG_NORMAL if re.search(r"normal (?:ecg|ekg)|(?:ecg|ekg)\s+(?:is\s+|was\s+)?normal|ecg sem alteracoes", text)
               else tools_pb2.HEART_ECG_UNSPECIFIED)
        troponin = (tools_pb2.HEART_TROPONIN_OVER_THREE_TIMES if re.search(r"troponin\w*\s+(?:over|above|>|more than|acima de)\s*3|troponin\w* [4-9]x|troponin\w* (?:triple|tripled)", text)
                    else tools_pb2.HEART_TROPONIN_ONE_TO_THREE_TIMES if re.search(r"troponin\w*\s+(?:[123]x|[123] times|1-3|once|twice|double|elevated|mildly|elevada|levemente)", text)
                    else tools_pb2.HEART_TROPONIN_NORMAL if re.search(r"troponin\w*\s+(?:is\s+|was\s+)?(?:normal|negative|negativa)|normal troponin|negative troponin", text)
                    else tools_pb2.HEART_TROPONIN_UNSPECIFIED)
        counted = _RISK_FACTOR_COUNT.search(text)
        factors = int(counted.group(1)) if counted else sum(
            _flag(text, words) for words in (_HYPERTENSION, _CHOLESTEROL, _DIABETES, _OBESITY, _SMOKING, _FAMILY))
        inputs = tools_pb2.HeartInputs(history=history, ecg=ecg, age=age or 0, risk_factor_count=factors,
                                       atherosclerotic_disease=_flag(text, _ATHEROSCLEROTIC), troponin=troponin)
        missing += [name for name, unset in (("history", not history), ("ecg", not ecg), ("age", age is None),
                                              ("troponin", not troponin)) if unset]
        request = tools_pb2.ComputeRiskScoreRequest(heart=inputs)
    elif score == "wells_pe":
        heart_rate = _number(text, r"\b(?:hr|heart rate|pulse|fc|frequencia cardiaca)\s*(?:of|de|:)?\s*(\d{2,3})")
        request = tools_pb2.ComputeRiskScoreRequest(wells_pe=tools_pb2.WellsPeInputs(
            clinical_signs_of_dvt=_flag(text, r"signs of dvt|dvt signs|leg swelling|calf (?:swelling|tenderness)|sinais de tvp|edema (?:da|de) perna"),
            pe_most_likely_diagnosis=_flag(text, r"pe (?:is )?(?:the )?most likely|pe more likely|tep (?:e )?(?:o )?mais provavel"),
            heart_rate_over_100=(heart_rate or 0) > 100 or _flag(text, r"tachycard|taquicard"),
            immobilization_or_recent_surgery=_flag(text, r"immobili[sz]|bedridden|recent surgery|surgery \d+ weeks? ago|cirurgia recente|imobiliza|acamad"),
            previous_dvt_or_pe=_flag(text, r"previous (?:dvt|pe)|prior (?:dvt|pe)|history of (?:dvt|pe)|tvp previa|tep previo"),
            hemoptysis=_flag(text, r"hemoptysis|hemoptise"),
            malignancy=_flag(text, r"cancer|malignan|neoplas|tumou?r")))
    elif score == "curb65":
        systolic, diastolic = _blood_pressure(text)
        urea, rate = _number(text, _UREA), _number(text, _RR)
        request = tools_pb2.ComputeRiskScoreRequest(curb65=tools_pb2.Curb65Inputs(
            confusion=_flag(text, _CONFUSED), urea_mmol_per_l=urea or 0, respiratory_rate=int(rate or 0),
            systolic_bp=systolic or 0, diastolic_bp=diastolic or 0, age=age or 0))
        missing += [name for name, value in (("urea_mmol_per_l", urea), ("respiratory_rate", rate),
                                              ("blood_pressure", diastolic), ("age", age)) if value is None]
    else:
        systolic, _ = _blood_pressure(text)
        rate = _number(text, _RR)
        request = tools_pb2.ComputeRiskScoreRequest(qsofa=tools_pb2.QsofaInputs(
            respiratory_rate=int(rate or 0), altered_mentation=_flag(text, _CONFUSED), systolic_bp=systolic or 0))
        missing += [name for name, value in (("respiratory_rate", rate), ("systolic_bp", systolic)) if value is None]
    return ToolCall(Action.COMPUTE_SCORE, request), [f"{score}.{name}" for name in missing]


# -- drugs and guidelines --------------------------------------------------------------------------

_NAME = r"[a-z][a-z0-9-]{2,30}"
_NAMES = rf"{_NAME}(?:\s*(?:,|\+|and|e|with|com)\s*{_NAME})*"
_INTERACTION = (
    _re(rf"\b(?:interactions?|interacoes|interacao|interage)\s+(?:between|among|of|entre|de|da|do)\s+(?P<names>{_NAMES})"),
    _re(rf"\b(?:is|are|e)\s+(?P<a>{_NAME})\s+(?:safe|seguro|segura)\s+(?:to take\s+|de tomar\s+)?(?:together\s+)?"
        rf"(?:with|along with|combined with|com|junto com)\s+(?P<b>{_NAME})"),
    _re(rf"\b(?:can i take|can you take|can he take|can she take|posso tomar|pode tomar|e seguro tomar|e seguro usar)\s+"
        rf"(?P<a>{_NAME})\s+(?:together\s+)?(?:with|and|along with|com|e|junto com)\s+(?P<b>{_NAME})"),
    _re(rf"\b(?P<a>{_NAME})\s+(?:\+|interacts? with|interage com|junto com)\s+(?P<b>{_NAME})"),
)
_SAFETY = (
    _re(rf"\b(?:boxed warnings?|black box(?: warning)?|tarja preta|alerta(?: de tarja)?|contraindications?|contraindicacoes"
        rf"|contraindicacao|safety|seguranca|warnings?|cautions?|precaucoes|adverte\w*)\s+(?:for|of|on|about|do|da|de|sobre|para)\s+"
        rf"(?:o\s+|a\s+)?(?P<name>{_NAME})"),
    _re(rf"\b(?:is|e)\s+(?:o\s+|a\s+)?(?P<name>{_NAME})\s+(?:safe|seguro|segura)\b(?!\s+(?:with|com|together|junto))"),
    _re(rf"\b(?P<name>{_NAME})\s+(?:boxed warning|safety|seguranca|contraindications?|contraindicacoes)\b"),
)
_GUIDELINE = (
    _re(r"\b(?:what do|what does|what do the|o que (?:as|a))\s*(?:the\s+)?(?:current\s+)?(?:guidelines?|diretrizes?)"
        r"\s+(?:say|recommend|dizem|diz|recomendam|recomenda)\s+(?:about|on|for|sobre|para|em)\s+(?P<q>[^?.;]+)"),
    _re(r"\b(?:guidelines?|diretrizes?|recommendations?|recomendacoes|recomendacao)\s+(?:on|for|about|sobre|para|de)\s+(?P<q>[^?.;]+)"),
)
_STOP_NAMES = frozenset("""the a an it this that my your his her them these those i you he she we they and with safe
together o a os as um uma meu minha seu sua ele ela isso este esta com junto e""".split())


def _names(raw: str) -> list[str]:
    parts = re.split(r"\s*(?:,|\+|\band\b|\be\b|\bwith\b|\bcom\b)\s*", raw)
    return list(dict.fromkeys(p for p in (part.strip() for part in parts) if p and p not in _STOP_NAMES))


def read(message: str) -> ToolTask:
    """The tool calls a message asks for (empty when it asks none)."""
    text = fold(message)
    task = ToolTask()
    for score, pattern in _SCORES:
        if pattern.search(text):
            call, missing = _score_call(score, text)
            task.score = score
            task.missing += missing
            if not missing:
                task.calls.append(call)
            break
    drugs_in_pairs: set[str] = set()
    for pattern in _INTERACTION:
        if m := pattern.search(text):
            names = _names(m["names"]) if "names" in pattern.groupindex else _names(f"{m['a']}, {m['b']}")
            if len(names) >= 2:
                drugs_in_pairs.update(names)
                task.calls.append(ToolCall(Action.CHECK_INTERACTIONS,
                                           tools_pb2.CheckInteractionsRequest(drug_names=names[:10])))
                break
    for pattern in _SAFETY:
        for m in pattern.finditer(text):
            name = m["name"]
            if name not in _STOP_NAMES and name not in drugs_in_pairs:
                task.calls.append(ToolCall(Action.CHECK_DRUG_SAFETY, tools_pb2.CheckDrugSafetyRequest(drug_name=name)))
    for pattern in _GUIDELINE:
        if m := pattern.search(text):
            # The user's own spelling when folding kept the offsets (it does for composed text).
            query = (message if len(message) == len(text) else text)[m.start("q"):m.end("q")].strip()
            query = re.split(r"\s+(?:and|e)\s+(?:is|what|can|e|é|o que|qual|quais)\b", query, flags=re.I)[0]
            task.calls.append(ToolCall(Action.SEARCH_GUIDELINES, tools_pb2.SearchGuidelinesRequest(query=query, top_k=3)))
            break
    task.calls = list({c.key: c for c in task.calls}.values())
    return task
