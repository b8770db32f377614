"""R4 for model text: a rephrasing says what its deterministic answer says, all of it and
nothing else, in the session's language; a summary says only what its passages say.

A rephrasing is read against the answer it rephrases (the reference):
- coverage: every id, date (with its written weekday and its role: "from", "to"), time and
  number, every doctor and clinic, and every content word (or an inflection or synonym);
- nothing new: no number, date, time or id the reference lacks, and no word outside the
  reference but the few function and courtesy words of the language (verifier.wording);
- polarity: as many negations as the reference, each in a clause about something the
  reference negates, and as many modal verbs (an offer, "I can book", is not a fact);
- language: every word not copied from the reference is a word of the session's language.
A summary is read against its passages and the question: no number and no content word
that they lack, negations only where a passage negates, in the session's language.
Notes carry counts, never the words: a model's text may hold personal data.
"""

import re
from collections.abc import Iterable
from dataclasses import dataclass

from healthmesh.v1 import verifier_pb2
from runtime.text.calendar_words import WEEKDAYS
from verifier.datetimes import find_dates, find_times
from verifier.text import OPAQUE_ID, blank, doctor_key, find_all, fold, mask_identifiers, segments
from verifier.wording import LANGUAGE_NAMES, Vocabulary, addable, foreign, is_modal, is_negation, tokens

_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
_WEEKDAY_BEFORE = re.compile(
    r"\b(?:" + "|".join(sorted(WEEKDAYS, key=len, reverse=True)) + r")(?:-feira)?\.?,?\s*$")
# The word before a date that gives it a role: where a move starts or ends.
_ROLES = {"from": "from", "de": "from", "desde": "from", "to": "to", "para": "to", "ate": "to",
          "until": "to"}


@dataclass
class _Reading:
    """What one text states: identifiers, dates, times, other numbers, words, negations."""

    ids: set[str]
    dates: set[str]
    weekdays: set[tuple[str, int]]  # (date, weekday written next to it)
    roles: set[tuple[str, str]]  # (date, "from" | "to")
    times: set[str]
    numbers: set[str]
    words: list[str]
    negations: int
    modals: int
    clauses: list[tuple[bool, set[str]]]  # (negated?, folded content words) per segment


def _read(text: str, lang: str, known_dates: set[str]) -> _Reading:
    ids = {m.group(0) for m in find_all(OPAQUE_ID, text)}
    masked = mask_identifiers(text)
    folded = fold(masked)
    dates = find_dates(folded, known_dates)
    undated = blank(folded, ((d.start, d.end) for d in dates))
    times = find_times(undated, masked)
    # Times are blanked by their digits: the clock grammar reports where each one starts.
    numbers = {_number(m.group(0)) for m in _NUMBER.finditer(undated)
               if not any(t.start <= m.start() < t.start + 5 for t in times)}
    # Words are read without the identifiers and dates (with their weekday names), which are
    # compared as facts above: "Tuesday 2026-11-24" rephrases "Tue 2026-11-24".
    plain = blank(masked, _date_spans(folded, dates))
    words = tokens(plain)
    clauses = []
    for start, end in segments(plain):
        clause_words = tokens(plain[start:end])
        clauses.append((any(is_negation(w, lang) for w in clause_words),
                        {fold(w) for w in clause_words if not addable(w, lang)}))
    roles = set()
    for d in dates:
        before = tokens(folded[max(0, d.start - 16):d.start])
        # Skip a weekday written before the date ("de sex 27/11").
        for word in reversed(before[-2:]):
            if word in _ROLES:
                roles.add((d.iso, _ROLES[word]))
                break
    return _Reading(ids=ids, dates={d.iso for d in dates},
                    weekdays={(d.iso, d.stated_weekday) for d in dates if d.stated_weekday is not None},
                    roles=roles, times={t.hhmm for t in times}, numbers=numbers,
                    words=words, negations=sum(is_negation(w, lang) for w in words),
                    modals=sum(is_modal(w, lang) for w in words), clauses=clauses)


def _date_spans(folded: str, dates: list) -> list[tuple[int, int]]:
    """Each date with the weekday name written right before it."""
    spans = []
    for d in dates:
        m = _WEEKDAY_BEFORE.search(folded, 0, d.start)
        spans.append((m.start() if m else d.start, d.end))
    return spans


def _number(raw: str) -> str:
    return raw.replace(",", ".").lstrip("0") or "0"


def _known_dates(evidence: verifier_pb2.Evidence) -> set[str]:
    return {s.date for s in evidence.slots} | {a.date for a in evidence.appointments}


def unfaithful_rephrasing(text: str, reference: str, evidence: verifier_pb2.Evidence, lang: str) -> list[str]:
    """R4 notes for a model's rephrasing of `reference` (empty when it is faithful)."""
    known = _known_dates(evidence)
    ref, got = _read(reference, lang, known), _read(text, lang, known)
    notes = _language_notes(got.words, {fold(w) for w in ref.words}, lang)

    # Roles tell the dates of a move apart; with one date, "de" and "para" are mere prepositions.
    roles = (got.roles, ref.roles) if len(ref.dates) > 1 else (set(), set())
    for kind, have, want in (("id", got.ids, ref.ids), ("date", got.dates, ref.dates),
                             ("weekday", got.weekdays, ref.weekdays), ("date role", *roles),
                             ("time", got.times, ref.times), ("number", got.numbers, ref.numbers)):
        if want - have:
            notes.append(f"R4: drops {len(want - have)} {kind}(s) of the answer it rephrases")
        if have - want:
            notes.append(f"R4: adds {len(have - want)} {kind}(s) the answer it rephrases does not have")

    folded_text, folded_ref = fold(text), fold(reference)
    names = [n for n in (*evidence.doctors, *evidence.clinics) if n.strip()]
    dropped_names = sum(1 for n in _named(folded_ref, names) if n not in _named(folded_text, names))
    if dropped_names:
        notes.append(f"R4: drops {dropped_names} doctor or clinic name(s)")

    got_vocab = Vocabulary(got.words, lang)
    dropped = sum(1 for w in ref.words if not addable(w, lang) and w not in got_vocab)
    if dropped:
        notes.append(f"R4: drops {dropped} word(s) of the answer it rephrases")

    ref_vocab = Vocabulary(ref.words, lang)
    added = sum(1 for w in got.words if not addable(w, lang) and w not in ref_vocab)
    if added:
        notes.append(f"R4: adds {added} word(s) the answer it rephrases does not have")

    if got.negations != ref.negations:
        notes.append(f"R4: {got.negations} negation(s) where the answer it rephrases has {ref.negations}"
                     " (polarity)")
    if got.modals != ref.modals:  # "I can book" is an offer, "I have booked" a claim
        notes.append(f"R4: {got.modals} modal verb(s) where the answer it rephrases has {ref.modals}"
                     " (an offer is not a fact)")
    notes += _negation_notes(got.clauses, ref.clauses, lang)
    return notes


def ungrounded_summary(text: str, facts: Iterable[str], question: str, lang: str) -> list[str]:
    """R4 notes for a model's summary of the passages in `facts` (empty when grounded)."""
    facts = [f for f in facts if f.strip()]
    if not facts:
        return ["R4: a summary with no passage to ground it"]
    source = "\n".join(facts)
    src, got = _read(source, lang, set()), _read(text, lang, set())
    asked = _read(question, lang, set())
    notes = _language_notes(got.words, {fold(w) for w in (*src.words, *asked.words)}, lang)
    stated = src.numbers | src.times | src.dates | asked.numbers
    new_numbers = (got.numbers | got.times | got.dates) - stated
    if new_numbers or got.ids - src.ids:
        notes.append(f"R4: {len(new_numbers | (got.ids - src.ids))} number(s) the passages do not state")
    vocab = Vocabulary([*src.words, *asked.words], lang)
    added = sum(1 for w in got.words if not addable(w, lang) and w not in vocab)
    if added:
        notes.append(f"R4: {added} word(s) the passages do not have")
    notes += _negation_notes(got.clauses, src.clauses, lang)
    if not any(not addable(w, lang) for w in got.words):
        notes.append("R4: the summary says nothing")
    return notes


def _language_notes(words: list[str], copied: set[str], lang: str) -> list[str]:
    """Words not copied from the source must be words of the session's language."""
    stray = sum(1 for w in words if fold(w) not in copied and foreign(w, lang))
    if not stray:
        return []
    return [f"R4: {stray} word(s) are not {LANGUAGE_NAMES[lang]} words (garbled or another language)"]


def _negation_notes(clauses: list[tuple[bool, set[str]]], source: list[tuple[bool, set[str]]],
                    lang: str) -> list[str]:
    """Each negated clause must be about something a negated clause of the source is about."""
    negated_vocab = [Vocabulary(words, lang) for negated, words in source if negated]
    flipped = sum(1 for negated, words in clauses
                  if negated and words and not any(any(w in v for w in words) for v in negated_vocab))
    return [f"R4: {flipped} negated clause(s) about something the source does not negate"] if flipped else []


def _named(folded: str, names: list[str]) -> set[str]:
    """The doctors and clinics `folded` names in full (a doctor with or without the title)."""
    found = set()
    for name in names:
        key = doctor_key(name)
        if key and key in folded:
            found.add(key)
    return found

