"""Names told by the clause around them rather than by a cue word beside them, recall first (a false hit keeps
a message local; a miss leaks): a clause's subject before a verb ("luz is coming with me", "o dedeco caiu",
"make sure tavita brings her inhaler"), two people joined ("hope and grace both need…", "rosa e paz vao"), a
person referred to by "she"/"ele" just after ("where is caca? she has the card"), a thanks closing the message
("got it, thanks tuppence"). And, with no place at all, a word that can only be a name: a listed first name
that is no word of the message's language ("kemal", "marites"), a capitalized word inside a sentence that is
no word of either language ("saw Temitope at the pharmacy"), a listed first name before a word of neither
("gloria mbeki").

A word fills these places when it is a person's name more than a word of the message's language: no common
word of it ("tavita", "dedeco"; "caca" in an English message), a listed name rare in the message's language
("kemal"), or a listed name that is a word mostly of the other language ("luz", "rosa" in an English message;
"hope", "sunny" in a Portuguese one). Pronouns, relatives, days, drugs and the detector's stop words never
do. Text is read with accents stripped, like every recognizer."""

import re
from collections.abc import Iterable
from typing import NamedTuple

from presidio_analyzer import LocalRecognizer, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from orchestrator.privacy.gazetteer import Gazetteer, drug_words, gazetteer, word_set
from orchestrator.privacy.names import KIN_SET
from orchestrator.privacy.word_language import OTHER_LANGUAGE, WordLanguage

# What a person does or is, after the subject: the common verbs of both languages in the forms a chat uses.
_VERBS_EN = word_set("""is was has had will would can could should cant can't won't wont isn't wasn't hasn't
    hadn't didn't doesn't does did needs wants keeps says said told asked felt feels fell got gets took takes
    brings brought comes came calls called woke wakes threw throws went goes lives works knows thinks likes
    loves hates seems looks sounds stays misses missed started stopped refused""")
_VERBS_PT = word_set("""e eh esta ta tava estava tem tinha teve vai foi vem veio precisa quer queria pode
    podia nasceu caiu acordou tomou vomitou disse falou ligou chegou mandou esqueceu ficou passou fez faz sabe
    pediu mora trabalha anda continua sente sentiu""")
# Base forms, after "have", "let", "make sure": "please have amaru call me back".
_BASE_VERBS = word_set("""call bring pick come get take know send sign see text email stop start wait
    check fill drop ring""")
_CAUSATIVES = word_set("have had let sure")
# Words a subject may follow: a clause's conjunctions and a greeting.
_OPENERS = word_set("""and but so if whether when while because though then that until mas e entao que se
    quando porque pois enquanto ate depois hi hey hello oi ola""")
_ARTICLES = word_set("o a")
_PAST = ("ou", "eu", "iu")  # a Portuguese past's endings
_WHERE_FROM = word_set("do da")
_BOTH = word_set("both ambos ambas")
# and a negation: "Socorro nao vai poder ir", "Luz nao vem"
_ADVERBS = word_set("still just also always never really already ainda tambem sempre nunca ja so nao not")
_JOINERS = word_set("and or e ou &")
# After two people joined: "both", "together", or what people do, in the plural (not "are": "faith and hope
# are siblings in every sermon", "rosa e branco sao as cores").
_PLURAL = word_set("""both together ambos ambas juntos juntas have need want can will could would should tem
    precisam querem podem vao ficaram""")
_PRONOUNS = word_set("she he ele ela")
_THANKS = word_set("""thanks thank thx ty cheers obg obrigado obrigada valeu vlw bjs beijos abs abracos
    brigada brigado brigadao brigadinha obgd obgda""")
_INTENSIFIERS = word_set("a lot so much very you muito muita mesmo again de novo")
# A record's fields and a chart's abbreviations, typed in lower case ("dob is…", "o cep e…", "pcte caiu").
_FIELDS = word_set("dob dn ssn cpf rg cep zip mrn nif nhs sus cns pt pte pct pcte pac")
# Words introducing the writer: "it's jules", "sou a lu" ("this is", "aqui e" read apart).
_INTRODUCING = word_set("it's its im i'm sou soy")
# Words a person's name follows when "she"/"ele" refers to it next: "where is caca? she…", "about zinhle,
# she…".
_BEFORE_REFERRED = word_set("""is was about with for to from saw see ask tell call where wheres where's o a
    cade com pra pro para and e da do""")
# Words before two people joined, besides a clause's opening: "can sione and lupe share…".
_ASKING = word_set("can could will would should does did do may pode podem")
_TITLES = word_set("dr dra mr mrs ms sr sra srta prof")
# Who a name "she"/"ele" refers to may be told with a possessive too ("where's mele? her mom called"), and
# after a connective ("fala com a luz q ela ta com os exames").
_REFERRING = _PRONOUNS | word_set("her his dela dele")
_CONNECTIVES = word_set("q que who because pq porque since")
# Words a person's name stands right after, with no verb needed ("pls remind koa about the fasting",
# "patient: oyelaran", "where's mele"); a colon may come between.
_PERSON_CUES = word_set("""ask asked tell told remind reminded text avisa avise pede pergunta patient paciente
    pte pcte pac pt crianca child kid baby bebe where's wheres cade""")
# A verb's forms and derived nouns, rare as some are: "ambulating", "readmitted", "encaminhamento".
_DERIVED = ("ing", "ed", "mento", "mentos", "cao", "coes", "ando", "endo", "indo", "ado", "ada", "ido", "ida")
_POSSESSIVES = word_set("minha meu minhas meus sua seu nossa nosso")
# The writer, beside someone joined to them: "kiri and i", "me and tavi", "eu e a jussara".
_SELF = word_set("i me eu")
# First names that are words, whatever their frequency, in a person's place (`_agent`, `_object`,
# `_addressed`): the gazetteer's, and word names it lacks (names-dataset has no "river", "amor", "neve").
_WORD_NAMES = word_set("river amor neve")
_MONTHS = word_set("may june april august")  # names and stop words: a name only where a thing cannot stand
# What a person does, after a word name opening its clause ("grace forgot", "a rosa esqueceu"); a thing or an
# idea rather "is" or "will" ("hope is all we have", "a luz apagou", "o sol nasceu", "a luz caiu").
_AGENT_VERBS_EN = word_set("""has had hasn't hadn't needs needed wants wanted forgot forgets left took takes
    says said told asked felt feels fell got gets brings brought calls called woke threw lost ate slept hurt
    picked dropped missed refused lives works knows thinks can't cant won't wont didn't doesn't does did""")
_AGENT_VERBS_PT = word_set("""esqueceu ligou pediu tomou precisa quer queria tem tinha teve vai vem veio disse
    falou mandou chegou acordou vomitou perdeu deixou levou trouxe pegou buscou sente sentiu mora
    trabalha sabe""")
# A copula is a person's when a person's state follows: "grace is bringing", "a lua esta com tosse", "o rei
# foi internado", "faith was sick"; a modal before a finite verb is a name ("will is bringing", "may was
# dizzy").
_COPULAS = word_set("is was isn't wasn't e eh esta ta tava estava foi ficou")
_PERSON_STATES = word_set("""com internado internada operado operada atendido atendida vacinado vacinada sick
    ill dizzy tired sore feverish nauseous unwell asleep awake febril febrile congested""")
_MODALS = word_set("will may can")
# An auxiliary opening a question before a name and a verb: "did will get his shots?", "has june eaten?".
_QUESTION_AUX = word_set("did does has is was can could will would should")
_PARTICIPLES = word_set("eaten taken gone been come seen done had")
# Words a person is the object of ("let hope know", "liga pra paz", "fala com a neve"); "up" and "com" only
# after the verb they belong to ("pick up sky", "fala com"). Not "for": "for echo", "for memory assessment".
_OBJECT_CUES = word_set("""tell ask call text remind let bring take avisa avise pergunta chama busca pede pra
    pro para""")
# A clause closing a message before a name after a comma: "see you then, hope" (not "ficou vermelha, rosa").
_CLOSINGS = word_set("then later soon tomorrow tonight ok okay bye please pls amanha logo depois tchau favor")
_KIN_OWNERS = word_set("my our his her meu minha nosso nossa o a")
# The objects of "pra" that are no one's name: "pra mim", "pra gente".
_OBJECT_PRONOUNS = word_set("mim ti voce voces nos eles elas gente")
_PHRASAL = {"up": word_set("pick picking"), "com": word_set("fala falar conversa conversar")}
# Whom a person works as: a name right after one is the worker's ("MA Luis", "a fisioterapeuta juliana", "o
# agente de saude Valdir", "rep Jasmine", "o tecnico de enfermagem Wellington"), and so is one before it in
# parentheses ("Rosa (aide)", "leon (brother)").
_ROLES = word_set("""nurse rn lpn cna ma aide tech technician receptionist reception desk therapist physio
    interpreter chaplain clerk scribe doula midwife sitter babysitter nanny coordinator enfermeira enfermeiro
    fisioterapeuta fisio fono fonoaudiologa nutricionista atendente secretaria recepcionista tecnica tecnico
    psicologa psicologo
    assistente capelao capela rep representative agent agente caseworker worker scheduler cuidador cuidadora
    motorista acs saude comunitaria comunitario enfermagem nursing interprete pharmacist farmaceutico
    farmaceutica auxiliar""")
# A question's opening before its auxiliary and subject: "what time does autumn go in?", "q horas a Clara
# entra?", "when is sunny due?".
_WH = word_set("when where what why how time horas long soon")
# Words after the writer's name besides the clause's end: "this is jiyoon from the front desk".
_AFTER_INTRODUCED = word_set("from here calling again do da de aqui falando")
# A name closing the message after a preposition to whom something goes or whose it is, maybe before a
# "please": "fwd to lien pls", "queria saber do jamil" (not "for echo", "com cardio", "from Milan").
_CLOSING_PREPOSITIONS = word_set("to do da pro pra")
_PLEASE = word_set("pls plz please pfv por favor thanks thx obg")
# A copula after who a person is: "a mae eh a socorro", "his nurse is hope".
_PREDICATE_COPULAS = word_set("is was e eh era foi")
# Who a person is besides a relation or a role, a few words before that copula or between the commas of an
# apposition: "the pick-up person today is Forrest", "quem vai buscar hoje e a dorinha", "Anderson, o
# motorista, vai…".
_WHO_IS = word_set("driver motorista responsavel acompanhante contact contato person quem who")
_APPOSED_WORDS = 4  # at most between an apposition's commas: "Valdir, o genro dela, …"
# What a question's subject does besides a base verb: "will grace need to fast?", "does summer need…".
_ASKED_NEEDS = word_set("need have stay")
_OWNERS_AFTER = word_set("dele dela deles delas")
_TRIGGERS = (_VERBS_EN | _VERBS_PT | _BASE_VERBS | _JOINERS | _PRONOUNS | _THANKS | _ROLES | _WH
             | _CLOSING_PREPOSITIONS | _PREDICATE_COPULAS)
_PAREN_WHO = re.compile(r"\s*\(\s*(?:the\s+|a\s+|o\s+|my\s+|his\s+|her\s+)?([a-z]+(?:-[a-z]+)*)\s*\)")
_TOKEN = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?|[,.;:!?]")
_END_PUNCTUATION = frozenset(",.;:!?")
# A word at most this frequent in the message's language is no word of it (once a million words)…
_RARE = 1e-6
# …nor is a listed name below this (twice a million: "kemal", "yuki")…
_RARE_NAME = 2e-6
# …nor a listed name mostly of the other language (`OTHER_LANGUAGE`), and not frequent in this one ("luz" in
# English, "hope" in Portuguese; "hope" in English is the word).
_FREQUENT = 5e-5
# A word a pronoun refers to next is a name when no more frequent than this in the message's language
# ("this is for wren, she's 4").
_REFERRED = 5e-6
# A two-letter word after a person cue is a nickname when no more frequent than this ("bo", "jo"; not "me").
_NICKNAME = 3e-5
# A Portuguese article before a listed name less frequent than this makes it a person's: "a nina ja tomou".
_ARTICLE_NAME = 2e-5


# A named tuple built as a tuple: its generated constructor costs a Python call per word of every message.
_new_token = tuple.__new__


class _Token(NamedTuple):
    word: str  # lower case
    start: int
    end: int


class SubjectNames(LocalRecognizer):
    """Names in a clause's person places (module docstring)."""

    def __init__(self, stop_words: Iterable[str], names: Gazetteer | None = None) -> None:
        self._names = names or gazetteer()
        self._lang = WordLanguage()
        self._stop = frozenset(stop_words) | _PRONOUNS | _ARTICLES | _BOTH | _JOINERS | _OPENERS | _FIELDS
        self._drugs = drug_words()
        self._word_names = frozenset(w for w in self._names.first | _WORD_NAMES
                                     if (w not in self._stop or w in _MONTHS) and w not in self._drugs)
        super().__init__(supported_entities=["NAME"], name="SubjectNames")

    def load(self) -> None:  # word lists load in __init__
        pass

    def analyze(self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None,
                ) -> list[RecognizerResult]:
        # An acronym or a word capitalized inside ("TSH", "InCor") is no name: a blank token stands for it.
        tokens = [_new_token(_Token, ("" if (w := m.group())[1:] != w[1:].lower() else w.lower(),
                                      m.start(), m.end())) for m in _TOKEN.finditer(text)]
        lang = self._lang.of([token.word for token in tokens])
        # whether a clause's person places may hold a name: a verb, a joiner, a pronoun or a thanks
        places = not _TRIGGERS.isdisjoint(token.word for token in tokens) or any(
            not token.word and text[token.start:token.end].lower() in _ROLES for token in tokens)  # "MA Luis"
        found: set[int] = set()
        hyphens = "-" in text
        owners: list[tuple[int, int]] = []  # a possessive's owner, its "'s" left out: "nadia's insulin"
        for i, token in enumerate(tokens):
            if token.word.endswith("'s") and self._owner(text, tokens, i, lang):
                owners.append((token.start, token.end - 2))
                continue
            if token.word in self._word_names and (
                    self._in_person_place(text, tokens, i, lang) or self._apposed(tokens, i)
                    or (hyphens and self._hyphened(text, tokens, i))
                    or (places and self._person_slot(text, tokens, i, lang, word_name=True))):
                found.add(i)
                continue
            if not self._may_name(token.word):
                continue
            if not self._may_be_any_name(token.word, lang):  # most words: no rule below can take them
                if places:
                    found.update(self._joined(tokens, i, lang))
                continue
            if (self._lone(text, tokens, i, lang) or self._cued(tokens, i, lang)
                    or self._signed(text, tokens, i) or self._apposed(tokens, i) or (places and (
                    self._subject(tokens, i, lang) or self._referred(tokens, i, lang)
                    or self._thanked(tokens, i, lang) or self._introduced(tokens, i, lang)
                    or self._person_slot(text, tokens, i, lang, word_name=False)))):
                found.add(i)
            if places:
                found.update(self._joined(tokens, i, lang))
            found.update(self._surnamed(text, tokens, i))
        found.update(self._listed_after_colon(text, tokens, lang))
        found.update(self._joined_to_found(tokens, found, lang))
        spans: list[list[int]] = []
        for i in sorted(found):  # names side by side are one: "gloria mbeki"
            if spans and (text[spans[-1][1]:tokens[i].start].isspace()
                          or text[spans[-1][1]:tokens[i].start] == "-"):  # "jean-baptiste"
                spans[-1][1] = tokens[i].end
            else:
                spans.append([tokens[i].start, tokens[i].end])
        return [RecognizerResult("NAME", start, end, 0.6) for start, end in (*spans, *owners)]

    def _owner(self, text: str, tokens: list[_Token], i: int, lang: str | None) -> bool:
        """A listed first name that is no stop word, or a word only a name is, owning something: "nadia's
        insulin pen", "bram's cast" (not after "the": "the boy's name"; not a month's, a place's)."""
        word = tokens[i].word[:-2]
        before = tokens[i - 1].word if i else ""
        # not a brand's ("Victoria's Secret"), a saint's or a doctor's ("st. jude's", "dr patel's")
        brand = i + 1 < len(tokens) and text[tokens[i + 1].start].isupper()
        if (before in ("the", ".") or before in _TITLES or brand or word in _MONTHS
                or word in self._names.places):
            return False
        return word in self._word_names or (self._may_name(word) and self._named(word, lang))

    def _person_slot(self, text: str, tokens: list[_Token], i: int, lang: str | None,
                     word_name: bool) -> bool:
        """Places only a person fills, for a listed first name even if a word (`word_name`): after a role
        ("MA Luis", "a fono simone"), before a role or a
        relation in parentheses ("Rosa (aide)"), inside them after a relation ("familia (Adriana)"), a
        question's subject ("what time does autumn go in?"), a copula's after who someone is ("a mae eh a
        socorro"), or closing the message after a preposition ("fwd to lien pls", "saber do jamil")."""
        word = tokens[i].word
        j = i - 1 - (i > 0 and tokens[i - 1].word in _ARTICLES and lang != "en")
        before = tokens[j].word if j >= 0 else ""
        if not (word_name or word in self._names.first  # after a copula, a word only a name is: "e o tonhao"
                or (before in _PREDICATE_COPULAS and self._named(word, lang))):
            return False
        if (before or (j >= 0 and text[tokens[j].start:tokens[j].end].lower())) in _ROLES:  # "RN", "MA"
            return True
        who = _PAREN_WHO.match(text, tokens[i].end)
        if who is not None and (who.group(1) in _ROLES or who.group(1) in KIN_SET):
            return True
        opening = text[:tokens[i].start].rstrip()
        if opening.endswith("(") and (before in KIN_SET or before in ("familia", "family")):
            return True
        if self._asked_about(tokens, i, j, lang):
            return True
        if before in _PREDICATE_COPULAS and (before in ("is", "was") or j < i - 1) and self._whose(tokens, j):
            return True
        rest = [t.word for t in tokens[i + 1:] if t.word not in _END_PUNCTUATION]
        after = text[tokens[i].end:]
        closes = all(w in _PLEASE for w in rest) and not after.lstrip().startswith(":") and not any(
            c.isdigit() for c in after)  # "do leito 5"
        return closes and before in _CLOSING_PREPOSITIONS and self._listed(word, lang, _ARTICLE_NAME)

    @staticmethod
    def _whose(tokens: list[_Token], j: int) -> bool:
        """A relation, a role or who someone is among the three words before token j, in its clause: "a mae
        eh", "a cuidadora dele eh", "the pick-up person today is", "quem vai buscar e"."""
        for k in range(j - 1, max(j - 4, -1), -1):
            word = tokens[k].word
            if word in _END_PUNCTUATION:
                return False
            if word in KIN_SET or word in _ROLES or word in _WHO_IS:
                return True
        return False

    @staticmethod
    def _apposed(tokens: list[_Token], i: int) -> bool:
        """A clause's first word set off by commas around a relation or a role, the apposition saying who it
        is: "Anderson, o motorista, vai…", "Winslow, the patient's nephew, is…"."""
        if i + 2 >= len(tokens) or tokens[i + 1].word != "," or not (
                i == 0 or tokens[i - 1].word in _END_PUNCTUATION):
            return False
        for k in range(i + 2, min(i + 3 + _APPOSED_WORDS, len(tokens))):
            word = tokens[k].word
            if word == ",":
                return any(t.word in KIN_SET or t.word in _ROLES or t.word in _WHO_IS
                           for t in tokens[i + 2:k])
            if word in _END_PUNCTUATION:
                return False
        return False

    def _hyphened(self, text: str, tokens: list[_Token], i: int) -> bool:
        """Two listed first names of four letters or more joined by a hyphen, either one: "jean-baptiste",
        "marie-josee" (not "follow-up", "pronto-socorro", a drug's shorthand "pip-tazo")."""
        start, end = tokens[i].start, tokens[i].end
        if end - start < 4:
            return False
        if text[end:end + 1] == "-" and i + 1 < len(tokens) and tokens[i + 1].start == end + 1:
            return tokens[i + 1].word in self._word_names and len(tokens[i + 1].word) >= 4
        if text[start - 1:start] == "-" and i > 0 and tokens[i - 1].end == start - 1:
            return tokens[i - 1].word in self._word_names and len(tokens[i - 1].word) >= 4
        return False

    @staticmethod
    def _asked_about(tokens: list[_Token], i: int, j: int, lang: str | None) -> bool:
        """The subject of a question after its opening and auxiliary (in Portuguese, its article), before
        what it asks: "what time does autumn go in?", "is sunny still on the desk?", "q horas a Clara
        entra?"."""
        if i + 1 >= len(tokens) or tokens[i + 1].word in _END_PUNCTUATION:
            return False
        if j >= 0 and tokens[j].word in _QUESTION_AUX:
            return (j == 0 or tokens[j - 1].word in _WH or tokens[j - 1].word in _END_PUNCTUATION) and (
                tokens[i + 1].word in _ADVERBS or tokens[i + 1].word in _BASE_VERBS
                or tokens[i + 1].word in _PARTICIPLES or tokens[i + 1].word.endswith("ing")
                or tokens[i + 1].word in _ASKED_NEEDS
                or tokens[j - 1].word in _WH)
        return lang != "en" and j < i and j >= 0 and tokens[j].word == "horas"

    def _listed_after_colon(self, text: str, tokens: list[_Token], lang: str | None) -> list[int]:
        """A list of three or more people after a colon, closing the message, most of its items opening with
        a listed first name: "kids for the shots today: milo, zara, ishaan, noor", "lista: ana julia,
        enzo"."""
        try:
            colon = max(k for k, t in enumerate(tokens) if t.word == ":")
        except ValueError:
            return []
        if any(c.isdigit() for c in text[tokens[colon].end:]):  # a form's fields: "cadastro: …, cep …"
            return []
        items: list[list[int]] = [[]]
        for k in range(colon + 1, len(tokens)):
            word = tokens[k].word
            if word == ",":
                items.append([])
            elif word in _END_PUNCTUATION or len(items[-1]) == 3:
                if word in _END_PUNCTUATION and k + 1 == len(tokens):
                    break
                return []
            else:
                items[-1].append(k)
        if len(items) < 3 or not all(items):
            return []
        heads = sum(tokens[item[0]].word in self._names.first and tokens[item[0]].word not in self._drugs
                    for item in items)
        if 2 * heads <= len(items):
            return []
        return [k for item in items for k in item if tokens[k].word in self._names.first
                or tokens[k].word in self._names.last or self._named(tokens[k].word, lang)]

    def _joined_to_found(self, tokens: list[_Token], found: set[int], lang: str | None) -> list[int]:
        """A listed first name, or a word only a name is, joined by "and"/"e" (an article or "do"/"da"
        between)
        to a name found: "Bob and Will", "a consulta da luzia e do sebastiao"."""
        joined = []
        for i in found:
            k = i + 2 + (i + 2 < len(tokens) and tokens[i + 2].word in _ARTICLES | _WHERE_FROM
                         and lang != "en")
            if k < len(tokens) and tokens[i + 1].word in _JOINERS and k not in found:
                word = tokens[k].word
                if (word in self._word_names or self._may_be_named(word, lang)) and word not in _MONTHS:
                    joined.append(k)
        return joined

    def _may_name(self, word: str) -> bool:
        """No stop word, drug or contraction, two letters at least."""
        return word not in self._stop and word not in self._drugs and len(word) >= 2 and "'" not in word

    def _may_be_any_name(self, word: str, lang: str | None) -> bool:
        """What every rule of the loop but `_joined` asks of a word, whatever it asks besides: a listed name,
        a two-letter nickname, or a word rarer in the message's language than `_REFERRED`, the loosest
        frequency any of them allows."""
        return (word in self._names.first or word in self._names.words or len(word) == 2
                or self._lang.frequency(word, lang)[0] < _REFERRED)

    def _named(self, word: str, lang: str | None) -> bool:
        """A name more than a word of the message's language (module docstring)."""
        if not self._may_name(word):
            return False
        here, other = self._lang.frequency(word, lang)
        if here < _RARE:  # both languages' when the message's is unknown
            return True
        listed = word in self._names.first or word in self._names.words
        return listed and (here < _RARE_NAME or (here < _FREQUENT and other >= OTHER_LANGUAGE * here))

    def _lone(self, text: str, tokens: list[_Token], i: int, lang: str | None) -> bool:
        """A word that can only be a name (module docstring), three letters at least, no part of a compound
        ("pip-tazo") nor a listed name's possessive without its apostrophe ("Anjalis mother": the possessive's
        recognizer reads it)."""
        word, start, end = tokens[i]
        if len(word) < 3 or text[start - 1:start] == "-" or text[end:end + 1] == "-":
            return False
        if word in self._names.first and word not in self._names.words:
            return self._lang.frequency(word, lang)[0] < _RARE
        inside = i > 0 and tokens[i - 1].word not in _END_PUNCTUATION
        return (inside and text[start].isupper() and max(self._lang.frequency(word, None)) < _RARE
                and not (word.endswith("s") and word[:-1] in self._names.first))

    def _surnamed(self, text: str, tokens: list[_Token], i: int) -> list[int]:
        """A listed first name, even a word's, no part of a compound ("pronto-socorro"), then a word of
        neither language and no verb's past: "for gloria mbeki", "yara potiguara precisa…"."""
        start, end = tokens[i].start, tokens[i].end
        if (i + 1 == len(tokens) or tokens[i].word not in self._names.first
                or tokens[i + 1].start != end + 1 or text[end] != " " or text[start - 1:start] == "-"):
            return []
        word = tokens[i + 1].word
        rare = (len(word) >= 3 and self._may_name(word) and max(self._lang.frequency(word, None)) < _RARE
                and not word.endswith(_PAST))  # a rare past: "a Dra. Lima remarcou", "o rio transbordou"
        return [i, i + 1] if rare else []

    def _may_be_named(self, word: str, lang: str | None) -> bool:
        """Beside a name: a listed first name even if a word, or a word rare in the message's language."""
        return self._may_name(word) and (word in self._names.first
                                         or self._lang.frequency(word, lang)[0] < _RARE)

    def _subject(self, tokens: list[_Token], i: int, lang: str | None) -> bool:
        """A clause's first word (an article, "both" allowed) before a verb: "luz is coming", "o dedeco caiu",
        "make sure tavita brings…"."""
        j, article = i - 1, False
        if j >= 0 and tokens[j].word in _ARTICLES and lang != "en":
            j, article = j - 1, True
        before = tokens[j].word if j >= 0 else None
        if not (self._opens(tokens, j) or before in _CAUSATIVES):
            return False
        k = i + 1
        if article and k + 1 < len(tokens) and tokens[k].word in _WHERE_FROM:  # "o chico do posto disse"
            k += 2
        while k < len(tokens) and tokens[k].word in _ADVERBS:
            k += 1
        if k == len(tokens) or not self._verb(tokens[k].word, lang, base=before in _CAUSATIVES):
            return False
        word = tokens[i].word
        if self._named(word, lang) or self._listed(word, lang, _FREQUENT):
            return True
        return article and self._listed(word, lang, _ARTICLE_NAME)

    def _listed(self, word: str, lang: str | None, below: float) -> bool:
        """A listed first name less frequent than `below` in the message's language."""
        return (word in self._names.first and self._may_name(word)
                and self._lang.frequency(word, lang)[0] < below)

    @staticmethod
    def _opens(tokens: list[_Token], j: int) -> bool:
        """Token j opens a clause, or there is none: a punctuation mark (not a title's dot: "dr. nguyen
        wants") or a conjunction."""
        if j < 0 or tokens[j].word in _OPENERS:
            return True
        return tokens[j].word in _END_PUNCTUATION and not (tokens[j].word == "." and j
                                                           and tokens[j - 1].word in _TITLES)

    @staticmethod
    def _verb(word: str, lang: str | None, base: bool) -> bool:
        if (word in _VERBS_EN and lang != "pt") or (word in _VERBS_PT and lang != "en"):
            return True
        if base and word in _BASE_VERBS:
            return True
        # a Portuguese past, an English one: "acordou", "vomitou", "refused"
        return len(word) >= 5 and ((lang != "en" and word.endswith(_PAST))
                                   or (lang != "pt" and word.endswith("ed")))

    def _in_person_place(self, text: str, tokens: list[_Token], i: int, lang: str | None) -> bool:
        """A word name's person places: agent, object, addressed."""
        return (self._agent(tokens, i, lang) or self._object(tokens, i, lang)
                or self._addressed(text, tokens, i))

    def _agent(self, tokens: list[_Token], i: int, lang: str | None) -> bool:
        """A first name, even a frequent word, opening its clause (after a Portuguese article, "and"/"e")
        before what a person does ("grace forgot", "a rosa esqueceu"), a person's state after a copula ("grace
        is bringing", "a lua esta com tosse"), or any finite verb after a modal name ("will is", "may was");
        or after a question's auxiliary before a verb ("did will get…?"). English nouns seldom open a clause
        bare; a month only before what a person does ("june had a fever", not "june is booked")."""
        word = tokens[i].word
        j = i - 1 - (i > 0 and tokens[i - 1].word in _ARTICLES and lang != "en")
        k = i + 1
        while k < len(tokens) and tokens[k].word in _ADVERBS:
            k += 1
        if k == len(tokens):
            return False
        verb = tokens[k].word
        if j >= 0 and tokens[j].word in _QUESTION_AUX and self._opens(tokens, j - 1) and j == i - 1:
            return verb in _BASE_VERBS or verb in _PARTICIPLES or (len(verb) >= 5 and verb.endswith("ing"))
        if not self._opens(tokens, j):
            return False
        if (verb in _AGENT_VERBS_EN and lang != "pt") or (verb in _AGENT_VERBS_PT and lang != "en"):
            return True
        if word in _MODALS and verb in _VERBS_EN and verb not in _MODALS:
            return True
        m = k + 1
        while m < len(tokens) and tokens[m].word in _ADVERBS:  # "hope is still feverish"
            m += 1
        state = tokens[m].word if m < len(tokens) else ""
        return (verb in _COPULAS and word not in _MONTHS
                and (state in _PERSON_STATES or (lang != "pt" and len(state) >= 5 and state.endswith("ing"))))

    def _object(self, tokens: list[_Token], i: int, lang: str | None) -> bool:
        """A first name, even a frequent word, after a verb a person is the object of, maybe after a
        Portuguese article: "let hope know", "pick up sky", "avisa a luz", "liga pra paz", "fala com a neve";
        or joined to the writer or a relative (`_joined_to_kin`). Not a month after a verb, a pronoun or a
        place ("pra mim", "pra india")."""
        j = i - 1 - (i > 0 and tokens[i - 1].word in _ARTICLES and lang != "en")
        word = tokens[i].word
        if j < 0 or word in _OBJECT_PRONOUNS or word in self._names.places:
            return False
        if self._joined_to_kin(tokens, i, j):
            return True
        if word in _MONTHS:
            return False
        cue = tokens[j].word
        if cue in _PHRASAL:
            return j > 0 and tokens[j - 1].word in _PHRASAL[cue]
        return cue in _OBJECT_CUES

    @staticmethod
    def _joined_to_kin(tokens: list[_Token], i: int, j: int) -> bool:
        """Joined by "and"/"e" to the writer or a relative, before or after: "me and june", "my wife and
        hope", "grace and my son", "hope and i"."""
        before = tokens[j - 1].word if j > 0 and tokens[j].word in _JOINERS else ""
        if before in _SELF or before in KIN_SET:
            return True
        after = [t.word for t in tokens[i + 1:i + 4]]
        return (len(after) >= 2 and after[0] in _JOINERS
                and (after[1] in _SELF or (after[1] in _KIN_OWNERS and after[2:] and after[2] in KIN_SET)))

    def _addressed(self, text: str, tokens: list[_Token], i: int) -> bool:
        """A first name, even a frequent word, closing the message after a thanks, a closing clause's comma
        or a dash: "bjs, luz", "thank you faith", "see you then, hope", "- jade"."""
        if any(c.isalnum() for c in text[tokens[i].end:]):  # "…falls risk, ward 7"
            return False
        j = i - 1 if i and tokens[i - 1].word != "," else i - 2
        while j > 0 and tokens[j].word in _INTENSIFIERS:
            j -= 1
        before = text[:tokens[i].start].rstrip()
        dash = before.endswith("-") and (len(before) == 1 or before[-2].isspace())  # not "pip-tazo"
        closing = i > 1 and tokens[i - 1].word == "," and tokens[i - 2].word in _CLOSINGS
        return closing or (j >= 0 and tokens[j].word in _THANKS) or dash

    def _signed(self, text: str, tokens: list[_Token], i: int) -> bool:
        """A listed first name, capitalized, alone after the last sentence: a signature ("…still locked
        out. Gabriel")."""
        return (i > 0 and tokens[i - 1].word in _END_PUNCTUATION and text[tokens[i].start].isupper()
                and tokens[i].word in self._names.first
                and not any(c.isalnum() for c in text[tokens[i].end:]))

    def _cued(self, tokens: list[_Token], i: int, lang: str | None) -> bool:
        """A word that is a name more than a word (`_named`) or a listed first name after a Portuguese
        article, right after a person cue ("remind koa", "patient: oyelaran") or joined to the writer ("kiri
        and i", "eu e a jussara"); or a listed first name after a Portuguese article anywhere ("ve como ta o
        joaquim pra mim"). Recall first: the cue is the place; an unlisted word may not end like a verb's
        form or a derived noun ("pt readmitted", "pede encaminhamento")."""
        word = tokens[i].word
        j = i - 1 - (i > 0 and tokens[i - 1].word in _ARTICLES and lang != "en")
        article = j < i - 1
        if article and self._listed(word, lang, _ARTICLE_NAME) and word not in self._names.places:
            return True  # not a country's name: "o Jordan transbordou"
        listed = word in self._names.first
        after = tuple(t.word for t in tokens[i + 1:i + 3])
        if ((j > 0 and tokens[j].word in _JOINERS and tokens[j - 1].word in _SELF)
                or (len(after) == 2 and after[0] in _JOINERS and after[1] in _SELF)):
            return listed or self._named(word, lang)  # "may and i will both be there"
        before = tokens[j - 1].word if j > 0 and tokens[j].word == ":" else tokens[j].word if j >= 0 else ""
        if before not in _PERSON_CUES:
            return False
        # a nickname of two letters too: "tell bo his ride is here"
        nickname = (len(word) == 2 and word not in _VERBS_EN | _VERBS_PT
                    and max(self._lang.frequency(word, None)) < _NICKNAME)
        return (nickname or (article and listed)
                or (self._named(word, lang) and (listed or not word.endswith(_DERIVED))))

    def _referred(self, tokens: list[_Token], i: int, lang: str | None) -> bool:
        """A name then "she"/"ele"/"her" opening the next clause, maybe after a connective: "where is caca?
        she has the card", "fala com a luz q ela ta com os exames". Any listed first name: the pronoun tells
        a person is meant."""
        k = i + 1
        if k < len(tokens) and (tokens[k].word in _END_PUNCTUATION or tokens[k].word in _CONNECTIVES):
            k += 1 + (k + 1 < len(tokens) and tokens[k + 1].word in _CONNECTIVES)
        word = tokens[i].word
        return (i + 1 < k < len(tokens) and tokens[k].word.split("'")[0] in _REFERRING
                and (i == 0 or tokens[i - 1].word in _BEFORE_REFERRED)
                and (self._named(word, lang) or self._listed(word, lang, 1.0)
                     or (self._lang.frequency(word, lang)[0] < _REFERRED  # not a place: "from Abuja, her…"
                         and (i == 0 or tokens[i - 1].word != "from"))))

    def _introduced(self, tokens: list[_Token], i: int, lang: str | None) -> bool:
        """A name after "this is", "it's", "sou o", ending its clause: "this is oyelaran, ok to come at
        9?"."""
        j = i - 1 - (i > 0 and tokens[i - 1].word in _ARTICLES)
        ends = i + 1 == len(tokens) or tokens[i + 1].word in _END_PUNCTUATION
        if j < 0:
            return False
        this_is = tokens[j].word in ("is", "e") and j > 0 and tokens[j - 1].word in ("this", "aqui")
        introduces = tokens[j].word in _INTRODUCING or this_is
        return ends and introduces and self._named(tokens[i].word, lang)

    def _thanked(self, tokens: list[_Token], i: int, lang: str | None) -> bool:
        """A name after a thanks, closing the message: "got it, thanks tuppence", "valeu, tuca"."""
        j = i - 1 if i and tokens[i - 1].word != "," else i - 2
        while j > 0 and tokens[j].word in _INTENSIFIERS:  # "thanks a lot marites", "thank you so much"
            j -= 1
        closes = i + 1 == len(tokens) or all(t.word in _END_PUNCTUATION for t in tokens[i + 1:])
        word = tokens[i].word
        return (closes and j >= 0 and tokens[j].word in _THANKS
                and (self._named(word, lang) or self._listed(word, lang, _FREQUENT)
                     or (len(word) == 2 and word not in self._stop)))

    def _joined(self, tokens: list[_Token], i: int, lang: str | None) -> list[int]:
        """Two people joined by "and"/"e"/"or": one a name (`_named`) and the other maybe one ("both yuki and
        sora"), or two listed first names before "both" or a plural verb ("hope and grace both need…")."""
        k = i + 2
        if k < len(tokens) and tokens[k].word in _ARTICLES and lang != "en":  # "grace e a joy"
            k += 1
        if k >= len(tokens) or tokens[i + 1].word not in _JOINERS or not tokens[k].word:
            return []
        first, second = tokens[i].word, tokens[k].word
        j = i - 1 - (i > 0 and tokens[i - 1].word in _ARTICLES)
        subject = self._opens(tokens, j) or tokens[j].word in _BOTH or tokens[j].word in _ASKING
        listed = any(w in self._names.first or w in self._names.words for w in (first, second))
        if subject and listed and ((self._named(first, lang) and self._may_be_named(second, lang))
                                   or (self._named(second, lang) and self._may_be_named(first, lang))):
            return [i, k]
        # Both after a Portuguese article, one a name: the other is a person too ("a lu e a tati").
        articled = k - i == 3 and i > 0 and tokens[i - 1].word in _ARTICLES
        if (articled and (self._named(first, lang) or self._named(second, lang))
                and self._may_name(first) and self._may_name(second) and second not in _POSSESSIVES):
            return [i, k]
        plural = k + 1 < len(tokens) and tokens[k + 1].word in _PLURAL
        both = all((w in self._names.first or w in self._names.words) and self._may_name(w)
                   for w in (first, second))
        return [i, k] if both and plural else []
