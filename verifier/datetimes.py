"""Dates, times and weekdays as people and models write them in Portuguese and English.

A small grammar of our own (dateparser misreads "10h" and "dia 18/07" and is far too slow
for a per-answer check). Everything works on folded text (runtime.text.fold), so offsets are
offsets into the original; identifiers (CPFs, phones, ids) must be masked beforehand.
"""

import datetime as dt
import re
from collections.abc import Callable, Collection, Set
from dataclasses import dataclass

from runtime.text.calendar_words import MONTHS, WEEKDAY_NAMES, WEEKDAYS, alternation
from runtime.text.clock import NOON, am_pm, clock
from verifier.text import after_boundary, last_word, words

# Abbreviations that are also common words ("5 out of", "3 days ago") count only after "de".
_AMBIGUOUS_MONTHS = ("mar", "mai", "ago", "set", "out")
_MONTH = alternation(m for m in MONTHS if m not in _AMBIGUOUS_MONTHS)
_ANY_MONTH = alternation(MONTHS)

_WEEKDAY = alternation(WEEKDAYS)
# Only full names stand for a day on their own; "ter", "sex" or "sun" are words too.
_FULL_WEEKDAYS = frozenset(names[i] for names in WEEKDAY_NAMES.values() for i in (0, 1))
_FULL_WEEKDAY = "|".join(_FULL_WEEKDAYS)

_ORDINAL = r"(?:st|nd|rd|th|o|a)?"
# (kind, pattern, characters that may not stand right before a match besides letters and digits, what a
# text must hold for the pattern to match): "1200" or "v2.23/11" are not dates; a scan of a long answer
# costs more than the test of a character or of the text's words (month names, "dia", "the").
_NUMBER_GLUE = "/.:,-"
_Needs = Callable[[str, Set[str]], bool]


def _with_month(_: str, present: Set[str]) -> bool:
    return not present.isdisjoint(MONTHS)


_DATE_PATTERNS: list[tuple[str, re.Pattern[str], str, _Needs]] = [
    ("ymd", re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})(?![\d-])"), "/.-", lambda text, _: "-" in text),
    ("dmy", re.compile(r"(\d{1,2})/(\d{1,2})(?:/(\d{4}|\d{2}))?(?![\d/])"), _NUMBER_GLUE,
     lambda text, _: "/" in text),
    ("dmy", re.compile(r"(\d{1,2})[.-](\d{1,2})[.-](\d{4})(?![\d.-])"), _NUMBER_GLUE,
     lambda text, _: "." in text or "-" in text),
    ("d_month", re.compile(
        rf"(\d{{1,2}}){_ORDINAL}\s+(?:(?:de|of)\s+)?({_MONTH})\b\.?(?:,?\s+(?:de\s+)?(\d{{4}})\b)?"),
     _NUMBER_GLUE, _with_month),
    ("d_month", re.compile(
        rf"(\d{{1,2}}){_ORDINAL}\s+de\s+({_ANY_MONTH})\b\.?(?:\s+(?:de\s+)?(\d{{4}})\b)?"), _NUMBER_GLUE,
     _with_month),
    ("month_d", re.compile(
        rf"({_MONTH})\b\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?(?!\d|[:h]\d|h\b)(?:,?\s+(\d{{4}})\b)?"), "",
     _with_month),
    ("day", re.compile(rf"dia\s+(\d{{1,2}})\b(?!\s*(?:/|[:h.]\d|de\s+(?:{_ANY_MONTH})\b))"), "",
     lambda _, present: "dia" in present),
    ("day", re.compile(r"the\s+(\d{1,2})(?:st|nd|rd|th)\b(?!\s+(?:slot|option|one|available|time|clinic))"),
     "", lambda _, present: "the" in present),
]
_WEEKDAY_AFTER = re.compile(rf"\s*,?\s*\(?\s*({_WEEKDAY})(?:[-\s]feira)?\b")
_LONE_WEEKDAY = re.compile(rf"({_FULL_WEEKDAY})(?:[-\s]feira)?\b")

# Written times only (see runtime.text.clock): "10h", "10:30", "3pm", "10 da manhã".
_TIME = re.compile(
    r"(?P<h>\d{1,2})(?:"
    rf"[:h](?P<m>[0-5]\d)(?:min)?(?:\s*{am_pm('ap1')}|\s+da\s+(?P<part1>manha|tarde|noite)\b)?"
    r"|h(?:rs?|s)?\b"
    rf"|\s*{am_pm('ap2')}"
    r"|\s+da\s+(?P<part2>manha|tarde|noite)\b"
    r")(?![\d:])"
)
_DIGIT = re.compile(r"\d")
_NOON = re.compile(rf"(?:{NOON})\b")
# "às 9" needs the accent (plain "as 5" is an article and a count), so it is read from the
# original text rather than the folded one.
_AS_HOUR = re.compile(r"[àÀ]s\s+(\d{1,2})(?![\d:h/]|\s+da\s)(?:\s+horas?\b)?")


@dataclass(frozen=True)
class DateMention:
    start: int
    end: int
    iso: str  # "????-11-23" when no year is written and none can be inferred
    stated_weekday: int | None  # a weekday written right next to the date (Monday = 0)


@dataclass(frozen=True)
class TimeMention:
    start: int
    hhmm: str


def weekday_of(iso: str) -> int | None:
    try:
        return dt.date.fromisoformat(iso).weekday()
    except ValueError:
        return None


def find_dates(text: str, known: Collection[str]) -> list[DateMention]:
    """Dates in `text`, in order. A missing year (or a day alone, "dia 23") is inferred from
    `known` ISO dates; an ambiguous 11/12 prefers the day-first reading unless only the
    month-first one is known."""
    if not _DIGIT.search(text):  # every written date has a digit; skip the scans
        return []
    taken = bytearray(len(text))  # 1 where a date was already read
    found: list[tuple[int, int, str]] = []
    present = words(text)
    for kind, pattern, glue, needs in _DATE_PATTERNS:
        if not needs(text, present):
            continue
        for m in after_boundary(text, pattern.finditer(text), glue):
            if any(taken[m.start():m.end()]):
                continue
            iso = _resolve(_readings(kind, m), known)
            if iso:
                taken[m.start():m.end()] = b"\x01" * (m.end() - m.start())
                found.append((m.start(), m.end(), iso))
    found.sort()
    return _attach_weekdays(text, found)


def find_times(text: str, original: str) -> list[TimeMention]:
    """Times in `text` (folded, dates blanked) as HH:MM; `original` is the unfolded text."""
    times = []
    if "noon" in text or "midday" in text or "meio" in text:
        times = [TimeMention(m.start(), "12:00") for m in after_boundary(text, _NOON.finditer(text))]
    if not _DIGIT.search(text):
        return times
    for m in after_boundary(text, _TIME.finditer(text), ":.,/"):
        hhmm = clock(int(m["h"]), int(m["m"] or 0), am_pm=m["ap1"] or m["ap2"],
                     period=m["part1"] or m["part2"])
        if hhmm:
            times.append(TimeMention(m.start(), hhmm))
    as_hours = _AS_HOUR.finditer(original) if "às" in original or "Às" in original else ()
    for m in after_boundary(original, as_hours):
        if text[m.start(1)].isdigit():  # not blanked as part of a date
            hhmm = clock(int(m[1]), 0)
            if hhmm:
                times.append(TimeMention(m.start(1), hhmm))
    return sorted(times, key=lambda t: t.start)


def lone_weekdays(text: str, dates: list[DateMention]) -> list[tuple[int, int]]:
    """(offset, weekday) of full weekday names not attached to a written date."""
    result: list[tuple[int, int]] = []
    if words(text).isdisjoint(_FULL_WEEKDAYS):
        return result
    for m in after_boundary(text, _LONE_WEEKDAY.finditer(text)):
        near = any(d.start - 24 <= m.start() and m.end() <= d.end + 16 for d in dates)
        if not near:
            result.append((m.start(), WEEKDAYS[m[1]]))
    return result


def _readings(kind: str, m: re.Match[str]) -> list[tuple[int | None, int | None, int]]:
    if kind == "ymd":
        return [(int(m[1]), int(m[2]), int(m[3]))]
    if kind == "dmy":
        first, second = int(m[1]), int(m[2])
        if m[3] is None and (first, second) == (24, 7):  # "24/7", not the 24th of July
            return []
        year = None if m[3] is None else int(m[3]) + (2000 if len(m[3]) == 2 else 0)
        return [(year, second, first), (year, first, second)]
    if kind == "d_month":
        return [(int(m[3]) if m[3] else None, MONTHS[m[2]], int(m[1]))]
    if kind == "month_d":
        return [(int(m[3]) if m[3] else None, MONTHS[m[1]], int(m[2]))]
    return [(None, None, int(m[1]))]


def _resolve(readings: list[tuple[int | None, int | None, int]], known: Collection[str]) -> str:
    """The reading found in `known`, else the first plausible one ("" when none is)."""
    plausible = [(y, mo, d) for y, mo, d in readings if 1 <= d <= 31 and (mo is None or 1 <= mo <= 12)]
    guesses = []
    for year, month, day in plausible:
        if month is None:
            matches = sorted(k for k in known if k[8:] == f"{day:02d}")
            guesses.append(matches[0] if matches else f"????-??-{day:02d}")
        elif year is not None:
            guesses.append(f"{year:04d}-{month:02d}-{day:02d}")
        else:
            guesses.append(_with_year(month, day, known))
    for iso in guesses:
        if iso in known:
            return iso
    return guesses[0] if guesses else ""


def _with_year(month: int, day: int, known: Collection[str]) -> str:
    for iso in sorted(known):
        if iso[5:] == f"{month:02d}-{day:02d}":
            return iso
    anchors = sorted(k for k in known if weekday_of(k) is not None)
    if not anchors:
        return f"????-{month:02d}-{day:02d}"
    anchor = dt.date.fromisoformat(anchors[0])
    best = ""
    distance = None
    for year in (anchor.year - 1, anchor.year, anchor.year + 1):
        try:
            gap = abs((dt.date(year, month, day) - anchor).days)
        except ValueError:
            continue
        if distance is None or gap < distance:
            best, distance = f"{year:04d}-{month:02d}-{day:02d}", gap
    return best or f"{anchor.year:04d}-{month:02d}-{day:02d}"


def _attach_weekdays(text: str, found: list[tuple[int, int, str]]) -> list[DateMention]:
    stated: list[int | None] = []
    used: set[int] = set()
    for start, _, _ in found:
        at = _weekday_before(text, start)
        stated.append(None if at is None else WEEKDAYS[last_word(text, at)])
        if at is not None:
            used.add(at)
    for i, (_, end, _) in enumerate(found):
        if stated[i] is None:
            m = _WEEKDAY_AFTER.match(text, end, end + 16)
            if m and m.end(1) not in used:
                stated[i] = WEEKDAYS[m[1]]
    return [DateMention(s, e, iso, wd) for (s, e, iso), wd in zip(found, stated, strict=True)]


def _weekday_before(text: str, start: int) -> int | None:
    """Where the weekday written right before a date ends ("seg 23/11", "Monday, November
    23", "terça-feira, dia 24"), if there is one. String steps: a regex here costs more."""
    base = max(0, start - 32)
    head = text[base:start].rstrip(" ,.(\t\n")
    for filler in (" dia", " the", " de"):
        if head.endswith(filler):
            head = head[:-len(filler)].rstrip(" ,.(\t\n")
            break
    if head.endswith(("-feira", " feira")):
        head = head[:-len("-feira")]
    return base + len(head) if last_word(head, len(head)) in WEEKDAYS else None

