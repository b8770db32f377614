"""Misspelled key words ("dermatolgia", "cancle", "reschedle", "apointment") and chat abbreviations
("appt", "qdo", "vc") read as the word meant, for the intent and specialty patterns only: a word is
corrected when it is no common Portuguese or English word and is close to one key word only."""

import difflib
import re
from functools import lru_cache

from runtime.text.common_words import is_common

KEY_WORDS = (
    "cardiologia", "cardiology", "cardiologista", "cardiologist", "dermatologia", "dermatology",
    "dermatologista", "dermatologist", "ortopedia", "orthopedics", "ortopedista", "orthopedist",
    "cancel", "cancelar", "cancela", "cancele", "desmarcar", "reschedule", "remarcar", "reagendar",
    "appointment", "appointments", "consulta", "consultas", "available", "availability", "disponivel",
    "horarios", "horario", "agendar", "marcar", "book", "rebook", "weather",
)
# Written short in chat; each stands for one word only.
ABBREVIATIONS = {
    "appt": "appointment", "appts": "appointments", "apt": "appointment", "apts": "appointments",
    "cons": "consulta", "qdo": "quando", "qndo": "quando", "qnd": "quando", "q": "que", "oq": "o que",
    "msm": "mesmo", "vc": "voce", "vcs": "voces", "pq": "porque",
    "whats": "what's", "wats": "what's", "wher": "where", "tht": "that",
    "thx": "thanks", "tks": "thanks", "pls": "please", "plz": "please",
}
_ABBREVIATION = re.compile(r"(?<![\w-])(?:" + "|".join(ABBREVIATIONS) + r")(?![\w-])")
_DRAWN_OUT = re.compile(r"([a-z])\1{2,}")  # no Portuguese or English word has a letter three times in a row
_CLOSE = 0.83
_WORD = re.compile(r"[a-z]{5,}")


@lru_cache(maxsize=4096)
def _meant(word: str) -> str:
    if word in KEY_WORDS or is_common(word):
        return word
    close = difflib.get_close_matches(word, KEY_WORDS, n=1, cutoff=_CLOSE)
    return close[0] if close else word


def corrected(folded: str) -> str:
    """`folded` with letters drawn out cut to one ("bom diaaa", "heyyy"), abbreviations spelled out and
    misspelled key words replaced (offsets may move: match patterns only)."""
    spelled = _ABBREVIATION.sub(lambda m: ABBREVIATIONS[m.group()], _DRAWN_OUT.sub(r"\1", folded))
    return _WORD.sub(lambda m: _meant(m.group()), spelled)
