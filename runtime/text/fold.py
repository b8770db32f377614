"""Folding for matching: lower case without accents. The offset-keeping folds put one character
out for each character in, so a span found in the folded text is the same span in the original
(fields, names, highlights and redactions are cut from the original)."""

import functools
import unicodedata
from collections.abc import Callable

_APOSTROPHES = {ord(c): "'" for c in "\u2019\u2018\u00b4`"}  # typographic apostrophes read as "'"


class _Table(dict[int, str]):
    """A str.translate table that folds each character the first time it is seen."""

    def __init__(self, fold_char: Callable[[str], str]) -> None:
        super().__init__(_APOSTROPHES)
        self._fold_char = fold_char

    def __missing__(self, code: int) -> str:
        self[code] = folded = self._fold_char(chr(code))
        return folded


def _plain_lower(char: str) -> str:
    """Compatibility forms plain ("º" -> "o", "²" -> "2"), marks off, case folded; a character
    that would become two ("ß", a ligature) keeps a one-character form."""
    base = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
    folded = base.casefold()
    if len(folded) != 1:
        folded = char.lower() if len(char.lower()) == 1 else char
    return folded


def _latin_plain(char: str) -> str:
    """A Latin letter with a diacritic (Latin-1 to Latin Extended-B) as its ASCII base letter, case
    kept; any other character as it is."""
    if 0xC0 <= ord(char) < 0x250:
        base = unicodedata.normalize("NFD", char)[0]
        if base != char and base.isascii():
            return base
    return char


_FOLD = _Table(_plain_lower)
_LATIN = _Table(_latin_plain)


@functools.lru_cache(maxsize=512)
def fold(text: str) -> str:
    """The fold: lower case, no accents, compatibility forms plain, same length. Cached: the
    verifier's rules fold the same answer several times."""
    return text.translate(_FOLD)


def strip_accents(text: str) -> str:
    """"São João" -> "Sao Joao": only Latin letters lose their accents and the case is kept, because
    the PHI patterns tell names by their capitals and spell "nº" with its "º"."""
    return text.translate(_LATIN)


def fold_latin(text: str) -> str:
    """`strip_accents` in lower case: the message grammars of the orchestrator tell "2º" (an ordinal)
    from "2o" and so read every character but Latin letters as typed."""
    return strip_accents(text).lower()  # no Latin letter left grows in lower(): "İ" is already "I"


def fold_words(text: str) -> str:
    """Comparable form of a name or key: folded, whitespace collapsed. Not offset-keeping ("ß" is
    "ss"): it compares names, it does not locate them."""
    decomposed = unicodedata.normalize("NFKD", text)
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).casefold().split())
