"""A cheap test that a regular expression cannot match a text, read off the expression itself.

Most context patterns open with their context words ("prontuario|ficha|registro…"), and most messages
hold none of them; yet the scan for a pattern that starts with `\\b` tries the whole expression at every
position of the text. `Prefilter` collects the short literal beginnings every match must start with
("pro", "fic", "reg", …) into one case-sensitive alternation, searched in the lower-cased text: the
regex engine rules that out several times faster. A match always starts with one of them (lookarounds
and anchors take no characters; a repetition or a wide class ends a beginning there), so skipping the
scan when none is present, or trying the pattern only where one is (lookbehinds and `\\b` still see
the text before), changes no result.

Only ASCII texts are tested (after `strip_accents`, nearly all): there lower-casing is exactly what a
case-blind match does, and `\\d` and `\\s` are small classes of characters. Any text is tested for what
every match holds besides: punctuation ("-" in `\\d{5}-\\d{3}`) and its longest run of digits (5)."""

import re
from dataclasses import dataclass
from functools import lru_cache
from re import _constants as sre  # the parser's vocabulary: the only reader of re's syntax tree
from re import _parser

from orchestrator.privacy.message_words import lower

_LENGTH = 3  # characters of each beginning: enough to tell most words apart, few enough to stay a short list
_MAX_BEGINNINGS = 400
_MAX_CLASS = 12  # a class of more characters than this ([a-z], \w) ends the beginning instead
_ZERO_WIDTH = (sre.AT, sre.ASSERT, sre.ASSERT_NOT)
_KNOWN_FLAGS = re.IGNORECASE | re.MULTILINE | re.DOTALL | re.VERBOSE | re.ASCII | re.UNICODE
_ASCII = tuple(map(chr, range(128)))
# The ASCII members of the categories small enough to spell out, as re's own classes define them.
_CATEGORIES = {category: [c for c in _ASCII if re.fullmatch(regex, c)]
               for category, regex in ((sre.CATEGORY_DIGIT, r"\d"), (sre.CATEGORY_SPACE, r"\s"))}
_SPACES = frozenset(_CATEGORIES[sre.CATEGORY_SPACE])
_DIGITS = frozenset(_CATEGORIES[sre.CATEGORY_DIGIT])
# ASCII punctuation: no case to fold, so a pattern's "-" matches only "-" in any text.
_MARKS = frozenset(c for c in _ASCII if c.isprintable() and not c.isalnum() and not c.isspace())
_DIGIT_RUN = re.compile(r"\d+")  # re's digits: every digit a pattern's `\d` or `[0-9]` matches

# A beginning: its characters, whether it is closed (nothing more is known to follow), and whether its
# characters are read case-blind.
Beginning = tuple[str, bool, bool]


@dataclass(frozen=True)
class Prefilter:
    beginnings: bool  # whether the beginnings below are known (else only `digits` and `marks` test)
    blind: re.Pattern[str] | None  # the case-blind beginnings, searched in the lower-cased text
    exact: re.Pattern[str] | None  # the case-sensitive ones, searched in the text
    digits: int  # the longest run of digits every match holds (`\\d{5}-\\d{3}`: 5)
    marks: frozenset[str]  # punctuation every match holds (`\\d{5}-\\d{3}`: "-")

    def rules_out(self, text: str) -> bool:
        """True when the pattern has no match in `text`. (Inlined tests: this runs for every pattern of every
        message, and a call costs more than most of the tests.)"""
        for mark in self.marks:
            if mark not in text:
                return True
        if self.digits >= 2 and _longest_digit_run(text) < self.digits:
            return True
        if not self.beginnings or not text.isascii():
            return False
        return ((self.blind is None or self.blind.search(lower(text)) is None)
                and (self.exact is None or self.exact.search(text) is None))

    def finditer(self, pattern: re.Pattern[str], text: str) -> list[re.Match[str]]:
        """What `pattern.finditer(text)` finds, the pattern tried only where one of its beginnings is:
        a match found there is the one a scan reaching that position finds, and the scan goes on from
        its end. (Every beginning has two characters or more: no match is empty.)"""
        if self.rules_out(text):
            return []
        if not self.beginnings or not text.isascii():
            return list(pattern.finditer(text))
        found, end = [], 0
        for at in self._starts(text):
            if at >= end and (match := pattern.match(text, at)) is not None:
                found.append(match)
                end = match.end()
        return found

    def _starts(self, text: str) -> list[int]:
        """Every position of `text` where a beginning is, overlapping ones too."""
        starts: set[int] = set()
        for beginning, haystack in ((self.blind, lower(text)), (self.exact, text)):
            at = 0
            while beginning is not None and (found := beginning.search(haystack, at)) is not None:
                starts.add(found.start())
                at = found.start() + 1
        return sorted(starts)


# Every recognizer of a message asks about the same text: fold it (`message_words.lower`) and measure its
# digits once.
@lru_cache(maxsize=4)
def _longest_digit_run(text: str) -> int:
    return max(map(len, _DIGIT_RUN.findall(text)), default=0)


def prefilter(regex: str, flags: int = 0) -> Prefilter | None:
    """The test for the pattern `regex` compiled with `flags` (by `re`, or by the `regex` module, whose
    syntax and flags these are too), or None when it would rule nothing out: its matches share no
    beginning of two characters or more, no run of two digits or more and no punctuation; or it uses
    flags of the `regex` module's own (full case-folding lets "ss" match "ß")."""
    if flags & ~_KNOWN_FLAGS:
        return None
    try:
        parsed = _parser.parse(regex, flags)
    except re.error:
        return None
    digits, marks = _digit_run(list(parsed))[2], _marks(list(parsed))
    beginnings = _sequence(list(parsed), bool(parsed.state.flags & re.IGNORECASE))
    if beginnings is None or any(len(text) < 2 for text, _, _ in beginnings):
        return Prefilter(False, None, None, digits, marks) if digits > 1 or marks else None
    # A beginning that extends a shorter one adds nothing to the test: "dn" stands for "dn0", "dn1", ….
    kept = {(text, ignore) for text, _, ignore in beginnings}
    kept = {(text, ignore) for text, ignore in kept
            if not any((text[:n], ignore) in kept for n in range(2, len(text)))}
    blind = {_spelled(text, ignore=True) for text, ignore in kept if ignore}
    exact = {_spelled(text, ignore=False) for text, ignore in kept if not ignore}
    return Prefilter(True, *(re.compile("|".join(sorted(spelled - {None}))) if spelled - {None} else None
                             for spelled in (blind, exact)), digits, marks)


def _spelled(text: str, ignore: bool) -> str | None:
    """A beginning as a pattern over ASCII text (lower-cased when `ignore`); None when no ASCII text
    holds it."""
    parts = []
    for char in text:
        if char in _SPACES:  # one class for the ten spaces: alternatives that differ only there collapse
            parts.append(r"\s")
        elif char.isascii():
            parts.append(re.escape(char.lower() if ignore else char))
        else:
            # A non-ASCII letter may match an ASCII one case-blind: the long s matches "s", Kelvin's sign "k".
            matches = sorted({c.lower() for c in _ASCII
                              if ignore and re.fullmatch(re.escape(char), c, re.IGNORECASE)})
            if not matches:
                return None
            parts.append("[" + "".join(map(re.escape, matches)) + "]")
    return "".join(parts)


def _sequence(items: list, ignore: bool) -> set[Beginning] | None:
    found: set[Beginning] = {("", False, ignore)}
    for op, av in items:
        following = _item(op, av, ignore)
        if following is None:
            return None
        grown = set()
        for text, closed, case in found:
            if closed or len(text) >= _LENGTH:
                grown.add((text, True, case))
                continue
            for more, more_closed, more_case in following:
                if more and text and case != more_case:  # a beginning keeps one case rule: it ends here
                    grown.add((text, True, case))
                    continue
                joined = text + more
                grown.add((joined[:_LENGTH], more_closed or len(joined) >= _LENGTH,
                           more_case if more else case))
        if len(grown) > _MAX_BEGINNINGS:
            return None
        found = grown
        if all(closed for _, closed, _ in found):
            break
    return found


def _item(op: object, av: object, ignore: bool) -> set[Beginning] | None:
    if op is sre.LITERAL:
        return {(chr(av), False, ignore)}
    if op is sre.IN:
        chars = _class(av)
        return {(c, False, ignore) for c in chars} if chars else {("", True, ignore)}
    if op is sre.SUBPATTERN:
        _group, add, remove, inner = av
        inner_ignore = (ignore or bool(add & re.IGNORECASE)) and not remove & re.IGNORECASE
        return _sequence(list(inner), inner_ignore)
    if op is sre.BRANCH:
        union: set[Beginning] = set()
        for alternative in av[1]:
            found = _sequence(list(alternative), ignore)
            if found is None:
                return None
            union |= found
        return union
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
        low, _high, inner = av
        found = _sequence(list(inner), ignore)
        if found is None:
            return None
        # After one pass the next may repeat or not: what follows is unknown, so each beginning closes.
        once = {(text, True, case) for text, _, case in found}
        return once if low else once | {("", False, ignore)}
    if op in _ZERO_WIDTH:
        return {("", False, ignore)}
    return {("", True, ignore)}  # any character, a wide category, a back-reference: the beginning ends here


def _class(items: list) -> list[str] | None:
    """The characters of a class spelled out (`\\d` and `\\s` as their ASCII members); None when too wide."""
    chars: list[str] = []
    for op, av in items:
        if op is sre.LITERAL:
            chars.append(chr(av))
        elif op is sre.RANGE and av[1] - av[0] < _MAX_CLASS:
            chars += [chr(c) for c in range(av[0], av[1] + 1)]
        elif op is sre.CATEGORY and av in _CATEGORIES:
            chars += _CATEGORIES[av]
        else:
            return None
    return chars if len(chars) <= _MAX_CLASS else None


# A pattern item's digits: whether it matches digits only, how many at least, and the longest run of
# digits it surely holds. Lookarounds and anchors (None) take no characters and leave a run unbroken.
Digits = tuple[bool, int, int] | None


def _digit_run(items: list) -> tuple[bool, int, int]:
    only, least, longest, run = True, 0, 0, 0
    for op, av in items:
        item = _digit_item(op, av)
        if item is None:
            continue
        item_only, item_least, item_longest = item
        if item_only:
            run += item_least
            least += item_least
        else:
            only, longest, run = False, max(longest, run, item_longest), 0
    return only, least, max(longest, run)


def _digit_item(op: object, av: object) -> Digits:
    if op in _ZERO_WIDTH:
        return None
    if op is sre.LITERAL:
        return (True, 1, 1) if chr(av) in _DIGITS else (False, 1, 0)
    if op is sre.IN:
        chars = _class(av)
        return (True, 1, 1) if chars and set(chars) <= _DIGITS else (False, 1, 0)
    if op is sre.SUBPATTERN:
        return _digit_run(list(av[3]))
    if op is sre.BRANCH:
        alternatives = [_digit_run(list(alternative)) for alternative in av[1]]
        only = all(a[0] for a in alternatives)
        return only, min(a[1] for a in alternatives), min(a[2] for a in alternatives)
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
        low, _high, inner = av
        only, least, longest = _digit_run(list(inner))
        return (True, low * least, low * least) if only else (False, low * least, longest if low else 0)
    return False, 0, 0


def _marks(items: list) -> frozenset[str]:
    """The punctuation every match of the sequence holds."""
    marks: frozenset[str] = frozenset()
    for op, av in items:
        marks |= _item_marks(op, av)
    return marks


def _item_marks(op: object, av: object) -> frozenset[str]:
    if op is sre.LITERAL:
        return frozenset({chr(av)}) & _MARKS
    if op is sre.IN:
        chars = _class(av)
        return frozenset(chars) & _MARKS if chars and len(chars) == 1 else frozenset()
    if op is sre.SUBPATTERN:
        return _marks(list(av[3]))
    if op is sre.BRANCH:
        return frozenset.intersection(*(_marks(list(alternative)) for alternative in av[1]))
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
        return _marks(list(av[2])) if av[0] else frozenset()
    return frozenset()
