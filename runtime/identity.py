"""Patient identity checks shared by clinics and the orchestrator: CPF check digits and names."""

import re

from runtime.errors import InvalidArgument
from runtime.text.fold import fold_words

_NON_DIGITS = re.compile(r"[.\-\s]")
# ASCII digits only: str.isdigit() also accepts "²" (which int() refuses) and Arabic-Indic or
# fullwidth digits (which int() reads, so one CPF could be written as a second identity).
_ELEVEN_DIGITS = re.compile(r"[0-9]{11}")


def normalize_cpf(raw: str, field: str = "patient.cpf") -> str:
    """Returns the 11 digits of a valid CPF, or raises InvalidArgument naming `field`."""
    digits = _NON_DIGITS.sub("", raw or "")
    if not digits:
        raise InvalidArgument(field, "is required")
    if not _ELEVEN_DIGITS.fullmatch(digits):
        raise InvalidArgument(field, "must have 11 digits (e.g. 123.456.789-09)")
    if digits == digits[0] * 11 or not _check_digits_ok(digits):
        raise InvalidArgument(field, "check digits do not match; not a valid CPF")
    return digits


def _check_digits_ok(digits: str) -> bool:
    nums = [int(c) for c in digits]
    for position in (9, 10):
        total = sum(n * w for n, w in zip(nums[:position], range(position + 1, 1, -1), strict=True))
        if (total * 10 % 11) % 10 != nums[position]:
            return False
    return True


def normalize_name(raw: str, field: str = "patient.full_name") -> str:
    """Collapses whitespace; a name needs at least two letters."""
    name = " ".join((raw or "").split())
    if not name:
        raise InvalidArgument(field, "is required")
    if sum(c.isalpha() for c in name) < 2 or len(name) > 200:
        raise InvalidArgument(field, "must be a person's name (2 to 200 characters)")
    return name



def same_name(a: str, b: str) -> bool:
    """Whether two names are one person's as written: letter case and accents aside."""
    return fold_words(a) == fold_words(b)
