"""Messages with no request in them, told by their shape rather than listed: nothing but emoji or
punctuation ("👍", "🙏🙏"), nothing but greetings, thanks and acknowledgements ("ok", "ta bom", "beleza
entao", "thank youuu"), or words addressed to the assistant itself ("you're great", "esse bot é ruim",
"quem te criou?"), or any message that asks nothing and names no health or booking matter but carries a
social word, an emoji or an exclamation ("fico muito grata", "nossa que demora pra responder", "peace out ✌️"),
or a question about how the other is ("how's your day been?", "tudo na paz por aí?"). Social words are
recognised drawn out, doubled, in the diminutive or misspelled ("okok", "tchauzinho", "good morrning"). The
caller asks this only when no task was read. Patterns match folded, typo-corrected text."""

import difflib
import re

from orchestrator.understanding import errands
from runtime.text.common_words import is_common

# Words that acknowledge, asking for nothing.
_ACKNOWLEDGING_ONLY = frozenset((
    "ok", "okay", "okk", "oki", "okey", "kk", "certo", "certinho", "beleza", "perfeito", "perfect", "otimo",
    "great", "fine", "alright", "sure", "tranquilo", "suave", "top", "massa", "legal", "joia", "cool", "nice",
    "hm", "hmm", "ah", "ahh", "oh", "uh", "aham", "uhum", "opa", "eae", "ae", "eita", "nossa", "wow", "sup",
    "lol", "rs", "haha",
))
# Words that fill around an acknowledgement ("ok then", "muito obrigada pela ajuda, querida").
_FILLING = frozenset((
    "ta", "bom", "boa", "entao", "good", "right", "then", "so", "and", "e", "o", "you", "u", "muito", "much",
    "very", "a", "lot", "demais", "mesmo", "viu", "pela", "pelo", "for", "the", "ajuda", "help", "again",
    "de", "novo", "talk", "later", "soon", "tomorrow", "amanha", "now", "ai", "please", "por", "favor",
    "minha", "querida", "querido", "filha", "friend", "mate", "dear", "all",
))
_ACKNOWLEDGING = _ACKNOWLEDGING_ONLY | _FILLING
# The words of social acts themselves: greeting, thanking, parting, acknowledging, laughing, sighing, praising
# or complaining, which carry no request of their own.
_SOCIAL = _ACKNOWLEDGING_ONLY | frozenset((
    "hi", "hello", "hey", "bye", "goodbye", "night", "morning", "evening", "afternoon", "thanks", "thank",
    "grateful", "appreciate", "appreciated", "gotcha", "noted", "sounds", "peace", "cheers", "oi", "ola",
    "tchau", "obrigado", "obrigada", "brigado", "brigada", "grato", "grata", "agradeco", "agradecido",
    "agradecida", "valeu", "entendi", "entendido", "saquei", "combinado", "fechou", "demora", "smh", "ugh",
    "argh", "affs", "aff", "afe", "mds", "nossa", "uau", "lmao", "lmfao", "rofl", "omg", "kkk", "haha",
    "hehe", "rsrs", "amei", "adorei", "love", "awesome", "amazing", "slow", "lento", "lenta", "chato",
    "chata", "useless", "inutil", "burro", "burra", "dumb", "stupid",
))
# Words of a question about how the other is: "how's it going", "e vc, tá bem?", "what's good".
_SOCIABLE = _SOCIAL | _FILLING | frozenset((
    "how", "how's", "hows", "what's", "whats", "up", "going", "it", "is", "your", "ur", "day", "been",
    "doing", "today", "life", "things", "everything", "there", "tudo", "paz", "bem", "ta", "esta", "td",
    "como", "vai", "voce", "tu", "com", "na", "contigo", "por", "ai", "bot", "robo", "robozinho",
))
# Asking for something: a question, or a verb of wanting, needing or asking ("quero", "can you", "tell me").
_REQUEST = re.compile(
    r"\?|(?<!\w)(?:what|which|where|where'd|when|who|whom|why|qual|quais|onde|quando|quem|quanto\w*|o\s+que"
    r"|por\s*que)(?!\w)|(?:^|[,;:]|\s)\s*(?:is|are|do|does|can|could|should|will)\s+(?:that|this|it|i|there"
    r"|you)(?!\w)"
    r"|^\W*(?:what|which|where|when|who|why|how|can|could|would|should|is|are|do|does|will|qual|quais"
    r"|quando|onde|quem|quanto|quanta|quantos|quantas|por\s*que|porque|como|tem|ha|existe|pode|poderia)(?!\w)"
    r"|(?<!\w)(?:want|need|would\s+like|i'?d\s+like|quero|queria|preciso|precisava|gostaria|tell\s+me"
    r"|show\s+me|give\s+me|send\s+me|help\s+me|me\s+(?:ajuda|ajude|mostra|mostre|manda|mande|passa|fala|diz"
    r"|diga|explica|conta)|please\s+\w+|por\s+favor\s+\w+)(?!\w)"
)
_EXPRESSIVE = re.compile(r"!|[^\w\s.,;:?'\"()\-\[\]/]")  # an exclamation or an emoji
_DIMINUTIVE = re.compile(r"(?:z?inh[oa]s?)$")
_CLOSE = 0.8
_WORD = re.compile(r"[^\W\d_]+(?:'[a-z]+)?")
# The assistant addressed or named: "you", "vc", "te", "this bot", "esse atendimento".
_TO_THE_ASSISTANT = re.compile(
    r"(?<!\w)(?:you|you're|youre|your|ur|yourself|voce|voces|tu|te|contigo|bot|chatbot|robo|robot|assistente"
    r"|assistant|atendimento|atendente|aplicativo|app|sistema|human[oa]?|real\s+person|pessoa\s+de\s+verdade)(?!\w)"
)

# The assistant as the subject of the question: "how are you doing today, bot?", "what kind of stuff can u
# do for me", "você é um robô?".
_ABOUT_THE_ASSISTANT = re.compile(
    r"(?<!\w)(?:(?:are|were)\s+(?:you|u)|(?:can|could)\s+(?:you|u)\s+do|(?:voce|tu)\s+(?:e|eh|esta|ta)"
    r"|(?:voce|tu)\s+(?:faz|sabe\s+fazer|pode\s+fazer|consegue\s+fazer))(?!\w)"
)


def no_request(meant: str, greetings: re.Pattern[str]) -> bool:
    """Nothing asked: only emoji or punctuation, or only greetings (`greetings`) and acknowledgements; a
    number is never nothing ("10" may pick a time, "18/07" a day)."""
    if not meant.strip() or re.search(r"\d", meant):
        return False
    if not re.search(r"[^\W_]", meant):
        return True
    rest = greetings.sub(" ", meant)
    return all(_social(word, _ACKNOWLEDGING) for word in _WORD.findall(rest))


def chit_chat(meant: str, greetings: re.Pattern[str]) -> bool:
    """Nothing asked and nothing of health or the clinic named, with a greeting (`greetings`), a social word,
    an emoji or an exclamation in it; or a question made only of greetings and the words of asking how the
    other is ("yo, what's up bot")."""
    if (re.search(r"\d", meant) or errands.health_topic(meant) or errands.clinic_service(meant)
            or errands.amusement(meant)):
        return False
    rest = greetings.sub(" ", meant)  # "thanks!! translate this" is an errand
    if errands.errand(meant, asked_as_question=False) or errands.errand(rest, asked_as_question=False):
        return False
    words = _WORD.findall(rest)
    if words and all(_social(word, _SOCIABLE) for word in words):
        return True
    if _REQUEST.search(meant):
        return False
    return bool(_EXPRESSIVE.search(meant) or greetings.search(meant)) or any(
        _social(word, _SOCIAL) for word in words)


def _social(word: str, vocabulary: frozenset[str]) -> bool:
    """A word of `vocabulary`, also with its last letter drawn out ("byee"), doubled ("okok", "byebye"), in
    the diminutive ("tchauzinho") or, when it is no common word, misspelled ("morrning", "gnight")."""
    if len(word) > 2 and word[-1] == word[-2] and word[:-1] in vocabulary:
        return True
    word = word[:-1] if len(word) > 2 and word[-1] == word[-2] else word
    half = len(word) // 2
    base = _DIMINUTIVE.sub("", word)
    if word in vocabulary or (word[:half] == word[half:] and word[:half] in vocabulary) or (
            base != word and (base in vocabulary or base + "o" in vocabulary or base + "a" in vocabulary)):
        return True
    return len(word) >= 5 and not is_common(word) and bool(
        difflib.get_close_matches(word, vocabulary, n=1, cutoff=_CLOSE))


def to_the_assistant(meant: str) -> bool:
    """Said to or about the assistant itself (a compliment, a complaint, "are you human")."""
    return bool(_TO_THE_ASSISTANT.search(meant))


def about_the_assistant(meant: str) -> bool:
    """A question whose subject is the assistant itself ("how are you?", "what can you do for me")."""
    return bool(_ABOUT_THE_ASSISTANT.search(meant))
