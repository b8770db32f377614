"""When a complaint began, from the patient's words: "for two weeks", "há 3 dias", "since
yesterday", "comecou na segunda"; and roughly how many days ago that is. Patterns read folded text
(`fold_latin`), so a match's span is the phrase as written."""

import re

from runtime.text.calendar_words import EN_MONTHS, EN_WEEKDAYS, PT_MONTHS, PT_WEEKDAYS
from runtime.text.fold import fold_latin

_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "um": 1, "uma": 1, "two": 2, "dois": 2, "duas": 2, "three": 3, "tres": 3,
    "four": 4, "quatro": 4, "five": 5, "cinco": 5, "six": 6, "seis": 6, "seven": 7, "sete": 7, "eight": 8,
    "oito": 8, "nine": 9, "nove": 9, "ten": 10, "dez": 10, "eleven": 11, "onze": 11, "twelve": 12, "doze": 12,
    "fifteen": 15, "quinze": 15, "twenty": 20, "vinte": 20, "thirty": 30, "trinta": 30,
    "a few": 3, "few": 3, "a couple of": 2, "a couple": 2, "couple of": 2, "several": 4, "some": 3,
    "uns": 3, "umas": 3, "alguns": 3, "algumas": 3, "poucos": 3, "poucas": 3, "varios": 4, "varias": 4,
    "muitos": 6, "muitas": 6, "many": 6,
}
_NUMBER = r"\d{1,3}(?:[.,]5)?|" + "|".join(sorted((re.escape(n) for n in _NUMBERS), key=len, reverse=True))
# Numbers that count on their own; "a", "some" and "many" need a unit phrase around them ("for a week").
_EXACT = r"\d{1,3}(?:[.,]5)?|" + "|".join(
    sorted((re.escape(n) for n in _NUMBERS if n not in ("a", "an", "some", "many", "muitos", "muitas")),
           key=len, reverse=True))
_QUALIFIER = (r"(?:about|around|almost|nearly|over|more\s+than|less\s+than|roughly|maybe|like|at\s+least|"
              r"cerca\s+de|quase|mais\s+de|menos\s+de|mais\s+ou\s+menos|aproximadamente|uns|umas|pelo\s+menos)")
_UNIT_DAYS = {
    "min": 1 / 1440, "hour": 1 / 24, "hr": 1 / 24, "hora": 1 / 24, "day": 1, "dia": 1, "week": 7, "wk": 7,
    "semana": 7, "month": 30, "mes": 30, "year": 365, "yr": 365, "ano": 365,
}
_UNIT = (r"(?:minutes?|mins?|minutos?|hours?|hrs?|horas?|days?|dias?|weeks?|wks?|semanas?|months?|mes|meses|"
         r"years?|yrs?|anos?)")
_RANGE = r"\s*(?:-|\u2013|to|or|a|ou)\s*"  # "2-3 days", "1 a 2 semanas"
SPAN = rf"(?:{_QUALIFIER}\s+)?(?:{_NUMBER})(?:{_RANGE}(?:{_NUMBER}))?\s*{_UNIT}"
_LONG_TIME = (r"(?:many\s+|several\s+|some\s+|a\s+few\s+)?(?:days|weeks|months|years|ages)|a\s+while|"
              r"a\s+long\s+time|some\s+time|(?:muito\s+)?tempo|dias|semanas|meses|anos")
_WEEKDAYS = rf"(?:{'|'.join(EN_WEEKDAYS + PT_WEEKDAYS)})(?:[\s-]*feira)?"
_MONTHS = rf"(?:{'|'.join(m for m in EN_MONTHS + PT_MONTHS if m != 'may')})"  # "may" is a verb too
_POINT_EN = (rf"yesterday|today|this\s+morning|last\s+night|earlier\s+today|the\s+day\s+before\s+yesterday|"
             rf"last\s+(?:week|month|year|weekend|{_WEEKDAYS})|the\s+weekend|(?:on\s+)?{_WEEKDAYS}|{_MONTHS}|"
             r"(?:19|20)\d\d|childhood|i\s+was\s+(?:a\s+)?(?:kid|child|teenager)")
_POINT_PT = (rf"ontem(?:\s+a\s+noite)?|anteontem|hoje(?:\s+de\s+manha)?|(?:a|o)?\s*semana\s+passada|"
             rf"(?:o\s+)?mes\s+passado|(?:o\s+)?ano\s+passado|(?:o\s+)?fim\s+de\s+semana|(?:a\s+|o\s+)?{_WEEKDAYS}|"
             rf"{_MONTHS}|(?:19|20)\d\d|crianca|pequen[oa]|sempre|essa\s+manha|esta\s+manha")
_STARTED = (r"started|began|start|begin|came\s+on|appeared|showed\s+up|noticed\s+it|first\s+noticed|"
            r"comecou|comecaram|iniciou|apareceu|apareceram|surgiu|surgiram|notei|percebi")
# Most explicit first: "for two weeks … worse since yesterday" began two weeks ago.
_ONSET = (
    re.compile(rf"(?<![\w'])(?:for|over|in)\s+(?:the\s+)?(?:(?:last|past)\s+)?(?P<d>{SPAN})(?!\w)"),
    re.compile(rf"(?<![\w'])(?P<d>{SPAN}\s+ago)(?!\w)"),
    re.compile(rf"(?<![\w'])(?P<d>(?:ha|faz|tem)\s+(?:{SPAN}|{_LONG_TIME}))(?!\w)"),
    re.compile(rf"(?<![\w'])(?:durante|por|nas|nos)\s+(?:(?:as|os)\s+)?(?:ultim[oa]s\s+)?(?P<d>{SPAN})(?!\w)"),
    re.compile(rf"(?<![\w'])for\s+(?P<d>{_LONG_TIME})(?!\w)"),
    re.compile(rf"(?<![\w'])(?:it'?s|it\s+has|has|have)\s+been\s+(?:going\s+on\s+)?"
               rf"(?P<d>{SPAN}|{_LONG_TIME})(?!\w)"),
    re.compile(rf"(?<![\w'])(?P<d>(?:ever\s+)?since\s+(?:{_POINT_EN})|desde\s+(?:{_POINT_PT}))(?!\w)"),
    re.compile(r"(?<![\w'])(?:de\s+)?(?P<d>ontem|anteontem)\s+(?:pra|para)\s+ca(?!\w)"),
    re.compile(rf"(?<![\w'])(?:{_STARTED})\s+(?:(?:about|around|cerca\s+de)\s+)?"
               rf"(?P<d>{SPAN}\s+ago|ha\s+{SPAN}|{_POINT_EN}|{_POINT_PT})(?!\w)"),
    re.compile(r"(?<![\w'])(?P<d>yesterday|last\s+night|this\s+morning|earlier\s+today|last\s+week|ontem"
               r"(?:\s+a\s+noite)?|anteontem|hoje\s+de\s+manha|semana\s+passada|(?:essa|esta)\s+manha)(?!\w)"),
    re.compile(r"(?<![\w'])(?P<d>(?:nos|nas)\s+ultim[oa]s\s+(?:dias|semanas|meses|anos)"
               r"|(?:in|over)\s+the\s+(?:last|past)\s+(?:few\s+)?(?:days|weeks|months|years))(?!\w)"),
    # An answer on its own ("2 weeks", "uns 3 dias"), not a frequency ("twice a day", "every 2 days");
    # ages and pregnancy weeks are blanked out before this.
    re.compile(r"(?<![\w'/])(?<!once\s)(?<!twice\s)(?<!times\s)(?<!vezes\s)(?<!per\s)(?<!por\s)(?<!every\s)"
               rf"(?<!each\s)(?<!cada\s)(?P<d>(?:{_QUALIFIER}\s+(?:a|an|um|uma)|(?:{_QUALIFIER}\s+)?(?:{_EXACT})"
               rf"(?:{_RANGE}(?:{_EXACT}))?)\s*{_UNIT})(?![\w/])"),
)


def find_onset(original: str, folded: str) -> str | None:
    """The onset phrase as written in `original`, found in its fold `folded`; the most explicit first."""
    for pattern in _ONSET:
        if match := pattern.search(folded):
            return original[match.start("d"):match.end("d")]
    return None


_DAYS_NUMBER = re.compile(rf"(?<!\w)(?P<n>{_NUMBER})(?:{_RANGE}(?:{_NUMBER}))?\s*(?P<u>{_UNIT})")
_DAYS_WORDS = (
    (re.compile(r"\b(?:today|hoje|this\s+morning|earlier\s+today|(?:essa|esta)\s+manha|minutes?|minutos?|"
                r"hours?|horas?)\b"), 0.0),
    (re.compile(r"\b(?:yesterday|last\s+night|ontem)\b"), 1.0),
    (re.compile(r"\b(?:anteontem|day\s+before\s+yesterday)\b"), 2.0),
    (re.compile(rf"\b(?:days|dias|weekend|fim\s+de\s+semana|{_WEEKDAYS})\b"), 3.0),
    (re.compile(r"\b(?:last\s+week|semana\s+passada)\b"), 7.0),
    (re.compile(r"\b(?:weeks|semanas|a\s+while|some\s+time)\b"), 14.0),
    (re.compile(rf"\b(?:last\s+month|mes\s+passado|months|meses|{_MONTHS})\b"), 60.0),
    (re.compile(r"\b(?:years?|anos?|ages|long\s+time|muito\s+tempo|tempo|childhood|crianca|pequen[oa]|sempre|"
                r"kid|child|teenager|(?:19|20)\d\d)\b"), 365.0),
)


def onset_days(onset: str | None) -> float | None:
    """Roughly how many days ago an onset phrase puts the start: "2 weeks" 14, "desde ontem" 1."""
    if onset is None:
        return None
    folded = fold_latin(onset)
    if match := _DAYS_NUMBER.search(folded):
        number = match["n"]
        count = float(number.replace(",", ".")) if number[0].isdigit() else _NUMBERS[number]
        unit = next(days for stem, days in _UNIT_DAYS.items() if match["u"].startswith(stem))
        return count * unit
    return next((days for pattern, days in _DAYS_WORDS if pattern.search(folded)), None)
