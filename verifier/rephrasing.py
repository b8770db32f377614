"""R4 for model text: a rephrasing says what its deterministic answer says, all of it and
nothing else, in the session's language; a summary says only what its passages say.

A rephrasing is read against the answer it rephrases (the reference):
- coverage: every id, date, time and number, every doctor and clinic, every key word
  (specialties, the verbs of a booking's state, names) and most of its other content words;
- nothing new: no number, date, time or id the reference lacks, and no word outside the
  reference but the few function and courtesy words of the language (verifier.wording);
- polarity: as many negations as the reference, each in a clause about something the
  reference negates;
- language: every word not copied from the reference is a word of the session's language.
A summary is read against its passages and the question: no number and no content word
that they lack, negations only where a passage negates, in the session's language.
Notes carry counts, never the words: a model's text may hold personal data.
"""

import re
from collections.abc import Iterable
from dataclasses import dataclass

from healthmesh.v1 import verifier_pb2
from verifier.datetimes import find_dates, find_times
from verifier.text import OPAQUE_ID, blank, doctor_key, find_all, fold, mask_identifiers, segments
from verifier.wording import LANGUAGE_NAMES, Vocabulary, addable, foreign, is_negation, tokens

# Share of the reference's content words a rephrasing must keep (the key ones all of them).
MIN_CONTENT_COVERAGE = 0.7
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
# Words that carry an answer's facts whatever their case: specialties (offered or not) and
# the state of a booking or a slot.
_KEY_WORD = re.compile(
    r"(?:cardio|dermato|ortop|orthop|neuro|oftalm|ophthalm|pediatr|psiqu|psych|gastro|gineco|gyn"
    r"|urolog|oncolog|otorrino|endocrin|pneumo|pulmon|reumat|rheumat|geral|general)\w*"
    r"|(?:book|agend|marcad|reservad|confirm|cancel|desmarc|moved|remarcad|transferid|taken|ocupad"
    r"|earliest|cedo|livre|free|open|abert)\w*"
)


@dataclass
class _Reading:
    """What one text states: identifiers, dates, times, other numbers, words, negations."""

    ids: set[str]
    dates: set[str]
    times: set[str]
    numbers: set[str]
    words: list[str]
    negations: int
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
    words = tokens(text)
    clauses = []
    for start, end in segments(text):
        clause_words = tokens(text[start:end])
        clauses.append((any(is_negation(w, lang) for w in clause_words),
                        {fold(w) for w in clause_words if not addable(w, lang)}))
    return _Reading(ids=ids, dates={d.iso for d in dates}, times={t.hhmm for t in times}, numbers=numbers,
                    words=words, negations=sum(is_negation(w, lang) for w in words), clauses=clauses)


def _number(raw: str) -> str:
    return raw.replace(",", ".").lstrip("0") or "0"


def _known_dates(evidence: verifier_pb2.Evidence) -> set[str]:
    return {s.date for s in evidence.slots} | {a.date for a in evidence.appointments}


def unfaithful_rephrasing(text: str, reference: str, evidence: verifier_pb2.Evidence, lang: str) -> list[str]:
    """R4 notes for a model's rephrasing of `reference` (empty when it is faithful)."""
    known = _known_dates(evidence)
    ref, got = _read(reference, lang, known), _read(text, lang, known)
    notes = _language_notes(got.words, {fold(w) for w in ref.words}, lang)

    for kind, have, want in (("id", got.ids, ref.ids), ("date", got.dates, ref.dates),
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

    ref_content = [w for w in ref.words if not addable(w, lang)]
    got_vocab = Vocabulary(got.words, lang)
    keys = {fold(w) for w in ref_content if _KEY_WORD.fullmatch(fold(w)) or _capitalized_inside(w, reference)}
    dropped_keys = sum(1 for k in keys if k not in got_vocab)
    if dropped_keys:
        notes.append(f"R4: drops {dropped_keys} key word(s) (a specialty, a name or the booking's state)")
    covered = sum(1 for w in ref_content if w in got_vocab)
    if ref_content and covered < MIN_CONTENT_COVERAGE * len(ref_content):
        notes.append(f"R4: keeps {covered} of the {len(ref_content)} content words of the answer it"
                     " rephrases")

    ref_vocab = Vocabulary(ref.words, lang)
    added = sum(1 for w in got.words if not addable(w, lang) and w not in ref_vocab)
    if added:
        notes.append(f"R4: adds {added} word(s) the answer it rephrases does not have")

    if got.negations != ref.negations:
        notes.append(f"R4: {got.negations} negation(s) where the answer it rephrases has {ref.negations}"
                     " (polarity)")
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


def _capitalized_inside(word: str, text: str) -> bool:
    """A capitalized word that does not start a line or sentence: a name or a proper noun."""
    for m in re.finditer(rf"(?<![^\W\d_]){re.escape(word)}(?![^\W\d_])", text):
        if not word[:1].isupper():
            return False
        before = text[:m.start()].rstrip(" \t\"'(«\u201c-\u2014\u2013\u2022*")
        if before and before[-1] not in ".!?:\n":
            return True
    return False
