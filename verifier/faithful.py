"""R4: the answer says only what the evidence says, and all of it.

Claims are read per segment (line, sentence or clause): each time pairs with a date of the
segment — the nearest one before it when the segment writes dates first ("23/11 às 9h e
10h"), the nearest one after it when it writes times first ("9:00 on Nov 23 and 9:30 on Nov
24") — else with the last date of an earlier segment (as under a "Monday 23/11:" heading),
and with the doctors the segment names. Every pair must be an evidence slot or appointment
with one of those doctors, every date an evidence date, every doctor an evidence doctor, a
written weekday must match its date, "nothing available" must not deny evidence slots, and
every slot and appointment of the evidence must appear as a pair.
"""

import bisect
import functools
import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from healthmesh.v1 import verifier_pb2
from runtime.text.calendar_words import EN_WEEKDAYS
from verifier.datetimes import DateMention, TimeMention, find_dates, find_times, lone_weekdays, weekday_of
from verifier.text import (
    TITLED_DOCTOR,
    after_boundary,
    blank,
    doctor_key,
    find_all,
    fold,
    mask_identifiers,
    segments,
    words,
)

_DAY_NAMES = tuple(name.capitalize() for name in EN_WEEKDAYS)
_SLOT_WORDS = r"(?:slots?|availability|openings?|appointments?|times?|dates?|spots?)"
# No leading \b: after_boundary checks where a match starts (see verifier.text).
_NOTHING_AVAILABLE = re.compile(
    r"no (?:open |available |free |more )?(?:time ?)?(?:slots?|availability|openings?|vacanc(?:y|ies))\b"
    r"|no (?:open|available|free) (?:appointments?|times?|dates?|spots?)\b"
    rf"|there (?:is|are|was|were)(?: currently)? no\b(?:\s+\w+){{0,2}}?\s+{_SLOT_WORDS}\b"
    rf"|(?:is|are|was|were)(?: not|n't) any\b(?:\s+\w+){{0,2}}?\s+{_SLOT_WORDS}\b"
    rf"|(?:don't|do not|doesn't|does not) have any\b(?:\s+\w+){{0,2}}?\s+{_SLOT_WORDS}\b"
    r"|nothing (?:is )?(?:available|open|free)\b|fully booked\b|none (?:are |is )?available\b"
    r"|(?:slots?|times?|appointments?) (?:are |is )?(?:not|no longer) available\b"
    r"|nenhuma? (?:horario|vaga|disponibilidade|data|opcao)s?\b"
    r"|nao (?:ha|temos|tem|existe|existem|encontrei|encontramos|possui|possuimos)\b"
    r"(?:\s+\w+){0,2}?\s+(?:horarios?|vagas?|disponibilidade|datas?)\b"
    r"|sem (?:horarios?|vagas?|disponibilidade)\b|lotad[oa]s?\b|esgotad[oa]s?\b"
)

# A word every phrase of _NOTHING_AVAILABLE holds ("n't" reads as the word "t"): without one the
# scan is skipped.
_NOTHING_TRIGGERS = frozenset("no not t nothing fully none nenhum nenhuma nao sem".split())


def _may_say_nothing_available(folded: str) -> bool:
    return not words(folded).isdisjoint(_NOTHING_TRIGGERS) or "lotad" in folded or "esgotad" in folded


# What stands between the two dates of a period: "to", "a", "até", a dash, and the second
# date's weekday.
_RANGE_GAP = re.compile(r"\s*(?:to|a|ate|until|till|through|thru|and|e|-|\u2013|\u2014)\s+"
                        r"(?:[a-z]+\.?,?\s+)?")


@dataclass(frozen=True)
class _Item:
    """An evidence slot or appointment."""

    kind: str
    date: str
    time: str
    doctor: str  # doctor_key form; "" when the evidence leaves it out
    doctor_name: str


@dataclass(frozen=True)
class _Pair:
    """A date (or the dates a lone weekday may mean), a time and the doctors next to them."""

    dates: frozenset[str]
    time: str
    doctors: frozenset[str]


class _Doctors:
    def __init__(self, names: Iterable[str]) -> None:
        self.names: dict[str, str] = {}
        for name in names:
            if doctor_key(name):
                self.names.setdefault(doctor_key(name), " ".join(name.split()))
        self._resolved: dict[str, frozenset[str]] = {}

    def resolve(self, mention: str) -> frozenset[str]:
        """Doctors a titled mention may mean: "Fernando" or "Almeida" for Fernando Almeida; a
        mention running on into other capitalized words still matches the name it starts with."""
        if mention not in self._resolved:
            self._resolved[mention] = self._resolve(doctor_key(mention).split())
        return self._resolved[mention]

    def _resolve(self, words: list[str]) -> frozenset[str]:
        found = set()
        for key in self.names:
            known = key.split()
            if known[:len(words)] == words or words[:len(known)] == known or words == known[-1:]:
                found.add(key)
        return frozenset(found)

    def mentions(self, text: str, folded: str) -> list[tuple[int, frozenset[str]]]:
        """(offset, doctors it may mean) of each doctor named; an empty set is a doctor the
        evidence does not have."""
        titled = find_all(TITLED_DOCTOR, text)
        found = [(m.start(), self.resolve(m[1])) for m in titled]
        after_title = {t.start(1) for t in titled}  # a full name after a title was resolved with it
        for key in self.names:  # str.find beats a regex alternation of the names
            at = folded.find(key)
            while at >= 0:
                end = at + len(key)
                if (at not in after_title and not folded[at - 1:at].isalnum()
                        and not folded[end:end + 1].isalnum()):
                    found.append((at, frozenset({key})))
                at = folded.find(key, end)
        return found


@dataclass
class _Segment:
    """What one line, sentence or clause says."""

    dates: list[DateMention] = field(default_factory=list)
    times: list[TimeMention] = field(default_factory=list)
    weekdays: list[tuple[int, int]] = field(default_factory=list)  # lone weekday names
    doctors: set[str] = field(default_factory=set)
    unknown_doctor: bool = False
    nothing_available: bool = False
    range_bounds: set[int] = field(default_factory=set)  # offsets of dates that bound a period


def unfaithful(answer: str, evidence: verifier_pb2.Evidence, user_query: str = "") -> list[str]:
    """Notes for every R4 finding, in the order found (empty when the answer is faithful)."""
    items = [_Item("slot", s.date, s.time, doctor_key(s.doctor), s.doctor) for s in evidence.slots]
    items += [_Item("appointment", a.date, a.time, doctor_key(a.doctor), a.doctor)
              for a in evidence.appointments]
    known = frozenset(item.date for item in items)
    doctors = _doctors((*evidence.doctors, *(item.doctor_name for item in items)))
    # The user's own dates and dates in facts may be echoed; times in facts (opening hours)
    # may be stated on their own, never as a slot.
    allowed_dates = set(known) | _echoed(user_query, known, with_times=False)[0]
    allowed_times = {item.time for item in items}
    for fact in evidence.facts:
        dates, times = _echoed(fact, known, with_times=True)
        allowed_dates |= dates
        allowed_times |= times

    notes: list[str] = []
    pairs: list[_Pair] = []
    context: frozenset[str] | None = None
    for seg in _read(answer, known, doctors):
        if seg.unknown_doctor:
            notes.append("R4: names a doctor who is not in the evidence")
        notes += [note for d in seg.dates if (note := _weekday_note(d))]
        refs = [(d.start, frozenset({d.iso})) for d in seg.dates]
        if not refs:
            refs = [(at, frozenset(k for k in known if weekday_of(k) == day)) for at, day in seg.weekdays]
        if seg.nothing_available:
            # "Dr. X has no open slot on Friday (at 12:00)" is about Dr. X's slots (at that time) only.
            times = {t.hhmm for t in seg.times}
            open_dates = {i.date for i in items if i.kind == "slot"
                          and (not seg.doctors or i.doctor in seg.doctors) and (not times or i.time in times)}
            notes += _nothing_notes(refs, open_dates)
            continue
        # A heading may bound a period with a day that has no slot ("from Mon 2026-11-23 to
        # Fri 2026-11-27"); a date with a time next to it is a claim all the same.
        bounds = set() if seg.times else seg.range_bounds
        notes += [f"R4: the date {d.iso} is not in the evidence" for d in seg.dates
                  if d.iso not in allowed_dates and d.start not in bounds]
        times_first = bool(seg.times and refs and seg.times[0].start < refs[0][0])
        for t in seg.times:
            day = _date_for(t.start, refs, times_first) or context
            if day is None:
                if t.hhmm not in allowed_times:
                    notes.append(f"R4: the time {t.hhmm} is not in the evidence")
                continue
            pair = _Pair(day, t.hhmm, frozenset(seg.doctors))
            pairs.append(pair)
            notes += _pair_notes(pair, items, doctors)
        if refs:
            context = refs[-1][1]

    pairs_at: dict[str, list[_Pair]] = {}
    for pair in pairs:
        pairs_at.setdefault(pair.time, []).append(pair)
    for item in items:
        if not any(_covers(pair, item) for pair in pairs_at.get(item.time, ())):
            who = f" with {item.doctor_name}" if item.doctor_name else ""
            notes.append(f"R4: the {item.kind} {item.date} {item.time}{who} is missing from the answer")
    return list(dict.fromkeys(notes))


@functools.lru_cache(maxsize=256)
def _doctors(names: tuple[str, ...]) -> _Doctors:
    """One _Doctors per set of names (the evidence's doctors repeat from call to call), so its
    resolved mentions are kept too."""
    return _Doctors(names)


@functools.lru_cache(maxsize=1024)
def _echoed(extra: str, known: frozenset[str], *, with_times: bool) -> tuple[frozenset[str], frozenset[str]]:
    """The dates (and with `with_times` the times) of a text the answer may echo: cached, as
    evidence facts (clinic addresses) repeat from call to call."""
    masked = mask_identifiers(extra)
    dates = find_dates(fold(masked), known)
    times = find_times(_without(fold(masked), dates), masked) if with_times else []
    return frozenset(d.iso for d in dates), frozenset(t.hhmm for t in times)


def _read(answer: str, known: frozenset[str], doctors: _Doctors) -> list[_Segment]:
    """The answer's claims, segment by segment. Each kind of mention is found in one scan of
    the whole answer (a scan per segment costs more), then filed under its segment."""
    text = mask_identifiers(answer)
    folded = fold(text)
    spans = segments(text)
    starts = [start for start, _ in spans]
    result = [_Segment() for _ in spans]

    def segment_at(offset: int) -> _Segment | None:
        i = bisect.bisect_right(starts, offset) - 1
        return result[i] if i >= 0 and offset < spans[i][1] else None

    dates = find_dates(folded, known)
    for d in dates:
        if seg := segment_at(d.start):
            seg.dates.append(d)
    for seg in result:
        seg.range_bounds = _range_bounds(seg.dates, folded)
    for t in find_times(_without(folded, dates), text):
        if seg := segment_at(t.start):
            seg.times.append(t)
    for at, day in lone_weekdays(folded, dates):
        if seg := segment_at(at):
            seg.weekdays.append((at, day))
    for at, keys in doctors.mentions(text, folded):
        if seg := segment_at(at):
            seg.doctors |= keys
            seg.unknown_doctor = seg.unknown_doctor or not keys
    if _may_say_nothing_available(folded):
        for m in after_boundary(folded, _NOTHING_AVAILABLE.finditer(folded)):
            if seg := segment_at(m.start()):
                seg.nothing_available = True
    return result


def _weekday_note(d: DateMention) -> str | None:
    actual = weekday_of(d.iso)
    if d.stated_weekday is None or actual is None or actual == d.stated_weekday:
        return None
    return f"R4: {_DAY_NAMES[d.stated_weekday]} does not match {d.iso}, a {_DAY_NAMES[actual]}"


def _range_bounds(dates: list[DateMention], folded: str) -> set[int]:
    """Offsets of the dates that bound a period ("from Mon 2026-11-23 to Fri 2026-11-27",
    "de 23/11 a 27/11")."""
    bounds = set()
    for first, second in itertools.pairwise(dates):
        if _RANGE_GAP.fullmatch(folded, first.end, second.start):
            bounds |= {first.start, second.start}
    return bounds


def _without(folded: str, dates: list[DateMention]) -> str:
    """`folded` with the dates blanked, so their digits are not read as times."""
    return blank(folded, ((d.start, d.end) for d in dates))


def _date_for(offset: int, refs: list[tuple[int, frozenset[str]]], times_first: bool
              ) -> frozenset[str] | None:
    """The nearest date on the side the segment writes dates, else the nearest on the other."""
    before = [dates for at, dates in refs if at < offset]
    after = [dates for at, dates in refs if at > offset]
    if times_first:
        return after[0] if after else before[-1] if before else None
    return before[-1] if before else after[0] if after else None


def _nothing_notes(refs: list[tuple[int, frozenset[str]]], slot_dates: set[str]) -> list[str]:
    if not refs:
        if slot_dates:
            return ["R4: says nothing is available, but the evidence has open slots"]
        return []
    denied = sorted({d for _, dates in refs for d in dates} & slot_dates)
    return [f"R4: says nothing is available on {d}, but the evidence has open slots then" for d in denied]


def _pair_notes(pair: _Pair, items: list[_Item], doctors: _Doctors) -> list[str]:
    same_time = [i for i in items if i.time == pair.time and i.date in pair.dates]
    if same_time and (not pair.doctors or any(not i.doctor or i.doctor in pair.doctors for i in same_time)):
        return []
    label = f"{' or '.join(sorted(pair.dates)) or 'that day'} {pair.time}"
    if not same_time:
        return [f"R4: {label} is not an open slot or appointment in the evidence"]
    named = ", ".join(sorted(doctors.names[k] for k in pair.doctors))
    return [f"R4: {label} is not with {named} in the evidence"]


def _covers(pair: _Pair, item: _Item) -> bool:
    return (item.date in pair.dates and item.time == pair.time
            and (not pair.doctors or not item.doctor or item.doctor in pair.doctors))
