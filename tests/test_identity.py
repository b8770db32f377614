"""CPF and name checks shared by the clinics and the orchestrator: only ASCII digits make a CPF,
so a CPF of superscript, Arabic-Indic or fullwidth digits is a clear INVALID_ARGUMENT naming the
field, never an unexpected error or a second identity for the same person."""

import pytest

from runtime.errors import InvalidArgument
from runtime.identity import normalize_cpf


def test_a_valid_cpf_in_any_punctuation():
    assert normalize_cpf("529.982.247-25") == normalize_cpf("52998224725") == "52998224725"


VALID = "52998224725"


def other_digits(zero: int) -> str:
    """VALID written with the ten digits that start at code point `zero`."""
    return "".join(chr(zero + int(c)) for c in VALID)


@pytest.mark.parametrize("raw", [
    "\u00b2" * 10 + "\u00b3",  # superscripts: isdigit() says yes, int() says no
    other_digits(0x0660),  # Arabic-Indic digits of a valid CPF
    other_digits(0xFF10),  # fullwidth digits of a valid CPF
    "529.982.247-2", "abc", "111.111.111-11",
])
def test_anything_but_eleven_ascii_digits_is_invalid(raw):
    with pytest.raises(InvalidArgument) as info:
        normalize_cpf(raw, "patient.cpf")
    assert "patient.cpf" in str(info.value)
