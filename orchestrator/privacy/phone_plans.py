"""python-phonenumbers' PhoneNumberMatcher without the parses that cannot give a valid number.

The matcher parses each candidate in a run (the whole of it, then its groups) once per region, and a
parse is most of its time; nearly all of them fail (postal codes, ids, card numbers). `PlanMatcher`
first asks the region's numbering plan (`_Plan.may_fit`) whether the candidate's digits could be a
valid number of it at all, by following `parse` step by step; only then does it parse. Its matches are
the matcher's own, candidate by candidate: a skipped parse is one the matcher would reject.
`region_matches` also answers a region without a matcher where its plan rules out every candidate a
region before it tried in vain. The plans use the library's own private steps (national prefix
stripping, country code reading, format choice) so as to read digits exactly as `parse` does; the
requirements pin the library, and tests/test_phi_phone_plans.py checks the matches against its matcher."""

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


def _prefix_written(digits: str, metadata: PhoneMetadata) -> bool:
    """Whether the digits open with a national prefix (or carrier code) `parse` would strip."""
    return phonenumberutil._maybe_strip_national_prefix_carrier_code(digits, metadata)[2]


@dataclass(frozen=True)
class _Code:
    """What `is_valid_number` asks of a national number under a country calling code."""

    main: PhoneMetadata  # its main region's, which parse strips a national prefix with after the code
    lengths: frozenset[int]  # national number lengths any region of the code allows; empty: any
    types: re.Pattern[str]  # any number type pattern of any region of the code

    def fits(self, number: str) -> bool:
        """A superset of `is_valid_number`: one of the code's regions has the length and a matching type."""
        return (not self.lengths or len(number) in self.lengths) and self.types.fullmatch(number) is not None

    def wants_prefix(self, number: str) -> bool:
        """Whether a national number written without its country code needs its national prefix before
        it ("030 …" in Germany), as the matcher's check reads the main region's format for it
        (phonenumbermatcher._is_national_prefix_present_if_required)."""
        rule = phonenumberutil._choose_formatting_pattern_for_number(self.main.number_format, number)
        written = rule.national_prefix_formatting_rule if rule is not None else None
        return (bool(written) and not rule.national_prefix_optional_when_formatting
                and not phonenumberutil._formatting_rule_has_first_group_only(written))

    def may_follow(self, rest: str) -> bool:
        """Whether the digits after the written code may be a valid number: as they are, or as parse
        reads them after stripping a national prefix."""
        return self.fits(rest) or self.fits(_strip(rest, self.main))


@cache
def _code(code: int) -> _Code:
    of_code = PhoneMetadata.metadata_for_region_or_calling_code
    plans = [plan for r in region_codes_for_country_code(code) if (plan := of_code(code, r)) is not None]
    lengths = [set(plan.general_desc.possible_length) for plan in plans]
    types = [desc.national_number_pattern for plan in plans for desc in (getattr(plan, t) for t in _TYPES)
             if desc is not None and desc.national_number_pattern]
    main = of_code(code, phonenumberutil.region_code_for_country_code(code))
    return _Code(main, frozenset() if not all(lengths) else frozenset().union(*lengths),
                 re.compile("|".join(f"(?:{pattern})" for pattern in types) or "(?!)"))


def _after_idd(rest: str) -> bool:
    """Whether the digits after an international prefix may parse to a valid number: parse needs more
    than two of them, starting with a country code (the shortest one read), then a national number."""
    code, national = phonenumberutil._extract_country_code(rest)
    return len(rest) > 2 and code != 0 and _code(code).may_follow(national)


@dataclass(frozen=True)
class _Plan:
    """What `parse(candidate, region)` and `is_valid_number` need of a region without a plus sign."""

    code: str  # the country calling code
    idd: re.Pattern[str]  # the international prefix ("00", "011"): another country's code may follow
    metadata: PhoneMetadata
    national: _Code

    def may_fit(self, digits: str) -> bool:
        """False only if `parse` of these digits (a plain candidate's) cannot give a valid number.

        After the region's international prefix (not followed by a 0, which parse leaves), the number
        is another country's (`_after_idd`). Otherwise `parse` gives the region's country code and, as
        national number, either the digits or them with the national prefix stripped; or, when the
        digits start with the country code, the rest stripped once with the region's metadata and maybe
        again with the main region's. `is_valid_number` then needs one of those to fit (`_Code.fits`),
        and the matcher a national prefix written before a number without its code that wants one."""
        idd = self.idd.match(digits)
        if idd and not digits.startswith("0", idd.end()):
            return _after_idd(digits[idd.end():])
        national = self.national
        if digits.startswith(self.code):
            rest = _strip(digits[len(self.code):], self.metadata)
            if national.fits(rest) or national.fits(_strip(rest, national.main)):
                return True
        fitting = [number for number in {digits, _strip(digits, self.metadata)} if national.fits(number)]
        return bool(fitting) and (_prefix_written(digits, national.main)
                                  or not all(national.wants_prefix(number) for number in fitting))


@cache
def _plan(region: str) -> _Plan:
    metadata = PhoneMetadata.metadata_for_region(region)
    return _Plan(str(metadata.country_code), re.compile(metadata.international_prefix or "(?!)"), metadata,
                 _code(metadata.country_code))


def prepare(regions: Iterable[str]) -> None:
    """Compile the regions' plans now (40 ms for fifteen), not in the first message that needs them."""
    for region in regions:
        _plan(region)


def _digits(candidate: str) -> str | None:
    """The digits `parse` reads in a plain candidate; None for any other."""
    return _NON_DIGIT.sub("", candidate) if _PLAIN.fullmatch(candidate) else None


def _ruled_out(digits: str | None, region: str, leniency: int) -> bool:
    """Whether the region's plan says a candidate's digits cannot parse to a valid number (a need of VALID
    and stricter leniencies)."""
    return leniency >= Leniency.VALID and digits is not None and not _plan(region).may_fit(digits)


class PlanMatcher(PhoneNumberMatcher):
    """PhoneNumberMatcher whose per-candidate step (a private method, python-phonenumbers 9.0) first
    skips the candidates the region's plan rules out; the matcher's search and retries are unchanged.
    `tried` keeps the candidates in the order given."""

    def __init__(self, text: str, region: str, leniency: int) -> None:
        super().__init__(text, region, leniency=leniency)
        self.tried: list[str] = []

    def _parse_and_verify(self, candidate: str, offset: int) -> PhoneNumberMatch | None:
        self.tried.append(candidate)
        if _ruled_out(_digits(candidate), self.preferred_region, self.leniency):
            return None
        return super()._parse_and_verify(candidate, offset)


def region_matches(text: str, regions: Iterable[str], leniency: int) -> Iterator[list[PhoneNumberMatch]]:
    """Each region's matches in `text`, as PhoneNumberMatcher finds them, region by region.

    Where a region's matcher finds nothing, every candidate it tried failed, and so the matcher's path
    through the text (its search, its inner groups, its retries) never depended on the region: another
    region's matcher tries the very same candidates until one of them is valid for it. A later region
    whose plan rules out all of those is answered without a matcher."""
    tried: list[str | None] | None = None  # the digits of each candidate
    for region in regions:
        if tried is not None and all(_ruled_out(digits, region, leniency) for digits in tried):
            yield []
            continue
        matcher = PlanMatcher(text, region, leniency)
        matches = list(matcher)
        if not matches and tried is None:
            tried = [_digits(candidate) for candidate in matcher.tried]
        yield matches
