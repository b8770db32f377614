"""Red-flag rules: emergencies in a raw user message, Portuguese and English.

The rules are data: verifier/data/redflags.yaml, each with its public sources, its patterns
over the folded message (no accents, lowercase, one space) and the examples it must flag.
This module is the engine that reads them in context. Patterns match the symptom itself,
not the verb before it, so a clear negation right before the symptom ("no chest pain", "sem
dor no peito", "não tenho dor no peito", "denies chest pain") can be told apart, and so can a
past event told as history ("I had a stroke two years ago and need a check-up") and a
clinician's question about someone else ("HEART score for a patient with chest pain"). Such
a hit is skipped, never the message: any other hit still counts. Mental health and poisoning
hits always count: a wrong "not suicidal" reading costs too much.

A message with no red flag that touches a high-risk topic (a fall, a knock on the head, a
burn …) gets that topic's deciding question ("asks" in the catalogue), asked before anything
else; the answer decides.
"""

import functools
import re
import unicodedata
from dataclasses import dataclass, field
from importlib import resources

import yaml

from healthmesh.v1 import verifier_pb2
from verifier.text import fold

CATALOGUE = "redflags.yaml"
_MACRO = re.compile(r"<([A-Z_]+)>")


@dataclass(frozen=True)
class RedFlag:
    rule_id: str
    category: int  # verifier_pb2.RedFlagCategory


@dataclass(frozen=True)
class _Rule:
    rule_id: str
    category: int
    pattern: re.Pattern[str]
    also: re.Pattern[str] | None = None  # a second sign the message must show as well
    always_counts: bool = False


@dataclass(frozen=True)
class Ask:
    """A high-risk topic's deciding question, and the answer that means an emergency."""

    rule_id: str
    category: int
    pattern: re.Pattern[str]
    question: dict[str, str]  # language -> text
    emergency_if_yes: bool
    unless: re.Pattern[str] | None = None  # context in which the topic needs no question


@dataclass(frozen=True)
class Catalogue:
    rules: tuple[_Rule, ...]
    asks: tuple[Ask, ...]
    raw: dict
    # Every rule's (every ask's) patterns in one: no match means no rule (ask) has a hit, and one
    # scan of a message that touches none costs less than a scan per rule.
    any_rule: re.Pattern[str] = field(init=False)
    any_ask: re.Pattern[str] = field(init=False)

    def __post_init__(self) -> None:
        for name, entries in (("any_rule", self.rules), ("any_ask", self.asks)):
            object.__setattr__(self, name, re.compile("|".join(f"(?:{e.pattern.pattern})" for e in entries)))


def _category(name: str) -> int:
    return verifier_pb2.RedFlagCategory.Value(f"RED_FLAG_CATEGORY_{name}")


def parse(raw: dict) -> Catalogue:
    """The catalogue's rules compiled; a bad entry fails at start with its id named."""
    macros = raw.get("macros", {})

    def compiled(entry_id: str, *alternatives: str) -> re.Pattern[str]:
        expanded = [_MACRO.sub(lambda m: macros[m[1]], a) for a in alternatives]
        try:
            return re.compile("|".join(f"(?:{a})" for a in expanded))
        except (re.error, KeyError) as err:
            raise ValueError(f"red-flag catalogue entry {entry_id}: {err}") from None

    rules = tuple(
        _Rule(r["id"], _category(r["category"]), compiled(r["id"], *r["patterns"]),
              compiled(r["id"], r["also"]) if r.get("also") else None,
              always_counts=r["category"] in ALWAYS_COUNTS)
        for r in raw["rules"])
    asks = tuple(
        Ask(a["id"], _category(a["category"]), compiled(a["id"], *a["patterns"]), dict(a["question"]),
            a["emergency_if"] == "yes", compiled(a["id"], a["unless"]) if a.get("unless") else None)
        for a in raw.get("asks", ()))
    return Catalogue(rules, asks, raw)


@functools.cache
def catalogue() -> Catalogue:
    text = resources.files("verifier.data").joinpath(CATALOGUE).read_text(encoding="utf-8")
    return parse(yaml.safe_load(text))


# Told as negated or past, these still count: a wrong reading costs too much.
ALWAYS_COUNTS = ("MENTAL_HEALTH", "POISONING")

# A negation cue right before the symptom, within the same clause: "no", "not having",
# "sem", "não tenho", "denies any". Only a few words may stand between cue and symptom, so
# "not normal chest pain" or "no trabalho, dor no peito" are not read as negations.
_QUALIFIER = (r"(?:(?:any|a|an|the|more|further|new|recent|current|significant|real|severe|actual|obvious"
              r"|prior|previous|past|known|history of|signs? of|having|experiencing|feeling|mais|nova|novas"
              r"|qualquer|uma|um|sentindo|tendo|historico de|sinais? de|previo|previa)\s+){1,2}")
_NEGATION = re.compile(
    rf"(?:\b(?:no|not|never|without|zero|nenhuma?)\s+(?:{_QUALIFIER})?"
    r"|\bsem\s+(?:nenhuma?\s+|qualquer\s+|mais\s+)?"
    r"|\b(?:denies|deny|denied|nega|negou|nao tenho|nao tem|nao estou com|nao to com|nao sinto|nao senti"
    r"|nao tive|nunca tive|nunca senti|nao apresenta|nao (?:esta|ta|estava|fica|ficou) com"
    r"|isn'?t|aren'?t|wasn'?t|weren'?t|is not|are not|was not|were not|nao (?:esta|ta|estava)"
    r"|don'?t have|doesn'?t have|do not have|does not have"
    r"|didn'?t have|haven'?t had|hasn'?t had|free of|haven'?t|hasn'?t|have not|has not|didn'?t|did not"
    rf"|nunca|jamais)\s+(?:{_QUALIFIER})?)$"
)
_CLAUSE_BREAK = re.compile(r".*(?:[,.;:!?]|\b(?:but|mas|and|e|porem|however|although|embora)\b)", re.S)


# A past event told as history ("I had a stroke two years ago and need a check-up", "tive um
# AVC há dois anos"): a past verb before the symptom and a long-past time in its clause, in
# a message that says nothing is happening now or again.
_PAST_VERB = re.compile(r"\b(?:had|suffered|survived|tive|teve|sofri|sofreu)\b")
_AMOUNT = (r"(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|several|many|a few|um|uma|dois"
           r"|duas|tres|quatro|cinco|seis|sete|oito|nove|dez|alguns|algumas|muitos|varios|uns)")
_LONG_AGO = re.compile(
    rf"\b{_AMOUNT}\s+(?:years?|months?)\s+ago\b|\blast year\b|\bin (?:19|20)\d\d\b"
    rf"|\bha\s+{_AMOUNT}\s+(?:anos?|meses)\b|\b{_AMOUNT}\s+(?:anos?|meses)\s+atras\b"
    r"|\bano passado\b|\bem (?:19|20)\d\d\b"
)
_HAPPENING_NOW = re.compile(
    r"\b(?:again|another|today|tonight|this morning|right now|currently|still|same|back|returned"
    r"|recurring|started|since|having|happening|feel|feeling|de novo|novamente"
    r"|outra vez|outro|outra|hoje|ainda|mesmos?|mesmas?|voltou|voltaram|comecou|desde|tendo"
    r"|acontecendo|sentindo|sinto|(?:estou|esta|to|ta) (?:com|sentindo|tendo|passando mal))\b"
)
_CLAUSE_END = re.compile(r"[,.;:!?]|\b(?:but|mas|and|e|porem|however|although|embora)\b")

# A clinician's question about someone else: a score or a calculation asked for "a patient",
# "a 54-year-old man" ("HEART score for a patient with chest pain"), with nobody saying it is
# happening to them now. Its red-flag words describe the case, not an emergency.
_CALCULATION = re.compile(
    r"\b(?:heart (?:score|escore)|escore heart|cha2?ds2?[- ]?vasc|chads\w*|wells|curb[- ]?65|q[- ]?sofa"
    r"|centor|timi|nihss|score|escore|calculate|calcul[ae]r?|compute|pontuacao)\b")
_SOMEONE = re.compile(
    r"\b(?:patient|paciente|\d{1,3}[- ]?(?:year|yr)s?[- ]?old|\d{1,3}[- ]?y/?o|\d{1,3} anos|man|woman|male"
    r"|female|homem|mulher|senhor|senhora|idoso|idosa)\b")
_FIRST_PERSON_NOW = re.compile(
    r"\b(?:i have|i'?m having|i am having|i'?ve got|i feel|i'?m feeling|my (?:chest|heart|head)|right now"
    r"|estou com|to com|estou sentindo|sinto|meu peito|minha cabeca|agora mesmo)\b")


@dataclass(frozen=True)
class Reading:
    """The screen's reading of a message: a red flag; or red-flag words read as a
    clinician's question (`clinician`, the rule they would have hit); or a high-risk topic
    whose deciding question comes first (`ask`)."""

    flag: RedFlag | None = None
    clinician: RedFlag | None = None
    ask: Ask | None = None


def read(message: str) -> Reading:
    """The first rule (in priority order) with a hit that is neither negated, nor told as
    past history, nor a clinician's question; else the first high-risk topic touched."""
    text = normalize(message)
    history_possible = not _HAPPENING_NOW.search(text)
    clinician_question = bool(_CALCULATION.search(text) and _SOMEONE.search(text)
                              and not _FIRST_PERSON_NOW.search(text))
    described: RedFlag | None = None
    rules = catalogue().rules if catalogue().any_rule.search(text) else ()
    for rule in rules:
        if rule.also is not None and all(_negated(text, m.start()) for m in rule.also.finditer(text)):
            continue  # the second sign is absent, or only denied ("no vomiting, not sleepy")
        for m in rule.pattern.finditer(text):
            if rule.always_counts:
                return Reading(flag=RedFlag(rule.rule_id, rule.category))
            if _negated(text, m.start()) or (history_possible and _past_event(text, m)):
                continue
            if clinician_question:
                described = described or RedFlag(rule.rule_id, rule.category)
                continue
            return Reading(flag=RedFlag(rule.rule_id, rule.category))
    if described is not None or clinician_question:
        return Reading(clinician=described)
    asks = catalogue().asks if catalogue().any_ask.search(text) else ()
    for ask in asks:
        if ask.unless is not None and ask.unless.search(text):
            continue
        if any(not _negated(text, m.start()) for m in ask.pattern.finditer(text)):
            return Reading(ask=ask)
    return Reading()


def normalize(message: str) -> str:
    """Folded (from the composed form, so decomposed accents fold too), one space between
    words."""
    return " ".join(fold(unicodedata.normalize("NFC", message)).split())


def _past_event(text: str, hit: re.Match[str]) -> bool:
    clause = _CLAUSE_BREAK.match(text, 0, hit.start())
    start = clause.end() if clause else 0
    end = _CLAUSE_END.search(text, hit.end())
    stop = end.start() if end else len(text)
    return bool(_PAST_VERB.search(text, start, hit.start()) and _LONG_AGO.search(text, start, stop))


def _negated(text: str, start: int) -> bool:
    before = text[:start]
    clause = _CLAUSE_BREAK.match(before)
    return bool(_NEGATION.search(before[clause.end():] if clause else before))
