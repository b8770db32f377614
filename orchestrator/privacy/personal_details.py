"""Birth dates, ages over 89 and addresses: PHI told by the words around them ("nasci em", "tenho
92 anos", "moro em") or by a street's shape ("Rua das Flores, 123", "123 Main Street"). Patterns
read text with accents stripped, like every recognizer (see `recognizers`).
"""

import datetime
import re

from presidio_analyzer import Pattern, PatternRecognizer, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from orchestrator.privacy.message_words import lower
from orchestrator.privacy.recognizers import ContextRecognizer
from orchestrator.privacy.regions import large_regions
from runtime.text.calendar_words import MONTHS, alternation

_MONTH = rf"(?:{alternation(MONTHS)})\.?"
_DAY = r"(?:[0-3]?\d(?:st|nd|rd|th|\u00ba|\u00b0)?|primeiro|first)"
_DATE = (r"(?:\d{4}(?:-\d{1,2}-|/\d{1,2}/|\.\d{1,2}\.)\d{1,2}"
         r"|\d{1,2}[/.\-]\d{1,2}(?:[/.\-](?:\d{4}|\d{2}))?|(?:0?[1-9]|1[0-2])/\d{4}"
         rf"|\d{{1,2}}-{_MONTH}-(?:\d{{4}}|\d{{2}})"  # a chart's "3-Jun-87"
         rf"|{_DAY}\s+(?:de\s+|of\s+)?{_MONTH}(?:,?\s+(?:de\s+)?\d{{4}})?"
         rf"|{_MONTH}\s+{_DAY}(?:,?\s+\d{{4}})?"
         rf"|{_MONTH}(?:\s+(?:de\s+|of\s+)?|\s*[/\-]\s*)\d{{4}}"
         r"|(?:18|19|20)\d{2})(?![\w/])")
_BIRTH = (r"born|birth\s*date|birthdate|date\s+of\s+birth|d\.?o\.?b\.?|birthday|d\.?n\.?|"
          r"nasci(?:d[oa]s?)?|nasceu|nasceram|nascimento|nasc\.?|dt\.?\s*(?:de\s+)?nasc\.?|data\s+de\s+nasc\.?|"
          r"aniversario|faco\s+anos|faz\s+anos")
_KIN = (r"mother|mom|mum|father|dad|son|daughter|wife|husband|brother|sister|grandmother|grandfather|grandma|"
        r"grandpa|mae|pai|filh[oa]|espos[oa]|marido|mulher|irma|irmao|avo|neto|neta|sogr[oa]|nan|nana|nanna|"
        r"gran|granny|nonna|nonno|vov[oa]|bisav[oa]|bisa|aunt|uncle|tia|tio|patient|paciente|pt|"
        # grandparents in the words of many languages: "my lola is 95", "a vo ta com 94"
        r"vo|lola|lolo|abuela|abuelo|oma|opa|babushka|baba|dadi|nani|halmeoni|bubbe|zayde|grandad|granddad")
_BIRTH_WORD_AFTER = (r"(?i:data\s+de\s+nascimento|nascimento|date\s+of\s+birth|birth\s*date|birthday|"
                     r"d\.?o\.?b\b|aniversario)")
_BIRTH_AFTER = (rf"\s*[,(\-]?\s*(?:(?:is|e|eh|foi|=)\s+)?(?:(?:my|his|her|meu|minha|sua|seu|a|o)\s+)*"
                rf"{_BIRTH_WORD_AFTER}")


# A whole date, day, month and year, with no context at all: a birth date when it is long past.
_FULL_DATE = (r"(?:\d{4}(?:-\d{1,2}-|/\d{1,2}/|\.\d{1,2}\.)\d{1,2}|\d{1,2}[/.\-]\d{1,2}[/.\-]\d{4}"
              rf"|{_DAY}\s+(?:de\s+|of\s+)?{_MONTH},?\s+(?:de\s+)?\d{{4}}|{_MONTH}\s+{_DAY},?\s+\d{{4}})(?![\w/])")
UNCUED_MIN_YEARS = 12  # an appointment, an exam or a prescription is more recent than that
_NUMERIC = re.compile(r"(\d{1,4})[/.\-](\d{1,2})(?:[/.\-](\d{2,4}))?")
_YEAR = re.compile(r"\b\d{4}\b")


class BirthDateRecognizer(ContextRecognizer):
    """Dates that exist in one order or the other (a part over 12 is the day: "6/24/1991" is June 24,
    "24/06/1991" the same day) and whose year is `min_years` or more in the past."""

    def __init__(self, name: str, patterns: list[tuple[str, float]], min_years: int = 0) -> None:
        self._min_years = min_years
        super().__init__("BIRTH_DATE", name, patterns)

    def analyze(self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None,
                ) -> list[RecognizerResult]:
        latest_year = datetime.date.today().year - self._min_years
        return [r for r in super().analyze(text, entities, nlp_artifacts)
                if _plausible(text[r.start:r.end], latest_year)]


def _plausible(date: str, latest_year: int) -> bool:
    year = _YEAR.search(date)
    if year and not 1890 <= int(year.group()) <= latest_year:
        return False
    numeric = _NUMERIC.fullmatch(date)
    if numeric is None:
        return True
    first, second = int(numeric.group(1)), int(numeric.group(2))
    if len(numeric.group(1)) == 4:  # 1991-06-24
        return 1 <= second <= 12 and 1 <= int(numeric.group(3) or 1) <= 31
    day, month = (first, second) if first > 12 else (second, first) if second > 12 else (first, second)
    return 1 <= day <= 31 and 1 <= month <= 12


def birth_date() -> BirthDateRecognizer:
    """Dates beside a birth word: "nasci em", "DOB", "DN", the word a little before in the same
    sentence ("nascimento tá errada, o certo é 05/03/1993") or right after ("24/06/1991 é minha data
    de nascimento")."""
    return BirthDateRecognizer("BirthDate", [
        (rf"(?i:\b(?:{_BIRTH})(?!\w)[^.?!\d]{{0,50}}?)(?i:(?<![\w/.\-])(?P<phi>{_DATE}))", 0.8),
        (rf"(?i:(?<![\w/.\-])(?P<phi>{_DATE}){_BIRTH_AFTER})", 0.8, _BIRTH_WORD_AFTER),
    ])


# Numbers in words, for dates spelled out: "the fourteenth of august, nineteen sixty", "vinte e dois de
# abril de mil novecentos e trinta".
_NUMBER_WORD = (r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
                r"(?:thir|four|fif|six|seven|"
                r"eigh|nine)teen(?:th)?|(?:twen|thir|for|fif|six|seven|eigh|nine)t(?:y|ieth)|hundred|thousand|"
                r"first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|"
                r"um|uma|dois|duas|tres|quatro|cinco|seis|sete|oito|nove|dez|onze|doze|treze|c?atorze|quinze|"
                r"dezesseis|dezessete|dezoito|dezenove|vinte|trinta|quarenta|cinquenta|sessenta|setenta|"
                r"oitenta|noventa|cem|cento|mil|oitocentos|novecentos|primeiro)")
_NUMBER_WORDS = rf"{_NUMBER_WORD}(?:(?:[\s-]+|\s+(?:e|and)\s+){_NUMBER_WORD}){{0,5}}"
# Day first or, as in the US, month first: "april second, nineteen sixty-one".
_DATE_IN_WORDS = (rf"(?:(?:the\s+)?{_NUMBER_WORDS}\s+(?:de\s+|of\s+)?{_MONTH}"
                  rf"|{_MONTH}\s+(?:the\s+)?{_NUMBER_WORDS})(?:,?\s+(?:de\s+|of\s+)?{_NUMBER_WORDS})?(?!\w)")
_BIRTH_STEMS = ("born", "birth", "dob", "d.o.b", "nasc", "aniversario")
_BIRTH_LITERAL = re.compile("(?i)" + "|".join(map(re.escape, _BIRTH_STEMS)))


def mentions_birth(text: str) -> bool:
    """The spelled-out birth date recognizer's gate: a birth word's stem somewhere in the text (in an ASCII
    text, where lower-casing is what a case-blind match does, a substring test: cheaper than the scan)."""
    if text.isascii():
        low = lower(text)
        return any(stem in low for stem in _BIRTH_STEMS)
    return _BIRTH_LITERAL.search(text) is not None


def birth_date_in_words() -> BirthDateRecognizer:
    """A date spelled out after a birth word: "dob: the fourteenth of august, nineteen sixty"."""
    return BirthDateRecognizer("BirthDateInWords", [
        (rf"(?i:\b(?:{_BIRTH})(?!\w)[^.?!\d]{{0,50}}?)(?i:(?<!\w)(?P<phi>{_DATE_IN_WORDS}))", 0.8)])


def long_past_date() -> BirthDateRecognizer:
    """A whole date with no context, long past: a birth date more likely than anything a patient
    books or asks about (the detector gates it on a four-digit year in the text)."""
    return BirthDateRecognizer("LongPastDate", [
        (rf"(?i:(?<![\w/.\-:])(?P<phi>{_FULL_DATE}))", 0.4),
        # or a month and year in apposition to a name, as an identity is listed: "Lucia Bianchi, October 1946,
        # policy …".
        (rf"(?i:[a-z],\s*(?P<phi>{_MONTH}\s+(?:de\s+)?\d{{4}})(?=\s*[,;.]|\s*$))", 0.4),
    ], min_years=UNCUED_MIN_YEARS)


_AGE_IN_WORDS = (r"\b(?:noventa(?:\s+e\s+(?:um|uma|dois|duas|tres|quatro|cinco|seis|sete|oito|nove))?|cem|"
                 r"cento(?:\s+e\s+[a-z]+)?|ninety(?:[-\s](?:one|two|three|four|five|six|seven|eight|nine))?|"
                 r"(?:a|one)\s+hundred(?:\s+and\s+[a-z]+)?)\b")
_AGE = rf"(?:(?<![\d.,/:$])(?:9\d|1[01]\d)(?!\d|[.,:/]\d)|{_AGE_IN_WORDS})"
# A number followed by a unit is a weight, a dose, a duration or a price, not an age.
_NOT_UNIT = (r"(?!\s*(?:%|kg|kilos?|quilos?|lbs?|pounds?|libras|mg|mcg|ml|cm|mm|bpm|mmhg|h\b|hs\b|hrs?\b|"
             r"horas?|hours?|min\b|minutos?|minutes?|(?:dias?|days?|semanas?|weeks?|meses|months?)(?!\s+passad[oa])|"
             r"reais|dollars?|vezes|times|percent|por\s*cento|x\b|/|:|"
             # or a count of pills: "tenho 90 comprimidos"
             r"comprimidos|capsulas|gotas|ampolas|doses|unidades|pills|tablets|capsules|caps\b|drops|units))")


# A flat's or a house's part after its number: "Rua Augusta, 95, apto 4".
_FLAT = (r"(?:apto?|apartamento|apt|casa|bloco|bl|sala|andar|unit|suite|ste|fl|floor|lote|conjunto|cj|"
         r"fundos)\b")
_PERSON = (r"senhora?|senhor|sra?\.?|paciente|pcte|pte|idos[oa]|homem|mulher|crianca|pt|patient|man|woman|"
           r"lady|gentleman|male|female")


def age_over_89() -> ContextRecognizer:
    before = (r"i'?m|i\s+am|im|aged?|age\s+is|idade(?:\s+de)?|he'?s|she'?s|he\s+is|she\s+is|who\s+is|"
              r"turned|turning|turns|(?:he|she|i|you)?'?ll\s+be|will\s+be|completou|completa|fez|vai\s+fazer|tenho")
    return ContextRecognizer("AGE_OVER_89", "AgeOver89Context", [
        (rf"(?i:(?P<phi>{_AGE})\s*-?\s*(?:anos|aninhos|years?(?:\s*-?\s*old)?|yrs?\b|y/?o\b|year-old|y\b))",
         0.8),
        (rf"(?i:(?P<phi>{_AGE})a\b)", 0.7),  # a chart's "Pac. Maria, 93a"
        # or a person "of" an age: "senhora de 91, hipertensa", "a man of 93".
        (rf"(?i:\b(?:{before}|(?:{_PERSON})\s+(?:de|of))\s*:?\s*)(?P<phi>{_AGE}){_NOT_UNIT}", 0.7),
        # A relative's age told with "'s" ("mom's 102, is the flu shot ok"), or "ta com" after a relative or a
        # pronoun ("ele ta com noventa e sete"; not "ela ta com 95 de saturacao").
        (rf"(?i:\b(?:{_KIN})'?s\s+)(?P<phi>{_AGE}){_NOT_UNIT}(?![\s,]*(?:of|de|%))", 0.6),
        (rf"(?i:\b(?:{_KIN}|ele|ela)\s+(?:(?:ja|agora|hoje)\s+)?(?:ta|esta)\s+com\s+)(?P<phi>{_AGE}){_NOT_UNIT}"
         r"(?!\s*(?:de|%))", 0.6),
        # A relative "is 97" / "tem 97": "My father William D. Schmidt is 102 and admitted".
        # Or a pronoun after a person was named: "cuido do seu raimundo, ele tem 97".
        (rf"(?i:\b(?:{_KIN}|ele|ela)\b(?:[^.?!\d]|(?<=\s[A-Z])\.){{0,40}}?\b(?:is|tem|e|has)\s+)(?P<phi>{_AGE}){_NOT_UNIT}",
         0.6),
        # Or anyone of the writer's, named: "my yiayia Despina is ninety-three", "minha bisa Zelia tem 97".
        (rf"(?i:\b(?:my|our|meu|minha|nosso|nossa)\s+[a-z]+\s+(?-i:[A-Z][a-z]+)(?:[\s-](?-i:[A-Z][a-z]+))*\s+"
         rf"(?:is|tem)\s+)(?P<phi>{_AGE}){_NOT_UNIT}", 0.6),
        # Or the person just born in a year: "was born Dec 1, 1929 and is 96", "nasceu 25/12/1929, ta com 96".
        (rf"(?i:(?<!\d)(?:18|19)\d\d\b[^.?!\d]{{0,12}}?\b(?:is|tem|(?:ta|esta)\s+com)\s+)(?P<phi>{_AGE}){_NOT_UNIT}"
         r"(?!\s*(?:de|%))", 0.6),
    ])


# Where an age over 89 may be: a number from 90 to 119 on its own, or an age's word.
_AGE_LITERAL = re.compile(r"(?i)(?<!\d)(?:9\d|1[01]\d)(?!\d)|ninety|noventa|hundred|cem|cento")


def mentions_age(text: str) -> bool:
    """The age recognizers' gate: a number from 90 to 119 or an age's word."""
    return _AGE_LITERAL.search(text) is not None


def age_in_apposition() -> ContextRecognizer:
    """An age over 89 right after a name, without a unit: a handoff's "Tomasz Wojcik, 91M, MRN ..."
    (age and sex) or an age in words, "Giorgi Beridze, ninety-one, home with ..."."""
    return ContextRecognizer("AGE_OVER_89", "AgeInApposition", [
        (rf"[a-z],\s*(?P<phi>{_AGE})(?-i:[MF])(?=\s*[,;])", 0.7),
        (rf"(?i:[a-z],\s*(?P<phi>{_AGE_IN_WORDS})(?=\s*[,;.]|$))", 0.6),
        # or age and sex right after a capitalized name, no comma: "Pt George Papadopoulos 92M" (not a
        # temperature: "Temp 101F").
        (rf"\b(?!(?i:temps?|temperature|fever|febre|tax|tmax|t)\b)(?-i:[A-Z][a-z]+)\s+(?P<phi>{_AGE})(?-i:[MF])\b",
         0.6),
        # or in digits after a capitalized name, closing the sentence: "her mother Mae, 98."
        (rf"(?-i:\b[A-Z][a-z]+),\s*(?P<phi>{_AGE}){_NOT_UNIT}(?=\s*(?:[.;]|$))", 0.5),
        # or in parentheses after a name: "my father Giuseppe Ferraro (ninety-eight)", "Hemi (94)".
        (rf"(?i:[a-z]\s*\(\s*(?P<phi>{_AGE}){_NOT_UNIT}\s*(?:y/?o|yrs?|anos|a)?\s*\))", 0.6),
        # or in digits between commas before any word but a flat's: "rm 12 Esperanza Villalobos, 100, DNR"
        # (not "Rua Augusta, 95, apto 4").
        (rf"(?i:[a-z],\s*(?P<phi>{_AGE})(?=\s*,\s*[a-z])(?!\s*,\s*{_FLAT}))", 0.5),
        # or in digits between commas, going on about the person: "Haruko Fujiwara, 99, is coming".
        (rf"(?i:[a-z],\s*(?P<phi>{_AGE})(?=\s*,\s*(?:is|was|has|had|lives|who|with|w/|presenting|admitted|"
         r"e|eh|esta|tem|mora|que|vai|com|internad[oa]|fell|stable|estavel|alert|sem|no|s/p|c/o|h/o|hx|"
         # or a handoff's finding: "Tupac Quispe, 93, fell at home", "Sebastiana, 94, desidratada".
         r"[a-z]{3,}(?:ed|ou|ad[oa]|id[oa]))(?!\w)))",
         0.6),
    ])


_STREET_PT = (r"(?i:\b(?:rua|r\.|avenida|av\.?|alameda|al\.|travessa|trav\.|tv\.|praca|pca\.?|estrada|estr\.|"
              r"rodovia|rod\.|largo|viela|beco))")
# "das Flores", "Brasil", "25 de Março", "Nove de Julho", "coronel lisboa": words and particles.
_STREET_NAME = r"(?:(?:d[aeo]s?|[A-Za-z][\w'.]*|\d{1,2}\s+de)\s+){0,5}[A-Za-z][\w'.]*"
# ", 123", " nº 45", then "apto 12", "bloco B"; not a time or an age ("às 10h", "90 anos").
# Or no number at all, said so: "Rua São Bento, s/n, Zona Rural".
# Or a house's unit standing for its number, at the back or front: "Rua Sete, casa 14 fundos".
_HOUSE_NUMBER = (r"[\s,]*(?:(?:n[o\u00ba\u00b0]\.?\s*|numero\s+|(?:casa|lote)\s+)?\d{1,5}"
                 r"(?![\d/:]|[.,]\d|\s*(?:h\b|hs\b|horas|anos|mg|vezes|x\b|dias|min))|s/n\b|sem\s+numero\b)"
                 r"(?:[\s,\-]+(?:apto?\.?|apartamento|ap\.|casa|bloco|bl\.|conjunto|cj\.?|sala|andar)\s*\w+)*"
                 r"(?:\s+(?:fundos|frente))?")
# Then its bairro, city and state: ", Vila Mariana, São Paulo - SP", " - Centro, Campinas/SP".
_PLACES_PT = (r"(?:\s*(?:,|\s-\s)\s*(?-i:[A-Z][\w'.]*(?:\s+(?:d[aeo]s?\s+)?[A-Z][\w'.]*){0,3})){0,3}"
              r"(?:\s*[/\-]\s*(?-i:[A-Z]{2})\b)?")

# Brasília's and Palmas's blocks instead of streets: "SQS 308 bloco C apto 201", "SHIN QI 5 conjunto 3
# casa 10", "Quadra 204 Sul, Alameda 12, Lote 7".
_BLOCK_UNIT = (r"[\s,\-]+(?i:bloco|bl\.|apto?\.?|apartamento|conjunto|cj\.?|casa|lote|alameda|rua|modulo|"
               r"QI|QL)\s*\w{1,4}\b")
# A bare "quadra 3" is a sports court: a block needs its wing (sul, norte) or a unit after it.
_BLOCK_PT = (rf"\b(?-i:SQ[SN]|SH[IC][SN]|SCL[SN]|CL[SN]|EQ[SN]|QN[A-Z]|Q[ILS])\s+\d{{1,4}}"
             rf"(?:\s+(?i:sul|norte))?(?:{_BLOCK_UNIT})*"
             rf"|(?i:\bquadra)\s+\d{{1,4}}(?:\s+(?i:sul|norte)(?:{_BLOCK_UNIT})*|(?:{_BLOCK_UNIT})+)")
# Quebec's number before the street: "902 Rue Sherbrooke O, app 14, Montreal QC".
# A village, farm or settlement on a road by its kilometre: "Aldeia Ypiranga, BR-307, km 12".
_ROAD_KM = (r"(?:(?i:aldeia|sitio|fazenda|chacara|comunidade|assentamento|povoado)\s+"
            r"(?:(?:d[aeo]s?\s+)?[A-Z][\w']*\s*){1,3},?\s+)?\b(?-i:BR|[A-Z]{2})-\d{3},?\s*(?i:km)\s*\d{1,4}")
# A US rural place by its route and mile marker: "Route 264 Mile 4, Window Rock, AZ".
_ROUTE_MILE = (r"\b(?i:route|rte?\.?|highway|hwy\.?|county\s+road|state\s+road)\s+\d{1,4},?\s*"
               r"(?i:mile(?:\s+(?:marker|post))?|mm|mp)\s*\d{1,4}")
# A rural route's or a highway contract's box, the post's address where houses have no number: "RR 2 Box 18",
# "Route 12 Box 44", "HC 61 Box 9".
_RURAL_BOX = r"\b(?i:rr|r\.r\.|rural\s+route|route|rte?\.?|hc|star\s+route)\s*\d{1,4},?\s+(?i:box)\s+\d{1,5}"
_RUE = (r"\b\d{1,5},?\s+(?i:rue|chemin|boulevard|boul\.|montee|rang)\s+" + _STREET_NAME
        + r"(?:[\s,]+(?i:app|apt|appartement|suite|bureau|unite)\.?\s*\w{1,5}\b)?")


_HOUSE_LITERAL = re.compile(r"\d|s/n|S/N|sem numero")


def numbers_a_house(text: str) -> bool:
    """The street recognizer's gate: a digit, or a house said to have no number ("s/n")."""
    return _HOUSE_LITERAL.search(text) is not None


def street_address() -> PatternRecognizer:
    """Brazilian and Portuguese street addresses (US forms are `addresses.UsAddressRecognizer`'s)."""
    # Without a house number a street is a place anyone may name ("a clínica da Av. Paulista");
    # a bare street counts only after "moro na" / "my address is" (see _residence).
    return PatternRecognizer(
        supported_entity="ADDRESS", name="StreetAddressRecognizer",
        patterns=[
            Pattern("PT street", rf"{_STREET_PT}\s*{_STREET_NAME}{_HOUSE_NUMBER}{_PLACES_PT}", 0.7),

            # A post office box and its town: "PO Box 4471, Bozeman MT", "Caixa Postal 120, Itu - SP".
            Pattern("PO box", r"(?i:\bp\.?\s?o\.?\s+box|\bcaixa\s+postal)\s+\d{1,6}"
                              r"(?:,?\s+(?-i:[A-Z][a-z]+(?:\s+[A-Z][a-z]+){0,2})"
                              r"(?:,?\s*-?\s*(?-i:[A-Z]{2})\b)?)?", 0.7),
        ])



def block_address() -> ContextRecognizer:
    """Brasília's blocks, Quebec's streets, number first, and places on a road by its kilometre: a
    recognizer of its own, as Presidio's pattern recognizers read every pattern case-insensitively, which
    costs these more."""
    return ContextRecognizer("ADDRESS", "BlockAddress",
                             [(f"(?P<phi>(?:{_BLOCK_PT}|{_RUE}){_PLACES_PT})", 0.7),
                              # tried only where a kilometre is: its capitals defeat the prefilter
                              (f"(?P<phi>{_ROAD_KM}{_PLACES_PT})", 0.7, r"(?i:km)\s*\d"),
                              (f"(?P<phi>{_ROUTE_MILE}{_PLACES_PT})", 0.7, r"(?i:\bmile|\b(?:mm|mp)\s*\d)"),
                              (f"(?P<phi>{_RURAL_BOX}{_PLACES_PT})", 0.7, r"(?i:box)\s*\d")])


# "Washington state", "estado de Minas Gerais": the words that say a place is a state or a country.
_REGION_WORD = re.compile(r"(?i)^(?:the\s+)?(?:state|estado|country|pais)\s+(?:of|de|do|da)\s+"
                          r"|\s+(?:state|estado)$")


class ResidenceRecognizer(ContextRecognizer):
    """A residence smaller than a state: "moro em Minas Gerais" or "I live in Angola" says nothing
    Safe Harbor removes."""

    def analyze(self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None,
                ) -> list[RecognizerResult]:
        regions = large_regions()
        return [r for r in super().analyze(text, entities, nlp_artifacts)
                if _REGION_WORD.sub("", text[r.start:r.end]).lower() not in regions]


def residence() -> ContextRecognizer:
    """Where someone lives: "moro em Campinas", "I live at 12 Oak Street", "endereço: Rua X, 10".
    A city or neighbourhood counts (Safe Harbor: any place smaller than a state)."""
    words = (r"moro|moramos|mora|moram|resido|reside|residente|i\s+live|we\s+live|he\s+lives|she\s+lives|"
             r"lives|living|meu\s+endereco(?:\s+e)?|endereco(?:\s+residencial)?|my\s+address(?:\s+is)?|"
             r"home\s+address|address")
    link = (r"\s*[:\-]?\s*(?:(?:em|na|no|nas|nos|at|in|on|is|e|eh)\s+)?"
            r"(?:(?:bairro|cidade\s+de|city\s+of|neighbou?rhood|zona)\s+)?")
    # A place starts with a capital or a number ("I live alone" is not one) and runs through
    # capitalized words, numbers and particles: "Rua das Flores, 123, apto 4", "Campinas - SP".
    word = r"[A-Z0-9][\w'.\u00ba\u00b0\-]*"
    more = rf"(?:{word}|(?:d[aeo]s?|n[o\u00ba\u00b0]|apto?|apartamento|casa|bloco|sala)(?!\w)\.?)"
    place = rf"(?P<phi>{word}(?:(?:\s+|\s*,\s*|\s+-\s+){more}){{0,8}})"
    countries = r"(?!(?i:brasil|brazil|portugal|usa|eua|estados\s+unidos|united\s+states|the\s+us)\b)"
    return ResidenceRecognizer("ADDRESS", "ResidenceContext",
                               [(rf"(?i:\b(?:{words})\b{link}){countries}{place}", 0.7)])
