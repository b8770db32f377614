"""Times of day in Portuguese and English: the words and the one reading of hour, minute,
a.m./p.m. and part of the day into "HH:MM". Patterns work on folded text (runtime.text.fold).

Two readers build on it with a different reach. The orchestrator reads what a user asks for, so
it also takes spoken forms ("10 horas", "3 in the afternoon", "pelas 9"); the verifier reads a
model's answer, where "a cada 8 horas" is a dose interval, so it takes written times only
("10h", "10:30", "3pm", "10 da manhã", "meio-dia").
"""

PERIODS = ("manha", "madrugada", "tarde", "noite", "morning", "afternoon", "evening", "night")
_AFTERNOON = frozenset({"tarde", "noite", "afternoon", "evening", "night"})
NOON = r"meio[\s-]dia|noon|midday"
MIDNIGHT = r"meia[\s-]noite|midnight"


def am_pm(group: str) -> str:
    """"am", "p.m.", "p m" after a time; the letter ("a" or "p") is captured as `group`."""
    return rf"(?P<{group}>[ap])\.?\s?m\b\.?"


def clock(hour: int, minute: int, *, am_pm: str | None = None, period: str | None = None) -> str | None:
    """"HH:MM" for an hour and minute with an optional "a"/"p" and part of the day ("tarde"), or
    None for an impossible time ("25h", "13pm")."""
    if am_pm:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if am_pm == "p" else 0)
    elif period in _AFTERNOON and 1 <= hour < 12:
        hour += 12
    return f"{hour:02d}:{minute:02d}" if 0 <= hour <= 23 and 0 <= minute <= 59 else None
