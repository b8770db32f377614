"""Folding that keeps offsets: lowercase without accents, one character in, one character out,
so a span found in the folded text is the same span in the original (the verifier reads names
from the original, guideline snippets and highlights cut the original)."""

import functools
import unicodedata


class _FoldTable(dict[int, str]):
    """str.translate table built lazily."""

    def __missing__(self, code: int) -> str:
        char = chr(code)
        base = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
        folded = base.casefold()
        if len(folded) != 1:  # a ligature or "ß" keeps a one-character form
            folded = char.lower() if len(char.lower()) == 1 else char
        self[code] = folded
        return folded


_FOLD = _FoldTable({ord(c): "'" for c in "\u2019\u2018\u00b4`"})  # typographic apostrophes


@functools.lru_cache(maxsize=512)
def fold(text: str) -> str:
    """Cached: the verifier's rules fold the same answer several times."""
    return text.translate(_FOLD)
