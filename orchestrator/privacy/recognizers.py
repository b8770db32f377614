"""The recognizers behind the PHI detector, all Presidio recognizers that run without an NLP
engine: Presidio's own where they fit (e-mail, phone, URL, IP address, SSN), PatternRecognizers
for shapes it lacks (CPF, RG, CEP, ZIP+4, the mesh's patient ids), and ContextRecognizers for
values that are PHI only beside their context words (a number after "prontuário"; birth dates,
ages and addresses are in `personal_details`, the list that runs in `catalogue`).

Every recognizer reads the message with accents stripped (`runtime.text.fold.strip_accents`:
same length, same case), so patterns spell Portuguese words without accents and offsets index
the original text.
Entity types are the detector's categories, so results need no mapping.
"""

import re
from collections.abc import Iterable

import phonenumbers
import tldextract
from presidio_analyzer import LocalRecognizer, Pattern, PatternRecognizer, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts
from presidio_analyzer.predefined_recognizers import (
    EmailRecognizer,
    PhoneRecognizer,
    UrlRecognizer,
    UsSsnRecognizer,
)

from orchestrator.privacy import pattern_scan, phone_plans
from orchestrator.privacy.prefilter import prefilter
from runtime.errors import InvalidArgument
from runtime.identity import normalize_cpf

# A pattern, its score and, optionally, a pattern found in every text it matches: a cheap search that
# skips the costly scan (one that tries a name at every capital) when its fixed words are absent.
ContextPattern = tuple[str, float] | tuple[str, float, str]


class ContextRecognizer(LocalRecognizer):
    """A value that is PHI only beside its context words. The span is each pattern's group
    "phi", not the whole match: "prontuário 12345" redacts to "prontuário [RECORD_ID]"."""

    def __init__(self, entity: str, name: str, patterns: Iterable[ContextPattern]) -> None:
        compiled = tuple((re.compile(regex), score, re.compile(needs[0]) if needs else None)
                         for regex, score, *needs in patterns)
        self._patterns = tuple((pattern, score, needs, prefilter(pattern.pattern, pattern.flags))
                               for pattern, score, needs in compiled)
        super().__init__(supported_entities=[entity], name=name)

    def load(self) -> None:  # patterns compile in __init__; nothing to load
        pass

    def analyze(self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None,
                ) -> list[RecognizerResult]:
        entity = self.supported_entities[0]
        meta = {RecognizerResult.RECOGNIZER_NAME_KEY: self.name,
                RecognizerResult.RECOGNIZER_IDENTIFIER_KEY: self.id}
        results = []
        for pattern, score, needs, test in self._patterns:
            if needs is not None and not needs.search(text):
                continue
            matches = pattern.finditer(text) if test is None else test.finditer(pattern, text)
            results += [RecognizerResult(entity, m.start("phi"), m.end("phi"), score,
                                         recognition_metadata=meta) for m in matches]
        return results


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
# Or whose and when: "rg do meu filho MG-…", "cartao do sus, numero era 706…", "my SIN? its 046…".
_FILL = (r"(?:[\s:#=\-]|\b(?:n[o\u00ba\u00b0]|nr|num|number|numero|is|e|eh|o|a|do|da|of|dele|dela|"
         r"'s|it's|new|novo|nova|meu|minha|my|his|her|its|paciente|patient|filh[oa]|son|daughter|era|was)\b\.?|[,?](?=\s))*?")
# Or a few words, then a verb: "cartao sus do pedro eh 898…", "patient id at the old hospital was SJH-204471".
_BETWEEN = r"(?:\s+[a-z]+){0,6}?\s+(?:was|is|e|eh|era|foi|numero|number|:)\s*"


def rg() -> PatternRecognizer:
    return PatternRecognizer(
        supported_entity="NATIONAL_ID", name="RgRecognizer",
        patterns=[Pattern("RG formatted", rf"{_B}\d{{1,2}}\.\d{{3}}\.\d{{3}}-[\dX]{_E}", 0.5)],
        context=["rg", "identidade"])


def national_id_context() -> ContextRecognizer:
    # The SUS card (Cartão Nacional de Saúde, CNS) is Brazil's national health id; a recognizer
    # of record numbers reads it too, as the number of the public health plan's beneficiary.
    words = (r"rg|r\.g\.|identidade|carteira\s+de\s+identidade|registro\s+geral|documento\s+de\s+identidade|"
             r"cpf|ssn|social\s+security(?:\s+number)?|passaporte|passport(?:\s+number)?|pesel|"
             r"(?:(?:cartao|carteirinha|numero|n[o\u00ba\u00b0])\s+(?:do\s+|de\s+)?)?sus|cns|cartao\s+nacional\s+de\s+saude|"
             # A foreigner's registry in Brazil (RNE, now RNM): "V482193-K".
             r"rne|rnm|"
             # The UK's NHS number and Canada's social insurance number (SIN).
             r"nhs(?:\s+(?:number|no))?|sin|social\s+insurance\s+number|"
             # Portugal's health-service user number and tax number: "numero de utente 298 114 563", "NIF".
             r"(?:numero\s+de\s+)?utente|nif")
    # "12.345.678-X", "MG-12345678", "078 05 1120", "700 5081 2293 4418", an RNE "V482193-K"
    value = r"(?P<phi>(?-i:[A-Z]{1,2}[-\s]?)?\d(?:[\d.\-]|[ ](?=\d)){4,18}(?:[\dXx]|(?<=-)(?-i:[A-Z])))"
    # New Zealand's National Health Index: three letters, then four digits or two digits and two letters.
    nhi = r"(?P<phi>(?-i:[A-HJ-NP-Z]{3}(?:\d{4}|\d{2}[A-HJ-NP-Z]{2})))"
    return ContextRecognizer("NATIONAL_ID", "NationalIdContext",
                             [(rf"(?i:\b(?:{words})\b(?:{_FILL}|{_BETWEEN})){value}{_E}", 0.8),
                              (rf"(?i:\bnhi(?:\s+(?:number|no))?\b{_FILL}){nhi}{_E}", 0.8)])


def ssn() -> UsSsnRecognizer:
    # Its weak patterns (any 9 digits, 5-4 digits) score 0.05 and survive only beside these words.
    return UsSsnRecognizer(supported_entity="NATIONAL_ID",
                           context=["ssn", "social security", "seguro social"])


_PHONE_CONTEXT = ["tel", "ph", "telefone", "fone", "celular", "cel", "whatsapp", "whats", "zap", "phone",
                  "mobile", "cell", "cellphone", "call", "ligar", "ligue", "contato", "contact", "ramal",
                  "fixo", "landline", "reach", "reached", "text", "texto", "sms",
                  # whose number, which a bare "number" (a record's, a member's) does not say
                  "my number", "her number", "his number", "meu numero", "numero dele", "numero dela"]


# 0800/0300 in Brazil, 1-800/888/877/… in North America: mostly a business's number, so it counts
# only with a context word before it ("contact number 1-800-555-0134 is my work line").
_TOLL_FREE = re.compile(r"(?:55)?0[3589]00|1?8(?:00|33|44|55|66|77|88)")
_NON_DIGIT = re.compile(r"\D")
# A run of digits and phone punctuation with at least eight digits: where a phone number may be;
# ISO dates and dotted CPFs are blanked first (system answers are full of "2026-11-23 09:00").
# Not the tail of a code ("SUP-2024-118833").
# Each pattern opens with a lookahead for the character every match starts with: the re module then
# skips the other positions at once instead of trying each lookbehind and branch there (twice as fast).
_PHONE_RUN = re.compile(r"(?=[+(\d])(?<![A-Za-z]-)(?<!\d)\+?\(?\d[\d\s().\-]{6,24}\d")
_NOT_PHONE = re.compile(
    r"(?=\d)(?:\d{4}-\d\d-\d\d|\d{3}\.\d{3}\.\d{3}-\d\d"
    # An IPv4 address and a dated day (11/12/1996, 11-12-1996): no region's plan reads them as phones, and
    # each would cost a parse in every region.
    r"|(?<![\d.])\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}(?![\d.])"
    r"|(?<![\d/.-])\d{1,2}[/.-]\d{1,2}[/.-](?:19|20)\d\d(?![\d/.-]))"
)


# Brazil and the US first; then where Brazilians and visitors most often have numbers from
# (python-phonenumbers validates each number against its region's plan).
_REGIONS = ("BR", "US", "PT", "GB", "CA", "AR", "MX", "ES", "IT", "DE", "FR", "AU", "IN", "IE", "JP")


class PersonalPhoneRecognizer(PhoneRecognizer):
    """Presidio's phone recognizer for the regions above, toll-free numbers weak (context needed).

    python-phonenumbers scans the whole text once per region and tries to parse every number in
    it (dates, times, ids), so it is given only the runs that could be a phone number, with one
    character either side for its own boundary checks; and a run with its country code ("+44 …")
    once, not once per region: every region reads it alike."""

    def __init__(self) -> None:
        # Keep python-phonenumbers' compiled metadata patterns (its own switch): without it every number
        # tried looks its patterns up again in the re module's cache, a tenth of a phone message's time.
        phonenumbers.enable_pattern_cache()
        phone_plans.prepare(_REGIONS)
        super().__init__(supported_entity="PHONE", supported_regions=_REGIONS, context=_PHONE_CONTEXT)

    def analyze(self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None,
                ) -> list[RecognizerResult]:
        results = []
        for run in _PHONE_RUN.finditer(_NOT_PHONE.sub(lambda m: " " * len(m.group()), text)):
            if len(_NON_DIGIT.sub("", run.group())) < 8:
                continue
            start = max(0, run.start() - 1)
            regions = _REGIONS[:1] if run.group().lstrip("(").startswith("+") else _REGIONS
            for begin, end in self._numbers(text[start:run.end() + 1], regions, run.end() - start):
                digits = _NON_DIGIT.sub("", text[start + begin:start + end])
                score = TOLL_FREE_SCORE if _TOLL_FREE.match(digits) else self.SCORE
                results.append(RecognizerResult("PHONE", start + begin, start + end, score))
        return results

    def _numbers(self, text: str, regions: tuple[str, ...], run_end: int) -> list[tuple[int, int]]:
        """Where python-phonenumbers finds a valid number of one of `regions`, each span once; the
        regions after one whose number takes the whole run (up to `run_end`) would find no more."""
        spans: dict[tuple[int, int], None] = {}
        for matches in phone_plans.region_matches(text, regions, self.leniency):
            spans |= dict.fromkeys((m.start, m.end) for m in matches)
            if any(begin <= 1 and end >= run_end for begin, end in spans):
                break
        return list(spans)


TOLL_FREE_SCORE = 0.2  # below the detector's floor until a context word raises it


# Words before a number that say it is no phone's: a time's "at", a kind of number other than a phone's.
_NOT_ANOTHER_NUMBER = "".join(rf"(?<!\b{word}\s)" for word in (
    "at", "as", "number", "numero", "no", "nr", "order", "pedido", "protocol", "protocolo", "code", "codigo",
    "id", "ref", "invoice", "claim", "case", "ticket", "lot", "lote", "room", "sala", "quarto"))


def local_phone() -> PatternRecognizer:
    """Numbers without an area code, which python-phonenumbers does not match (Brazilian ones, and
    US 555-0123 after a context word), and international numbers it rejects for a plan it does not
    know ("+351 956 456 302")."""
    return PatternRecognizer(
        supported_entity="PHONE", name="LocalPhoneRecognizer", context=_PHONE_CONTEXT,
        patterns=[Pattern("BR mobile", rf"{_B}9\d{{4}}[-\s]\d{{4}}{_E}", 0.5),
                  Pattern("BR landline (weak)", rf"{_B}\d{{4}}-\d{{4}}{_E}", 0.2),
                  # Or a whole US number the phone library rejects ("1-555-555-0104": a fictional exchange).
                  # A US exchange and line, dashed, standing alone: a phone number more than anything else
                  # ("son fritz 555-0191"), unless a unit follows ("100-1000 mg") or a word before says what
                  # else it is: a time's "at", another number's kind ("order number 555-0177").
                  Pattern("US local, dashed",
                          rf"{_NOT_ANOTHER_NUMBER}{_B}\d{{3}}-\d{{4}}{_E}(?!\s*(?:mg|mcg|ml|units?|kg|%))",
                          0.35),
                  Pattern("US local (weak)",
                          rf"{_B}(?:(?:1[-.\s])?\(?\d{{3}}\)?[-.\s])?\d{{3}}[-.\s]\d{{4}}{_E}", 0.2),
                  Pattern("international",
                          r"(?<![\w+])\+\d{1,3}(?:[\s.\-]?\(?\d{1,4}\)?){2,5}(?![\w\-])", 0.5)])


def trunk_phone() -> ContextRecognizer:
    """A Brazilian number with the long-distance prefix and its carrier left open: "(0xx21) 2547-8890"."""
    return ContextRecognizer("PHONE", "TrunkPhone", [
        (r"(?<!\w)(?P<phi>\(?0[xX]{2}\d{2}\)?\s*9?\d{4}[-\s]?\d{4})(?!\w)", 0.6)])


def says_trunk(text: str) -> bool:
    """The trunk-phone recognizer's gate: "0xx" in the text."""
    return "0xx" in text or "0XX" in text


def postal_code() -> PatternRecognizer:
    return PatternRecognizer(
        supported_entity="POSTAL_CODE", name="PostalCodeRecognizer", context=["cep", "zip", "postal"],
        patterns=[Pattern("CEP", rf"{_B}\d{{5}}-\d{{3}}{_E}", 0.6),
                  Pattern("ZIP+4", rf"{_B}\d{{5}}-\d{{4}}{_E}", 0.4),
                  Pattern("State and ZIP", rf"(?<!\w)(?-i:[A-Z]{{2}}),?\s+\d{{5}}(?:-\d{{4}})?{_E}", 0.5),
                  # A CEP without its dash after the state: "Rio de Janeiro - RJ, 20539272".
                  Pattern("State and CEP", rf"(?<!\w)(?-i:[A-Z]{{2}}),?\s+\d{{8}}{_E}", 0.5),
                  Pattern("UK postcode", r"(?<!\w)(?-i:[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2})(?!\w)", 0.5),])


# US states' codes typed in lower case ("new york ny 10028"), except those that are also words
# ("me", "in", "or", "ok", "hi", "de", "oh", "pa", "la", "ma", "va", "al", "co", "id", "mo", "ga").
_STATES_LOWER = ("ak|az|ar|ca|ct|dc|fl|ia|il|ks|ky|md|mi|mn|ms|mt|nc|nd|ne|nh|nj|nm|nv|ny|ri|sc|sd|tn|tx|ut|"
                 "vt|wa|wi|wv|wy")


def postal_code_context() -> ContextRecognizer:
    words = r"cep|zip(?:\s*code)?|postal\s+code|codigo\s+postal|postcode"
    # CEP 01310100 or 01310 100, ZIP 10001, Portugal 1250-142
    value = r"(?P<phi>\d{5}(?:-?\d{3,4}|\s\d{3}(?!\s?\d))?|\d{4}-\d{3})"
    return ContextRecognizer("POSTAL_CODE", "PostalCodeContext", [
        (rf"(?i:\b(?:{words})\b{_FILL}){value}{_E}", 0.8),
        (rf"(?<!\w)(?:{_STATES_LOWER}),?\s+(?P<phi>\d{{5}}(?:-\d{{4}})?){_E}", 0.5),
        # Canada's: letter, digit, letter, then digit, letter, digit ("H3A 1G2").
        (r"(?<!\w)(?P<phi>[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z]\s?\d[ABCEGHJ-NPRSTV-Z]\d)(?!\w)", 0.5),
        # Portugal's 4+3 codes, and a bare CEP, after the city: "Porto 4050-262", "Recife, 50030230".
        (rf"(?<![\w-])(?-i:[A-Z][a-z]+),?\s+(?P<phi>\d{{4}}-\d{{3}}|\d{{8}}){_E}", 0.5),
        # A ZIP as where one is: "which ER near 62785 is best?" (not "near 10000 steps a day").
        (r"(?i:\b(?:near|close\s+to|perto\s+d[eo])\s+)(?P<phi>\d{5})"
         r"(?=\s*(?:[?.,;!)]|$)|\s+(?i:is|are|that|with|for|e|que|com)\b)", 0.5)])


def patient_id() -> PatternRecognizer:
    # The mesh's patient ids (CARD-A001); appointment, doctor and slot ids carry a second dash.
    return PatternRecognizer(
        supported_entity="RECORD_ID", name="PatientIdRecognizer",
        patterns=[Pattern("mesh patient id", r"(?<![\w\-])(?:CARD|DERM|ORTH)-[A-F]\d{3}(?![\w\-])", 0.9)])


# Health insurers whose name stands for their card ("unimed 0032...", "aetna W229..."), Brazil's and the US's.
_INSURERS = (r"unimed|bradesco|amil|sulamerica|hapvida|notredame|intermedica|golden\s+cross|porto\s+seguro|"
             r"prevent\s+senior|cassi|geap|ipsemg|iamspe|aetna|cigna|humana|anthem|kaiser|tricare|"
             r"blue\s+(?:cross|shield)|united\s*healthcare|uhc|oscar|molina|centene|wellcare")


def record_id_context() -> ContextRecognizer:
    # "matricula do ipsemg": a registration at an institution, named after it.
    words = (r"prontuario|ficha|registro\s+(?:d[aeo]\s+)?paciente|registro\s+medico|"
             r"matricula(?:\s+(?:d[oa]\s+)?[a-z]+)?|mat\.|reg\.|registro\s+hospitalar|"
             r"carteirinha(?:\s+do\s+(?:convenio|plano(?:\s+de\s+saude)?))?|"
             r"cartao\s+(?:do\s+)?(?:sus|convenio|plano(?:\s+de\s+saude)?)|numero\s+do\s+convenio|cns|mrn|"
             r"medical\s+record(?:\s+(?:number|no|#))?|record\s+(?:number|no|#)|chart(?:\s+(?:number|no))?|"
             r"patient\s+(?:id|number)|id\s+(?:do|da)\s+paciente|"
             # HIPAA's health plan beneficiary numbers: member, policy, Medicare/Medicaid, convênio.
             r"member(?:ship)?(?:\s+(?:id|number|no|#))?|subscriber\s+(?:id|number)|beneficiary(?:\s+(?:id|number))?|"
             r"insurance\s+(?:id|number|card|no|#)|policy(?:\s+(?:number|no|#)|\s*#)?|"
             r"medica(?:re|id)(?:\s+(?:id|number|no|#))?|mbi|apolice|"
             r"health\s+plan\s+(?:id|number)|plan\s+id|group\s+(?:number|no|#)|convenio|plano|"
             r"case\s+number|record\s*#|pront\.?|guia|"
             # A claim, an account or a protocol is the patient's with the insurer or the hospital (HIPAA's
             # account numbers): "claim CLM-55019283", "account ACCT-20419783", "protocolo 2024…".
             r"claims?|account|acct|protocolo|"
             # A hospital's or a claim's number, an insurer's card named by its plan: "carteira do ipsemg",
             # "carteirinha bradesco saude", "carrier id".
             r"(?:hospital|claim|carrier)\s+(?:id|number|no|#)|cart(?:eira|eirinha)\s+(?:d[oa]\s+)?[a-z]+(?:\s+saude)?|"
             # A health plan named by its insurer: "bradesco saude numero 776 002 331", "cigna U48211903".
             rf"(?:{_INSURERS})(?:\s+(?:saude|seguros|health))?")
    # A token with a digit ("12345", "A-00991"), and groups of digits after it ("1234 5678 9012").
    # Or a card number in groups of digits: "898 0012 3456 7890", "0 884 000123456789 0", or after a
    # plan's letters: "MCD 7720 1184 9".
    value = (r"(?P<phi>(?=[\w\-./]*\d)[A-Za-z0-9][\w\-./]{2,24}[A-Za-z0-9](?:[ ]\d{3,}(?![\w\-/]))*"
             r"|(?:(?-i:[A-Z]{1,4})[ ])?\d{1,6}(?:[ ]\d{1,16}){2,5}(?![\w\-/])"
             # An insurer's or a file's letters, then its number: "UHC 904471236", "PR 0045 1182",
             # "C 28 441 903".
             r"|(?-i:[A-Z]{1,4})[ ](?:\d{6,16}|\d{3,6}[ .]\d{3,16})(?![\w\-/]))")
    # Not a price or a count: "o convênio é 350 reais", "the policy covers 12 visits".
    amount = r"(?!\s*(?:reais|r\$|dollars?|usd|%|por\s+mes|a\s+month|visits|sessions|sessoes|consultas))"
    # "hospital no. H0392271": an abbreviation's dot.
    return ContextRecognizer("RECORD_ID", "RecordIdContext",
                             [(rf"(?i:\b(?:{words})(?!\w)\.?(?:{_FILL}|{_BETWEEN})){value}{amount}", 0.8)])


# A link with its scheme is a URL whatever its top-level domain ("https://saudeagora.fake/paciente/…").
_SCHEMED = re.compile(r"(?i)\bhttps?://[^\s<>\"']*[^\s<>\"'.,;:!?)\]]")


class GluedWordsUrlRecognizer(UrlRecognizer):
    """Presidio's URL recognizer, except where its top-level domain runs on into a word: that is a
    missing space after a full stop ("consulta.Preciso" is not a site in Puerto Rico, .pr). And any link
    with its scheme (`_SCHEMED`)."""

    def __init__(self) -> None:
        super().__init__(supported_entity="URL")
        self._scan = pattern_scan.PatternScan(self)

    def analyze(self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None,
                regex_flags: int | None = None) -> list[RecognizerResult]:
        results = (self._scan(text) if regex_flags is None
                   else super().analyze(text, entities, nlp_artifacts, regex_flags))
        results = [r for r in results if not text[r.end:r.end + 1].isalnum()]
        if "://" in text:
            results += [RecognizerResult("URL", m.start(), m.end(), 0.6) for m in _SCHEMED.finditer(text)]
        return results
