"""PHI detection for chat messages in Portuguese and English, HIPAA Safe Harbor's identifiers as
the guide: names, national ids (CPF, RG, SSN), phone numbers, e-mails, birth dates, street
addresses and places of residence, postal codes, record and patient ids, ages over 89, URLs and
IP addresses.

Recall comes first (a miss sends PHI to a cloud model; a false hit only keeps a message local),
so a CPF-shaped number with wrong check digits still counts. Public names are not PHI: doctors,
clinics and their street addresses, and the ids the system issues for appointments and slots.

Built on Presidio's recognizers, each called directly (no AnalyzerEngine: that needs a spaCy
model; no NLP engine at all; its pattern recognizers through `pattern_scan`, same results), with
a names gazetteer (`gazetteer`) and usaddress for US addresses (`addresses`). Nothing touches the
network: the e-mail recognizer's public suffix list is the snapshot bundled with tldextract. Context
words ("celular", "CPF", "SSN") raise a weak match's score the way Presidio's context enhancer would,
from a window of text before it.
The detector holds no mutable state after __init__: one instance serves concurrent callers.
"""

import re
from collections.abc import Iterable
from dataclasses import dataclass

from presidio_analyzer import RecognizerResult

from orchestrator.privacy import catalogue, pattern_scan
from orchestrator.privacy.catalogue import Entry
from orchestrator.privacy.gazetteer import frequent_words
from orchestrator.privacy.names import (
    NAME_STOP_WORDS,
    PublicNames,
    asked_name_recognizer,
    asks_if_booked,
    asks_someone,
    bare_kin_name_recognizer,
    booked_name_recognizer,
    charted_name_recognizer,
    charts_age_and_sex,
    corrected_name_recognizer,
    cued_name_recognizer,
    cues_name,
    ends_after_comma,
    gazetteer_name_recognizer,
    kin_closing_name_recognizer,
    kin_name_recognizer,
    name_pair_recognizer,
    name_recognizer,
    names_a_title_or_bed,
    names_kin,
    names_whose,
    opening_name_recognizer,
    patient_name_spans,
    possessive_name_recognizer,
    says_not,
    signed_name_recognizer,
    tells_kinship,
    titled_name_recognizer,
)
from orchestrator.privacy.slot_names import SlotNames, names_a_slot
from orchestrator.privacy.subject_names import SubjectNames
from orchestrator.privacy.syllable_names import ChineseNames, names_a_chinese_surname
from runtime.text.fold import strip_accents

CATEGORIES = ("NAME", "NATIONAL_ID", "PHONE", "EMAIL", "BIRTH_DATE", "ADDRESS", "POSTAL_CODE", "RECORD_ID",
              "AGE_OVER_89", "URL", "IP_ADDRESS")

MIN_SCORE = 0.3  # weak shapes (any 9 digits as an SSN, 1234-5678 as a phone) need a context word
CONTEXT_BOOST = 0.4
CONTEXT_WINDOW = 40  # characters before a match searched for its context words
_WARM_UP = ("Maria Souza, CPF 529.982.247-25, maria@example.com, https://example.com 10.0.0.1, "
            "(11) 98765-4321, +1 415 555 0100")


@dataclass(frozen=True)
class PhiSpan:
    start: int
    end: int
    category: str


@dataclass(frozen=True)
class PhiResult:
    spans: tuple[PhiSpan, ...]

    @property
    def categories(self) -> tuple[str, ...]:
        return tuple(sorted({span.category for span in self.spans}))

    @property
    def found(self) -> bool:
        return bool(self.spans)


@dataclass(frozen=True)
class _Candidate:
    start: int
    end: int
    category: str
    score: float

    def within(self, start: int, end: int) -> bool:
        return start <= self.start and self.end <= end

    def outranks(self, other: "_Candidate") -> bool:
        """A match inside a stronger match of another category is a misreading of it: the ZIP+4
        shape inside "(11) 98765-4321", the URL inside an e-mail address. Equal scores keep both.
        An address is the exception: the postal code or phone written inside it is one of its own."""
        return (self.category not in (other.category, "ADDRESS") and self.score > other.score
                and other.within(self.start, self.end))


class PhiDetector:
    """`detect` finds PHI spans in a message; `redact` replaces them by "[CATEGORY]".

    known_doctors, clinic_names and clinic_addresses are public: a name or address inside one of
    their mentions is not PHI."""

    def __init__(self, known_doctors: Iterable[str] = (), clinic_names: Iterable[str] = (),
                 clinic_addresses: Iterable[str] = ()) -> None:
        self._entries = (*catalogue.build(), *(Entry(recognizer, catalogue.always) for recognizer in (
            name_recognizer(), name_pair_recognizer(), gazetteer_name_recognizer())),
                         Entry(kin_name_recognizer(), tells_kinship),
                         Entry(possessive_name_recognizer(), names_whose),
                         Entry(corrected_name_recognizer(), says_not),
                         Entry(bare_kin_name_recognizer(), names_kin),
                         Entry(kin_closing_name_recognizer(), names_kin),
                         Entry(cued_name_recognizer(), cues_name),
                         Entry(titled_name_recognizer(), names_a_title_or_bed),
                         Entry(signed_name_recognizer(), ends_after_comma),
                         Entry(charted_name_recognizer(), charts_age_and_sex),
                         Entry(opening_name_recognizer(), catalogue.always),
                         Entry(asked_name_recognizer(), asks_someone),
                         Entry(booked_name_recognizer(), asks_if_booked),
                         Entry(SlotNames(NAME_STOP_WORDS), names_a_slot),
                         Entry(SubjectNames(NAME_STOP_WORDS), catalogue.always),
                         Entry(ChineseNames(NAME_STOP_WORDS, frequent_words()), names_a_chinese_surname))
        # Several recognizers share a gate ("has a digit"): each gate is tested once, before its recognizers.
        by_gate: dict[catalogue.Gate, list[tuple[pattern_scan.Analyze, re.Pattern[str] | None]]] = {}
        for entry in self._entries:
            by_gate.setdefault(entry.gate, []).append(
                (pattern_scan.analyzer(entry.recognizer), _context_pattern(entry.recognizer.context)))
        self._gated = tuple((gate, tuple(analyzers)) for gate, analyzers in by_gate.items())
        self._doctors = frozenset(known_doctors)
        self._clinics = (tuple(clinic_names), tuple(clinic_addresses))
        self._public = PublicNames(self._doctors, *self._clinics)
        # Presidio compiles patterns and tldextract loads its suffix list on first use: do both
        # here, once, rather than racing on them in concurrent first calls.
        for entry in self._entries:
            entry.recognizer.analyze(strip_accents(_WARM_UP), entry.recognizer.supported_entities)

    def know_doctors(self, doctors: Iterable[str]) -> None:
        """Doctors learned after start (a clinic that was down then) are public from now on."""
        doctors = frozenset(doctors)
        if doctors != self._doctors:
            self._doctors = doctors
            self._public = PublicNames(doctors, *self._clinics)

    def detect(self, text: str, *, patient_names: Iterable[str] = ()) -> PhiResult:
        """PHI spans in `text`; `patient_names` are the session's own patient, whose name is PHI too."""
        plain = strip_accents(text)
        candidates = self._recognized(plain)
        candidates += [_Candidate(*span, "NAME", 1.0) for span in patient_name_spans(plain, patient_names)]
        candidates = [c for c in candidates if c.score >= MIN_SCORE]
        if candidates:  # most messages have none: skip the public-name scans
            candidates = self._not_public(plain, candidates)
        return PhiResult(_merge(_drop_outranked(candidates)))

    def redact(self, text: str, result: PhiResult | None = None) -> str:
        """`text` with each PHI span replaced by "[CATEGORY]"; overlapping spans become one, named
        after the longest of them."""
        result = self.detect(text) if result is None else result
        out, last = [], 0
        for start, end, category in _non_overlapping(result.spans):
            out += [text[last:start], f"[{category}]"]
            last = end
        out.append(text[last:])
        return "".join(out)

    def _not_public(self, plain: str, candidates: list[_Candidate]) -> list[_Candidate]:
        public = self._public.spans(plain)
        places = self._public.place_spans(plain) if any(c.category == "NAME" for c in candidates) else []
        return [c for c in candidates if not any(c.within(*p) for p in public)
                and not (c.category == "NAME" and any(c.within(*p) for p in places))]

    def _recognized(self, plain: str) -> list[_Candidate]:
        found = []
        for gate, analyzers in self._gated:
            if gate(plain):
                for analyze, context in analyzers:
                    found += [_Candidate(r.start, r.end, r.entity_type, _score(r, plain, context))
                              for r in analyze(plain)]
        return found


def _score(result: RecognizerResult, plain: str, context: re.Pattern[str] | None) -> float:
    """The recognizer's score, raised when one of its context words comes shortly before."""
    if context is None or not context.search(plain, max(0, result.start - CONTEXT_WINDOW), result.start):
        return result.score
    return min(1.0, result.score + CONTEXT_BOOST)


def _context_pattern(words: list[str] | None) -> re.Pattern[str] | None:
    """The recognizer's context words (Presidio's `context`) as one case-insensitive pattern."""
    if not words:
        return None
    return re.compile(r"(?i)\b(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in words) + r")\b")


def _drop_outranked(candidates: list[_Candidate]) -> list[PhiSpan]:
    return [PhiSpan(c.start, c.end, c.category) for c in candidates
            if not any(other.outranks(c) for other in candidates)]


def _overlapping(spans: Iterable[PhiSpan]) -> list[list[PhiSpan]]:
    """`spans` in order, grouped so that each group is a run of overlapping spans."""
    groups: list[list[PhiSpan]] = []
    for span in sorted(spans, key=lambda s: (s.start, s.end, s.category)):
        if groups and span.start < max(s.end for s in groups[-1]):
            groups[-1].append(span)
        else:
            groups.append([span])
    return groups


def _merge(spans: list[PhiSpan]) -> tuple[PhiSpan, ...]:
    """Overlapping spans of one category become one span; the result is sorted."""
    merged = [PhiSpan(group[0].start, max(s.end for s in group), category)
              for category in {s.category for s in spans}
              for group in _overlapping(s for s in spans if s.category == category)]
    return tuple(sorted(merged, key=lambda s: (s.start, s.end, s.category)))


def _non_overlapping(spans: Iterable[PhiSpan]) -> list[tuple[int, int, str]]:
    """One (start, end, category) per run of overlapping spans, named after its longest span
    (ties: the first category in alphabetical order)."""
    return [(group[0].start, max(s.end for s in group), min(group, key=_longest_first).category)
            for group in _overlapping(spans)]


def _longest_first(span: PhiSpan) -> tuple[int, str]:
    return span.start - span.end, span.category
