"""Text folding and language detection (Portuguese or English)."""

import re
import unicodedata

from orchestrator.understanding import lexicon


def _fold_table() -> dict[int, str]:
    """Latin letters with diacritics -> plain lower-case letter (one char for one char)."""
    table = {ord("\u2019"): "'", ord("\u2018"): "'", ord("\u00b4"): "'", ord("`"): "'"}
    for code in range(0xC0, 0x250):
        base = unicodedata.normalize("NFD", chr(code))[0]
        if base != chr(code) and base.isascii():
            table[code] = base.lower()
    return table


_FOLD = _fold_table()
_WORD = re.compile(r"[a-z]+")
_ACCENTED_LOWER_WORD = re.compile(r"(?<![\w.])[a-zà-ÿ]*[à-öø-ÿ][a-zà-ÿ]*")


def fold(text: str) -> str:
    """Lower-case `text` and strip accents, keeping its length so spans map back to the original."""
    folded = text.translate(_FOLD).lower()
    # str.lower can lengthen a few exotic characters; fall back per character to keep the length.
    if len(folded) != len(text):
        folded = "".join(c if len(c.lower()) != 1 else c.lower() for c in text.translate(_FOLD))
    return folded


def detect_language(text: str, folded: str, previous: str | None) -> str:
    """"pt" or "en" by typical words; accents in lower-case words (not names) count for Portuguese."""
    words = _WORD.findall(folded)
    pt = sum(word in lexicon.PORTUGUESE_WORDS for word in words)
    en = sum(word in lexicon.ENGLISH_WORDS for word in words)
    pt += len(_ACCENTED_LOWER_WORD.findall(text))
    if pt == en:
        return previous if previous in ("pt", "en") else "en"
    return "pt" if pt > en else "en"
