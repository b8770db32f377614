"""The mesh's doctors a message names: runs of their folded name words, with or without a title
("dra beatriz", "Dr. Fernando Almeida"), and not when the run is part of someone else's name."""

import re
from functools import lru_cache

from orchestrator.understanding import lexicon
from runtime.text.fold import fold_latin
from runtime.text.language import ENGLISH_WORDS, PORTUGUESE_WORDS

_NAME_TOKEN = re.compile(r"[^\W\d_]+")
TITLES = frozenset({"dr", "dra", "doutor", "doutora", "doctor", "doc"})
_NAME_GAP = re.compile(r"\s+")

_DoctorWords = tuple[tuple[str, frozenset[str]], ...]


@lru_cache(maxsize=16)
def _doctor_index(known_doctors: tuple[str, ...]) -> tuple[_DoctorWords, frozenset[str]]:
    """(full name, folded name words without the title) per doctor, and all those words together."""
    doctors = tuple((name, _name_words(name)) for name in known_doctors)
    return doctors, frozenset().union(*(words for _, words in doctors))


def _name_words(name: str) -> frozenset[str]:
    return frozenset(w for w in _NAME_TOKEN.findall(fold_latin(name)) if w not in TITLES)


def doctors_named(message: str, folded: str, known_doctors: tuple[str, ...]) -> tuple[str, ...]:
    """Doctors the message names: a run of their name words, with or without a title ("dra beatriz").

    A run next to another capitalised word ("Maria Souza") names someone else, not Dra. Beatriz Souza.
    """
    doctors, name_words = _doctor_index(known_doctors)
    tokens = list(_NAME_TOKEN.finditer(folded))
    found: list[str] = []
    i = 0
    while i < len(tokens):
        if tokens[i].group() not in name_words:
            i += 1
            continue
        j = i
        while (j + 1 < len(tokens) and tokens[j + 1].group() in name_words
               and _adjacent(folded, tokens[j], tokens[j + 1])):
            j += 1
        run = frozenset(t.group() for t in tokens[i:j + 1])
        if not _beside_another_name(message, folded, tokens, i, j):
            found.extend(name for name, words in doctors if run <= words and name not in found)
        i = j + 1
    return tuple(found)


def _adjacent(folded: str, left: re.Match[str], right: re.Match[str]) -> bool:
    return _NAME_GAP.fullmatch(folded, left.end(), right.start()) is not None


def _beside_another_name(message: str, folded: str, tokens: list[re.Match[str]], i: int, j: int) -> bool:
    before = tokens[i - 1] if i > 0 and _adjacent(folded, tokens[i - 1], tokens[i]) else None
    after = tokens[j + 1] if j + 1 < len(tokens) and _adjacent(folded, tokens[j], tokens[j + 1]) else None
    if before is not None and before.group() in lexicon.PLACE_WORDS:
        return True
    return any(
        token is not None and message[token.start()].isupper() and _could_be_a_name(token.group())
        for token in (before, after)
    )


def _could_be_a_name(word: str) -> bool:
    return word not in TITLES and word not in PORTUGUESE_WORDS and word not in ENGLISH_WORDS


def name_words_of(known_doctors: tuple[str, ...]) -> frozenset[str]:
    """Every folded word of the doctors' names, titles left out."""
    return _doctor_index(known_doctors)[1]
