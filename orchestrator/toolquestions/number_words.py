"""Numbers written in words, English and Portuguese ("sixty-eight", "cento e dez", "vinte e
quatro"), put as digits into folded text without moving anything: the digits end where the
words ended and spaces fill the rest, so a span read from the result is the same span in the
message and the report can quote the user's own words.

"one", "um" and "uma" alone stay words: they are articles as often as numbers ("uma paciente")."""

import re

_UNITS = {
    "zero": 0, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19,
    "dois": 2, "duas": 2, "tres": 3, "quatro": 4, "cinco": 5, "seis": 6, "sete": 7, "oito": 8, "nove": 9,
    "dez": 10, "onze": 11, "doze": 12, "treze": 13, "catorze": 14, "quatorze": 14, "quinze": 15,
    "dezesseis": 16, "dezessete": 17, "dezoito": 18, "dezenove": 19,
}
_ONE = {"one": 1, "um": 1, "uma": 1}  # only inside a compound number
_TENS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
    "ninety": 90,
    "vinte": 20, "trinta": 30, "quarenta": 40, "cinquenta": 50, "sessenta": 60, "setenta": 70, "oitenta": 80,
    "noventa": 90,
}
_HUNDREDS = {"hundred": 100, "cem": 100, "cento": 100}
_ALL = {**_UNITS, **_ONE, **_TENS, **_HUNDREDS}
_WORD = "|".join(sorted(_ALL, key=len, reverse=True))
# A run of number words joined by spaces, hyphens, "and" or "e" ("one hundred and ten").
_RUN = re.compile(rf"\b(?:a\s+)?(?:{_WORD})(?:(?:\s+(?:and|e)\s+|\s*-\s*|\s+)(?:{_WORD}))*\b")


def _value(words: list[str]) -> int | None:
    """The number of a well-formed run ([unit] hundred, then tens, then a unit, or a unit or
    teen alone); None for a list of numbers ("two three")."""
    total, i = 0, 0
    if len(words) > 1 and words[1] in _HUNDREDS and _ALL[words[0]] < 10:
        total, i = _ALL[words[0]] * 100, 2
    elif words[0] in _HUNDREDS:
        total, i = 100, 1
    if i < len(words) and words[i] in _TENS:
        total, i = total + _TENS[words[i]], i + 1
        if i < len(words) and _ALL[words[i]] < 10:
            total, i = total + _ALL[words[i]], i + 1
    elif i < len(words) and _ALL[words[i]] < 20:
        total, i = total + _ALL[words[i]], i + 1
    return total if i == len(words) else None


def with_digits(text: str) -> str:
    """`text` (folded) with its numbers in words as right-aligned digits, same length."""
    def digits(m: re.Match[str]) -> str:
        words = [w for w in re.split(r"[\s-]+", m.group(0)) if w not in ("and", "e", "a")]
        if len(words) == 1 and words[0] in _ONE:
            return m.group(0)
        value = _value(words)
        number = "" if value is None else str(value)
        return number.rjust(len(m.group(0))) if number and len(number) <= len(m.group(0)) else m.group(0)
    return _RUN.sub(digits, text)
