"""Person names from the gazetteer (data/names.tsv, built by `build_names` from names-dataset):
names a regular expression cannot tell from other words, because they are typed in lower case
("can you book tyrone jenkins", "aqui é a tatiane") or stand alone after a word that introduces a
person ("fala com a Cleide", "ask for Consuelo").

A name that is also a common word ("rosa", "will", "grace", "paz", "maria") counts only when it
is capitalized after such a word, or beside a name that is not a common word ("maria eduarda").
Text is read with accents stripped, like every recognizer.
"""

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from presidio_analyzer import LocalRecognizer, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts
from wordfreq import get_frequency_dict

from orchestrator.privacy.recognizers import ContextRecognizer
from orchestrator.privacy.syllable_names import korean_given_name
from orchestrator.privacy.word_language import frequencies
from runtime.text.fold import strip_accents
from tools.drug_loader import name_index

DATA_PATH = Path(__file__).with_name("data") / "names.tsv"
_TOKEN = re.compile(r"[A-Za-z](?:'?[A-Za-z])*(?:-[A-Za-z]+)*")
_PARTICLES = frozenset({"da", "de", "do", "das", "dos", "di", "du", "van", "von", "del", "la", "der", "den",
                        "bin", "ibn"})
_MAX_WORDS = 4
_CUE_WINDOW = 40
# Surname first, as on a form or a chart: "Hernandez, Linda".
_SURNAME_FIRST = re.compile(r"\b([A-Z][a-z]+), ([A-Z][a-z]+)\b")
# or in lower case, an apostrophe allowed: "o'connor, siobhan" (sought from its comma, a literal: cheap).
_FIRST_AFTER_COMMA = re.compile(r", ([a-z]+)\b")
_SURNAME_BEFORE = re.compile(r"(?<![\w'])[a-z]+(?:'[a-z]+)?\Z")
# A list goes on after it: "priya, arjun and meera" are three people.
_LIST_GOES_ON = re.compile(r"\s*(?:,|(?:and|e|&)\s)")
# After an article, words that make the name a person's: "a Rosangela que…", "o Jefferson e a Kelly",
# "a Cleide precisa…" ("a Rosa vermelha", "o Jordan" the river stay unnamed).
_PERSON_AFTER_ARTICLE = re.compile(
    r"\s*(?:que|e\s+(?:a|o)|precisa|quer|queria|esta|ta|vai|tem|teve|foi|pode|sao|falou|disse|ligou|"
    r"mandou|chegou|chega|vem|veio|volta|voltou|nasceu|fez|faz|ja|nao|sabe|pediu)\b", re.IGNORECASE)
# What only a person does, even one named by a word ("a luz esta com febre", "o caio mandou msg", "mark
# has had a fever"; not "a luz do consultorio", "a luz caiu de novo").
_PERSON_ONLY = re.compile(
    r"\s+(?:(?:has(?:\s+had)?|had|got|tem|teve|esta|ta|ficou|anda)\s+(?:com\s+|a\s+|an\s+|uma?\s+)?"
    r"(?:fever|febre|cough|tosse|rash|diarrh?o?ea|diarreia|vomito|dor|pain|flu|gripe|covid|dengue|asthma|asma|"
    r"otite|infeccao|infection|headache|cold|resfriado|catapora|pneumonia|bronquite)|vomit(?:ou|ed)|"
    r"threw\s+up|desmaiou|fainted|passed\s+out|tossiu|chorou|mandou|caiu\s+d[ao]|fell\s+(?:down|off|from)|"
    # "precious has been coughing all night", "a flor ta tossindo"
    r"(?:has\s+been|had\s+been|is|was|esta|ta|anda|ficou)\s+(?:coughing|vomiting|wheezing|crying|throwing\s+up|"
    r"tossindo|vomitando|chiando|chorando))\b",
    re.IGNORECASE)
_ARTICLE_BEFORE = re.compile(r"(?i:\b(?:a|o))\s+$")
_PAST = re.compile(r"\s+[a-z]{2,}(?:ou|eu|iu)\b")
# Two first names joined, as people are: "kauan e kaique precisam…", "ama and kwabena are twins".
_JOINED_AFTER = re.compile(r"\s+(?:and|e|&)\s+([A-Za-z]+)\b")
_JOINED_BEFORE = re.compile(r"\b([A-Za-z]+)\s+(?:and|e|&)\s+$")
_ASKED = re.compile(r"(?i:\b(?:can|could|will|would|may|should|pode|podia|poderia))\s+$")
_ASKING = re.compile(r"(?i:\b(?:ask|asked|tell|told|remind|reminded|thank|thanks|thx|ty|pede|pedi|pedir|diga|"
                     r"dizer|fala|falei|avisa|avise|avisar|agradece|agradeca|agradeco|agradecer|obg|obrigad[oa]|"
                     r"valeu|vlw|authorize|authorise|autoriza|autorizar|autorizo)\s+(?:(?:a|o|pr[oa])\s+)?)$")
# or what to say: "tell joy the prescription is ready", "tell meadow i picked up the strips", "avisa a paz que
# chegou", "pode avisar a flor q o curativo…"; what for: "agradece a Estrela pelo cuidado", "obg raoni pela
# carona"; or what to do: "autorizar a graca a pegar meus exames"
_TO_DO = re.compile(r"\s+(?:(?:to|pra|para)\s+(?!the\b|my\b|a\b|o\b)[a-z]{2,}|that\b|q(?:ue)?\b|pel[oa]\s|"
                    r"for\s|a\s+[a-z]{2,}(?:ar|er|ir)\b|(?:i|we|he|she|they|u|you|eu|ele|ela)\s+[a-z]{2,}|"
                    r"(?:the|your|her|his|o|a|seu|sua)\s+[a-z]+(?:-[a-z]+)?\s+"
                    r"(?:is|are|was|were|came|looked|looks|esta|ta|chegou|saiu)\b)")
_FOR = re.compile(r"(?i:\bfor\s+)$")
_TO_VERB = re.compile(r"\s+to\s+(?!be\b)[a-z]{2,}\b")
_HEALTH_OF = re.compile(r"(?i:\b(?:(?:glicemia|pressao|exames?|receitas?|consultas?|vacinas?|remedios?|febre|"
                        r"temperatura|insulina|curativo|carteirinha|prontuario|saturacao)\s+d[oa]|"
                        r"(?:prescriptions?|refills?|meds|medications?|appointment|appt|vaccines?|shots?|results|"
                        r"labs)\s+for)\s+)$")
# Three or more single words in a list: "ana, joao e pedro precisam…", "priya, arjun and meera".
_LISTED = re.compile(r"\b[A-Za-z]+\s*,\s*(?:[A-Za-z]+\s*,\s*)*[A-Za-z]+,?\s+(?:and|e)\s+[A-Za-z]+\b")
# Maori and Hawaiian names, which no country list of names-dataset holds ("wiremu", "kahurangi",
# "kealoha"): open syllables of their few consonants, three or more. Taken as first names when no
# common word.
_POLYNESIAN = re.compile(r"(?:(?:ng|wh|[hklmnprtw])?[aeiou]){3,}")


# A word at least this frequent in English or Portuguese (Zipf 3, once per million words) is a word
# before it is a name nobody listed: "my son vomited" is not "my son Aiyana".
_COMMON_FREQUENCY = 1e-6


# A name that is a word less frequent than this (Zipf 5, once per 100,000 words) is mostly a name: "davi",
# "margaret", "rosa"; a more frequent one mostly a word: "paz", "hope", "deus", "casa".
_FREQUENT_FREQUENCY = 1e-5


# An apostrophe inside a name, before a capital: "De'Andre", "D'Angelo", "O'Brien" (not "it's").
_INNER_APOSTROPHE = re.compile(r"'(?=[A-Z])")


def _parts(word: str) -> list[str]:
    """A name's parts as the gazetteer lists them: lower case, apart at hyphens, without an apostrophe before
    a capital ("De'Andre" is "deandre")."""
    if "'" in word:
        word = _INNER_APOSTROPHE.sub("", word)
    return word.lower().split("-")


def _korean(parts: list[str]) -> bool:
    """A Korean given name's two syllables, no word said twice ("bo-ra", not "ha-ha")."""
    return len(parts) == 2 and parts[0] != parts[1] and korean_given_name("-".join(parts))


@cache
def frequent_words() -> frozenset[str]:
    """English and Portuguese words of at least `_FREQUENT_FREQUENCY`, accents stripped."""
    return _words_at_least(_FREQUENT_FREQUENCY)


# A Portuguese word of Polynesian shape seen this often, and never in English, is Portuguese vocabulary, not
# a Maori or Hawaiian name ("otite"); those names turn up in English text too ("moana", "kalani").
_PORTUGUESE_ONLY_FREQUENCY = 1e-7


@cache
def portuguese_only_polynesian() -> frozenset[str]:
    """Portuguese words of Polynesian shape, at least `_PORTUGUESE_ONLY_FREQUENCY` and absent from English,
    accents stripped: "otite", "pomadinha"."""
    english = get_frequency_dict("en")
    return frozenset(plain for word, frequency in get_frequency_dict("pt").items()
                     if frequency >= _PORTUGUESE_ONLY_FREQUENCY and word not in english
                     and _POLYNESIAN.fullmatch(plain := strip_accents(word)))


def word_set(spelled: str) -> frozenset[str]:
    """A rule's word list as it is written: words apart by white space."""
    return frozenset(spelled.split())


@cache
def drug_words() -> frozenset[str]:
    """Every name the drug knowledge base knows a drug by, folded: a word no person's slot takes."""
    return frozenset(name_index())


@cache
def common_words() -> frozenset[str]:
    """English and Portuguese words of at least `_COMMON_FREQUENCY`, accents stripped, as a set: a
    lookup costs nothing where wordfreq's own costs about 80 microseconds."""
    return _words_at_least(_COMMON_FREQUENCY)


def _words_at_least(frequency: float) -> frozenset[str]:
    """English and Portuguese words of at least `frequency` (not under word_language's floor), accents
    stripped: `frequencies` keeps the highest of a word's spellings."""
    return frozenset(word for lang in ("en", "pt") for word, seen in frequencies(lang).items()
                     if seen >= frequency)


@dataclass(frozen=True)
class Gazetteer:
    first: frozenset[str]
    last: frozenset[str]
    words: frozenset[str]  # names that are also common words
    places: frozenset[str]  # names that are also countries' names ("Jordan", "Argentina")
    # First names a dictionary writes in lower case ("grace", "rosa"), and those of a city, a state or a
    # language ("savannah", "irish").
    lexicon: frozenset[str]
    proper: frozenset[str]


@cache
def gazetteer(path: Path = DATA_PATH) -> Gazetteer:
    first, last = set(), set()
    flagged: dict[str, set[str]] = {flag: set() for flag in ("word", "place", "lexicon", "proper")}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line:
            continue
        kind, name, _rank, flags = line.split("\t")
        (first if kind == "first" else last).add(name)
        for flag in flags.split(","):
            if flag:
                flagged[flag].add(name)
    return Gazetteer(frozenset(first), frozenset(last),
                     *(frozenset(flagged[flag]) for flag in ("word", "place", "lexicon", "proper")))


class GazetteerNameRecognizer(LocalRecognizer):
    """Runs of gazetteer names (particles between them, up to four names) that start with a first
    name: taken right after words that introduce a person (`introducing`: "this is", "me chamo"),
    after words that mention one (`mentioning`: "com a", "ask for") when capitalized or not a common
    word, never a country's name; before words that make it a person's (`following`: "falando",
    "she is") when not a common word; or when the run has two names or more, not all capitalized
    (capitalized pairs are the context recognizer's), and one of them is not a common word. And
    "Surname, First"."""

    def __init__(self, stop_words: Iterable[str], introducing: str, mentioning: str, following: str,
                 whoever: tuple[str, ...], names: Gazetteer | None = None) -> None:
        self._names = names or gazetteer()
        self._common = common_words()
        self._frequent = frequent_words()
        self._not_polynesian = self._common | portuguese_only_polynesian()  # words of that shape
        self._stop = frozenset(stop_words)
        # "meu marido, o ubirajara, esta internado": an article may come between.
        self._introducing, self._mentioning = (re.compile(rf"(?i:\b(?:{cue})\s*[,:]?\s*(?:(?:o|a)\s+)?)$")
                                               for cue in (introducing, mentioning))
        self._following = re.compile(rf"[\s,]+(?:-\s+)?(?i:{following})")
        (self._apposition, self._opening, self._self_after, self._contact, self._kin_told,
         self._opening_verb, self._person_verb, clause_opening, self._clause_verb, greeted,
         self._greeted_after, self._kin_of, self._titled, self._kin_before) = (re.compile(rf"(?i:{cue})")
                                                                              for cue in whoever)
        self._clause_opening, self._greeted = clause_opening, greeted
        # A first name no dictionary writes in lower case and no city, state, country or language bears
        # is a person's wherever it stands: "vlw tati", "Marcelo, liga pra clinica", "u spoke to Ahmad".
        names = self._names
        self._alone = names.first - names.lexicon - names.proper - names.places - self._stop - drug_words()
        super().__init__(supported_entities=["NAME"], name="GazetteerNames")

    def load(self) -> None:  # the gazetteer loads once per process, in __init__
        pass

    def analyze(self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None,
                ) -> list[RecognizerResult]:
        results, tokens, i = [], list(_TOKEN.finditer(text)), 0
        lists = "," in text and (" e " in text or " and " in text)
        listed, unlisted = self._listed(text) if lists else ([], [])
        results += [RecognizerResult("NAME", start, end, 0.6) for start, end in unlisted]
        while i < len(tokens):
            run = self._run(text, tokens, i)
            if not run:
                i += 1
                continue
            score = 0.6 if any(s <= run[0].start() and run[-1].end() <= e for s, e in listed) else (
                self._score(text, run))
            if score:
                results.append(RecognizerResult("NAME", run[0].start(), run[-1].end(), score))
            i = tokens.index(run[-1]) + 1
        for m in _SURNAME_FIRST.finditer(text):
            last, first = m.group(1).lower(), m.group(2).lower()
            # A surname no list holds, before a first name that is no word: "Oyelaran, Tunde".
            surname = last in self._names.last or (last not in self._common
                                                   and first not in self._names.words)
            if surname and first in self._names.first and not {last, first} & self._stop:
                results.append(RecognizerResult("NAME", m.start(), m.end(), 0.5))
        for m in _FIRST_AFTER_COMMA.finditer(text):  # both listed, neither a word
            before = _SURNAME_BEFORE.search(text, max(0, m.start() - 20), m.start())
            last, first = (before.group().replace("'", "") if before else ""), m.group(1)
            if (before and last in self._names.last and first in self._names.first
                    and not _LIST_GOES_ON.match(text, m.end())
                    and last not in self._common and first not in self._names.words
                    and not {last, first} & self._stop):
                results.append(RecognizerResult("NAME", before.start(), m.end(), 0.5))
        return results

    def _is_name(self, word: str, capitalized: bool = False) -> bool:
        """A gazetteer name, or names joined by hyphens ("maria-jose"), the syllables of a Korean name
        after the first too short to list ("jun-ho"); capitalized when `capitalized` (a run begun with
        a capital goes on with capitals: "Hiroshi Tanaka said")."""
        parts = _parts(word)
        return (not (capitalized and word[0].islower()) and not set(parts) & self._stop
                and (all(p in self._names.first or p in self._names.last or (i and len(p) <= 2)
                         or self._polynesian(p) for i, p in enumerate(parts)) or _korean(parts)))

    def _alone_name(self, word: str) -> bool:
        """A first name that is a person's wherever it stands (`_alone`), or hyphenated first names, as
        compound names are, capitalized or one of them such a name: "Ana-Lucia", "jean-luc", "jun-ho" (not
        "pip-tazo", a drug's)."""
        parts = _parts(word)
        if len(parts) == 1 or parts[0] in self._alone:
            return parts[0] in self._alone
        named = word[0].isupper() or not self._alone.isdisjoint(parts)
        return (named and all(p in self._names.first for p in parts)) or _korean(parts)

    def _hyphenated_surname(self, run: list[re.Match[str]], word: str) -> bool:
        """A listed surname, capitalized, after a hyphenated given name, even a word's: "Jae-won Park",
        "Min-jun Song" (Korean surnames are often words)."""
        return (len(run) == 1 and "-" in run[0].group() and run[0].group()[0].isupper() and word[0].isupper()
                and word.lower() in self._names.last)

    def _first(self, word: str) -> bool:
        parts = _parts(word)
        return parts[0] in self._names.first or self._polynesian(parts[0]) or _korean(parts)

    def _polynesian(self, word: str) -> bool:
        # The set lookup first: most words are common ones, and it is cheaper than the pattern.
        return len(word) >= 5 and word not in self._not_polynesian and _POLYNESIAN.fullmatch(word) is not None

    def _listed(self, text: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
        """Lists of three or more first names, one at least no common word, and the capitalized words in
        them no gazetteer or dictionary holds, named by the list: "Aarav, Ishaan and Diya"."""
        spans, unlisted = [], []
        for m in _LISTED.finditer(text):
            *most, _joiner, last = re.finditer(r"[A-Za-z]+", m.group())
            words = [*most, last]
            lower = [w.group().lower() for w in words]
            new = [w for w, word in zip(words, lower, strict=True) if not self._first(word)
                   and w.group()[0].isupper() and word not in self._common]
            if (all(word not in self._stop for word in lower) and len(new) < len(words)
                    and all(self._first(word) for w, word in zip(words, lower, strict=True) if w not in new)
                    and any(self._first(word) and word not in self._names.words for word in lower)):
                spans.append(m.span())
                unlisted += [(m.start() + w.start(), m.start() + w.end()) for w in new]
        return spans, unlisted

    def _run(self, text: str, tokens: list[re.Match[str]], i: int) -> list[re.Match[str]]:
        """The names from token i on, joined by spaces and particles; none unless a first name starts them."""
        first = tokens[i].group()
        head = _parts(first)[0]
        # `_first` inlined, set lookups before the pattern: this runs on every word of every message.
        if head not in self._names.first and (len(head) < 5 or head in self._not_polynesian
                                              or not _POLYNESIAN.fullmatch(head)) and not (
                "-" in first and _korean(first.lower().split("-"))):
            return []
        if not self._is_name(first):
            return []
        run, j, capitalized = [tokens[i]], i + 1, first[0].isupper()
        while j < len(tokens) and len(run) < _MAX_WORDS and text[run[-1].end():tokens[j].start()].isspace():
            k = j  # past one or two particles: "Maria de la Cruz"
            while (k < j + 2 and k + 1 < len(tokens) and tokens[k].group().lower() in _PARTICLES
                   and text[tokens[k].end():tokens[k + 1].start()].isspace()):
                k += 1
            if k > j and self._is_name(tokens[k].group(), capitalized):
                run += tokens[j:k + 1]
                j = k + 1
            elif (self._is_name(tokens[j].group(), capitalized)
                  or self._hyphenated_surname(run, tokens[j].group())):
                run.append(tokens[j])
                j += 1
            else:
                break
        return run

    def _score(self, text: str, run: list[re.Match[str]]) -> float:
        names = [m.group() for m in run if m.group().lower() not in _PARTICLES]
        # Particles alone ("van", "da"), or an acronym ("admitted for CAP"): no name to weigh.
        if not names or (len(names) == 1 and names[0].isupper()):
            return 0.0
        start, end = run[0].start(), run[-1].end()
        if (len(names) == 1 and self._alone_name(names[0])
                and not self._titled.search(text, max(0, start - 12), start)):
            return 0.6
        plain = [n for n in names if n.lower() not in self._names.words]
        capitalized = all(n[0].isupper() for n in names)
        # "sou argentina" is a nationality; "sou a Argentina" may be a person.
        introduced = (capitalized or names[0].lower() not in self._names.places) and self._introducing.search(
            text, max(0, start - _CUE_WINDOW), start)
        # "paz is my mom", "a rosa minha vizinha"; not a common word opening the message before a comma
        # ("socorro, meu filho…").
        # The message's first word is capitalized whatever it is: its capital tells nothing.
        exclaimed = (not plain and text[end:end + 1] == ","
                     and self._opening.fullmatch(text, 0, start))
        apposed = not exclaimed and self._apposition.match(text, end)
        if (introduced or apposed
                or (self._opening.fullmatch(text, 0, start) and self._self_after.match(text, end))):
            return 0.6
        # Asked or told to do something: "ask bill to call me", "tell hope to bring the card".
        if (len(names) == 1 and _TO_DO.match(text, end)
                and _ASKING.search(text, max(0, start - 16), start)):
            return 0.6
        mention = self._mentioning.search(text, max(0, start - _CUE_WINDOW), start)
        # After a bare "do"/"da", a lower-case word seen once a million words is that word: "do leito".
        mentioned = mention and (capitalized or len(names) > 1
                                 or mention.group().split()[0].lower() not in ("do", "da")
                                 or any(n.lower() not in self._common for n in plain))
        word = names[0].lower()
        # One listed first name: the rules below weigh only where it stands.
        one_first = len(names) == 1 and word in self._names.first
        # After who the person is to the writer: "my sister in law Patience", "my bf nico" ("my son will").
        if (one_first and (capitalized or word not in self._frequent)
                and self._kin_before.search(text, max(0, start - _CUE_WINDOW), start)):
            return 0.6
        # Whom something is for, to do it, or whose health record: "is it safe for patience to take…", "a
        # glicemia da socorro deu 240", "the prescription for grace".
        if one_first and ((_FOR.search(text, max(0, start - 4), start) and _TO_VERB.match(text, end))
                          or _HEALTH_OF.search(text, max(0, start - 24), start)):
            return 0.6
        # A relative's, a name that is a rarer word too: "mae do davi" ("filho de deus" is no one).
        if one_first and word not in self._frequent and self._kin_of.search(text, max(0, start - 20), start):
            return 0.6
        # or after an article, before a verb in the past: "a luna tomou a vacina" ("a luz caiu" is the light).
        if (one_first and word not in self._frequent
                and _ARTICLE_BEFORE.search(text, max(0, start - 3), start) and _PAST.match(text, end)):
            return 0.6
        person = mentioned or (_ARTICLE_BEFORE.search(text, max(0, start - 3), start)
                               and _PERSON_AFTER_ARTICLE.match(text, end))
        # Two first names together are a person's even when both are common words: "a ana julia vai".
        if (names[0].lower() not in self._names.places and person
                and (plain or capitalized or sum(n.lower() in self._names.first for n in names) >= 2
                     or (one_first and word not in self._frequent))):
            return 0.6
        # "ananya, she is 7", "Hamza at hamza.k@…"; not "Her DOB", "my rash here".
        if plain and (self._following.match(text, end) or (capitalized and self._contact.match(text, end))):
            return 0.6
        # Told later to be a relative: "can mohammed pick up my meds? he's my brother"; a name that is a
        # word too when asked about as the subject: "can rosa pick up my prescription? she's my neighbor".
        if ((plain or mention or _ASKED.search(text, max(0, start - 12), start))
                and self._kin_told.search(text)):
            return 0.6
        # Opening the message, a name not a common word before a verb: "anil is not picking up".
        if plain and self._opening.fullmatch(text, 0, start) and self._opening_verb.match(text, end):
            return 0.6
        # A first name that is also a word, opening the message before what only people do: "tiago vai
        # receber o kit", "paz esta com febre" (not "Summer is here", "will be fine").
        if (names[0].lower() in self._names.first and self._opening.fullmatch(text, 0, start)
                and self._person_verb.match(text, end)):
            return 0.6
        if (names[0].lower() in self._names.first and _PERSON_ONLY.match(text, end)
                and self._clause_opening.search(text, max(0, start - 12), start)):
            return 0.6
        # One first name or two ("ana clara e joao miguel tomaram a vacina").
        if ((len(names) == 1 or (len(names) == 2 and all(n.lower() in self._names.first for n in names)))
                and (self._joined(text, start, end, bool(plain))
                     # both words too, when told to be twins or siblings
                     or (not plain and self._joined(text, start, end, True)
                         and self._kin_told.search(text) is not None))):
            return 0.6
        # A clause's subject: "…mas keila acordou com febre", "nurse note: mei refused her meds".
        if (plain and self._clause_verb.match(text, end)
                and self._clause_opening.search(text, max(0, start - 12), start)):
            return 0.6
        # Greeted: "bom dia thiago, preciso…" (a single first name, even one that is a word).
        if (len(names) == 1 and self._greeted_after.match(text, end) and self._first(names[0])
                and self._greeted.fullmatch(text, 0, start)):
            return 0.6
        return 0.5 if len(names) >= 2 and plain and not capitalized else 0.0


    def _joined(self, text: str, start: int, end: int, plain: bool) -> bool:
        """A first name joined by "and"/"e" to another first name, one of the two not a common word."""
        other = (_JOINED_AFTER.match(text, end)
                 or _JOINED_BEFORE.search(text, max(0, start - _CUE_WINDOW), start))
        if not other:
            return False
        word = other.group(1).lower()
        return self._first(word) and word not in self._stop and (
            plain or word not in self._names.words)


class KnownNames(ContextRecognizer):
    """A context recognizer whose matches count only when one of their words is in the gazetteer."""

    def __init__(self, name: str, patterns: Iterable[tuple[str, float]],
                 names: Gazetteer | None = None) -> None:
        self._names = names or gazetteer()
        super().__init__("NAME", name, patterns)

    def analyze(self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None,
                ) -> list[RecognizerResult]:
        return [r for r in super().analyze(text, entities, nlp_artifacts)
                if any(w.lower() in self._names.first or w.lower() in self._names.last
                       for w in _TOKEN.findall(text, r.start, r.end))]


class CuedNames(ContextRecognizer):
    """A context recognizer for names after a cue ("name deng majok", "my partner sione will…"), whose
    match keeps its leading words that are names: gazetteer names, or (`unlisted`) words that are no
    common English or Portuguese word; a gazetteer name that is also a common word counts only with
    `words_too` ("nome maria", not "…, rosa"). With `whole`, every word of the match must be a name."""

    def __init__(self, name: str, patterns: Iterable[tuple[str, float]], *, unlisted: bool = True,
                 words_too: bool = True, whole: bool = False, names: Gazetteer | None = None) -> None:
        self._names = names or gazetteer()
        self._unlisted, self._words_too, self._whole = unlisted, words_too, whole
        self._common = common_words()  # loaded here, once, not in some message's time
        super().__init__("NAME", name, patterns)

    def analyze(self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None,
                ) -> list[RecognizerResult]:
        results = []
        for r in super().analyze(text, entities, nlp_artifacts):
            end = r.start
            for token in _TOKEN.finditer(text, r.start, r.end):
                word = token.group().lower()
                if word in _PARTICLES:
                    continue
                if not self._is_name(word):
                    end = r.start if self._whole else end
                    break
                end = token.end()
            if end > r.start:
                results.append(RecognizerResult("NAME", r.start, end, r.score))
        return results

    def _is_name(self, word: str) -> bool:
        listed = all(p in self._names.first or p in self._names.last for p in word.split("-"))
        if listed:
            return self._words_too or word not in self._names.words
        return self._unlisted and word not in self._common
