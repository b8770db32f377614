"""Requests for things the assistant does not do, told by their shape rather than listed one by one:
entertainment asked of it whatever its topic ("me conta uma piada de médico", "let's play 20 questions",
"entertain me"), and an errand (a thing asked to be done, found, bought, planned or told) or a question
that names nothing of health, of the body or of the clinic's services ("plan my trip to rio", "track my
package", "onde fica o mcdonalds mais perto"). The caller asks this only when no task was read, so a name,
a CPF or a "sim" given as a reply is never an errand. Patterns match folded, typo-corrected text."""

import re

from orchestrator.understanding.conditions import CONDITION

# Entertainment as the thing asked: a joke, a pun, a riddle, a game, a story, a song, "something funny".
_AMUSEMENT = (r"(?:jokes?|piadas?|piadinhas?|puns?|trocadilhos?|riddles?|charadas?|adivinha\w*|games?|jogos?"
              r"|brincadeiras?|stor(?:y|ies)|historinhas?|(?:uma|a|an)\s+historia|poems?|poemas?|songs?|musicas?"
              r"|funny|engracad[oa]|fun|divertid[oa]|trivia|curiosidades?)")
_AMUSE = re.compile(
    # Told, sung or made for the user: "tell me a joke", "say something funny", "conta uma piada de médico".
    rf"(?<!\w)(?:tell|say|make|write|sing|share|give|know|conta|conte|contar|fala|fale|diz|diga|faz|faca"
    rf"|escreve|canta|cante|manda|sabe)\s+(?:\w+\s+){{0,3}}?{_AMUSEMENT}(?!\w)"
    # A game proposed: "let's play 20 questions", "vamos jogar adivinha?", "bora brincar de forca".
    r"|(?<!\w)(?:let'?s|lets|wanna|want\s+to|vamos|bora|quer|vamo)\s+(?:\w+\s+)?(?:play|jogar|brincar)(?!\w)"
    # Kept busy: "entertain me", "i'm bored", "me distrai".
    r"|(?<!\w)(?:entertain\s+me|amuse\s+me|i'?m\s+bored|im\s+bored|(?:to|estou|tô)\s+entediad[oa]"
    r"|me\s+(?:distrai|diverte))(?!\w)"
)
# A thing asked to be done, found, bought, planned, written or told, at the start (after "can you",
# "pode", "please" …): "plan my trip to rio", "compra um tênis", "find me cheap flights".
_POLITE = (r"(?:(?:can|could|would|will)\s+(?:you|u)\s+|(?:voce|vc|tu)\s+(?:pode|poderia|consegue)\s+|pode\s+"
           r"|poderia\s+|consegue\s+|please\s+|por\s+favor\s+|pfv\s+|me\s+|i\s+(?:want|need)\s+(?:you\s+)?to\s+"
           r"|help\s+me\s+|me\s+ajuda\s+(?:a\s+)?)*")
_ERRAND = re.compile(
    rf"^\W*{_POLITE}(?:find|search|look\s+up|google|buy|order|get\s+me|plan|organi[sz]e|book\s+me\s+a"
    r"|recommend|suggest|write|translate|track|calculate|solve|fix|play|tell\s+me|explain|compra\w*|pede"
    r"|peca|procur\w*|busca\w*|pesquis\w*|ach[ae]|encontr\w*|planej\w*|organiz\w*|recomend\w*|indic\w*"
    r"|suger\w*|sugir\w*|escrev\w*|traduz\w*|rastre\w*|calcul\w*|resolv\w*|toca|toque|fala|conta|faz|faca)"
    r"(?!\w)"
)
# A question about a place, a price or a fact: "onde fica o mcdonalds", "quanto custa uma passagem",
# "who was the first president", "what's a 15% tip".
_QUESTION = re.compile(
    r"\?\W*$|^\W*(?:what|whats|what's|who|where|wheres|where's|which|how\s+(?:much|many|do\s+i|can\s+i|to)"
    r"|qual|quais|quem|onde|quanto|quanta|quantos|quantas|como\s+(?:eu\s+)?(?:faco|fa[cç]o|chego|ta|esta))(?!\w)"
)
# Health, the body and care: "is it safe to fly while pregnant?", "a música alta faz mal pro ouvido?" (not
# hair nor nails, which barbers and manicures tend too).
_HEALTH = re.compile(
    r"(?<!\w)(?:health\w*|saude|medic\w*|pregnan\w*|gravid\w*|gestant\w*|bab(?:y|ies)|bebes?"
    r"|vitamin\w*|protein\w*|proteina\w*|calori\w*|diet\w*|nutri\w*|aliment\w*|exercis\w*|exercici\w*"
    r"|sleep\w*|sono|dormir|weight|peso|emagrec\w*|body|corpo|heart|coracao|skin|pele|bones?|ossos?"
    r"|joints?|articula\w*|blood|sangue|pressure|pressao|pain\w*|dor|dores|doi|doem|hurts?|aches?|sick\w*"
    r"|doen\w*|disease\w*|illness|symptoms?|sintomas?|treat\w*|tratamento\w*|tratar|cur[ae]|remedio\w*"
    r"|medicine\w*|medicament\w*|drugs?|pills?|comprimid\w*|vaccin\w*|vacin\w*|surger\w*|cirurgi\w*"
    r"|injur\w*|lesao|lesoes|fever|febre|cough|tosse|virus|infec\w*|gripe|flu|influenza|resfriad\w*|knees?|joelhos?|back|costas|shoulders?"
    r"|ombros?|hips?|quadril|ankles?|tornozelos?|wrists?|punhos?|chest|peito|head|cabeca|stomach|estomago"
    r"|barriga|ears?|ouvidos?|eyes?|olhos?|teeth|tooth|dentes?|hands?|maos?|feet|foot|pes|legs?|pernas?"
    r"|arms?|bracos?|lungs?|pulmao|pulmoes|kidneys?|rins?|rim|liver|figado"
    r"|risks?|riscos?|normal|fibril\w*|cardi\w*|arthr\w*|artr\w*|osteo\w*|derma\w*|ortop\w*|orthop\w*"
    # Medical words by their Greek and Latin endings: "tendinitis", "artrose", "anemia", "lombalgia".
    r"|\w{3,}(?:itis|ites?|osis|oses|emias?|algias?|patias?|pathy|pathies|ectom\w+|scop(?:y|ia)))(?!\w)"
)
# The clinic's services and the user's own data: "qual o horário da minha consulta?", "meu cpf".
_SERVICES = re.compile(
    r"(?<!\w)(?:doctors?|dr|dra|doutor\w*|clinic\w*|hospita\w*|nurse|enfermeir\w*|consult\w*"
    r"|appointments?|appts?|bookings?|agend\w*|marca\w*|horarios?|vagas?|slots?|cpf|exam\w*|tests?"
    r"|results?|resultados?|patients?|pacientes?|sources?|fontes?|referenc\w*)(?!\w)"
)


def amusement(meant: str) -> bool:
    """Entertainment asked of the assistant, whatever its topic."""
    return bool(_AMUSE.search(meant))


def health_topic(meant: str) -> bool:
    """Health, the body, care or a condition named."""
    return bool(_HEALTH.search(meant) or CONDITION.search(meant))


def clinic_service(meant: str) -> bool:
    """The clinic's services or the user's own data named ("consulta", "horários", "meu cpf")."""
    return bool(_SERVICES.search(meant))


def health_question(meant: str) -> bool:
    """A question about health that asks no task ("is it safe to fly while pregnant?")."""
    return bool(_QUESTION.search(meant)) and health_topic(meant) and not _SERVICES.search(meant)


def errand(meant: str, *, asked_as_question: bool = True) -> bool:
    """An errand, or (`asked_as_question`) a question, outside health and the clinic's services."""
    asked = _ERRAND.search(meant) or (asked_as_question and _QUESTION.search(meant))
    return bool(asked) and not health_topic(meant) and not _SERVICES.search(meant)
