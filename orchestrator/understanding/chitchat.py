"""Messages with no request in them, told by their shape rather than listed: nothing but emoji or
punctuation ("👍", "🙏🙏"), nothing but greetings, thanks and acknowledgements ("ok", "ta bom", "beleza
entao", "thank youuu"), or words addressed to the assistant itself ("you're great", "esse bot é ruim",
"quem te criou?"). The caller asks this only when no task was read. Patterns match folded, typo-corrected
text."""

import re
from collections.abc import Iterable

# Words that acknowledge or fill, asking for nothing.
_ACKNOWLEDGING = frozenset((
    "ok", "okay", "okk", "oki", "okey", "kk", "ta", "bom", "boa", "certo", "certinho", "beleza", "entao",
    "perfeito", "perfect", "otimo", "great", "good", "fine", "alright", "right", "sure", "tranquilo", "suave",
    "top", "massa", "legal", "joia", "cool", "nice", "hm", "hmm", "ah", "ahh", "oh", "uh", "aham", "uhum",
    "opa", "eae", "ae", "eita", "nossa", "wow", "sup", "lol", "rs", "haha", "then", "so", "and", "e", "o",
    "you", "u", "muito", "much", "very", "a", "lot", "demais", "mesmo", "viu", "pela", "pelo", "for", "the",
    "ajuda", "help", "again", "de", "novo", "talk", "later", "soon", "tomorrow", "amanha", "now", "ai",
    "please", "por", "favor", "minha", "querida", "querido", "filha", "friend", "mate", "dear", "all",
))
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
    return _only(_WORD.findall(rest), _ACKNOWLEDGING)


def to_the_assistant(meant: str) -> bool:
    """Said to or about the assistant itself (a compliment, a complaint, "are you human")."""
    return bool(_TO_THE_ASSISTANT.search(meant))


def _only(words: Iterable[str], allowed: frozenset[str]) -> bool:
    return all(word in allowed for word in words)


def about_the_assistant(meant: str) -> bool:
    """A question whose subject is the assistant itself ("how are you?", "what can you do for me")."""
    return bool(_ABOUT_THE_ASSISTANT.search(meant))
