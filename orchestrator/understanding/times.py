"""The time of day a message asks for, in Portuguese or English (see `when` for the conventions).

A small grammar of our own over runtime.text.clock (dateparser reads "10h" as "10 hours ago"),
with the spoken forms of a request: a preposition before a bare hour ("pelas 9"), "10 horas",
"3 in the afternoon"; a duration ("daqui a 2 horas") is not a time of day.
"""

import re
from dataclasses import dataclass

from orchestrator.toolquestions.number_words import with_digits
from orchestrator.understanding.when import blank, span_is_target
from runtime.text.clock import MIDNIGHT, NOON, PERIODS, am_pm, clock

_PREFIX = r"(?:(?:as|das|ao|at|by|around|pelas|por\s+volta\s+das|a\s+partir\s+das|after|from)\s+)"
_PERIOD_WORD = "|".join(PERIODS)


def _period(name: str) -> str:
    """Optional "da tarde" / "in the afternoon" after a time, captured as `name`."""
    return rf"(?:\s+(?:da|de|in\s+the|at)\s+(?P<{name}>{_PERIOD_WORD}))?"


# A bare number is an hour only after a preposition, and not when a date or a count follows.
_NOT_AN_HOUR = (r"(?![\d/:\-ºª°%]|\.\d|\s*(?:st|nd|rd|th|de|of|dias?|days?|semanas?|weeks?|meses|months?|"
                r"anos|years?|vagas?|opcoes|options?|pacientes?|patients?|mg)\b)")
_TIME = re.compile(
    # A duration ("daqui a 2 horas", "in 3 hours") is not a time of day: matched first, then ignored.
    # ("daqui a duas horas" has its "a" taken into the number by with_digits: "daqui      2 horas").
    r"(?P<duration>\b(?:daqui(?:\s+a)?|em|dentro\s+de|in|within)\s+\d{1,2}\s*(?:horas?|hours?|h)\b)"
    rf"|(?:\b{_PREFIX}?(?:"
    # Minutes after a space too, as dictated: "2 30 pm", "at 9 30".
    rf"(?P<h1>\d{{1,2}})(?:[:\s](?P<m1>[0-5]\d))?\s*{am_pm('ampm')}"
    rf"|(?P<h2>\d{{1,2}})\s?(?:h|hs|hrs|horas?)(?:\s?(?P<m2>\d{{2}})(?:\s?min)?)?(?![a-z]){_period('p2')}"
    rf"|(?P<h3>\d{{1,2}}):(?P<m3>\d{{2}})\b{_period('p3')}"
    r"))"
    rf"|(?:\b{_PREFIX}?(?P<h4>\d{{1,2}})\s+(?:da|de|in\s+the|at)\s+(?P<p4>{_PERIOD_WORD})\b)"
    rf"|(?:\b{_PREFIX}(?P<h5>\d{{1,2}})(?:\s+(?:e\s+)?(?P<m5>[0-5]\d)|\s+e\s+(?P<half>meia))?{_NOT_AN_HOUR})"
    # "10 e 30", "10 e meia": an hour and its minutes joined by "e" (not two days: "dia 10 e 15").
    rf"|(?:(?<!dia\s)(?<!dias\s)\b(?P<h6>\d{{1,2}})\s+e\s+(?P<m6>[0-5]\d|meia){_NOT_AN_HOUR})"
    rf"|(?:\b(?:ao\s+|at\s+|a\s+)?(?P<noon>{NOON})\b)"
    rf"|(?:\b(?:a\s+|at\s+)?(?P<midnight>{MIDNIGHT})\b)"
)


@dataclass(frozen=True)
class TimeFound:
    time: str | None  # "HH:MM", None when nothing or only impossible times ("25h") were found
    text: str  # the folded message with every time expression blanked out


def _time_of(match: re.Match[str]) -> str | None:
    g = match.groupdict()
    if g["noon"]:
        return "12:00"
    if g["midnight"]:
        return "00:00"
    if g["h1"]:
        return clock(int(g["h1"]), int(g["m1"] or 0), am_pm=g["ampm"])
    hour = int(g["h2"] or g["h3"] or g["h4"] or g["h5"] or g["h6"])
    if (g["h5"] or g["h6"]) and not 7 <= hour <= 20:
        return None  # a bare "at 3" is too ambiguous to book
    minutes = "30" if g["half"] or g["m6"] == "meia" else g["m2"] or g["m3"] or g["m5"] or g["m6"] or "0"
    return clock(hour, int(minutes), period=g["p2"] or g["p3"] or g["p4"])


def find_time(folded: str) -> TimeFound:
    """The time of day in a folded message (see `runtime.text.fold.fold_latin`)."""
    chosen: str | None = None
    chosen_is_target = False
    text = folded
    # Hours in words too ("às onze horas", "at seven"); the digits keep the words' offsets.
    for match in _TIME.finditer(with_digits(folded)):
        text = blank(text, match.start(), match.end())
        if match.group("duration"):
            continue
        value = _time_of(match)
        is_target = span_is_target(folded, match.start())
        if value and (chosen is None or (is_target and not chosen_is_target)):
            chosen, chosen_is_target = value, is_target
    return TimeFound(chosen, text)
