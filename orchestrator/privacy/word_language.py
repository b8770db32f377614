"""How much a word belongs to the message's language, English or Portuguese: a word rare in the one a message
is written in, or mostly of the other ("luz" in an English message, "hope" in a Portuguese one), may be a
person's name where a common word of that language would not be. Frequencies from wordfreq, accents
stripped."""

from functools import cache

from wordfreq import get_frequency_dict

from runtime.text.fold import strip_accents

# A word this many times more frequent in one language than in the other is that language's.
OTHER_LANGUAGE = 4.0
# Rarer words are left out as unseen (a third of each list: smaller tables, fewer cache misses per lookup);
# the rules weigh words seen once in a million and more often.
_LEAST = 1e-7


@cache
def frequencies(lang: str) -> dict[str, float]:
    """The language's word frequencies from `_LEAST` up, accents stripped (the highest of the spellings folded
    together)."""
    folded: dict[str, float] = {}
    for word, seen in get_frequency_dict(lang).items():
        if seen < _LEAST:
            break  # the list runs from the most frequent down
        plain = strip_accents(word)
        if seen > folded.get(plain, 0.0):
            folded[plain] = seen
    return folded


class WordLanguage:
    """The message's language by its words, and a word's frequency in it and in the other."""

    def __init__(self) -> None:
        self._en, self._pt = frequencies("en"), frequencies("pt")

    def of(self, words: list[str]) -> str | None:
        """"en" or "pt" by the lower-case words mostly of one language; None when as many of each."""
        votes = 0
        for word in words:
            en, pt = self._en.get(word, 0.0), self._pt.get(word, 0.0)
            votes += (en > OTHER_LANGUAGE * pt) - (pt > OTHER_LANGUAGE * en)
        return "en" if votes > 0 else "pt" if votes < 0 else None

    def frequency(self, word: str, lang: str | None) -> tuple[float, float]:
        """The word's frequency in the message's language and in the other (both the higher, unknown)."""
        en, pt = self._en.get(word, 0.0), self._pt.get(word, 0.0)
        if lang is None:
            return max(en, pt), max(en, pt)
        return (en, pt) if lang == "en" else (pt, en)
