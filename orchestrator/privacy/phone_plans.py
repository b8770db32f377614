"""python-phonenumbers' PhoneNumberMatcher without the parses that cannot give a valid number.

The matcher parses each candidate in a run (the whole of it, then its groups) once per region, and a
parse is most of its time; nearly all of them fail (postal codes, ids, card numbers). `PlanMatcher`
first asks the region's numbering plan (`_Plan.may_fit`) whether the candidate's digits could be a
valid number of it at all, by following `parse` step by step; only then does it parse. Its matches are
the matcher's own, candidate by candidate: a skipped parse is one whose number `is_valid_number` rejects.
"""

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache

from phonenumbers import (
    Leniency,
    PhoneNumberMatch,
    PhoneNumberMatcher,
    phonenumberutil,
    region_codes_for_country_code,
)
from phonenumbers.phonemetadata import PhoneMetadata

# A candidate of these characters only reads, in `parse`, as its digits in order: no plus sign, no
# letters to map to digits, no extension (each extension form needs a letter, '#', ',' or ';').
_PLAIN = re.compile(r"[0-9 ().\-]+")
_NON_DIGIT = re.compile(r"\D")
# The number types `is_valid_number` accepts (phonenumberutil._number_type_helper): a valid number
# matches the general description and one of these.
_TYPES = ("premium_rate", "toll_free", "shared_cost", "voip", "personal_number", "pager", "uan",
          "voicemail", "fixed_line", "mobile")


def _strip(number: str, metadata: PhoneMetadata) -> str:
    """`number` without the national prefix and carrier code, as `parse` strips them (its own function)."""
    return phonenumberutil._maybe_strip_national_prefix_carrier_code(number, metadata)[1]


@dataclass(frozen=True)
class _Plan:
    """What `parse(candidate, region)` and `is_valid_number` need of a region without a plus sign."""

    code: str  # the country calling code
    idd: re.Pattern[str]  # the international prefix ("00", "011"): any country's number may follow
    metadata: PhoneMetadata
    main: PhoneMetadata  # the code's main region's, which parse switches to once it reads the code
    lengths: frozenset[int]  # national number lengths any region of the code allows; empty: any
    types: re.Pattern[str]  # any number type pattern of any region of the code

    def may_fit(self, digits: str) -> bool:
        """False only if `parse` of these digits (a plain candidate's) cannot give a valid number.

        Without the region's international prefix in front, `parse` gives the region's country code and,
        as national number, either the digits or them with the national prefix stripped; or, when the
        digits start with the country code, the rest stripped once with the region's metadata and maybe
        again with the main region's. `is_valid_number` then needs one of those to have an allowed length
        and match a number type of a region of that code: a superset of that test is tried here."""
        if self.idd.match(digits):
            return True
        numbers = {digits, _strip(digits, self.metadata)}
        if digits.startswith(self.code):
            rest = _strip(digits[len(self.code):], self.metadata)
            numbers |= {rest, _strip(rest, self.main)}
        return any((not self.lengths or len(number) in self.lengths) and self.types.fullmatch(number)
                   for number in numbers)


@cache
def _plan(region: str) -> _Plan:
    metadata = PhoneMetadata.metadata_for_region(region)
    code = metadata.country_code
    plans = [PhoneMetadata.metadata_for_region(r) for r in region_codes_for_country_code(code)]
    lengths = [set(plan.general_desc.possible_length) for plan in plans]
    types = [desc.national_number_pattern for plan in plans for desc in (getattr(plan, t) for t in _TYPES)
             if desc is not None and desc.national_number_pattern]
    return _Plan(str(code), re.compile(metadata.international_prefix or "(?!)"), metadata,
                 PhoneMetadata.metadata_for_region(phonenumberutil.region_code_for_country_code(code)),
                 frozenset() if not all(lengths) else frozenset().union(*lengths),
                 re.compile("|".join(f"(?:{pattern})" for pattern in types) or "(?!)"))


def prepare(regions: Iterable[str]) -> None:
    """Compile the regions' plans now (40 ms for fifteen), not in the first message that needs them."""
    for region in regions:
        _plan(region)


def _ruled_out(candidate: str, region: str, leniency: int) -> bool:
    """Whether the region's plan says `candidate` cannot parse to a valid number (a need of VALID and up)."""
    return (leniency >= Leniency.VALID and _PLAIN.fullmatch(candidate) is not None
            and not _plan(region).may_fit(_NON_DIGIT.sub("", candidate)))


class PlanMatcher(PhoneNumberMatcher):
    """PhoneNumberMatcher whose per-candidate step (a private method, python-phonenumbers 9.0) first
    skips the candidates the region's plan rules out; the matcher's search and retries are unchanged.
    `tried` keeps the candidates in the order given."""

    def __init__(self, text: str, region: str, leniency: int) -> None:
        super().__init__(text, region, leniency=leniency)
        self.tried: list[str] = []

    def _parse_and_verify(self, candidate: str, offset: int) -> PhoneNumberMatch | None:
        self.tried.append(candidate)
        if _ruled_out(candidate, self.preferred_region, self.leniency):
            return None
        return super()._parse_and_verify(candidate, offset)


def region_matches(text: str, regions: Iterable[str], leniency: int) -> Iterator[list[PhoneNumberMatch]]:
    """Each region's matches in `text`, as PhoneNumberMatcher finds them, region by region.

    Where a region's matcher finds nothing, every candidate it tried failed, and so the matcher's path
    through the text (its search, its inner groups, its retries) never depended on the region: another
    region's matcher tries the very same candidates until one of them is valid for it. A later region
    whose plan rules out all of those is answered without a matcher."""
    tried: list[str] | None = None
    for region in regions:
        if tried is not None and all(_ruled_out(candidate, region, leniency) for candidate in tried):
            yield []
            continue
        matcher = PlanMatcher(text, region, leniency)
        matches = list(matcher)
        if not matches and tried is None:
            tried = matcher.tried
        yield matches
