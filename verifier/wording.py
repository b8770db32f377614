"""Words as the model-text rules read them: tokens, which language a word belongs to (word
frequencies from `wordfreq`), an inflection-tolerant match (Snowball stems), and the few words
of each language a faithful rephrasing may add to what it rephrases (function and courtesy
words). A model may reorder and connect; every other word must come from its source."""

import functools
import re
from collections.abc import Iterable

import snowballstemmer
from wordfreq import zipf_frequency

from runtime.text.fold import fold

# Letters, with inner apostrophes ("can't", "d'água"); digits are read separately.
WORD = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)*")

LANGUAGE_NAMES = {"pt": "Portuguese", "en": "English"}
# Languages a wrong-language text from our models turns out in (SmolLM2 drifts into Spanish).
_RIVALS = {"pt": ("en", "es"), "en": ("pt", "es")}
# A word is of a language when it is at least this common in it (Zipf scale: 1 = once per
# hundred million words; wordfreq's lists stop near 1). Our answers use everyday words (>= 3).
_MIN_ZIPF = 1.5
# ... and not far more common in a rival language ("sorry" in Portuguese text, "desafío").
_RIVAL_MARGIN = 1.5

# Closed-class words and claim-free courtesies and discourse words, folded. Deliberately small:
# quantifiers that change a claim ("only", "all", "every", "more"), time words ("today",
# "tomorrow") and modal strength ("must") are absent; an apology cannot replace the answer,
# since every fact of the answer must still be there.
_ADDABLE = {
    "en": frozenset("""
a an the this that these those it its it's i i'm i'd i'll i've me my you you're you'll you'd your yours
we we're we'll we've our us he she they them their there there's here here's is are was were be been
being am do does did have has had will would can could should may might shall of to in on at by for
with from into about as and or but so if then than also just still which who whom whose what when where
how please thank thanks hello hi dear kindly let let's following below one ones sorry unfortunately
able like okay ok done of course right now currently next up something any tell share provide code
number id""".split()),
    "pt": frozenset("""
o a os as um uma uns umas de do da dos das em no na nos nas num numa ao aos a as por pelo pela pelos
pelas para pra com e ou mas que se como quando onde qual quais quem este esta estes estas esse essa
esses essas isso isto aquele aquela eu me mim meu minha meus minhas voce voces seu sua seus suas lhe te
ele ela eles elas nos nosso nossa nossos nossas e esta estao sao ser foi sera seria ha tem ter temos
tenho pode podem posso possa podemos consigo vai vao vou tambem ja ainda aqui entao segue seguem seguinte
seguintes abaixo favor obrigado obrigada ola oi prezado prezada caro cara desculpe infelizmente pronto
certo claro momento agora algo quiser informe informar fazer codigo numero""".split()),
}
# Words a rephrasing may use for one another (folded); each group says one thing in this domain.
_SYNONYMS = {
    "en": (("open", "available", "free"), ("found", "find"), ("need", "require"),
           ("upcoming", "coming", "next"), ("appointment", "booking"), ("advise", "advice"),
           ("cancelled", "canceled"), ("move", "reschedule"), ("specialty", "specialties"),
           ("asked", "requested")),
    "pt": (("liberado", "livre", "disponivel", "disponiveis", "aberto"), ("preciso", "necessito"),
           ("tem", "possui"), ("proximas", "futuras"), ("consulta", "agendamento", "atendimento"),
           ("remarcar", "mudar", "transferir"), ("encontrei", "achei"), ("pediu", "solicitou")),
}
# Negation words, folded: a rephrasing must keep their number ("n't" is read inside "can't").
NEGATIONS = {
    "en": frozenset("no not none nothing never nobody neither nor cannot without".split()),
    "pt": frozenset("nao nenhum nenhuma nenhuns nenhumas nada nunca nem sem ninguem jamais".split()),
}
# Modal verbs, folded: "I can book" offers, "I booked" states; a rephrasing keeps their number.
MODALS = {
    "en": frozenset("can cannot could may might able will would shall should must".split()),
    "pt": frozenset("posso pode podem podemos possa consigo consegue conseguimos vou vai vamos ira "
                    "irei deve devo devem poderia podera".split()),
}
_STEMMERS = {"pt": "portuguese", "en": "english"}


def tokens(text: str) -> list[str]:
    return WORD.findall(text)


def is_negation(word: str, lang: str) -> bool:
    folded = fold(word)
    return folded in NEGATIONS[lang] or (lang == "en" and folded.endswith("n't"))


def is_modal(word: str, lang: str) -> bool:
    folded = fold(word)
    if lang == "en" and folded.endswith("n't"):  # can't, won't, shouldn't
        folded = {"won't": "will", "can't": "can", "shan't": "shall"}.get(folded, folded[:-3])
    return folded in MODALS[lang]


def addable(word: str, lang: str) -> bool:
    """A word any rephrasing in `lang` may add: function, courtesy or negation words (the
    number of negations is checked on its own)."""
    folded = fold(word)
    return folded in _ADDABLE[lang] or is_negation(word, lang)


@functools.cache
def _stemmer(lang: str) -> snowballstemmer.stemmer:
    return snowballstemmer.stemmer(_STEMMERS[lang])


@functools.lru_cache(maxsize=8192)
def stem(word: str, lang: str) -> str:
    """The Snowball stem of the lowercased word, folded ("disponíveis" -> "disponiv")."""
    return fold(_stemmer(lang).stemWord(word.lower()))


class Vocabulary:
    """The words of a source text, matched the way inflection varies: the same stem, one word
    a shorter form of the other ("disponíveis"/"disponível" share "disponive"), or a synonym."""

    def __init__(self, words: Iterable[str], lang: str) -> None:
        self.lang = lang
        self._folded = {fold(w) for w in words}
        self._stems = {stem(w, lang) for w in self._folded}
        # Synonyms match as whole words: their stems would reach too far ("agendamento" would
        # stand for "agendado").
        self._synonyms = {s for group in _SYNONYMS[lang] if not self._folded.isdisjoint(group) for s in group}

    def __contains__(self, word: str) -> bool:
        folded = fold(word)
        if folded in self._folded or folded in self._synonyms or stem(folded, self.lang) in self._stems:
            return True
        return any(_same_root(folded, known) for known in self._folded)


def _same_root(a: str, b: str) -> bool:
    shorter = min(len(a), len(b))
    common = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        common += 1
    return common >= 6 and common >= 0.75 * shorter


@functools.lru_cache(maxsize=8192)
def foreign(word: str, lang: str) -> bool:
    """Not a word of `lang`: too rare in it (invented or garbled), or far more common in a
    language a model drifts into."""
    lowered = word.lower()
    own = zipf_frequency(lowered, lang)
    if own < _MIN_ZIPF:
        return True
    return any(zipf_frequency(lowered, rival) - own >= _RIVAL_MARGIN for rival in _RIVALS[lang])


def warm_up() -> None:
    """Loads the word lists and stemmers (about half a second) before the first answer."""
    for lang in _STEMMERS:
        foreign("consulta", lang)
        stem("consultas", lang)
