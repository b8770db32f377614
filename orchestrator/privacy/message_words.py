"""A message lower-cased and split into words once, for every gate and recognizer that asks: a dozen of
them test a word set before their scans, and each lower-casing and split of its own cost a few
microseconds per message. The caches hold the last few messages (a detector reads one at a time)."""

from functools import lru_cache


@lru_cache(maxsize=4)
def lower(text: str) -> str:
    return text.lower()


@lru_cache(maxsize=4)
def lower_words(text: str) -> frozenset[str]:
    """The message's words as split at spaces, lower-cased, punctuation kept: "mom," stays "mom,"."""
    return frozenset(lower(text).split())


@lru_cache(maxsize=4)
def bare_words(text: str) -> frozenset[str]:
    """The words without the punctuation that closes them: "mom," is "mom"."""
    return frozenset(word.rstrip(",;:.!?") for word in lower_words(text))
