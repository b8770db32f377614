"""US street addresses read with `usaddress` (a conditional random field trained on US addresses):
a house number and a street suffix from its list of 588 USPS forms ("St", "Dr", "Pkwy", "Terrace")
find where an address may be; usaddress then tells how far it runs, through directions ("N", "W"),
units ("Apt 3B", "#12", "Suite 110"), city and state. The ZIP code is left to the postal-code
recognizers, its own category. Reads text with accents stripped, like every recognizer.
"""

import re

import usaddress
from presidio_analyzer import LocalRecognizer, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

# Labels of the parts of a street address up to its state, in usaddress's terms.
_PARTS = frozenset({
    "AddressNumber", "AddressNumberPrefix", "AddressNumberSuffix", "StreetNamePreDirectional",
    "StreetNamePreModifier", "StreetNamePreType", "StreetName", "StreetNamePostType",
    "StreetNamePostDirectional", "StreetNamePostModifier", "OccupancyType", "OccupancyIdentifier",
    "SubaddressType", "SubaddressIdentifier", "BuildingName", "PlaceName", "StateName"})
# After the street a part starts with a capital or a digit ("Apt 3B", "#12", "Springfield, IL"), so
# a lower-case word ends the address ("..., WA, is there a pharmacy nearby?").
_UNIT_WORDS = frozenset({"apt", "apartment", "unit", "suite", "ste", "fl", "floor", "rm", "room", "bldg"})
# A house number, then up to five words (capitalized or ordinal, or a direction), the last one a
# street suffix (checked against usaddress's list in Python: a regex of 588 alternatives is slow).
_CANDIDATE = re.compile(
    r"(?<![\w\-/.,:])\d{1,6}[A-Za-z]?\s+(?:[NSEW]\.?\s+)?"
    r"(?:[A-Za-z](?:'[A-Z])?[a-z'\-]*|\d+(?:st|nd|rd|th))(?:\s+(?:[A-Za-z](?:'[A-Z])?[a-z'\-]*|\d+(?:st|nd|rd|th)))"
    r"{1,4}\.?")
# USPS suffixes, and streets of Britain, Ireland and New Zealand it lacks ("Marine Parade", "Hope Close").
_SUFFIXES = frozenset(usaddress.STREET_NAMES) | {"parade", "close", "quay", "wynd", "esplanade"}
_FUNCTION_WORDS = frozenset("""the a an my your his her our their of to in on at and or for with from by
    is are was were have has take took times blocks miles minutes hours days weeks""".split())
_WINDOW = 120
_SENTENCE_END = re.compile(r"[?!;()\n]|\.(?:\s|$)|\s-\s")


class UsAddressRecognizer(LocalRecognizer):
    def __init__(self) -> None:
        super().__init__(supported_entities=["ADDRESS"], name="UsAddress")

    def load(self) -> None:  # usaddress loads its model on import
        pass

    def analyze(self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None,
                ) -> list[RecognizerResult]:
        results = []
        for m in _CANDIDATE.finditer(text):
            end = self._street_end(m)
            if end:
                results.append(RecognizerResult("ADDRESS", m.start(), self._end(text, m.start(), end), 0.7))
        return results

    @staticmethod
    def _street_end(m: re.Match[str]) -> int:
        """Where the street ends (its suffix: "742 Maple Grove Lane"), or 0 when `m` holds no street:
        no suffix, a function word ("3 blocks down the street"), or mixed case ("19:45 com Dr. Lima")."""
        tokens = list(re.finditer(r"\S+", m.group()))[1:]
        for last in range(len(tokens) - 1, 0, -1):
            suffix = tokens[last].group().rstrip(".")
            if suffix.lower() not in _SUFFIXES:
                continue
            words = [t.group() for t in tokens[:last] if not re.fullmatch(r"[NSEW]\.?", t.group())]
            if not words or any(w.lower() in _FUNCTION_WORDS for w in words) or (
                    suffix[0].isupper() and any(w[0].islower() for w in words)):
                return 0
            return m.start() + tokens[last].end()
        return 0

    @staticmethod
    def _end(text: str, start: int, street_end: int) -> int:
        """Where the address starting at `start` ends: usaddress's last part of it, not before its street."""
        window = text[start:start + _WINDOW]
        cut = _SENTENCE_END.search(window, street_end - start - 1)
        window = window[:cut.start()] if cut else window
        end, pos = street_end, start
        for token, label in usaddress.parse(window):
            at = text.find(token, pos)
            pos = at + len(token)
            after_street = at >= street_end
            if label not in _PARTS or (after_street and token[0].islower()
                                       and token.rstrip(",.").lower() not in _UNIT_WORDS):
                break
            end = max(end, pos - (1 if token.endswith(",") else 0))
        return end
