"""Names told by their syllables, which no country list of names-dataset reaches: Chinese given names
of one or two pinyin syllables ("Li Na", "Xu Bo", "Zhao Lei": the gazetteer keeps no name under three
letters) after a common Chinese surname, and Korean given names of two syllables joined by a hyphen
("bo-ra", "Soo-ah", "Tae-hoon"). Text is read with accents stripped, like every recognizer."""

import re

from presidio_analyzer import LocalRecognizer, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from orchestrator.privacy.message_words import lower_words

# The most common Chinese surnames in pinyin: the Ministry of Public Security's 2020 ranking of household
# registrations (https://en.wikipedia.org/wiki/List_of_common_Chinese_surnames), its top hundred.
CHINESE_SURNAMES = frozenset("""wang li zhang liu chen yang huang zhao wu zhou xu sun ma zhu hu guo he lin gao
    luo zheng liang xie song tang han feng deng cao peng zeng xiao tian dong pan yuan cai jiang yu du ye
    cheng wei
    su lu ding ren yao shen zhong cui tan fan liao shi jin jia xia fu fang zou xiong bai meng qin qiu hou yin
    xue yan duan lei long tao mao hao gu gong shao wan qian lai kong wen chang kang niu hong mo qi ge dai xing
    ou yi tu""".split())
# Surnames that are also everyday English or Portuguese words ("He said", "Long story", "Ma, …"): read only
# when a capital inside a sentence says a name is meant.
_WORD_SURNAMES = frozenset("he ma yu long fan lu su ding jin bai mao tan fang wan ge mo qi hong kong song "
                           "shi wen tang han chang lin dong yang hu sun li ye du pan tu yi ou".split())
# A pinyin syllable: initial, then final (Hanyu Pinyin's table; "v" for ü).
_SYLLABLE = (r"(?:zh|ch|sh|[bpmfdtnlgkhjqxrzcsyw])?"
             r"(?:iang|iong|uang|ueng|ang|eng|ing|ong|ian|iao|uai|uan|ai|ei|ao|ou|an|en|in|un|ia|ie|iu|ua|uo|ui|ue|"
             r"er|a|o|e|i|u|v)")
_GIVEN = re.compile(rf"{_SYLLABLE}(?:-?{_SYLLABLE})?", re.IGNORECASE)
# English and Portuguese words of pinyin shape that follow a surname-like word in lower case as words do:
# "eu li a bula" (I read the leaflet), "zhou he".
_NOT_GIVEN = frozenset("""a an and are as at be but by can do e en for go he her his i in is it me men my na
    no nao o of on or ran she so the then to was we wen when who with ya ye yes you ao as da de do em la le
    mas me nos o ou que se sem sua ta tem um uma hai hao ha pa pe ne la lo fan man pan ban tan hen ten den
    pen zen an bin din gin kin pin sin tin win yin bun fun gun nun pun run sun dun""".split())
# Pairs may overlap ("can Li Na"): the given name is read ahead.
_PAIR = re.compile(r"(?<![\w'.-])([A-Za-z]{2,5})(?=\s+([A-Za-z]{2,6}(?:-[A-Za-z]{1,4})?)(?![\w'-]))")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;\n]\s*)$")
# A Korean given name's syllable (Revised Romanization, and the "oo"/"ee" spellings families use):
# initial, vowel, final.
_HANGUL_SYLLABLE = re.compile(
    r"(?:kk|tt|pp|ss|jj|ch|[gndrlmbsjkthpyw])?(?:yae|yeo|wae|ae|ya|eo|ye|wa|oe|yo|wo|we|wi|yu|eu|ui|oo|ee|"
    r"a|e|i|o|u)(?:ng|[kntlmp])?")


def names_a_chinese_surname(text: str) -> bool:
    """The recognizer's gate, a word-set test: a common Chinese surname among the text's words."""
    return not CHINESE_SURNAMES.isdisjoint(lower_words(text))


def korean_given_name(word: str) -> bool:
    """Two Korean syllables joined by a hyphen: "bo-ra", "soo-ah", "tae-hoon" (lower case)."""
    head, dash, tail = word.partition("-")
    return (bool(dash) and _HANGUL_SYLLABLE.fullmatch(head) is not None
            and _HANGUL_SYLLABLE.fullmatch(tail) is not None)


class ChineseNames(LocalRecognizer):
    """A common Chinese surname, then a given name of one or two pinyin syllables: both capitalized ("can
    Li Na come", "a Li Na pode"), a surname that is an English or Portuguese word only inside a sentence;
    or, typed in lower case, a surname not frequent in English or Portuguese and a given name no common word
    ("xu bo needs a refill")."""

    def __init__(self, stop: frozenset[str], frequent: frozenset[str]) -> None:
        self._stop, self._frequent = stop, frequent
        super().__init__(supported_entities=["NAME"], name="ChineseNames")

    def load(self) -> None:  # nothing to load
        pass

    def analyze(self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None,
                ) -> list[RecognizerResult]:
        results = []
        for m in _PAIR.finditer(text):
            surname, given = m.group(1), m.group(2)
            low_surname, low_given = surname.lower(), given.lower()
            if low_surname not in CHINESE_SURNAMES or _GIVEN.fullmatch(low_given) is None:
                continue
            if surname[0].isupper() and given[0].isupper():
                named = (low_surname not in _WORD_SURNAMES
                         or _SENTENCE_START.search(text, max(0, m.start() - 3), m.start()) is None)
            else:
                named = (surname.islower() and given.islower() and low_surname not in _WORD_SURNAMES
                         and low_surname not in self._frequent and low_given not in self._stop
                         and low_given not in _NOT_GIVEN)
            if named:
                results.append(RecognizerResult("NAME", m.start(), m.end(2), 0.6))
        return results
