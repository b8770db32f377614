"""Questions about one's own bookings told by their shape: a reference to a booking of the user's ("minha
consulta", "my follow up", "what I booked", "am I down for", "tenho algo marcado") together with asking
(when, where, whether, who, or show / check / remind me), rather than phrasings listed one by one.
Patterns match folded, typo-corrected text (lower case, no accents, abbreviations spelled out)."""

import re

_NOUN = (r"(?:consultas?|agendamentos?|marcac(?:ao|oes)|reservas?|retornos?|horarios?\s+marcados?"
         r"|compromissos?|appointments?|appts?|bookings?|visits?|consultations?|reservations?|follow[\s-]?ups?|check[\s-]?ups?"
         r"|consultinha)")
_BOOKED = r"(?:booked|scheduled|reserved|marcad[oa]s?|agendad[oa]s?|reservad[oa]s?)"
_REFERENCE = re.compile("|".join((
    # Possessed: "minha consulta", "my cardiology follow up", "meus horários marcados", "consulta minha".
    rf"(?<!\w)(?:my|minha|meu|minhas|meus)\s+(?:[\w.]+\s+){{0,2}}?{_NOUN}(?!\w)",
    rf"(?<!\w){_NOUN}\s+(?:minha|meu|minhas|meus|mine)(?!\w)",
    rf"(?<!\w){_NOUN}\s+(?:que\s+)?(?:eu\s+tenho|do\s+i\s+have|i\s+have|have\s+i\s+got|i'?ve\s+got|i\s+got)(?!\w)",
    # The one booked, asked when: "a consulta com a dra camila é de manhã ou de tarde?".
    rf"(?<!\w)(?:a|o|the)\s+{_NOUN}\s+(?:[\w.]+\s+){{0,4}}?(?:e|is)\s+(?:de\s+manha|de\s+tarde|(?:a\s+)?que\s+horas"
    r"|que\s+dia|quando|when|at\s+what|what\s+time|in\s+the\s+(?:morning|afternoon))",
    r"(?<!\w)my\s+thing\s+with(?!\w)",
    # Made by the user: "eu marquei", "what I booked", "o horário que eu peguei", "did I already book".
    r"(?<!\w)(?:marquei|agendei|reservei)(?!\w)",
    r"(?<!\w)(?:horario|vaga|dia|hora|data|slot|consulta)s?\s+(?:que\s+)?(?:eu\s+)?peguei(?!\w)",
    r"(?<!\w)(?:i|eu|i've|ive|i\s+have)\s+(?:already\s+|ja\s+)?(?:booked|scheduled|reserved|fiz|made)(?!\w)",
    r"(?<!\w)did\s+i\s+(?:already\s+|actually\s+)?(?:book|schedule|reserve|end\s+up)(?!\w)",
    r"(?<!\w)(?:what|which)\s+(?:\w+\s+)?did\s+i\s+get(?!\w)",
    # Held by the user: "am I down for", "tô marcada", "anything scheduled for me", "booked under me".
    rf"(?<!\w)(?:i'm|im|i\s+am|am\s+i|estou|to|tou|fiquei)\s+(?:still\s+|ainda\s+)?(?:{_BOOKED}|down)(?!\w)",
    rf"(?<!\w){_BOOKED}\s+(?:\w+\s+){{0,2}}?(?:for\s+me|pra\s+mim|para\s+mim|under\s+(?:me|my)|in\s+my\s+name"
    r"|no\s+meu\s+nome|on\s+my\s+account)(?!\w)",
    # Whether it went in: "vê se ficou marcado", "check if it got booked".
    r"(?<!\w)(?:se|if|whether)\s+(?:\w+\s+){0,2}?(?:ficou|foi|esta|ta|got|was|is)\s+(?:marcad|agendad|confirmad"
    r"|booked|scheduled|confirmed)",
    r"(?<!\w)(?:on|in|under)\s+my\s+(?:account|name|calendar|schedule)(?!\w)",
    r"(?<!\w)on\s+the\s+(?:books|calendar|schedule|agenda)\s+for\s+me(?!\w)",
    rf"(?<!\w)(?:do|have)\s+i\s+(?:still\s+)?(?:have|got)\s+(?:the|my|an?|any)\s+(?:\w+\s+)?{_NOUN}(?!\w)",
    r"(?<!\w)(?:do|have)\s+i\s+(?:have|got)\s+(?:anything|something)(?!\s+(?:serious|wrong|bad|grave))(?!\w)",
    r"(?<!\w)(?:i\s+(?:have|got)|i'?ve\s+got)\s+(?:\w+\s+)?(?:coming\s+up|lined\s+up|booked|scheduled)(?!\w)",
    r"(?<!\w)(?:eu\s+)?tenho\s+(?:algo|alguma\s+coisa)\s+(?:\w+\s+)?(?:marcad|agendad|com|pra|para|essa|esta"
    r"|nessa|nesta|semana|amanha|hoje)",
    rf"(?<!\w)(?:eu\s+)?tenho\s+(?:algum\s+|alguma\s+|um\s+|uma\s+)?{_NOUN}(?!\w)",
    r"(?<!\w)(?:tudo|o|os|as)\s+(?:que|q)\s+(?:eu\s+)?tenho\s+(?:marcad|agendad)",
    # Going to the visit: "which clinic am I going to", "vou ser atendida", "que dia eu volto no médico".
    r"(?<!\w)(?:am\s+i\s+(?:going|supposed\s+to\s+go)|do\s+i\s+(?:have\s+to\s+)?(?:go|be)"
    r"|i\s+(?:have|need)\s+to\s+(?:go|be))\s+(?:in\b|there\b|(?:to|at|in)\s+(?:the\s+)?(?:\w+\s+)?"
    r"(?:clinic|doctor|hospital|office))",
    r"(?<!\w)(?:am|will)\s+i\s+(?:be\s+)?(?:seeing|meeting)\s+(?:(?:the|my|an?|any)\s+)?(?:dr|dra|doctor|\w+ist"
    r"|anyone|anybody|someone|somebody)(?!\w)",
    # "vou ver algum médico essa semana?", "vou passar com alguém amanhã?": whether a visit is booked.
    r"(?<!\w)vou\s+(?:ver|consultar(?:\s+com)?|passar\s+(?:com|em|no|na))\s+(?:algum|alguma|alguem)(?!\w)",
    r"(?<!\w)(?:clinic|doctor|hospital|dr|dra|medic[oa])\s+(?:am|do|will)\s+i\s+(?:going|go|see|seeing)(?!\w)",
    r"(?<!\w)(?:vou\s+ser\s+atendid[oa]|(?:eu\s+)?volto\s+(?:no|ao|na)\s+(?:medic[oa]|clinica|doutor[a]?))(?!\w)",
)))
# Asking: a question (in Portuguese often without its mark: "tenho algo marcado essa semana"), or asking to
# be shown, told or reminded.
_ASKING = re.compile(
    r"\?|^\W*(?:eu\s+)?tenho\b|(?<!\w)(?:when|whens|where|what|what's|whats|which|who|whether|if|is|was|are|am|did|do|have|has|any"
    r"|how\s+many|quando|onde|que|qual|quais|quem|quantas?|quantos|cade|sera|se"
    r"|show|see|check|list|view|pull\s+up|bring\s+up|remind|tell\s+me|forgot|can'?t\s+remember"
    r"|mostr\w*|ver|ve|veja|checa\w*|confer\w*|confirm\w*|verific\w*|lembr\w*|esqueci|saber|diz\w*)(?!\w)"
)


def reference_spans(folded: str) -> list[range]:
    """Where the message refers to a booking of the user's."""
    return [range(m.start(), m.end()) for m in _REFERENCE.finditer(folded)]


def asks_about_own(folded: str) -> bool:
    """A reference to one's booking and a question about it."""
    return bool(_REFERENCE.search(folded) and _ASKING.search(folded))
