"""The recognizers behind the PHI detector, all Presidio recognizers that run without an NLP
engine: Presidio's own where they fit (e-mail, phone, URL, IP address, SSN), PatternRecognizers
for shapes it lacks (CPF, RG, CEP, ZIP+4, the mesh's patient ids), and ContextRecognizers for
values that are PHI only beside their context words (a birth date but not an appointment date,
a number after "prontuário", an age after "tenho").

Every recognizer reads the message with accents stripped (`runtime.text.fold.strip_accents`:
same length, same case), so patterns spell Portuguese words without accents and offsets index
the original text.
Entity types are the detector's categories, so results need no mapping.
"""

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import tldextract
from presidio_analyzer import LocalRecognizer, Pattern, PatternRecognizer, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts
from presidio_analyzer.predefined_recognizers import (
    EmailRecognizer,
    IpRecognizer,
    PhoneRecognizer,
    UrlRecognizer,
    UsSsnRecognizer,
)

from runtime.errors import InvalidArgument
from runtime.identity import normalize_cpf
from runtime.text.calendar_words import MONTHS, alternation


class ContextRecognizer(LocalRecognizer):
    """A value that is PHI only beside its context words. The span is each pattern's group
    "phi", not the whole match: "prontuário 12345" redacts to "prontuário [RECORD_ID]"."""

    def __init__(self, entity: str, name: str, patterns: Iterable[tuple[str, float]]) -> None:
        self._patterns = tuple((re.compile(regex), score) for regex, score in patterns)
        super().__init__(supported_entities=[entity], name=name)

    def load(self) -> None:  # patterns compile in __init__; nothing to load
        pass

    def analyze(self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None,
                ) -> list[RecognizerResult]:
        entity = self.supported_entities[0]
        meta = {RecognizerResult.RECOGNIZER_NAME_KEY: self.name,
                RecognizerResult.RECOGNIZER_IDENTIFIER_KEY: self.id}
        return [RecognizerResult(entity, m.start("phi"), m.end("phi"), score, recognition_metadata=meta)
                for pattern, score in self._patterns for m in pattern.finditer(text)]


_DOMAIN = re.compile(r"[\w-]+(?:\.[\w-]+)*\.[a-zA-Z]{2,}")


class OfflineEmailRecognizer(EmailRecognizer):
    """Presidio's e-mail recognizer validates the domain with the module-level
    `tldextract.extract`, which downloads the public suffix list on first use. This one uses the
    suffix list bundled with tldextract: no URLs to fetch, no disk cache to read or write."""

    def __init__(self) -> None:
        self._extract = tldextract.TLDExtract(cache_dir=None, suffix_list_urls=(), fallback_to_snapshot=True)
        super().__init__(supported_entity="EMAIL")

    def validate_result(self, pattern_text: str) -> bool:
        # A known suffix, or a mistyped one ("@sociedade.con"): an e-mail address all the same.
        domain = pattern_text.rpartition("@")[2]
        return self._extract(pattern_text).fqdn != "" or bool(_DOMAIN.fullmatch(domain))


# A number not glued to another number, date or id on either side.
_B = r"(?<![\w.\-/])"
_E = r"(?![\w\-/]|[.,]\d)"


class CpfRecognizer(PatternRecognizer):
    """CPF shapes. Valid check digits make a sure hit; a CPF-shaped number with wrong ones still
    counts (a typo'd CPF is still someone's id), at a lower score."""

    PATTERNS = (
        Pattern("CPF formatted", _B + r"\d{3}(?:([.\s])\d{3}\1\d{3}[-.\s]?|\d{6}-)\d{2}" + _E, 0.6),
        Pattern("CPF digits", _B + r"\d{11}" + _E, 0.4),
    )

    def __init__(self) -> None:
        super().__init__(supported_entity="NATIONAL_ID", patterns=list(self.PATTERNS),
                         context=["cpf", "documento"])

    def validate_result(self, pattern_text: str) -> bool | None:
        # None keeps the pattern's score: Presidio drops a result validated False.
        try:
            normalize_cpf(pattern_text)
        except InvalidArgument:
            return None
        return True


# Words allowed between a context word and its value: "CPF: ", "prontuário nº ", "is ", "é o ".
# Lazy, so that a value starting like a filler word ("MRN: A-00991") is read whole.
_FILL = (r"(?:[\s:#=\-]|\b(?:n[o\u00ba\u00b0]|nr|num|number|numero|is|e|eh|o|a|do|da|of|dele|dela|"
         r"meu|minha|my|his|her|paciente|patient)\b\.?)*?")


def _rg() -> PatternRecognizer:
    return PatternRecognizer(
        supported_entity="NATIONAL_ID", name="RgRecognizer",
        patterns=[Pattern("RG formatted", rf"{_B}\d{{1,2}}\.\d{{3}}\.\d{{3}}-[\dX]{_E}", 0.5)],
        context=["rg", "identidade"])


def _national_id_context() -> ContextRecognizer:
    words = (r"rg|r\.g\.|identidade|carteira\s+de\s+identidade|registro\s+geral|documento\s+de\s+identidade|"
             r"cpf|ssn|social\s+security(?:\s+number)?|passaporte|passport(?:\s+number)?")
    value = r"(?P<phi>(?-i:[A-Z]{2}[-\s]?)?\d[\d.\-]{4,14}[\dXx])"  # "12.345.678-X", "MG-12345678"
    return ContextRecognizer("NATIONAL_ID", "NationalIdContext",
                             [(rf"(?i:\b(?:{words})\b{_FILL}){value}{_E}", 0.8)])


def _ssn() -> UsSsnRecognizer:
    # Its weak patterns (any 9 digits, 5-4 digits) score 0.05 and survive only beside these words.
    return UsSsnRecognizer(supported_entity="NATIONAL_ID",
                           context=["ssn", "social security", "seguro social"])


_PHONE_CONTEXT = ["tel", "telefone", "fone", "celular", "cel", "whatsapp", "whats", "zap", "phone", "mobile",
                  "cell", "cellphone", "call", "ligar", "ligue", "contato", "contact", "ramal"]


# 0800/0300 in Brazil, 1-800/888/877/… in North America: a business's number, not a patient's.
_TOLL_FREE = re.compile(r"(?:55)?0[3589]00|1?8(?:00|33|44|55|66|77|88)")
_NON_DIGIT = re.compile(r"\D")
# A run of digits and phone punctuation with at least eight digits: where a phone number may be;
# ISO dates and dotted CPFs are blanked first (system answers are full of "2026-11-23 09:00").
_PHONE_RUN = re.compile(r"\+?\(?\d[\d\s().\-]{6,24}\d")
_NOT_PHONE = re.compile(r"\d{4}-\d\d-\d\d|\d{3}\.\d{3}\.\d{3}-\d\d")


# Brazil and the US first; then where Brazilians and visitors most often have numbers from
# (python-phonenumbers validates each number against its region's plan).
_REGIONS = ("BR", "US", "PT", "GB", "CA", "AR", "MX", "ES", "IT", "DE", "FR", "AU", "IN", "IE", "JP")


class PersonalPhoneRecognizer(PhoneRecognizer):
    """Presidio's phone recognizer for the regions above, without toll-free numbers.

    python-phonenumbers scans the whole text once per region and tries to parse every number in
    it (dates, times, ids), so it is given only the runs that could be a phone number, with one
    character either side for its own boundary checks."""

    def __init__(self) -> None:
        super().__init__(supported_entity="PHONE", supported_regions=_REGIONS, context=_PHONE_CONTEXT)

    def analyze(self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None,
                ) -> list[RecognizerResult]:
        results = []
        for run in _PHONE_RUN.finditer(_NOT_PHONE.sub(lambda m: " " * len(m.group()), text)):
            if len(_NON_DIGIT.sub("", run.group())) < 8:
                continue
            start = max(0, run.start() - 1)
            for r in super().analyze(text[start:run.end() + 1], entities, nlp_artifacts):
                r.start, r.end = r.start + start, r.end + start
                if not _TOLL_FREE.match(_NON_DIGIT.sub("", text[r.start:r.end])):
                    results.append(r)
        return results


def _local_phone() -> PatternRecognizer:
    """Brazilian numbers without an area code, which python-phonenumbers does not match, and
    international numbers it rejects for a plan it does not know ("+351 956 456 302")."""
    return PatternRecognizer(
        supported_entity="PHONE", name="LocalPhoneRecognizer", context=_PHONE_CONTEXT,
        patterns=[Pattern("BR mobile", rf"{_B}9\d{{4}}[-\s]\d{{4}}{_E}", 0.5),
                  Pattern("BR landline (weak)", rf"{_B}\d{{4}}-\d{{4}}{_E}", 0.2),
                  Pattern("international",
                          r"(?<![\w+])\+\d{1,3}(?:[\s.\-]?\(?\d{1,4}\)?){2,5}(?![\w\-])", 0.5)])


def _postal_code() -> PatternRecognizer:
    return PatternRecognizer(
        supported_entity="POSTAL_CODE", name="PostalCodeRecognizer", context=["cep", "zip", "postal"],
        patterns=[Pattern("CEP", rf"{_B}\d{{5}}-\d{{3}}{_E}", 0.6),
                  Pattern("ZIP+4", rf"{_B}\d{{5}}-\d{{4}}{_E}", 0.4),
                  Pattern("State and ZIP", rf"(?<!\w)(?-i:[A-Z]{{2}}),?\s+\d{{5}}(?:-\d{{4}})?{_E}", 0.5)])


def _postal_code_context() -> ContextRecognizer:
    words = r"cep|zip(?:\s*code)?|postal\s+code|codigo\s+postal"
    value = r"(?P<phi>\d{5}-?(?:\d{3}|\d{4})?)"  # CEP 01310100, ZIP 10001
    return ContextRecognizer("POSTAL_CODE", "PostalCodeContext",
                             [(rf"(?i:\b(?:{words})\b{_FILL}){value}{_E}", 0.8)])


def _patient_id() -> PatternRecognizer:
    # The mesh's patient ids (CARD-A001); appointment, doctor and slot ids carry a second dash.
    return PatternRecognizer(
        supported_entity="RECORD_ID", name="PatientIdRecognizer",
        patterns=[Pattern("mesh patient id", r"(?<![\w\-])(?:CARD|DERM|ORTH)-[A-F]\d{3}(?![\w\-])", 0.9)])


def _record_id_context() -> ContextRecognizer:
    words = (r"prontuario|ficha|registro\s+(?:do|da)\s+paciente|registro\s+medico|matricula|"
             r"carteirinha(?:\s+do\s+(?:convenio|plano(?:\s+de\s+saude)?))?|"
             r"cartao\s+(?:do\s+)?(?:sus|convenio|plano(?:\s+de\s+saude)?)|numero\s+do\s+convenio|cns|mrn|"
             r"medical\s+record(?:\s+(?:number|no|#))?|record\s+(?:number|no|#)|chart\s+(?:number|no)|"
             r"patient\s+(?:id|number)|id\s+(?:do|da)\s+paciente|member\s+id|insurance\s+(?:id|number|card)|"
             r"policy\s+(?:number|no)|health\s+plan\s+(?:id|number)|case\s+number|record\s*#|pront\.?")
    # A token with a digit ("12345", "A-00991"), and groups of digits after it ("1234 5678 9012").
    value = r"(?P<phi>(?=[\w\-./]*\d)[A-Za-z0-9][\w\-./]{2,24}[A-Za-z0-9](?:[ ]\d{3,}(?![\w\-/]))*)"
    return ContextRecognizer("RECORD_ID", "RecordIdContext",
                             [(rf"(?i:\b(?:{words})(?!\w){_FILL}){value}", 0.8)])


_MONTH = rf"(?:{alternation(MONTHS)})\.?"
_DAY = r"[0-3]?\d(?:st|nd|rd|th|\u00ba|\u00b0)?"
_DATE = (r"(?:\d{4}-\d{1,2}-\d{1,2}"
         r"|\d{1,2}[/.\-]\d{1,2}(?:[/.\-](?:\d{4}|\d{2}))?"
         rf"|{_DAY}\s+(?:de\s+|of\s+)?{_MONTH}(?:,?\s+(?:de\s+)?\d{{4}})?"
         rf"|{_MONTH}\s+{_DAY}(?:,?\s+\d{{4}})?"
         rf"|{_MONTH}\s+(?:de\s+|of\s+)?\d{{4}}"
         r"|(?:18|19|20)\d{2})(?![\w/])")
_BIRTH = (r"born|birth\s*date|birthdate|date\s+of\s+birth|d\.?o\.?b\.?|birthday|"
          r"nasci(?:d[oa]s?)?|nasceu|nasceram|nascimento|nasc\.?|dt\.?\s*(?:de\s+)?nasc\.?|data\s+de\s+nasc\.?|"
          r"aniversario|faco\s+anos|faz\s+anos")
_KIN = (r"mother|mom|father|dad|son|daughter|wife|husband|brother|sister|grandmother|grandfather|"
        r"mae|pai|filh[oa]|espos[oa]|marido|mulher|irma|irmao|avo|neto|neta|sogr[oa]")
# Between "nasci"/"born" and the date: "em", "on the", "dia", "da minha mãe é", nothing else.
_BIRTH_FILL = (rf"(?:[\s:,\-]|\b(?:on|in|the|is|was|at|em|no|na|a|dia|de|do|da|foi|e|eh|sera|will|be|my|meu|"
               rf"minha|her|his|sua|seu|of|{_KIN})\b|'s)*")
_BIRTH_AFTER = (r"\s*[,(\-]?\s*(?:(?:is|e|eh|foi|=)\s+)?(?:(?:my|his|her|meu|minha|sua|seu|a|o)\s+)*"
                r"(?:data\s+de\s+nascimento|nascimento|date\s+of\s+birth|birth\s*date|birthday|d\.?o\.?b\b|"
                r"aniversario)")


def _birth_date() -> ContextRecognizer:
    return ContextRecognizer("BIRTH_DATE", "BirthDateContext", [
        (rf"(?i:\b(?:{_BIRTH}){_BIRTH_FILL})(?i:(?P<phi>{_DATE}))", 0.8),
        (rf"(?i:(?<![\w/.\-])(?P<phi>{_DATE}){_BIRTH_AFTER})", 0.8),
    ])


_AGE = (r"(?:(?<![\d.,/:])(?:9\d|1[01]\d)(?!\d|[.,:/]\d)"
        r"|\b(?:noventa(?:\s+e\s+(?:um|uma|dois|duas|tres|quatro|cinco|seis|sete|oito|nove))?|cem|"
        r"cento(?:\s+e\s+[a-z]+)?|ninety(?:[-\s](?:one|two|three|four|five|six|seven|eight|nine))?|"
        r"(?:a|one)\s+hundred(?:\s+and\s+[a-z]+)?)\b)")
# A number followed by a unit is a weight, a dose, a duration or a price, not an age.
_NOT_UNIT = (r"(?!\s*(?:%|kg|kilos?|quilos?|lbs?|pounds?|libras|mg|mcg|ml|cm|mm|bpm|mmhg|h\b|hs\b|hrs?\b|"
             r"horas?|hours?|min\b|minutos?|minutes?|dias?|days?|semanas?|weeks?|meses|months?|reais|dollars?|"
             r"vezes|times|percent|por\s*cento|x\b|/|:))")


def _age_over_89() -> ContextRecognizer:
    before = (r"i'?m|i\s+am|im|aged?|age\s+is|idade(?:\s+de)?|he'?s|she'?s|he\s+is|she\s+is|who\s+is|"
              r"turned|turning|completou|completa|fez|vai\s+fazer|tenho")
    return ContextRecognizer("AGE_OVER_89", "AgeOver89Context", [
        (rf"(?i:(?P<phi>{_AGE})\s*-?\s*(?:anos|aninhos|years?(?:\s*-?\s*old)?|yrs?\b|y/?o\b|year-old))", 0.8),
        (rf"(?i:\b(?:{before})\s*:?\s*)(?P<phi>{_AGE}){_NOT_UNIT}", 0.7),
    ])


_STREET_PT = (r"(?i:\b(?:rua|r\.|avenida|av\.?|alameda|al\.|travessa|trav\.|tv\.|praca|pca\.?|estrada|estr\.|"
              r"rodovia|rod\.|largo|viela|beco))")
# "das Flores", "Brasil", "25 de Março", "Nove de Julho": capitalized words and particles.
_STREET_NAME = r"(?-i:(?:(?:d[aeo]s?|[A-Z][\w'.]*|\d{1,2}\s+de)\s+){0,5}[A-Z][\w'.]*)"
# ", 123", " nº 45", then "apto 12", "bloco B"; not a time or an age ("às 10h", "90 anos").
_HOUSE_NUMBER = (r"[\s,]*(?:n[o\u00ba\u00b0]\.?\s*|numero\s+)?\d{1,5}"
                 r"(?![\d/:]|[.,]\d|\s*(?:h\b|hs\b|horas|anos|mg))"
                 r"(?:[\s,\-]+(?:apto?\.?|apartamento|ap\.|casa|bloco|bl\.|conjunto|cj\.?|sala|andar)\s*\w+)*")
# "123 Main Street", "500 5th Ave, Apt 4B": a number, capitalized words, a street word.
_STREET_EN = (r"(?<![\w\-/.])\d{1,6}[A-Za-z]?\s+(?:(?:(?-i:[A-Z][a-z]+)|\d+(?:st|nd|rd|th))\.?\s+){1,4}"
              r"(?:street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|court|ct|way|place|pl|terrace|"
              r"parkway|pkwy|highway|hwy|circle|square|sq)\b\.?(?:,?\s*(?:apt|apartment|suite|ste|unit|#)\.?\s*#?\w+)?")


def _street_address() -> PatternRecognizer:
    # Without a house number a street is a place anyone may name ("a clínica da Av. Paulista");
    # a bare street counts only after "moro na" / "my address is" (see _residence).
    return PatternRecognizer(
        supported_entity="ADDRESS", name="StreetAddressRecognizer",
        patterns=[
            Pattern("PT street", rf"{_STREET_PT}\s*{_STREET_NAME}{_HOUSE_NUMBER}", 0.7),
            Pattern("EN street", _STREET_EN, 0.7),
        ])


def _residence() -> ContextRecognizer:
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
    more = rf"(?:{word}|d[aeo]s?|n[o\u00ba\u00b0]\.?|apto?\.?|apartamento|casa|bloco|sala)"
    place = rf"(?P<phi>{word}(?:(?:\s+|\s*,\s*|\s+-\s+){more}){{0,8}})"
    countries = r"(?!(?i:brasil|brazil|portugal|usa|eua|estados\s+unidos|united\s+states|the\s+us)\b)"
    return ContextRecognizer("ADDRESS", "ResidenceContext",
                             [(rf"(?i:\b(?:{words})\b{link}){countries}{place}", 0.7)])


class GluedWordsUrlRecognizer(UrlRecognizer):
    """Presidio's URL recognizer, except where its top-level domain runs on into a word: that is a
    missing space after a full stop ("consulta.Preciso" is not a site in Puerto Rico, .pr)."""

    def __init__(self) -> None:
        super().__init__(supported_entity="URL")

    def analyze(self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None,
                regex_flags: int | None = None) -> list[RecognizerResult]:
        return [r for r in super().analyze(text, entities, nlp_artifacts, regex_flags)
                if not text[r.end:r.end + 1].isalnum()]


Gate = Callable[[str], bool]

_DIGIT = re.compile(r"\d")
_EIGHT_DIGITS = re.compile(r"(?:\d\D{0,4}){8}")
_DOMAIN_DOT = re.compile(r"\w\.[A-Za-z]{2}")
_IP_LIKE = re.compile(r"\d\.\d|[0-9A-Fa-f]:[0-9A-Fa-f:]|::")


def always(text: str) -> bool:
    return True


def _has_digit(text: str) -> bool:
    return _DIGIT.search(text) is not None


def _has_phone_digits(text: str) -> bool:
    return _EIGHT_DIGITS.search(text) is not None


def _has_at(text: str) -> bool:
    return "@" in text


def _has_domain(text: str) -> bool:
    return _DOMAIN_DOT.search(text) is not None


def _has_ip(text: str) -> bool:
    return _IP_LIKE.search(text) is not None


@dataclass(frozen=True)
class Entry:
    """A recognizer and a cheap test on the text that tells when running it is worthwhile
    (most chat messages hold no digit, no "@", no domain: their scans are skipped)."""
    recognizer: LocalRecognizer
    gate: Gate


def build() -> list[Entry]:
    return [
        Entry(CpfRecognizer(), _has_digit),
        Entry(_rg(), _has_digit),
        Entry(_national_id_context(), _has_digit),
        Entry(_ssn(), _has_digit),
        Entry(PersonalPhoneRecognizer(), _has_phone_digits),
        Entry(_local_phone(), _has_digit),
        Entry(OfflineEmailRecognizer(), _has_at),
        Entry(GluedWordsUrlRecognizer(), _has_domain),
        Entry(IpRecognizer(supported_entity="IP_ADDRESS"), _has_ip),
        Entry(_postal_code(), _has_digit),
        Entry(_postal_code_context(), _has_digit),
        Entry(_patient_id(), _has_digit),
        Entry(_record_id_context(), _has_digit),
        Entry(_birth_date(), _has_digit),
        Entry(_age_over_89(), always),  # "noventa e dois anos" has no digit
        Entry(_street_address(), _has_digit),
        Entry(_residence(), always),
    ]
