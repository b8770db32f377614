"""ScreenInput: the red-flag screen of a raw user message, and what to tell the user.

The emergency text goes out in the requested language, or in the message's own language
when none is requested (Portuguese when the message looks Portuguese, else English).
"""

import re

from healthmesh.v1 import verifier_pb2
from runtime.text import language as runtime_language
from verifier.redflags import normalize, read

_EMERGENCY = {
    "pt": ("Isto pode ser uma emergência. Ligue agora para o SAMU 192 ou vá ao pronto-socorro mais "
           "próximo. Nenhuma consulta será agendada: procure atendimento de emergência imediatamente."),
    "en": ("This may be an emergency. Call your local emergency number now (911 in the US, 112 in "
           "Europe; in Brazil, SAMU 192) or go to the nearest emergency room. No appointment will be "
           "booked: please get emergency help right away."),
}
_CRISIS_LINE = {
    "pt": "Você não está sozinho: fale agora com o CVV — ligue 188 (24 h, gratuito) ou chat em cvv.org.br.",
    "en": ("You are not alone: call or text 988 (US Suicide & Crisis Lifeline); in Brazil CVV 188 "
           "(24 h, free) or chat at cvv.org.br."),
}

_PT_ACCENTS = re.compile(r"[ãõçáéíóúâêôà]", re.IGNORECASE)
_PT_WORDS = frozenset("""
estou nao com quero dor meu minha tenho uma para pra voce vc que os um sinto esta ta to ele ela pai
mae filho filha muito muita peito cabeca socorro ajuda marcar consulta agendar horario amanha hoje por
favor obrigado sim mas eu meus minhas acho preciso pode posso consigo mais cancelar remarcar infarto
desmaiei desmaiou convulsao sangue sangramento garganta falta ar respirar matar morrer viver
comprimidos remedios queimadura osso tomei bati caiu forte na da dele dela estao perna braco fora
agora ontem desde ficando exposta fratura
""".split())
_EN_WORDS = frozenset("""
i i'm im my have has the and is are to of in on with pain can't cant want need help please he she his
her it this that for book appointment chest feel feeling was been am not what which can you your yes
from at be think breathe bleeding took hurt myself father mother son daughter wife husband
""".split())


def _emergency_hints(message: str) -> tuple[int, int]:
    """Portuguese and English scores from the words of short emergency messages; an accent
    anywhere counts twice for Portuguese."""
    words = re.findall(r"[\w']+", normalize(message))
    pt = sum(w in _PT_WORDS for w in words) + (2 if _PT_ACCENTS.search(message) else 0)
    return pt, sum(w in _EN_WORDS for w in words)


def detect_language(message: str) -> str:
    """"pt" when the message looks Portuguese, else "en"."""
    return runtime_language.detect_language(message, hints=_emergency_hints)


def emergency_message(category: int, language: str) -> str:
    """What to tell the user for a red flag of `category`, in `language` ("pt" or "en")."""
    text = _EMERGENCY[language]
    if category == verifier_pb2.RED_FLAG_CATEGORY_MENTAL_HEALTH:
        text = f"{_CRISIS_LINE[language]} {text}"
    return text


_ADVISORY = {
    "pt": "Se isto estiver acontecendo com alguém agora, ligue para o SAMU 192.",
    "en": "If this is happening to someone now, call your local emergency number (in Brazil, SAMU 192).",
}


def screen(message: str, language: str = "") -> verifier_pb2.ScreenInputResponse:
    """The verdict on `message`; `language` is "pt", "en" or "" (detect)."""
    language = language or detect_language(message)
    reading = read(message)
    if reading.flag is not None:
        hit = reading.flag
        return verifier_pb2.ScreenInputResponse(
            red_flag=True, category=hit.category, rule_id=hit.rule_id,
            emergency_message=emergency_message(hit.category, language), language=language,
        )
    reply = verifier_pb2.ScreenInputResponse(red_flag=False, language=language)
    if reading.clinician is not None:
        reply.rule_id = f"clinician_question:{reading.clinician.rule_id}"
        reply.advisory = _ADVISORY[language]
    elif reading.ask is not None:
        ask = reading.ask
        reply.rule_id = ask.rule_id
        reply.question.CopyFrom(verifier_pb2.TriageQuestion(
            rule_id=ask.rule_id, category=ask.category, text=ask.question[language],
            emergency_if_yes=ask.emergency_if_yes,
            emergency_message=emergency_message(ask.category, language)))
    return reply
