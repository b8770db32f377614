"""Names for the PHI detector, without an NER model: a person's name is told by the words around
it ("meu nome é", "I'm", "paciente", "Sra.", "for my mother", "Jessica here") and by its capitals;
a first and last name ("Ana Silva") counts without them; and the session's own patient name counts
wherever it appears. Public names are not PHI: doctors, clinics and clinic addresses, names of
places around the clinics, and the ids the system issues for appointments, doctors and slots.

Patterns read text with accents stripped (see `runtime.text.fold.strip_accents`).
"""

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from orchestrator.privacy.gazetteer import CuedNames, GazetteerNameRecognizer, KnownNames
from orchestrator.privacy.message_words import bare_words, lower, lower_words
from orchestrator.privacy.recognizers import ContextRecognizer
from orchestrator.understanding import lexicon
from runtime.text.calendar_words import EN_MONTHS, EN_WEEKDAYS, PT_MONTHS, PT_WEEKDAYS
from runtime.text.fold import strip_accents
from runtime.text.language import ENGLISH_WORDS, PORTUGUESE_WORDS

# Capitalized words that follow "I'm", "sou", "paciente" … without being names (lower case).
_NOT_NAMES = frozenset("""
    dr dra doutor doutora doctor doc prof professor professora sr sra srta mr mrs ms dona medico medica
    enfermeira nurse pt
    the a an o um uma eu i you voce we nos ele ela her his their our its not nao sorry desculpa here aqui
    back new novo nova
    looking trying calling writing going interested available also still just sure fine ok okay happy glad
    worried scared sick pregnant gravida allergic alergico alergica diabetic diabetico diabetica hipertenso
    hipertensa hypertensive cardiac cardiaco cardiaca cardiopata paciente patient cliente client customer
    brasileiro brasileira brazilian american americano americana english portuguese from de in at on with
    com em please por favor obrigado obrigada thanks very muito muita really so urgent urgente bem well good
    bom boa mal retired aposentado aposentada clinica clinic hospital instituto institute centro center
    cardiologista dermatologista ortopedista cardiologist dermatologist orthopedist cardiology dermatology
    orthopedics cardiologia dermatologia ortopedia hoje today amanha tomorrow ontem yesterday cpf rg email
    e-mail again anyway everyone all ready portal experience team care services support idoso idosa elderly
    particular private convenio sus vip subscriber policyholder holder member beneficiary insured segurado
    segurada beneficiario beneficiaria copay copays coinsurance deductible
    unimed bradesco amil sulamerica sul hapvida notredame intermedica porto seguro golden prevent saude
    aetna cigna medicare medicaid blue cross google whatsapp instagram
    walgreens cvs walmart costco drogasil raia pacheco panvel
    cabeca barriga garganta peito costas perna pernas braco joelho ombro dente dentes
    parque shopping estacao metro bairro vila jardim praia igreja escola universidade faculdade park station
    mall church school university street st avenue ave road rd lane
    dizzy tired cansado cansada nervous nervoso nervosa anxious ansioso ansiosa confused confuso confusa
    afraid sad triste covid chole appy reg beg
    creole crioulo
    dear prezado prezada caro cara estimado estimada colega colleague
""".split()) | {*EN_WEEKDAYS, *PT_WEEKDAYS, *EN_MONTHS, *PT_MONTHS} - {"marco"}  # Marco is a name
# Words names-dataset lists as first names that a chat means otherwise, which no dictionary holds in lower
# case: brands, "Christ", laughter, abbreviations ("dec", "cep", "tse", "sri"), the "law" of "sister in law".
_NOT_NAMES |= frozenset("""sony nike benz america christ hong kong haha hehe jaja kkk dec tue cep mst tse
    sri pst nda drs law""".split())
# Who a person is to the writer; never a name themselves ("minha mae pediu", "my son tenzin").
_KIN_WORDS = tuple("""mother mom mum father dad son daughter wife husband brother sister grandmother grandma
    grandfather grandpa friend neighbor neighbour child baby partner boyfriend girlfriend mae pai filho filha
    esposo esposa marido mulher irma irmao avo amigo amiga vizinho vizinha neto neta sogro sogra tia tio bebe
    namorado namorada companheiro companheira kid grandson granddaughter grandchild nephew niece cousin aunt
    uncle caregiver carer cuidador cuidadora vo vovo sobrinho sobrinha primo prima enteado enteada padrasto
    madrasta colega roommate interpreter interprete acompanhante dependente titular bisavo bisava bisa
    bisneto bisneta newborn boss chefe patrao patroa stepson stepdaughter stepmother stepfather stepmom
    stepdad stepbrother stepsister fiance fiancee godmother godfather goddaughter guardian manager housemate
    flatmate aide nanny babysitter bf gf bff hubby twin gemeo gemea ex boy girl
    genro cunhado cunhada noivo noiva madrinha padrinho afilhado afilhada responsavel
    mama mamae papai auntie aunty granny""".split())
# Kin words that are also names ("Nora"), read only after "my"/"minha": "a Taina e minha nora".
_KIN_NAMED = ("nora",)
# Words that end a name typed in lower case after "me chamo" / "my name is".
_NOT_NAMES_LOWER = _NOT_NAMES | frozenset("""
    and e ou or quero queria gostaria preciso need want would like to para pra tenho have has is am are sou
    estou im my meu minha seu sua your telefone phone sem mas but porque because que who which what os as esta
    this isso that for of do da dos das no na nos nas by sobrenome surname nascimento birth idade age can
    could posso pode marcar book agendar remarcar cancelar cancel lugar local endereco numero consultorio
    recepcao atendimento setor suporte mora moram moro she he him hers shes hes said says told asked
    cel fixo tel dele dela deles delas completo completa vai pro pros pras liga ligar ligue
""".split()) | frozenset(_KIN_WORDS)
# The language detector's common words are not names either; "marco" (março) is also Marco.
_COMMON = (PORTUGUESE_WORDS | ENGLISH_WORDS | lexicon.PLACE_WORDS) - {"marco"}
# Words that are never a name typed in lower case.
NAME_STOP_WORDS = _NOT_NAMES_LOWER | _COMMON


def _trie(words: Iterable[str]) -> str:
    """An alternation of `words` factored by prefix ("a(?:b|c)" for "ab", "ac"): the regex engine
    then rejects most words on their first letter instead of trying hundreds of alternatives."""
    branches: dict[str, set[str]] = {}
    for word in words:
        branches.setdefault(word[:1], set()).add(word[1:])
    alternatives = []
    for head, tails in sorted(branches.items()):
        if not head:
            continue
        rest = _trie(t for t in tails if t)
        optional = "?" if "" in tails else ""
        alternatives.append(re.escape(head) + (f"(?:{rest}){optional}" if rest else ""))
    return "|".join(alternatives)


def _stop(words: Iterable[str]) -> str:
    """A lookahead refusing any of `words` as the next word."""
    return rf"(?!(?i:(?:{_trie(words)})\b))"


# A capitalized name word: "Maria", "D'Avila", "Ana-Clara" (accents already stripped).
_WORD_CAP = r"[A-Z](?:'?[A-Za-z])?[a-z]+(?:-[A-Za-z][a-z]+)?"  # "Ana-Clara", "Ji-woo"
_WORD_ANY = r"[A-Za-z](?:'?[A-Za-z])?[A-Za-z]+(?:-[A-Za-z]+)?"
_PARTICLE = r"(?:de\s+la|van\s+de[nr]?|d[aeo]s?|di|du|van|von|del|bin|ibn)"


def _name(word: str, stop: str, least: int = 1) -> str:
    """`least` to four words, particles between them: "Maria da Silva Souza"."""
    return rf"{stop}{word}(?:\s+(?:[A-Z]\.\s+)?(?:{_PARTICLE}\s+)?{stop}{word}){{{least - 1},3}}\b(?!-\d)"


_STOP_CAP = _stop(_NOT_NAMES | _COMMON)
_NAME_CAP = _name(_WORD_CAP, _STOP_CAP)
_NAME_ANY = _name(_WORD_ANY, _stop(_NOT_NAMES_LOWER | _COMMON))
_SURNAME_ANY = rf"{_stop(_NOT_NAMES_LOWER | _COMMON)}{_WORD_ANY}\b"

# After these a name may be typed in lower case ("me chamo maria souza").
_STRONG = (r"my\s+name'?s|(?:last|first|family)\s+name|surname|sobrenome|name\s+is|full\s+name\s*:|"
           r"(?:her|his|my|your|their)\s+name\s+was|name\s*:|nome\s*:|nome\s+completo\s*(?::|e\b)?|"
           # The name a person goes by: "nome social: Valentina", "her nickname is bia".
           r"(?:nome\s+social|social\s+name|preferred\s+name|nickname|apelido)(?:\s+(?:is|e|eh|dela|dele|her|his))*|"
           r"nome\s+(?:completo\s+|dela\s+|dele\s+)?(?:e|eh)|me\s+chamo|chamo-me|call\s+me|"
           r"patient(?:'s)?\s+name\s*(?:is\b|:)?|nome\s+d[oa]\s+paciente\s*(?:e\b|:)?|se\s+chama|"
           r"is\s+called|(?:be|being)\s+called|named|chamad[oa]|goes\s+by|go\s+by|aqui\s+(?:e|eh)\s+(?:o|a)|"
           r"quem\s+(?:fala|(?:ta|esta)\s+falando)\s+(?:e|eh)(?:\s+(?:o|a))?|"
           # The answer to "what's your name?" and a booking "under" a name.
           r"(?:what'?s|what\s+is|qual\s+(?:e|eh)?\s*o)\s+(?:your|the|seu)\s+(?:full\s+)?(?:name|nome)[^?]{0,30}\?"
           r"(?:\s*user\s*:)?|(?:it'?s|it\s+is|booked|is)\s+under(?:\s+the\s+name(?:\s+of)?)?|em\s+nome\s+de")
_KIN = _trie(_KIN_WORDS)
# An in-law after a relation word: "sister in law", "mother-in-law".
_IN_LAW = r"(?:[\s-]in[\s-]law)?"
# Before these the name must be capitalized ("I'm looking" is not a name, "I'm Maria" is).
_WEAK = (rf"i\s+am|i'm|im|eu\s+sou|sou(?:\s+eu)?|this\s+is|aqui\s+(?:e|eh)|patient|paciente|(?-i:Pt)\.?|"
         rf"pcte\.?|pte\.?|pac\.|"
         # a message's sender or a letter's patient: "message from Abdulrahman Al-Farsi", "Referral: Rangi
         # Parata"
         rf"(?:referral|encaminhamento|transfer|transferencia|admission|admissao|consult|discharge|alta)"
         rf"(?:\s+(?:note|summary|letter|nota|resumo|carta))?\s*:|"
         rf"(?:message|msg|voicemail|note|recado|mensagem|ligacao)\s+(?:from|de|d[oa])|"
         # or an e-mail's subject: "RE: Aiyana Redcloud referral"
         rf"(?:re|fwd?|subject|assunto|ref)\s*:|"
         rf"mrs?\.?|ms\.?|miss|sra?\.?|srta\.?|dona|seu|nurse|enfermeir[oa]|"
         rf"(?:(?:for|para|pra)\s+)?(?:(?:a|o)\s+)?(?:(?:my|minha|meu)\s+|(?:a|o|the)\s+)(?:{_KIN})")
# A relation word alone, an in-law, a roommate, kin before a name in parentheses: "niece Kalea",
# "mother-in-law Chiyo", "colega de quarto tainara", "her niece (Kalea)".
# Or whose: "a madrinha dele, Conceição".
_KIN_PHRASE = rf"(?:{_KIN})(?:-in-law|\s+de\s+(?:quarto|apartamento|trabalho)|\s+del[ae]s?\s*,)?(?!\w)\s*\(?"
# Words after a name that make it a person's: "Thiago falando", "Hiroshi said", "Luana, dn 14/02/2001".
_SPEAKING = (r"speaking|calling|falando|said|says|told|asked|disse|falou|pediu|dob|dn|d\.n\.|born|nascid[oa]|"
             r"cpf|ssn|checking\s+in|\((?:paciente|patient|pt(?=\)))")
_SPEAKS = rf"[\s,]+(?i:here|aqui|{_SPEAKING})\b"
# A signature: "Thanks, Anna Schmidt" at the end of the message ("Thanks Again!" is not one).
_SIGN_OFF = (r"thanks|thank\s+you|thx|obrigad[oa]|atenciosamente|att\.?|regards|best|cheers|abracos?|abs|"
             r"signed|sincerely|cordialmente|bjs|beijos")


_PLACE_NOUNS = ("Hospital", "Clinica", "Instituto", "Centro", "Rua", "Avenida", "Av.", "Praca", "Parque",
                "Escola", "Universidade", "Faculdade", "Shopping", "Bairro", "Street", "Avenue", "Park")
_NOT_AFTER_PLACE_NOUN = "".join(rf"(?<!{re.escape(noun)}\s)" for noun in _PLACE_NOUNS)
# "in San Diego", "em Belo Horizonte": capitalized words after these name a place.
_NOT_AFTER_IN = "".join(rf"(?<!\b{word}\s)" for word in ("in", "In", "em", "Em", "near", "from", "perto de"))


def name_recognizer() -> ContextRecognizer:
    return ContextRecognizer("NAME", "NameContext", [
        (rf"(?i:\b(?:{_STRONG})(?!\w))\s*[:,]?\s*(?P<phi>{_NAME_ANY})", 0.8),
        # Or an initial, then a surname in any case: "this is b. ramaswamy", "sou a M. Conceicao".
        (rf"(?i:\b(?:{_WEAK})(?!\w)[\s,:]*(?:(?:o|a|the)\s+)?)(?P<phi>{_NAME_CAP}|[A-Za-z]\.\s*{_SURNAME_ANY})",
         0.6),
        # An honorific with its dot, then a surname in any case: "mr. abernathy".
        (rf"(?i:\b(?:mrs?|ms|sra?|srta)\.\s*)(?P<phi>{_SURNAME_ANY})", 0.6),
        # "Jessica here", "Thiago falando", "Hiroshi said", "Anan Srisuk, dob 5/30/1977".
        (rf"(?<![\w'.])(?P<phi>{_NAME_CAP}){_SPEAKS}", 0.6, _SPEAKS),
        (rf"(?i:\b(?:{_SIGN_OFF})(?!\w))\s*[,!.\n-]\s*(?P<phi>{_NAME_CAP})\s*[.!]?\s*$", 0.6),
        # A signature on its own line after a dash: "- Dagny".
        (rf"(?:^|\n)\s*[-\u2013\u2014]{{1,2}}\s*(?P<phi>{_NAME_CAP})\s*$", 0.6),
    ])


# A chart's age and sex after a name: "S: Ji-ho Park, 90F, new confusion", "rm 3 Ahanu Redcloud, 92M".
_AGE_AND_SEX = re.compile(r",\s*\d{1,3}\s?[MF]\b")


def charts_age_and_sex(text: str) -> bool:
    """The charted-name recognizer's gate, one scan for a comma, an age and M or F."""
    return _AGE_AND_SEX.search(text) is not None


def charted_name_recognizer() -> ContextRecognizer:
    """A first and last name, listed or not, before a chart's age and sex: "Taini Blackfeather, 94F"."""
    return ContextRecognizer("NAME", "ChartedName", [
        (rf"(?<![\w'.])(?P<phi>{_name(_WORD_CAP, _STOP_CAP, least=2)})(?=,\s*\d{{1,3}}\s?[MF]\b)", 0.6)])


def says_not(text: str) -> bool:
    """The corrected-name recognizer's gate, cheaper than any scan: "not ", "nao " somewhere in the text."""
    return "not " in text or "nao " in text


def corrected_name_recognizer() -> ContextRecognizer:
    """A name's spelling corrected: "spelled Oluwaseun not Oluwasen", "typo, its siobhan not shivon",
    "meu nome e Gleiciane e nao Gleiciene"."""
    return ContextRecognizer("NAME", "CorrectedName", [
        (rf"(?i:(?:\b(?:spelling|typo|erro|escrit[oa]|name|nome|corrigindo|correcting|correction|correcao)\b"
         rf"[^.?!]{{0,30}}?\b(?:it'?s|is|e|eh)"
         rf"|\bspel(?:led|t)|\bescrito)\s+{_WORD_ANY}(?:\s+(?:com|with)\s+[^.?!,]{{1,12}})?[\s,]+(?:e\s+)?"
         rf"(?:not|nao)\s+)(?P<phi>{_NAME_ANY})",
         0.6),
        # and the right spelling before "not": "it is Szczepanski not Szczepansky", "spelled Svetlana not …".
        (rf"(?i:(?:\b(?:spelling|typo|erro|wrong|errado|escrit[oa]|name|nome)\b[^.?!]{{0,30}}?\b(?:it'?s|is|e|eh)"
         rf"|\bspel(?:led|t)|\bescrito)\s+)"
         rf"(?P<phi>{_NAME_ANY})(?i:[\s,]+(?:e\s+)?(?:not|nao)\s+{_WORD_ANY})", 0.6)])


def name_pair_recognizer() -> KnownNames:
    """Without context, a first and last name: "what is Ana Silva taking?", "dados da Carla Ramos",
    when one of its words is a known name ("Distrito Federal", "Tomei Ozempic" are not); not a place
    named after someone ("Hospital Albert Einstein"). Doctors, clinics and their addresses are
    removed later as public names."""
    return KnownNames("NamePair", [
        (rf"(?<![\w'.]){_NOT_AFTER_PLACE_NOUN}{_NOT_AFTER_IN}(?P<phi>{_name(_WORD_CAP, _STOP_CAP, least=2)})",
         0.5)])


_KIN_NAME_STOP = _stop(_NOT_NAMES_LOWER | _COMMON)
_NAME_BY_KIN = _name(_WORD_ANY, _KIN_NAME_STOP)
# or a relative's: "siriporn is my mothers carer"
_MY_KIN = rf"(?:my|meu|minha|our|nosso|nossa)\s+(?:(?:{_KIN})'?s\s+)?(?:{_KIN})(?!\w)"
# or anyone's: "Mekonnen is her dad", "her carer rangi will sign"
_ANYONES_KIN = rf"(?:my|meu|minha|our|nosso|nossa|her|his|their)\s+(?:(?:{_KIN})'?s\s+)?(?:{_KIN})(?!\w)"
_IS_MY = re.compile(r"(?i)\b(?:is|e|eh)\s+(?:my|meu|minha|our|nosso|nossa|her|his|their)\s")


def tells_kinship(text: str) -> bool:
    """The kin-name recognizer's gate, a cheap scan: "is my", "e meu" somewhere in the text."""
    return _IS_MY.search(text) is not None


def kin_name_recognizer() -> ContextRecognizer:
    """A name the gazetteer may not know, typed in any case, told to be who the person is to the writer:
    "oluwadamilare e meu colega", "ji-woo is my daughter" (not after "my son": "my son has…" is a verb),
    when the name opens the message or a clause."""
    return ContextRecognizer("NAME", "KinName", [
        # Opening the message or a clause: "o Kaua ta com tosse, e meu sobrinho" names Kaua, not "tosse"; an
        # article may come first: "o Tupa e meu neto".
        (rf"(?:^|[,.;:!?]\s*)(?i:(?:o|a)\s+)?(?P<phi>{_NAME_BY_KIN})(?i:[\s,]+(?:is|e|eh)\s+{_ANYONES_KIN})",
         0.6),
    ])


KIN_SET = frozenset(_KIN_WORDS)
# Cues of a name that may be no listed one, read by `cued_name_recognizer`.
_CUED = re.compile(r"(?i)\b(?:name|nome|attn|attention|a/c|cuidados|subscriber|policyholder|insured|"
                   r"segurad[oa]|beneficiari[oa]|here|aqui|falando|speaking)\b|(?im:^\s*(?:from|de|sender|remetente)\s*:)")


@lru_cache(maxsize=4)  # the cued names' gate asks it too, of the same message
def names_kin(text: str) -> bool:
    """The bare-kin recognizer's gate, a word-set test cheaper than any scan: a relation word in the text
    ("mother-in-law" split at its hyphens, "mom," without its comma)."""
    return not KIN_SET.isdisjoint(word.rstrip(",;:.!?)") for word in lower(text).replace("-", " ").split())


def cues_name(text: str) -> bool:
    """The cued-name recognizers' gate: a relation word (a word-set test), a possessive, a cue word or a month
    that is a first name too."""
    return (names_kin(text) or "'s " in text or _CUED.search(text) is not None
            or not _MONTH_NAMES.isdisjoint(bare_words(text)))


# Who writes, opening the message: "hello, aigerim nurlanovna here", "moana kealoha here".
_OPENING_SELF = (rf"^(?i:(?:(?:oi|ola|hi|hello|hey)[\s,!]+)?)(?P<phi>{_NAME_ANY})"
                 r"[\s,]+(?i:here|aqui|falando|speaking)\b")
# After "my son", a verb after the name: "my partner sione will pick up" ("my son vomited" is no name).
_KIN_THEN_VERB = (rf"(?i:\b{_ANYONES_KIN}[\s,:]*)(?P<phi>{_NAME_BY_KIN})"
                  r"(?=\s+(?i:is|was|has|had|will|wont|can|cant|could|needs?|wants?|keeps?|lives|tem|teve|esta|ta|vai|foi|precisa|quer|pode|mora|"
                  r"nasceu)\b)")

# or ending a clause: "checking on my roommate hollis, he's dizzy" (not "my son, ok?": a common word).
_KIN_THEN_CLAUSE_END = rf"(?i:\b{_ANYONES_KIN}[\s,:]*)(?P<phi>{_NAME_BY_KIN})(?=\s*[,.!?;]|\s*$)"

# The same with a name that is also a word or a month, which the names above stop at: "my granddaughter
# june has an ear infection", "my aunt grace is 80" (CuedNames keeps it only when listed as a name).
_KIN_WORD_THEN_VERB = (rf"(?i:\b{_MY_KIN}[\s,:]*){_stop(_NOT_NAMES_LOWER - {*EN_MONTHS, *PT_MONTHS})}"
                       rf"(?P<phi>[A-Za-z]{{3,}})(?=\s+(?i:is|was|has|had|needs|wants|[a-z]{{3,}}ed|"
                       r"tem|teve|esta|vai|foi|precisa|quer)\b)")


# Who a relative is: "my mom is fumiko", "meu filho e o kauã".
_KIN_IS = rf"(?i:\b{_MY_KIN}\s+(?:is|e|eh)\s+(?:(?:o|a)\s+)?)(?P<phi>{_NAME_BY_KIN})"
# A relative's or a child's title without "my", then the name, ending a clause or before a verb: "mama wanjiru
# needs…", "a vo zefa precisa…", "little kofi fell off his bike", "ask for auntie folake".
_TITLES = ("mama mamae papa papai auntie aunty uncle tia tio vo vovo avo grandma granny bibi baba little lil "
           "pequeno pequena baby bebe boy girl menino menina garoto garota senhor senhora").split()
_TITLED_KIN = (rf"(?i:\b(?:{_trie(_TITLES)})(?:\s+|\s*,\s*))"
               rf"(?P<phi>{_KIN_NAME_STOP}{_WORD_ANY}(?:\s+{_KIN_NAME_STOP}{_WORD_ANY})?)"
               r"(?=\s*(?:[,.!?;]|$)|\s+(?i:is|was|has|had|will|wont|can|cant|could|needs?|wants?|keeps?|lives|"
               r"tem|teve|esta|ta|vai|foi|precisa|quer|pode|mora|nasceu|chega|fell|got|went|woke|broke|"
               r"[a-z]{2,}(?:ed|ou|eu|iu))\b)")
# A handoff's bed, then the patient in any case: "rm 12 - tupac - pain controlled", "leito 3: jurema".
_BEDS = ("bed", "leito", "room", "rm", "bay", "quarto", "box")
_BED_THEN_NAME = (rf"(?i:\b(?:{_trie(_BEDS)})\s*\d{{1,3}}[a-z]?"
                  # or its patient: "bed 4 pt mahpiya"
                  r"(?:\s*[:\-\u2013]\s*|\s+(?:pt|pte|pcte|patient|paciente)\.?\s+))"
                  rf"(?P<phi>{_NAME_ANY})")


# Months that are first names ("May" is a modal too), a person's where only a person stands: after who the
# person is to the writer, asked or told, introduced: "my sister june", "tell june her refill is ready",
# "this is june, calling about…" (not "june 12", "in june").
_MONTH_NAMES = frozenset({"april", "june", "august"})
_MONTH_PERSON = (rf"(?i:\b(?:{_MY_KIN}{_IN_LAW}[\s,]+|(?:tell|ask|remind|avisa|avise)\s+|"
                 rf"this\s+is\s+))(?P<phi>{'|'.join(sorted(_MONTH_NAMES))})\b(?!\s*(?:the\s+)?\d)")


def kin_closing_name_recognizer() -> CuedNames:
    """A listed name that is no common word closing a clause after a relation: "my roommate hollis, he's
    dizzy" (not "my son vomited.", "my husband too.")."""
    return CuedNames("KinClosingName", [(_KIN_THEN_CLAUSE_END, 0.6)], unlisted=False, words_too=False)


def cued_name_recognizer() -> CuedNames:
    """Names, listed or not (no common word), after a strong cue: a clause opening with "name"/"nome"
    ("dob 11th nov 1952, name deng majok"), a letter's "attn", an insurance's subscriber ("segurado
    eduardo"); a relative followed by a verb; the writer opening the message with "here"; an owner
    ("minji's fever")."""
    cue = (r"(?:^|[,;.]\s*)(?:(?:pt|patient|paciente|the)\s+)?(?:name|nome)(?:'s)?\s+|"
           r"\b(?:attn|attention|a/c|aos\s+cuidados\s+d[eoa]|subscriber|"
           r"policyholder|insured|segurad[oa]|beneficiari[oa])\b\.?\s*[:,]?\s*|"
           # a message's header: "From: tariq"
           r"(?m:^)\s*(?:from|de|sender|remetente)\s*:\s*")
    return CuedNames("CuedName", [(rf"(?i:{cue})(?P<phi>{_NAME_ANY})", 0.6), (_KIN_THEN_VERB, 0.6),
                                  (_KIN_WORD_THEN_VERB, 0.6), (_OPENING_SELF, 0.6), (_OWNER, 0.6),
                                  (_KIN_IS, 0.6), (_MONTH_PERSON, 0.6)])


# The message's first word, then what is said only of a person: an age in parentheses ("Hemi (age 6) has…"),
# being seen or admitted ("Jahzara was seen"), a verb and his or her ("tupac missed his 10am"), what the
# person has not had yet ("Hanh hasnt received…"), or whose relative ("Wanderleia mae do Kayky ligou").
_OPENING_PERSON = (rf"\A(?i:(?:(?:oi|ola|hi|hello|hey)[\s,!]+)?)(?P<phi>{_KIN_NAME_STOP}{_WORD_ANY})"
                   r"(?=\s*\((?i:age|aged|idade)\s*\d|\s*\(\d{1,2}\s*(?i:yo|y/o|years?|anos|a|m|f)?\)|(?i:\s+(?:was|foi)\s+(?:seen|admitted|discharged|"
                   r"transferred|born|atendid[oa]|internad[oa]|transferid[oa]|operad[oa])|\s+[a-z]{3,}ed\s+(?:his|her)"
                   r"|\s+(?:hasn'?t|has\s+not|hadn'?t|didn'?t|did\s+not)\s+(?:received|gotten|got|heard|had|been)"
                   rf"|[\s,]+(?:(?:a|o|the)\s+)?(?:{_KIN})\s+(?:d[oa]s?|de|of)\s)\b)")
# Asked to do something, a capitalized name nobody listed: "pede pro Ubiratã ligar de volta".
_ASKING_WORDS = frozenset("pede pedir peca avisa avise avisar diga ask tell remind".split())
_ASKED_TO = (rf"(?i:\b(?:{_trie(_ASKING_WORDS)})\s+"
             r"(?:(?:pr[oa]|para\s+[oa]|[oa])\s+)?)(?P<phi>[A-Z][a-z]+)(?=\s+(?:to\s+[a-z]+|[a-z]+(?:ar|er|ir))\b)")


def opening_name_recognizer() -> CuedNames:
    """A name nobody listed (no common word), opening the message before what is said only of a person."""
    return CuedNames("OpeningName", [(_OPENING_PERSON, 0.6)], whole=True)


# Asked about as booked or due: "is ikaika still scheduled for…", "a potira ainda ta agendada?".
_BOOKED_WORDS = frozenset("scheduled booked coming allowed ready supposed due able marcado marcada agendado "
                          "agendada".split())
_ASKED_ABOUT = (rf"(?i:\b(?:is|was|has|does|did|will|can|o|a)\s+)(?P<phi>{_KIN_NAME_STOP}{_WORD_ANY})"
                r"(?=(?i:\s+(?:still\s+|ainda\s+)?(?:(?:ta|esta)\s+)?(?:scheduled|booked|coming|allowed|ready|"
                r"supposed|due\s+for|able\s+to|marcad[oa]|agendad[oa]))\b)")


def asks_if_booked(text: str) -> bool:
    """The booked-name recognizer's gate, a word-set test: "scheduled", "booked", "agendada" in the text."""
    return not _BOOKED_WORDS.isdisjoint(lower_words(text))


def booked_name_recognizer() -> CuedNames:
    """A name nobody listed (no common word), asked about as booked or due (`_ASKED_ABOUT`)."""
    return CuedNames("BookedName", [(_ASKED_ABOUT, 0.6)], whole=True)


def asks_someone(text: str) -> bool:
    """The asked-name recognizer's gate, a word-set test: "pede", "ask", "tell" in the text."""
    return not _ASKING_WORDS.isdisjoint(lower_words(text))


def asked_name_recognizer() -> CuedNames:
    """A capitalized name nobody listed (no common word), asked to do something (`_ASKED_TO`)."""
    return CuedNames("AskedName", [(_ASKED_TO, 0.6)], whole=True)


_TITLE_OR_BED = frozenset((*_TITLES, *_BEDS))


def names_a_title_or_bed(text: str) -> bool:
    """The titled-name recognizer's gate, a word-set test: "mama", "little", "bed" in the text."""
    return not _TITLE_OR_BED.isdisjoint(word.rstrip(",") for word in lower_words(text))


def titled_name_recognizer() -> CuedNames:
    """Names, listed or not (no common word), after a relative's or a child's title ("mama wanjiru needs…")
    or a handoff's bed ("rm 12 - adaeze - pain controlled")."""
    return CuedNames("TitledName", [(_TITLED_KIN, 0.6), (_BED_THEN_NAME, 0.6)])


def ends_after_comma(text: str) -> bool:
    """The signed-name recognizer's gate, without a scan: a comma or a line break before the last words."""
    cut = max(text.rfind(","), text.rfind("\n"))
    return cut >= 0 and len(text) - cut <= 60 and len(text[cut + 1:].split()) <= 4


def signed_name_recognizer() -> CuedNames:
    """A listed name, not a common word, closing the message after a comma: "…e meu whats, greice"."""
    return CuedNames("SignedName", [(rf"[,\n]\s*(?P<phi>{_NAME_ANY})\s*[.!]?\s*$", 0.6)], unlisted=False,
                     words_too=False, whole=True)


def bare_kin_name_recognizer() -> ContextRecognizer:
    """A capitalized name right after a relation word without "my" or an article: "contact niece Kalea"."""
    # or whose relative or a comma between, the name capitalized: "mae do Kayky", "left vm for mom, Liesel"
    # ("filho da casa" is no one's).
    kin = rf"{_KIN_PHRASE}|(?:{_KIN})(?:\s+d[oa]s?\s+|\s*,\s*)"
    return ContextRecognizer("NAME", "BareKinName", [(rf"(?i:\b(?:{kin}))(?P<phi>{_NAME_CAP})", 0.6)])


# Or, the apostrophe written ("my sons appt" is no name), what is a patient's: "minji's fever".
_OWNED_KIN = rf"(?:{_KIN})(?!\w)|medical\s+record|chart\b"
_OWNED = (r"fever|temperature|temp|rash|cough|pain|appointment|appt|visit|results?|labs?|meds|medications?|"
          r"prescription|insurance|surgery|asthma|allergy|allergies|inhaler|vaccines?|shots|bloodwork|birthday|dob|"
          # or how to reach the person, or a twin: "it's Farah's phone", "kwame's twin"
          r"phone|cell|mobile|number|e-?mail|address|twin|cleaning|check-?up|exam|scan|referral|"
          # or what is booked in the person's name: "dmitri's booking", "in ife's name"
          r"bookings?|name|spot|slot|turn|paperwork|forms?")
_WHOSE = rf"(?:'?s\s+(?:{_OWNED_KIN})|'s\s+(?:{_OWNED})\b)"
_POSSESSIVE_KIN = re.compile(rf"(?i){_WHOSE}")
# A word after "the" owns nothing as a person does: "the boy's name", "the clinic's address".
_NOT_AFTER_THE = r"(?<!\bthe\s)(?<!\bThe\s)"
# With the apostrophe, a name nobody listed: "minji's fever" ("christmas baby" is no one's).
_OWNER = (rf"(?<![\w'\-]){_NOT_AFTER_THE}{_KIN_NAME_STOP}(?P<phi>[A-Za-z][a-z]{{2,}})"
          rf"(?i:(?='s\s+(?:{_OWNED_KIN}|(?:{_OWNED})\b)))")


def names_whose(text: str) -> bool:
    """The possessive-name recognizer's gate, a cheap scan: "'s father", "s medical record"."""
    return _POSSESSIVE_KIN.search(text) is not None


def possessive_name_recognizer() -> KnownNames:
    """A known name owning a relative or a record, the apostrophe often left out: "graces husband",
    "Leilani's father", "yetundes medical record" (names nobody listed: `cued_name_recognizer`)."""
    return KnownNames("PossessiveName", [
        (rf"(?<![\w'\-]){_NOT_AFTER_THE}{_KIN_NAME_STOP}(?P<phi>[A-Za-z][a-z]{{2,}})(?i:(?={_WHOSE}))", 0.6)])


# Words after which a lone first name is someone's, in any case: "this is beatriz", "sou o wesley".
_INTRODUCING = (rf"{_STRONG}|{_WEAK}|{_KIN_PHRASE}|it'?s(?:\s+me)?|calls\s+me|me\s+chamam(?:\s+de)?|pt\.?|"
                # back again: "it's me jae-won again", "sou eu de novo, ngozi"
                r"(?:sou|e|eh)\s+eu(?:\s+de\s+novo|\s+outra\s+vez)?|"
                # "oi, é a cleide", "bom dia, sou o wesley": a greeting, then who writes.
                r"(?:oi|ola|alo|hi|hello|bom\s+dia|boa\s+tarde|boa\s+noite)[\s,!]+(?:(?:e|eh|sou)\s+)?(?:a|o)|"
                # or no greeting: "sou a aiko, neta da dona sumiko".
                r"(?:eu\s+)?sou\s+(?:a|o)")
# Words after which it is someone's only if it is not also a common word or is capitalized:
# "fala com a Cleide", "ask for Consuelo", "oi Rosa" ("com rosa" is a colour). Not "the" ("the Austin
# clinic" is a place); not an article alone: "a Rosa vermelha" is a flower, "a Rosangela que…" a person
# (the gazetteer reads the words after the name for that).
_MENTIONING = (r"(?:for|para|pra|pro|pros|pras|com|with|ask\s+for|bring(?:ing)?|trazer|trago|trazendo|levar|"
               r"levo|levando|falar?|did|does|signed|sincerely|bjs|beijos|"
               r"cham[ae]m?|chamar|"
               r"oi|ola|hi|hello|hey|dear|"
               r"querid[oa]|tia|tio|and|e|avis[ae]r?|diga|dizer|pergunt[ae]r?|lig[ae]r?\s+(?:para|pra)|call|tell|ask|remind|let|"
               # told or thanked: "I told siobhan to call", "thanks linh!", "avisei a jurema"
               r"told|asked|reminded|texted|messaged|avisei|perguntei|thanks|thank\s+you|obrigad[oa]|valeu|cheers|"
               # asked about or singled out as the subject: "can Haruto come in?", "it was Bogdan who…"
               r"can|could|it\s+was|"
               # asked for by name or paged: "pergunta pela Janaina", "page Bogdan from transport"
               r"pel[oa]|page|paging)"
               # A relative's: "a mae do vinicius" (a bare "do leito" is read with care: the gazetteer's).
               rf"(?:\s+(?:a|o))?|(?:{_KIN})\s+d[oa]|do|da|"
               # Registering someone: "cadastrar Yerlan com telefone…", "please add Ayodele as a dependent".
               r"cadastr(?:ar|e|a)|inclu(?:ir|a|i)|register|add|"
               # Handing something on: "forward it to tomasz", "give this to ayo".
               r"(?:forward|send|sent|give|gave|pass|hand|show|text|e-?mail)(?:s|ed|ing)?\s+"
               r"(?:(?:it|this|that|them|these)\s+)?to|"
               # A handoff's bed: "bed 12 is zainab", "leito 12 jurema".
               r"(?:bed|leito|quarto|room|box)\s+\d+[a-z]?(?:\s+(?:is|e|eh|-))?")


# And, after a known name only, a pronoun going on about the person: "ananya, she is 7" (not "here":
# "my rash here").
_FOLLOWING = (rf"(?:{_SPEAKING}|(?:she|he|ela|ele)\s+(?:is|was|has|had|tem|esta|e|eh|ta|nasceu)|"
              # with a relative: "niamh and her brother both have lice"
              rf"(?:and|e)\s+(?:her|his|my|their|seu|sua|meu|minha)\s+(?:{_KIN})|"
              # a chart's age and sex or what the patient reports: "lindiwe, 45F", "thabo c/o headache"
              r"\d{1,3}(?:m|f|a)|\d{1,3}\s*(?:yo|y/o|anos|years?\s+old)|c/o|complains|reports|denies|refere|"
              r"relata|nega|queixa|"
              # where the person studies or lives: "a kaylane da escola", "jurandir do 302"
              r"d[oa]\s+(?:clinica|ubs|escola|creche|igreja|convenio|plano|apto|apartamento|\d{1,4}))\b")
# A capitalized known name with the person's e-mail or phone right after it: "Hamza at
# hamza.k@proton.me", "Anjali (510) 555-0134".
_CONTACT = r"[\s,]*(?:(?:at|em|no|on|:)\s*)?(?:[\w.+\-]+@|\+\d|\(\d{2,3}\)\s*\d)"
# Words after which a name is a person's even when it is also a common word: who the person is to
# the writer ("will is my caregiver", "a rosa minha vizinha") or, opening the message, the writer
# ("vitoria aqui", "gabriel falando").
_APPOSITION = (rf"[\s,]*(?:(?:she|he|ela|ele)'?s?\s+|(?:que|who)\s+)?(?:(?:is|e|eh|-)\s+)?"
               # a relative's too: "Siriporn is my mothers carer"
               rf"(?:my|minha|meu|our|nossa|nosso)\s+(?:(?:{_KIN})'?s\s+)?(?:{_KIN}|{'|'.join(_KIN_NAMED)})\b"
               # or someone else's, after a comma: "visitor today was bjorn, her son"
               rf"|\s*,\s*(?:her|his|their|seu|sua)\s+(?:{_KIN})\b"
               # or whose relative they are: "a ivone e cuidadora do meu pai", "is the caregiver of"
               rf"|[\s,]*(?:(?:is|e|eh)\s+)?(?:(?:a|o|the)\s+)?(?:{_KIN})\s+(?:d[oa]s?|de|of|to)\b"
               # or in parentheses: "o caua (meu filho)", "dependente Helena (filha)", "Mei-Ling (my mother
               # in law)", "family (Marek, son)"
               rf"|\s*\(\s*(?:(?:my|minha|meu|our|nossa|nosso)\s+)?(?:{_KIN}){_IN_LAW}\s*\)"
               rf"|\s*,\s*(?:(?:my|minha|meu|our|nossa|nosso|her|his|seu|sua)\s+)?(?:{_KIN}){_IN_LAW}\s*\)"
               # or paired with the writer, as only a person is: "hope and I will both come", "rosa e eu"
               r"|\s+(?:and\s+(?:I|me)|e\s+eu)\b"
               # or from where they work, as only staff are: "grace from billing", "sunita from the front
               # desk", "Chayton from the tribal health office"
               r"|\s+from\s+(?:the\s+)?(?:[a-z]+\s+){0,2}?(?:front\s+desk|desk|reception|billing|pharmacy|lab|office|"
               r"insurance|clinic|school|daycare|church|work|scheduling)\b"
               # or named as one: "pode colocar a socorro como minha acompanhante", "list hope as my contact"
               rf"|\s+(?:como|as)\s+(?:my|minha|meu|seu|sua|his|her)\s+(?:{_KIN}|contact|contato)\b"
               # or who to call: "lou is my emergency contact now", "a paz e meu contato de emergencia"
               r"|[\s,]*(?:is|e|eh)\s+(?:my|minha|meu)\s+(?:emergency\s+)?(?:contact|contato)\b"
               # or in a department: "carol in billing", "brooke at the front desk"
               r"|\s+(?:in|at)\s+(?:the\s+)?(?:front\s+desk|reception|billing|pharmacy|scheduling)\b"
               # "a neide do posto", "a Lua da recepção"
               r"|\s+d[oa]\s+(?:posto|farmacia|recepcao|laboratorio|portaria|triagem|enfermagem)\b"
               # or told to be a name: "Paz e o nome da minha mae", "hope is her first name"
               r"|[\s,]*(?:is|e|eh)\s+(?:o|the|her|his|my|your|meu|seu|nosso)\s+(?:first\s+|primeiro\s+)?"
               r"(?:name|nome)\b")
_SELF_OPENING = r"(?:(?:oi|ola|hi|hello|hey|bom\s+dia|boa\s+tarde|boa\s+noite)[\s,!]+)?$"
# The writer back again: "Hamza from yesterday, the results came back?", "cleide de novo".
_SELF_AFTER = (r"[\s,]+(?:here|aqui|falando|speaking|again|de\s+novo|"
               r"from\s+(?:yesterday|earlier|this\s+morning|last\s+week)|de\s+ontem|da\s+semana\s+passada)\b")
# (a dash between: "Kateryna - booked twice by mistake")
_OPENING_VERB = (r"\s+(?:-\s+)?(?:is|was|has|had|will|wont|won'?t|can'?t|cant|cannot|can|needs?|wants?|"
                 r"keeps?|"
                 r"booked|called|missed|hasn'?t|isn'?t|wasn'?t|didn'?t|doesn'?t|"
                 r"tem|teve|esta|ta|vai|foi|precisa|quer|pode|nao|from\s+(?:room|bed|quarto|leito))\b")
# Anywhere in the message, a pronoun telling who the person named is to the writer: "can mohammed
# pick up my meds? he's my brother", "o joaquim e a iara sao meus netos".
_KIN_TOLD = (rf"\b(?:(?:she|he|ela|ele)(?:'?s|\s+is|\s+e|\s+eh)|(?:they|eles|elas)?\s*(?:are|sao))\s+"
             rf"(?:my|minha|meu|our|meus|minhas|nossos|nossas)\s+(?:{_KIN})s?\b"
             # or that they are twins or siblings: "victoria and paz both need flu shots, they're twins"
             r"|\b(?:they'?re|they\s+are|sao)\s+(?:(?:my|our|meus|minhas|nossos|nossas)\s+)?(?:twins|gemeos|gemeas|"
             r"siblings|irmaos|irmas|brothers|sisters)\b")
# What only people do, in a message's first words: "tiago vai receber", "paz esta com febre".
_PERSON_VERB = (r"(?:\s+(?:me|te|nos|lhe))?\s+(?:vai|esta|ta|tem|teve|precisa|quer|pode|foi|nasceu|falou|"
                r"disse|ligou|pediu|chegou|chega|vem|"
                r"veio|volta|voltou|arrives|arrived|comes|came|caiu|mora|"
                r"trabalha|needs|wants|said|called|told|asked|fell|lives|works|was\s+born)\b")
# A clause's first word, an article allowed: "eu estou bem mas keila acordou", "nurse note: mei refused",
# "o kauan tomou"; a name not a common word there, before what a person does or where a patient lies,
# is someone's. A title's dot ends no clause ("dr. nguyen wants").
_TITLE_DOT = "".join(rf"(?<!\b{t})" for t in ("dr", "dra", "mr", "mrs", "ms", "sr", "sra", "prof")) + r"\."
_CLAUSE_OPENING = (rf"(?:^|(?:[,;:!?]|{_TITLE_DOT})\s*|\b(?:mas|but|and|e|so|entao|because|porque|pois|que|"
                   r"quando|when|while|enquanto|though|then|depois|se|if|until|ate|after|before|since)\s+)"
                   r"(?:(?:o|a)\s+)?$")
_CLAUSE_VERB = (r"(?:\s+(?:still|also|just|always|never|often|usually|sometimes|ainda|tambem|sempre|nunca|"
                r"ja))?"
                rf"(?:{_OPENING_VERB}|{_PERSON_VERB}|"
                # a past or present tense, or a Portuguese infinitive after "se": "acordou", "caiu",
                # "refused", "wakes", "se a potira piorar"
                r"\s+[a-z]{2,}(?:ou|eu|iu|ed|s|ar|er|ir)\b|"
                # or a bed's number: "yusuf in 5 refused dinner", "o jurandir do 302 caiu"
                r"\s+(?:in|no|na|do|da|em|from)\s+(?:(?:room|rm|bay|bed|quarto|leito|box|sala)\b|\d{1,3}[a-z]?\b"
                r"(?!\s*(?:weeks?|days?|months?|years?|hours?|mins?|minutes?|dias?|semanas?|mes(?:es)?|anos?|"
                r"horas?|h|am|pm|mg|ml)\b)))")
# Who is greeted, opening the message and then a comma or the end: "bom dia thiago, …", "hi grace!".
_GREETED = (r"(?:oi|ola|alo|hi|hello|hey|dear|querid[oa]|bom\s+dia|boa\s+tarde|boa\s+noite|"
            r"good\s+(?:morning|afternoon|evening)|"
            # thanked, left or apologized to: "obg cida!!", "tchau duda, te vejo", "thank u so much jess!!"
            r"(?:thanks?|thank\s+(?:you|u)|thx|ty|obg|obrigad[oa]|valeu|vlw|tchau|bye|sorry|desculpa)"
            r"(?:\s+(?:so\s+much|again|muito|mesmo))?)[\s,!]+$")
_GREETED_AFTER = r"\s*(?:[,!]|$)"
# Whose relative someone is: "sou a raimunda, mae do davi" (a name that is a rare word too).
_KIN_OF = rf"\b(?:{_KIN})\s+(?:d[oa]s?|de|of)\s+$"
# A doctor's title: "dr", "dra.", "doutora", "prof".
_DOCTOR_TITLE = r"(?:dra?|dr\u00aa|doctor|doc|doutora?|prof[ae]?|professora?|medic[oa])"
# Who the person is to the writer, just before: "my sister in law Patience", "meu irmao gemeo Jeremias",
# "minha vizinha dona zefa".
_KIN_BEFORE = (rf"\b{_MY_KIN}{_IN_LAW}(?:\s+(?:twin|older|younger|little|big|gemeo|gemea|cacula|"
               r"mais\s+(?:velh[oa]|nov[oa])))?[\s,]+(?:(?:dona|seu|tia|tio)\s+)?$")
# A doctor's title just before: "dr. nguyen wants…" (a doctor's name is public, in any case).
_TITLED = rf"\b{_DOCTOR_TITLE}\b\.?\s*$"
_WHOEVER = (_APPOSITION, _SELF_OPENING, _SELF_AFTER, _CONTACT, _KIN_TOLD, _OPENING_VERB, _PERSON_VERB,
            _CLAUSE_OPENING, _CLAUSE_VERB, _GREETED, _GREETED_AFTER, _KIN_OF, _TITLED, _KIN_BEFORE)


def gazetteer_name_recognizer() -> GazetteerNameRecognizer:
    return GazetteerNameRecognizer(NAME_STOP_WORDS, _INTRODUCING, _MENTIONING, _FOLLOWING,
                                   _WHOEVER)


def patient_name_spans(plain: str, names: Iterable[str]) -> list[tuple[int, int]]:
    """Where the session's patient is named: the full name in any case, or one of its words
    ("Maria", "Souza") written capitalized (lower-case "rosa" is a colour, not Rosa Lima)."""
    spans: list[tuple[int, int]] = []
    for name in (names,) if isinstance(names, str) else names:  # one name, not its letters
        words = strip_accents(name).split()
        if not words:
            continue
        full = r"(?<!\w)" + r"\s+".join(map(re.escape, words)) + r"(?!\w)"
        spans += [m.span() for m in re.finditer(full, plain, re.IGNORECASE)]
        for word in words:
            if len(word) >= 3 and not re.fullmatch(_PARTICLE, word, re.IGNORECASE):
                capitalized = re.escape(word[0].upper() + word[1:])
                spans += [m.span() for m in re.finditer(rf"(?<!\w){capitalized}(?!\w)", plain)]
    return spans


# "Dr. Fernando Almeida", "Dra. Beatriz", "doutor Ricardo": a doctor, public.
_TITLED_DOCTOR = rf"(?i:\b{_DOCTOR_TITLE}\b\.?)\s*{_NAME_CAP}"
# Ids the system issues for appointments, doctors and slots (CARD-A-APT-1A2B3C4D5E,
# CARD-A-DR01-20261123-0900): opaque and not a person's. Patient ids (CARD-A001) are not matched.
_SYSTEM_ID = r"(?i:(?<![\w\-])(?:CARD|DERM|ORTH)-[A-F]-[A-Z0-9]+(?:-[A-Z0-9]+)*(?![\w\-]))"
_STREET_TYPES = (("rua", "r."), ("avenida", "av.", "av"), ("alameda", "al."), ("travessa", "trav.", "tv."),
                 ("praca", "pca."), ("estrada", "estr."), ("rodovia", "rod."))
# Hospitals and institutes known by a person's name alone ("a second opinion at Johns Hopkins").
_INSTITUTIONS = ("Johns Hopkins", "Sloan Kettering", "Mass General", "Massachusetts General", "Cedars-Sinai",
                 "Virginia Mason", "Ben Taub", "Memorial Hermann", "Cruz Vermelha", "Red Cross",
                 "Mount Sinai", "Dana-Farber", "Mayo", "Kaiser Permanente", "Beth Israel", "St. Jude",
                 "MD Anderson", "Albert Einstein", "Sirio-Libanes", "Oswaldo Cruz", "Emilio Ribas",
                 "Dante Pazzanese", "Moinhos de Vento", "Adolfo Lutz", "Vital Brazil", "Miguel Couto",
                 "Souza Aguiar", "Pedro Ernesto", "Clementino Fraga", "Getulio Vargas", "Ana Nery")
# Brazil's states, some named like people ("Minas Gerais", "Espírito Santo").
_BRAZILIAN_STATES = ("Acre", "Alagoas", "Amapa", "Amazonas", "Bahia", "Ceara", "Espirito Santo", "Goias",
                     "Maranhao", "Mato Grosso", "Mato Grosso do Sul", "Minas Gerais", "Para", "Paraiba",
                     "Parana", "Pernambuco", "Piaui", "Rio de Janeiro", "Rio Grande do Norte",
                     "Rio Grande do Sul", "Rondonia",
                     "Roraima", "Santa Catarina", "Sao Paulo", "Sergipe", "Tocantins")
# Words before a place reached or served, then the word joining it: "flying to", "unidade de".
_REACHING = tuple("""fly flying flew drive driving heading travel traveling travelling trip going moving
    viajar viajando viagem vou vamos ir indo mudar mudando unidade filial cidade estado regiao branch
    city town state""".split())
_TO = ("to", "pra", "para", "a", "ao", "ate", "de", "do", "da", "of", "in", "em", "no", "na")
# A place named after a person or a saint: "Hospital Israelita Albert Einstein", "Instituto Dante
# Pazzanese", "Santa Casa de Misericórdia", "São José dos Campos", "Distrito Federal".
_NAMED_PLACE = (r"\b(?:Hospital|Hosp\.|Clinica|Policlinica|Instituto|Centro|Hemocentro|Fundacao|Beneficencia|"
                r"Rede|"
                r"UBS|UPA|Memorial|Laboratorio|Faculdade|Universidade|Escola|Sao|Santa|Santo|Saint|St\.|Mount|Distrito|Presidente|"
                r"Nossa\s+Senhora|Nuestra\s+Senora|Our\s+Lady|"
                r"Governador|Marechal|Rio|Magazine|Lojas?|Banco|Farmacia|Drogaria|Supermercado|Grupo)"
                r"(?:\s+(?:d[aeo]s?|la|del|[A-Z][\w'\-]*)){1,7}"
                # and in English before its noun: "Johns Hopkins Hospital", "Boston Children's Hospital",
                # "Martin Luther King Jr Blvd", "Ford Motor Company".
                r"|\b(?:[A-Z][\w'\-]*\s+){1,4}(?:Hospital|Clinic|Medical\s+Center|Health|Institute|University|"
                r"Cathedral|Temple|Mosque|Synagogue|Parish|Street|St|Avenue|Ave|Boulevard|Blvd|Road|Rd|Lane|Drive|Highway|(?:State|National|City)\s+Park|Beach|Plaza|"
                r"Square|Stadium|Airport|"
                r"Company|Co|Corp|Corporation|Inc|"
                r"Motors?|Bank|Pharmacy|Farma|Pharma|Ward|Wing|Unit|Memorial|Lodge|House|Church|Chapel|Lutheran|"
                # schools and shops: "Lincoln High", "Ashley Furniture"; a ward in lower case.
                r"Baptist|Methodist|Catholic|High|Elementary|Academy|College|School|Furniture|Diagnostics|Labs?|"
                r"Foods?|Market|Store|Mall|ward|wing|unit|hospital|clinic)\b"
                # Places reached or served: "flying to La Paz", "vou viajar pra Vitória", "a unidade de
                # Vitória da Conquista".
                rf"|(?i:\b(?:{_trie(_REACHING)})\s+(?:{_trie(_TO)})\s+)"
                r"[A-Z][\w'\-]*(?:\s+(?:d[aeo]s?\s+|la\s+|del\s+)?[A-Z][\w'\-]*){0,3}"
                # An institution with its branch or unit: "Johns Hopkins Bayview", "Ben Taub ER".
                rf"|\b(?:{_trie(_INSTITUTIONS)})(?:\s+[A-Z][\w'\-]*)?\b|\b(?:{_trie(_BRAZILIAN_STATES)})\b")
_GENERIC_CLINIC_WORDS = frozenset({"clinica", "instituto", "centro", "hospital", "clinic", "center"})


def _words(text: str) -> str:
    """A literal phrase matched with any spacing and case."""
    return r"\s+".join(map(re.escape, strip_accents(text).split()))


def _doctor_pattern(name: str) -> str | None:
    """A doctor's full name without a title ("Fernando Almeida"): titled mentions are public anyway."""
    words = strip_accents(name).split()
    while words and re.fullmatch(r"(?i)dra?\.?|dr\u00aa|doutora?|doctor", words[0]):
        words = words[1:]
    return r"\b" + r"\s+".join(map(re.escape, words)) + r"\b" if len(words) >= 2 else None


def _clinic_patterns(name: str) -> list[str]:
    """"Clínica Coração Paulista", and "Coração Paulista" alone."""
    words = strip_accents(name).split()
    patterns = [r"\b" + _words(name) + r"\b"]
    if len(words) >= 2 and words[0].lower() in _GENERIC_CLINIC_WORDS:
        patterns.append(r"\b" + _words(" ".join(words[1:])) + r"\b")
    return patterns


def _street_type(word: str) -> str:
    """"Av." -> any of "Avenida ", "Av. ", "Av " (an abbreviation's dot may touch the name)."""
    for spellings in _STREET_TYPES:
        if word.lower().rstrip(".") in {s.rstrip(".") for s in spellings}:
            alternatives = (re.escape(s) + (r"\s*" if s.endswith(".") else r"\s+") for s in spellings)
            return "(?:" + "|".join(alternatives) + ")"
    return re.escape(word) + r"\s+"


@dataclass(frozen=True)
class _Address:
    """"Av. Paulista, 1200 - Bela Vista, São Paulo - SP" in parts (accents stripped)."""
    kind: str  # "Av."
    street: str  # "Paulista"
    number: str  # "1200", or "" when the address has none
    places: tuple[str, ...]  # ("Bela Vista", "Sao Paulo", "SP")

    @classmethod
    def parse(cls, address: str) -> "_Address | None":
        street, _, rest = strip_accents(address).partition(" - ")
        parsed = re.fullmatch(r"(\S+)\s+(.+?)[\s,]*(\d+)?", street.strip())
        if parsed is None:
            return None
        kind, name, number = parsed.groups()
        places = tuple(p.strip() for p in re.split(r",|\s-\s", rest) if p.strip())
        return cls(kind, name, number or "", places)

    def pattern(self) -> str:
        """The address as written or as "Avenida Paulista 1200", with or without the places after it."""
        pattern = r"\b" + _street_type(self.kind) + _words(self.street)
        if self.number:
            pattern += rf"(?:[\s,]*(?:n[o\u00ba\u00b0]\.?\s*)?{self.number}\b)?"
        places = ""
        for place in reversed(self.places):  # any first few: "- Bela Vista", "- Bela Vista, São Paulo"
            places = r"(?:[\s,/\-]+" + _words(place) + places + r")?"
        return pattern + places

    def place_names(self) -> list[str]:
        """"Paulista", "Bela Vista": names of places, whoever lives there."""
        return [r"\b" + _words(name) + r"\b" for name in (self.street, *self.places)]


class PublicNames:
    """Spans that are public and so never PHI: doctors, clinic names and addresses, system ids;
    and names of places around the clinics, which are not people's names ("Bela Vista")."""

    def __init__(self, doctors: Iterable[str], clinic_names: Iterable[str],
                 clinic_addresses: Iterable[str]) -> None:
        addresses = [(text, _Address.parse(text)) for text in clinic_addresses]
        # Doctor and clinic names and addresses in any case; a titled doctor's name is capitalized.
        literal = [p for p in map(_doctor_pattern, doctors) if p]
        literal += [p for name in clinic_names for p in _clinic_patterns(name)]
        literal += [a.pattern() if a else r"\b" + _words(text) + r"\b" for text, a in addresses]
        self._patterns = (re.compile(_TITLED_DOCTOR), re.compile(_SYSTEM_ID),
                          *(re.compile(p, re.IGNORECASE) for p in literal))
        self._places = (re.compile(_NAMED_PLACE),
                        *(re.compile(p, re.IGNORECASE) for _, a in addresses if a for p in a.place_names()))

    def spans(self, plain: str) -> list[tuple[int, int]]:
        return [m.span() for pattern in self._patterns for m in pattern.finditer(plain)]

    def place_spans(self, plain: str) -> list[tuple[int, int]]:
        return [m.span() for pattern in self._places for m in pattern.finditer(plain)]
