"""Criteria as read from clinical sentences, in Portuguese and English, with the words they came from.

Findings are read in context, NegEx-style: a negation ("no", "denies", "negative for", "sem",
"nega") covers the findings after it up to the end of its clause ("no diabetes, stroke or heart
failure"), and a finding followed by ": no", "absent" or "negativo" is denied. Numbers are read
with their units and converted to the scores' own (BUN mg/dL x 0.357 and Brazilian urea mg/dL /
6.0 to urea mmol/L, a Portuguese "ureia" or "Ur" without a unit being mg/dL as Brazilian labs
report it; a Brazilian "PA 8x5" in cmHg to 80/50 mmHg).
"""

import functools
import re
from dataclasses import dataclass

from runtime.text.language import detect_language


@dataclass(frozen=True)
class Criterion:
    """One criterion as read: its name, the value read and the message's words behind it."""

    name: str
    value: str
    words: str = ""  # empty: not mentioned, counted as absent


# -- context --------------------------------------------------------------------------------------

_PRE_NEGATION = re.compile(
    r"(?:\b(?:no|not|without|denies|denied|deny|negative for|free of|absence of|never|nor|sem|nega|negou|negando"
    r"|nao|nunca|nenhum|nenhuma|ausencia de|nem|negativo para|negativa para)\b|n't\b)"
    # An auxiliary right after the negation belongs to it: "never had", "has not had", "nao tem".
    r"(?:\s+(?:had|have|has|been|got|shown|tive|teve|tem|tinha|possui|sofre de|sofreu|apresentou|apresenta"
    r"|esta|estava|ta|foi|e))?")
# What ends a negation's scope: the clause ends, or a new assertion starts.
_SCOPE_END = re.compile(
    r"[.;)]|\d|\b(?:but|however|although|though|mas|porem|entretanto|contudo|with|com|has|have|had|presents?"
    r"|presenting|apresenta|tem|tinha|reports?|refere|positive|positivo|is|are|was|were|esta)\b"
    # A list item that asserts itself: "no diabetes, prior stroke".
    r"|,\s*(?:prior|previous|history of|known|recent|current|positive|hx|s/p|status post|old|previo|previa"
    r"|historia de|antecedente)\b")
_POST_NEGATION = re.compile(
    r"(?:\s*/\s*\w+|\s+or\s+\w+)*"  # "Stroke/TIA: no"
    r"\s*(?:[:=(-]\s*|\s(?:is|was|are|were|e|esta|foi)\s+)?(?:no|not present|absent|negative|none|nao|ausentes?"
    r"|negativ[oa]s?|negad[oa]s?|nega|negou|denied|denies|nenhum|nenhuma)\b")
_TEST_BEFORE = re.compile(r"\b(?:ecg|ekg|eletro|electrocardiogram|eletrocardiograma|exame|x-ray|rx|echo)\b[^,.;]*$")
_FORMER = re.compile(r"\b(?:former|ex|quit|stopped|previous|parou|deixou de)\b")
WHEN_QUIT = re.compile(r"(\d+)\s*(days?|d|weeks?|wks?|months?|mos?|years?|yrs?|dias?|semanas?|mes|meses|anos?)\b")
_DAYS = {"da": 1, "d": 1, "di": 1, "we": 7, "wk": 7, "se": 7, "mo": 30, "me": 30, "ye": 365, "yr": 365, "an": 365}


def days(when: re.Match[str]) -> int:
    """The days of a WHEN_QUIT match ("3 weeks", "1 mes", "2 yrs"), by the unit's first letters."""
    return int(when.group(1)) * _DAYS[when.group(2)[:2]]


def former(text: str, words: str) -> bool:
    """A smoker who quit more than three months ago (HEART counts current or recent smoking)."""
    at = text.find(words)
    clause = text[max(0, at - 40):at + len(words) + 40]
    if not _FORMER.search(clause):
        return False
    when = WHEN_QUIT.search(clause)
    if when is None:
        return True
    return days(when) > 90


def abbreviation(text: str, original: str, abbreviation: str) -> str:
    """An upper-case abbreviation of the original message (HAS: hipertensão arterial
    sistêmica), not denied in its folded text."""
    if len(text) != len(original):
        return ""
    for m in re.finditer(rf"\b{abbreviation}\b", original):
        if not denied(text, m.start(), m.end()):
            return m.group(0)
    return ""


def denied(text: str, start: int, end: int, *, own_clause: bool = False) -> bool:
    """A finding at text[start:end] is denied by a negation before it in its clause, or right
    after it (": no", "negativo"). `own_clause`: the finding is a judgement ("PE most likely")
    that a list of denied findings before a comma does not reach ("no DVT signs, PE most likely")."""
    if (after := _POST_NEGATION.match(text, end)) and not (re.fullmatch(r"\s+no", after.group(0)) and portuguese(text)):
        return True
    if re.search(r"\bnon[- ]?$", text[max(0, start - 4):start]):  # "non-smoker": the joined word alone
        return True
    head = text[max(0, start - 120):start]
    if own_clause:
        head = head[head.rfind(",") + 1:]
    last = None
    for m in _PRE_NEGATION.finditer(head):
        if m.group(0).split()[0] != "no" or not portuguese(text):  # Portuguese "no" is "in the"
            last = m
    if last is None or _SCOPE_END.search(head, last.end()):
        return False
    # A comma ends the scope after a phrase ("sem edema de MMII, TEP é…"), not inside a list of
    # single findings ("no diabetes, stroke or heart failure"); a test's "ECG sem alterações" is
    # about the test alone.
    negated, comma, _ = head[last.end():].partition(",")
    listed = _listed(text, start - len(head) + last.end())
    if comma and ((len(negated.split()) > 2 and not listed) or _TEST_BEFORE.search(head, 0, last.start())):
        return False
    return True


def _listed(text: str, negation_end: int) -> bool:
    """The negation heads a list that ends in "or" ("sem doença viral recente, cirurgia, trauma
    ou imobilização"): it covers every item of the list."""
    clause = re.match(r"[^.;]*", text[negation_end:]).group(0)
    return bool(re.search(r",[^,]*\b(?:or|nor|ou|nem)\b", clause))


# Clinical words the general language words miss: a short clinical note ("52 anos, BRE no ECG,
# tabagista") carries few of those.
_PT_CLINICAL = re.compile(r"\b(?:anos|historia|suspeita|ureia|troponina|pressao|frequencia|sinais|nega|tabagista"
                          r"|hipertens[oa]|diabetic[oa]|escore|calcule|sem|ausente|sim|mulher|homem|idos[oa]|irpm"
                          r"|paciente|feminino|masculino|confus[oa]|orientad[oa]|lucid[oa])\b")
_EN_CLINICAL = re.compile(r"\b(?:years?|history|suspicious|urea|troponin|pressure|rate|signs|denies|smoker"
                          r"|hypertensive|diabetic|score|calculate|without|absent|woman|man|old|breaths"
                          r"|female|male|patient|confusion|confused|alert|oriented|y/o|yo)\b")


def _clinical_words(text: str) -> tuple[int, int]:
    return len(_PT_CLINICAL.findall(text)), len(_EN_CLINICAL.findall(text))


@functools.lru_cache(maxsize=256)
def portuguese(text: str) -> bool:
    """Portuguese by its words; a terse English note the general words take for Portuguese ("80 y/o
    female, ..., no confusion") is English when it has English clinical words and no Portuguese ones."""
    pt_hint, en_hint = _clinical_words(text)
    return detect_language(text, hints=_clinical_words) == "pt" and not (pt_hint == 0 and en_hint >= 2)


def finding(text: str, pattern: str) -> str:
    """The words of the first mention of `pattern` that is not denied ("" when none)."""
    for m in re.finditer(pattern, text):
        if not denied(text, m.start(), m.end()):
            return m.group(0)
    return ""


def flag(name: str, text: str, pattern: str) -> tuple[bool, Criterion]:
    words = finding(text, pattern)
    return bool(words), Criterion(name, "yes" if words else "no", words)


# -- numbers --------------------------------------------------------------------------------------

_NUM = r"(\d{1,3}(?:[.,]\d+)?)"
# Relatives by sex, as patients and their families name them (folded: "avo" is both avó and avô).
FEMALE_RELATIVES = (r"mother|mom|mum|daughter|sister|wife|grandmother|grandma|granny|aunt|niece|mother-in-law"
                    r"|mae|filha|irma|esposa|tia|sogra|neta|sobrinha|madrasta|cunhada|nora")
MALE_RELATIVES = (r"father|dad|son|brother|husband|grandfather|grandpa|uncle|nephew|father-in-law"
                  r"|pai|filho|irmao|marido|esposo|tio|sogro|neto|sobrinho|padrasto|cunhado|genro")
RELATIVES = rf"(?:{FEMALE_RELATIVES}|{MALE_RELATIVES}|avo|(?:d[ao]|minha|meu)\s+vo(?:vo)?)"  # "da vó", "meu vô"
# A number of days, hours ... is a duration, not a rate ("breathing that started 2 days ago").
_NOT_DURATION = (r"(?![.,]?\d)(?!\s*(?:days?|hours?|hrs?|h|weeks?|months?|years?|yrs?|dias?|horas?|semanas?|meses|mes"
                 r"|anos?|%)\b)")
_AGE = re.compile(
    r"\b(\d{1,3})\s*-?\s*(?:years?|yrs?|y)\s*-?\s*(?:old|o)\b|\b(\d{1,3})\s*(?:(?:yo|y/o)\b|y\.\s?o\b)"
    r"|\b(?:aged|age|idade)\s*(?:of|de|is|:|=)?\s*(\d{1,3})\b|\b(\d{1,3})\s*anos\b"
    r"|\b(?:is|tem|he's|she's|hes|shes|'s|i'm|i am|im|esta com|tenho|turned|turns|fez|completou)\s+(\d{2,3})\b(?![.,]\d|\s*(?:%|mg|mm|kg|cm|bpm|x|/|°|degrees|graus|f\b|c\b))"
    r"|\b(\d{2,3})\s*years?\b(?!\s+ago)|\b(\d{2,3})(?:m|f)\b|\b(\d{2,3})\s?a\b(?![.,]\d)"
    r"|\b[mf]\s*/\s*(\d{2,3})\b|\b(\d{2,3})\s*/\s*[mf]\b"
    # "Mr. K, 71, ...", "Sra. M., 66": a bare number after a title and a name
    r"|\b(?:mr|mrs|ms|miss|sr|sra|dona|seu)\.?\s+[a-z]\w*\.?\s*,\s*(\d{2,3})\b(?![.,]\d|\s*(?:%|mg|mm|kg|/|x))"
    # "homem de 55", "a woman of 45": a person's noun, then the number
    r"|\b(?:homem|mulher|man|woman|senhor[a]?|idos[oa]|paciente|patient|rapaz|moca|lady|gentleman|guy)\s+"
    r"(?:de|of|aged)\s+(\d{2,3})\b(?![.,]\d|\s*(?:%|mg|mm|kg|cm|/|x|dias|days|semanas|weeks|meses|months))"
    # "female, 58, diabetes", "my uncle, 68": a bare number right after the sex or a relative is the age
    rf"|\b(?:female|male|woman|man|mulher|homem|feminino|masculino|{RELATIVES})\s*,\s*(\d{{2,3}})\b"
    r"(?![.,]\d|\s*(?:%|mg|mm|kg|/))"
    # "male 71, prior stroke", "meu avô de 70", "my grandpa of 80": the number right after the person
    rf"|\b(?:female|male|{RELATIVES})\s+(?:(?:de|of)\s+)?(\d{{2,3}})\b(?![.,]\d|\s*(?:%|mg|mm|kg|/|x|dias|days"
    r"|semanas|weeks|meses|months))"
    # A decade, then the year within it: "in his 50s, 57 exactly", "nos 70, 74 pra ser exato".
    r"|\b(?:in\s+(?:his|her|their|my|the)|nos|na\s+casa\s+dos)\s+\d0'?s?\b[^.\d]{0,12}?\b(\d{2})\b(?![.,]\d|\s*(?:%|mg|/))")
# A keyword, then its number within a few words ("respirations are 22/min", "a pressão está 13 por 8").
_GAP = r"\b[^.;\d]{0,28}?"
RR = re.compile(
    rf"\b(?:rr|respiratory rate|resp(?:iratory)?\.? rate|resps?|respirations?|breathing|respiracao|respirando|tachypn\w*"
    rf"|taquipn\w*|fr|frequencia respiratoria|respira){_GAP}{_NUM}{_NOT_DURATION}"
    rf"|\b{_NUM}\s*(?:breaths?\s*(?:/|per)\s*min\w*|rpm|irpm|ipm|mrm)\b"
    rf"|\bresps?\.\s*:?\s*{_NUM}{_NOT_DURATION}")  # "resp. 32": no word boundary after the dot
HR = re.compile(
    rf"\b(?:hr|heart rate|pulse(?: rate)?|fc|frequencia cardiaca|pulso|coracao|tachycardic|taquicardic\w*){_GAP}"
    rf"(\d{{2,3}})\b{_NOT_DURATION}|\b(\d{{2,3}})\s*(?:bpm|beats?\s*(?:/|per)\s*min\w*)")
_BP = re.compile(
    rf"\b(?:bp|blood pressure|pa|pressao arterial|pressao|ta|hypotensi\w*|hipotens\w*){_GAP}(\d{{1,3}})\s*(?:/|x|over|por)\s*(\d{{1,3}})(?!\d)"
    # a pair in mmHg needs no name: "132/106 mmHg of blood pressure"
    r"|\b(\d{2,3})\s*(?:/|x)\s*(\d{2,3})\s*mm\s*hg\b")
_SBP = re.compile(
    rf"\b(?:sbp|systolic(?: blood pressure| bp| pressure)?|pas|pressao (?:arterial )?sistolica|sistolica)"
    rf"\s*(?:of|de|is|was|=|:|em)?\s*{_NUM}")
_DBP = re.compile(
    rf"\b(?:dbp|diastolic(?: blood pressure| bp| pressure)?|pad|pressao (?:arterial )?diastolica|diastolica)"
    rf"\s*(?:of|de|is|was|=|:|em)?\s*{_NUM}")
_UREA = re.compile(
    rf"\b(bun|blood urea nitrogen|urea nitrogen|serum urea|urea|ureia|ur\b){_GAP}{_NUM}"
    r"(?:\s*(mmol\s*/?\s*l|mmol|mg\s*/?\s*dl|mg\s*%|mg/100\s*ml))?")
GCS = re.compile(r"\b(?:gcs|glasgow(?: coma scale| coma score| score)?)(?: score)?\s*(?:of|de|is|was|=|:)?\s*(\d{1,2})\b"
                 # "classified as 13 (E3V4M6) on the Glasgow Coma Scale"
                 r"|\b(\d{1,2})\s*(?:/\s*15\s*)?(?:\([^)]{0,12}\)\s*)?(?:on|in|na|no|pela)\s+(?:the\s+|a\s+)?(?:gcs|glasgow|escala de"
                 r" (?:coma de )?glasgow)\b")

# The Abbreviated Mental Test (of 10): 8 or less is CURB-65's confusion (Lim 2003).
AMT = re.compile(r"\b(?:amts?|abbreviated mental test(?: score)?)\s*(?:score\s*)?(?:of|de|is|was|=|:)?\s*(\d{1,2})\b"
                 r"(?:\s*/\s*10\b)?")


def _value(m: re.Match[str]) -> float:
    return float(next(g for g in m.groups() if g is not None).replace(",", "."))


def read_age(text: str) -> Criterion | None:
    for m in _AGE.finditer(text):
        age = int(next(g for g in m.groups() if g is not None))
        if 0 < age < 120:
            return Criterion("age", str(age), m.group(0))
    return None


def read_number(name: str, pattern: re.Pattern[str], text: str) -> Criterion | None:
    m = pattern.search(text)
    return Criterion(name, f"{_value(m):g}", m.group(0)) if m else None


def read_blood_pressure(text: str) -> tuple[Criterion | None, Criterion | None]:
    """Systolic and diastolic in mmHg; a Brazilian "8x5" is in cmHg."""
    if m := _BP.search(text):
        systolic, diastolic = (int(g) for g in (m.group(1, 2) if m.group(1) else m.group(3, 4)))
        if systolic < 30 and diastolic < 30:  # cmHg
            systolic, diastolic = systolic * 10, diastolic * 10
        return Criterion("systolic_bp", str(systolic), m.group(0)), Criterion("diastolic_bp", str(diastolic), m.group(0))
    return read_number("systolic_bp", _SBP, text), read_number("diastolic_bp", _DBP, text)


def read_urea(text: str) -> Criterion | None:
    """Urea in mmol/L: BUN in mg/dL x 0.357; urea in mg/dL (as Brazilian labs report it) / 6.0;
    without a unit, BUN and a Portuguese "ureia" or "Ur" are mg/dL, and an English urea above 25."""
    m = _UREA.search(text)
    if not m:
        return None
    kind, value, unit = m.group(1), float(m.group(2).replace(",", ".")), (m.group(3) or "").replace(" ", "")
    if "bun" in kind or "nitrogen" in kind:
        mmol = value if unit.startswith("mmol") else value * 0.357
    elif unit.startswith("mg") or (not unit and (kind in ("ureia", "ur") or value > 25)):
        mmol = value / 6.0
    else:
        mmol = value
    return Criterion("urea_mmol_per_l", f"{mmol:.1f}", m.group(0))
