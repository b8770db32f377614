"""Text helpers shared by the rules: folding that keeps offsets, identifier patterns and
masking, doctor names, and splitting an answer into the lines and sentences its claims are
read from.

Speed matters (every answer is checked): patterns avoid a leading \\b or lookbehind, which
keeps the regex engine from skipping ahead to a pattern's first character and makes a scan
several times slower; after_boundary checks where a match starts instead. Cheap tests
(a character or word present at all) let whole scans be skipped."""

import functools
import re
from collections.abc import Callable, Iterable, Iterator

from runtime.text.fold import fold


def compact(text: str) -> str:
    """Folded with no whitespace: "500 mg" and "500mg" compare equal."""
    return "".join(fold(text).split())


def digits(text: str) -> str:
    return "".join(c for c in text if c.isdigit())


_WORD = re.compile(r"[A-Za-z]+")  # trigger words are plain ASCII once folded


@functools.lru_cache(maxsize=256)
def words(text: str) -> frozenset[str]:
    """The words (letters only) of `text`: a set lookup tells whether a rule's trigger words
    occur, far cheaper than scanning with the rule's pattern."""
    return frozenset(_WORD.findall(text))


_LETTERS = "".join(c for c in map(chr, range(0x250)) if c.isalpha())


def last_word(text: str, end: int) -> str:
    """The letters right before `end` ("Dr" for "Dr." with end at the dot)."""
    head = text[max(0, end - 24):end]
    return head[len(head.rstrip(_LETTERS)):]


def after_boundary(text: str, matches: Iterable[re.Match[str]], also: str = "") -> Iterator[re.Match[str]]:
    """The matches not glued to a word character (or one of `also`) before them."""
    for m in matches:
        before = text[m.start() - 1] if m.start() else " "
        if not (before.isalnum() or before == "_" or before in also):
            yield m


# Identifiers that must never be read as dates, times or doses.
CPF = re.compile(r"(?<![\d.-])\d{3}\.?\d{3}\.?\d{3}-?\d{2}(?![\d-])")
# Bounded repeats: an unbounded one would make a long run of letters a quadratic scan.
EMAIL = re.compile(r"[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}")
PHONE = re.compile(
    r"(?<![\w.-])(?:"
    r"(?:\+?55[\s.-]?)?(?:\(\d{2}\)|\d{2})[\s.-]?9?\d{4}[\s.-]?\d{4}"  # Brazil, with area code
    r"|\d{4,5}-\d{4}"  # Brazil, local
    r"|(?:\+?1[\s.-]?)?(?:\(\d{3}\)|\d{3})[\s.-]\d{3}[\s.-]\d{4}"  # North America
    r"|0800[\s.-]?\d{3}[\s.-]?\d{4}"
    r")(?![\w-])"
)
# Opaque ids (CARD-A001, CARD-A-APT-1A2B3C4D5E, ORTH-D-DR01-20261123-0900), case-sensitive.
OPAQUE_ID = re.compile(r"\b[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+\b")
URL = re.compile(r"\b(?:https?://)?(?:[\w-]{1,63}\.){1,8}(?:br|com|org|net|gov|io)\b(?:/\S*)?")

# Words a name may carry (Maria da Silva) and the name-like word itself: a capital, then
# lowercase letters (all-caps acronyms such as SAMU or CVV are not names).
NAME_WORD = r"[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]+(?:['\u2019-][A-Za-zÀ-ÖØ-öø-ÿ]+)*"
NAME_LINK = r"(?:d[aeo]s?|di|van|von|del)"
_NAME_TAIL = rf"(?:\s+(?:{NAME_LINK}\s+)?{NAME_WORD}){{0,3}}"
# "Dr. Fernando Almeida", "Dra. Beatriz", "Doctor Lima": the doctor mentions R4 resolves.
TITLED_DOCTOR = re.compile(rf"(?i:dra?|drª|doctor|doutora?)\b(?:\.\s*|\s+)({NAME_WORD}{_NAME_TAIL})")

_LONG_NUMBER = re.compile(r"\d{3}[\s.-]?\d{3}")  # every CPF and phone number has one
_TLDS = (".br", ".com", ".org", ".net", ".gov", ".io")
_WORTH_SCANNING: dict[re.Pattern[str], Callable[[str], bool]] = {
    EMAIL: lambda text: "@" in text,
    URL: lambda text: any(tld in text for tld in _TLDS),
    OPAQUE_ID: lambda text: "-" in text,
    CPF: lambda text: bool(_LONG_NUMBER.search(text)),
    PHONE: lambda text: bool(_LONG_NUMBER.search(text)),
}


def find_all(pattern: re.Pattern[str], text: str) -> list[re.Match[str]]:
    """Matches of one of the patterns above, skipping the scan when it cannot match."""
    worth = _WORTH_SCANNING.get(pattern)
    if worth is not None and not worth(text):
        return []
    if pattern is TITLED_DOCTOR:
        return list(after_boundary(text, pattern.finditer(text)))
    return list(pattern.finditer(text))


def blank(text: str, spans: Iterable[tuple[int, int]]) -> str:
    """`text` with every (start, end) span replaced by spaces, so offsets stay valid."""
    for start, end in spans:
        text = text[:start] + " " * (end - start) + text[end:]
    return text


def mask(text: str, pattern: re.Pattern[str]) -> str:
    return blank(text, (m.span() for m in find_all(pattern, text)))


@functools.lru_cache(maxsize=256)
def mask_identifiers(text: str) -> str:
    """`text` with e-mails, URLs, opaque ids, CPFs and phone numbers blanked (cached: several
    rules mask the same answer, and evidence facts repeat from call to call)."""
    for pattern in (EMAIL, URL, OPAQUE_ID, CPF, PHONE):
        text = mask(text, pattern)
    return text


_TITLE = re.compile(r"^(?:dra?|doctor|doutora?|drª)\b\.?\s*")


@functools.lru_cache(maxsize=1024)
def doctor_key(name: str) -> str:
    """Comparable form of a doctor's name: folded, without the title."""
    return _TITLE.sub("", " ".join(fold(name).split()))


# Sentence ends: . ! ? ; followed by space, unless the word before the dot is a title or
# abbreviation ("Dr. Fernando", "Av. Paulista", "9 a.m. on").
_END = re.compile(r"\n|[.!?;]+(?=\s)")
_ABBREVIATIONS = frozenset({
    "dr", "dra", "drs", "dras", "sr", "sra", "srta", "av", "mr", "mrs", "ms", "st", "prof", "profa",
    "tel", "approx", "aprox", "jr", "mx",
})


def segments(text: str) -> list[tuple[int, int]]:
    """(start, end) of each line, sentence or clause of `text`, in order; claims are paired
    (a date with its time, a slot with its doctor) only within one segment."""
    spans = []
    start = 0
    for m in _END.finditer(text):
        if m.group(0).startswith("."):
            word = last_word(text, m.start())
            if len(word) == 1 or fold(word) in _ABBREVIATIONS:
                continue
        if text[start:m.start()].strip():
            spans.append((start, m.start()))
        start = m.end()
    if text[start:].strip():
        spans.append((start, len(text)))
    return spans
