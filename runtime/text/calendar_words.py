"""Month and weekday names in Portuguese and English, folded (lower case, no accents): the one
vocabulary the date readers, the PHI patterns and the word lists are built from."""

from collections.abc import Iterable

# Month number: the Portuguese name, the English name, then abbreviations.
MONTH_NAMES: dict[int, tuple[str, ...]] = {
    1: ("janeiro", "january", "jan"), 2: ("fevereiro", "february", "fev", "feb"),
    3: ("marco", "march", "mar"), 4: ("abril", "april", "abr", "apr"), 5: ("maio", "may", "mai"),
    6: ("junho", "june", "jun"), 7: ("julho", "july", "jul"), 8: ("agosto", "august", "ago", "aug"),
    9: ("setembro", "september", "set", "sept", "sep"), 10: ("outubro", "october", "out", "oct"),
    11: ("novembro", "november", "nov"), 12: ("dezembro", "december", "dez", "dec"),
}
MONTHS: dict[str, int] = {name: number for number, names in MONTH_NAMES.items() for name in names}
PT_MONTHS: tuple[str, ...] = tuple(names[0] for names in MONTH_NAMES.values())
EN_MONTHS: tuple[str, ...] = tuple(names[1] for names in MONTH_NAMES.values())

# Weekday number (Monday = 0): the Portuguese name (without "-feira"), the English name, then
# abbreviations.
WEEKDAY_NAMES: dict[int, tuple[str, ...]] = {
    0: ("segunda", "monday", "seg", "mon"), 1: ("terca", "tuesday", "ter", "tues", "tue"),
    2: ("quarta", "wednesday", "qua", "wed"), 3: ("quinta", "thursday", "qui", "thurs", "thur", "thu"),
    4: ("sexta", "friday", "sex", "fri"), 5: ("sabado", "saturday", "sab", "sat"),
    6: ("domingo", "sunday", "dom", "sun"),
}
WEEKDAYS: dict[str, int] = {name: number for number, names in WEEKDAY_NAMES.items() for name in names}
PT_WEEKDAYS: tuple[str, ...] = tuple(names[0] for names in WEEKDAY_NAMES.values())
EN_WEEKDAYS: tuple[str, ...] = tuple(names[1] for names in WEEKDAY_NAMES.values())


def alternation(names: Iterable[str]) -> str:
    """A regex alternation of `names`, longest first so that no name stops at a shorter prefix."""
    return "|".join(sorted(names, key=len, reverse=True))
