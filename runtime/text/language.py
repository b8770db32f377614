"""Portuguese or English: one detector for user messages, told by typical words and accents."""

import re
from collections.abc import Callable

from runtime.text.calendar_words import EN_MONTHS, EN_WEEKDAYS, PT_MONTHS, PT_WEEKDAYS
from runtime.text.fold import fold_latin

# Function and domain words (folded) typical of each language; words shared by both ("a", "as", "do", "no",
# "me", "ok", "dr") are left out on purpose.
PORTUGUESE_WORDS: frozenset[str] = frozenset("""
    quero queria gostaria preciso consulta consultas horario horarios marcar agendar remarcar desmarcar
    cancelar para pra com nao minha minhas meu meus de da das dos amanha hoje depois semana que vem proxima
    proximo o os um uma eu tem tenho voce qual quais e ola oi bom boa dia tarde noite obrigado obrigada valeu
    vaga vagas disponivel disponiveis medico medica doutor doutora por favor sim mais cedo dados paciente
    exame exames meio posso pode isso essa esse na em ao ou mes feira cardiologista
    dermatologista ortopedista cardiologia dermatologia ortopedia pele coracao ossos opcao primeiro primeira
    segundo mostre mostrar mostra ver lista todos sao como porque tomar dose remedio mesma mesmo ela esta este
    nesta quanto antes agenda vou fico tchau doenca sintomas significa sobre muito estou aqui ja tambem
""".split()) | {*PT_WEEKDAYS, *PT_MONTHS}
ENGLISH_WORDS: frozenset[str] = frozenset("""
    i the appointment appointments book booking my want available availability at tomorrow today is are what
    how have has any with please can could would like need next week this that it to for of on in and you show
    list slots slot doctor cancel move reschedule earliest one take ll hi hello hey thanks thank yes morning
    afternoon evening cardiologist dermatologist orthopedist heart skin
    bone option first second third there does should which who else booked patient record times time mole
    weather football when where be get see if am pm noon an or go up about from by than
""".split()) | {*EN_WEEKDAYS, *EN_MONTHS} - {"may"}  # "may" is a verb too

_WORD = re.compile(r"[a-z]+")
_ACCENTED_LOWER_WORD = re.compile(r"(?<![\w.])[a-zà-ÿ]*[à-öø-ÿ][a-zà-ÿ]*")

# (Portuguese, English) scores from evidence the general words miss.
Hints = Callable[[str], tuple[int, int]]


def detect_language(text: str, previous: str | None = None, *, hints: Hints | None = None) -> str:
    """"pt" or "en" by typical words; accents in lower-case words (not names) count for Portuguese.
    A tie keeps `previous` (the conversation's language), else English.

    `hints` decide a message the general words leave English: short symptom messages ("dor no
    joelho", "tomei muitos comprimidos") carry few of those words, so the consult and the red-flag
    screen pass scores from their own vocabularies."""
    words = _WORD.findall(fold_latin(text))
    pt = sum(word in PORTUGUESE_WORDS for word in words) + len(_ACCENTED_LOWER_WORD.findall(text))
    en = sum(word in ENGLISH_WORDS for word in words)
    if pt == en:
        language = previous if previous in ("pt", "en") else "en"
    else:
        language = "pt" if pt > en else "en"
    if language == "en" and hints is not None:
        pt_hint, en_hint = hints(text)
        if pt_hint > en_hint:
            return "pt"
    return language
