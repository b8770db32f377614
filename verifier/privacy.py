"""R2: no personal data of anyone but the current patient.

CPFs other than the patient's, e-mail addresses and phone numbers (unless an evidence fact
carries them, as a clinic's contact may), and person names: a capitalized name after an
honorific ("Sr.", "Mrs", "paciente"), or a run of two to four capitalized name-like words.
A name is fine when it is the patient's, a doctor's, a clinic's, a known place or part of
an evidence fact (clinic addresses come as facts). Doctor mentions ("Dr. …") are R4's.
"""

import functools
import re

from healthmesh.v1 import common_pb2, verifier_pb2
from runtime.text.calendar_words import MONTHS, WEEKDAYS
from verifier.text import (
    CPF,
    EMAIL,
    NAME_LINK,
    NAME_WORD,
    OPAQUE_ID,
    PHONE,
    TITLED_DOCTOR,
    URL,
    after_boundary,
    blank,
    digits,
    find_all,
    fold,
    mask,
    words,
)

_HONORIFIC_NAME = re.compile(
    rf"(?i:\b(?:sr|sra|srta|dona|mr|mrs|ms|miss|mx|patient|paciente)\b)\.?\s+"
    rf"({NAME_WORD}(?:\s+(?:{NAME_LINK}\s+)?{NAME_WORD}){{0,3}})"
)
_HONORIFICS = frozenset("sr sra srta dona mr mrs ms miss mx patient paciente".split())
_NAME_RUN = re.compile(rf"{NAME_WORD}(?:\s+(?:{NAME_LINK}\s+)?{NAME_WORD})+")
_LINKS = re.compile(rf"^{NAME_LINK}$")

_PLACES = ("São Paulo", "Rio de Janeiro", "Belo Horizonte", "Porto Alegre", "Campinas", "Brasil",
           "Brazil", "United States", "Bela Vista")

# Capitalized words that are not names: sentence starts, headings, the assistant's own
# vocabulary (title-cased by models), and the words of the emergency texts.
_NOT_NAMES = frozenset(fold(w) for w in """
a an the your you our we i my this that these those there here it its he she they his her their
hello hi dear thanks thank please note sorry unfortunately good great sure okay ok yes no not and
or but if so also all any each every first last next new other only just which what when where
who how why with at in on for from to of by via as about after before until between
open opening slots slot available availability earliest latest soonest booked booking book
appointment appointments cancelled canceled cancel cancellation moved rescheduled reschedule
confirmed confirmation details summary option options time times date dates day days today
tomorrow week morning afternoon evening clinic clinics hospital doctor doctors specialist
specialty specialties cardiology cardiologist dermatology dermatologist orthopedics
orthopaedics orthopedist address location emergency room call text chat lifeline crisis
suicide line local number us europe street avenue road medical center centre health care
patient patients earliest upcoming schedule scheduled visit reminder
o os as um uma uns umas seu sua seus suas meu minha nosso nossa você voce ele ela eles elas
olá ola oi prezado prezada obrigado obrigada por favor desculpe infelizmente sim não nao e ou
mas se também todos todas cada primeiro primeira próximo próxima outro outra qual quais quando
onde como com em na no nas nos para pelo pela ao aos à às este esta isto isso esse essa aqui
horários horário disponíveis disponível disponibilidade mais cedo agendado agendada agendamento
agendar consulta consultas cancelado cancelada cancelamento remarcado remarcada remarcação
confirmado confirmada confirmação detalhes resumo opção opções hora horas data datas dia dias
hoje amanhã semana manhã tarde noite clínica clínicas médico médica médicos doutor doutora
especialista especialidade especialidades cardiologia cardiologista dermatologia
dermatologista ortopedia ortopedista endereço local emergência ligue ligar pronto socorro
atendimento rua avenida centro instituto saúde unidade paciente pacientes lembrete marcado marcada
""".split()) | frozenset(MONTHS) | frozenset(WEEKDAYS) | {"feira"}


def privacy_leaks(answer: str, evidence: verifier_pb2.Evidence,
                  patient: common_pb2.PatientIdentity) -> list[str]:
    """Notes for every R2 finding (no personal data in them); empty when there is none."""
    notes = []
    cpfs = find_all(CPF, answer)
    if any(digits(m.group(0)) != digits(patient.cpf) for m in cpfs):
        notes.append("R2: a CPF that is not the patient's")
    text = blank(answer, (m.span() for m in cpfs))
    facts = " | ".join(evidence.facts)
    emails = find_all(EMAIL, text)
    if any(fold(m.group(0)) not in fold(facts) for m in emails):
        notes.append("R2: an e-mail address that is not in the evidence")
    text = mask(blank(text, (m.span() for m in emails)), URL)
    phones = find_all(PHONE, text)
    if phones and {digits(m.group(0)) for m in phones} - {digits(m.group(0)) for m in find_all(PHONE, facts)}:
        notes.append("R2: a phone number that is not in the evidence")
    text = mask(mask(blank(text, (m.span() for m in phones)), OPAQUE_ID), TITLED_DOCTOR)
    known = _known_names(patient.full_name, (*evidence.doctors, *(s.doctor for s in evidence.slots),
                                             *(a.doctor for a in evidence.appointments)),
                         (*evidence.clinics, *evidence.facts))
    if any(not known.allows(name) for name in _names(text)):
        notes.append("R2: a person's name that is not the patient's, a doctor's or a clinic's")
    return notes


def _names(text: str) -> list[str]:
    """Candidate person names: after an honorific (even one word), or runs of two to four
    name-like words, once the words that are not names have been cut out."""
    present = {w.casefold() for w in words(text)}
    honorifics = _HONORIFIC_NAME.finditer(text) if not present.isdisjoint(_HONORIFICS) else ()
    found = [name for m in honorifics for name in _cut(m[1].split(), 1)]
    # From a word's start only: "OrtoVida" holds no name "Vida".
    runs = after_boundary(text, _NAME_RUN.finditer(text))
    return found + [name for m in runs for name in _cut(m.group(0).split(), 2)]


def _cut(tokens: list[str], minimum: int) -> list[str]:
    """The runs of `tokens` left between words that are not names, with at least `minimum`
    words each."""
    names = []
    run: list[str] = []
    for word in [*tokens, "."]:
        if word != "." and (not _common(word) or _LINKS.match(word)):
            run.append(word)
            continue
        while run and _LINKS.match(run[-1]):
            run.pop()
        while run and _LINKS.match(run[0]):
            run.pop(0)
        if len(run) >= minimum:
            names.append(" ".join(run))
        run = []
    return names


def _common(word: str) -> bool:
    """A word that is not a name, hyphenated ones ("Segunda-feira") part by part."""
    return fold(word) in _NOT_NAMES or all(part in _NOT_NAMES for part in fold(word).split("-"))


class _KnownNames:
    """Names that may appear: people by any of their words, the rest as whole phrases."""

    _REMEMBERED = 1024  # verdicts kept per evidence set

    def __init__(self, patient: str, doctors: tuple[str, ...], sources: tuple[str, ...]) -> None:
        self.people = [set(fold(person).split()) for person in (patient, *doctors) if person]
        self.phrases = " | ".join(" ".join(fold(source).split()) for source in (*sources, *_PLACES))
        self._verdicts: dict[str, bool] = {}

    def allows(self, name: str) -> bool:
        verdict = self._verdicts.get(name)
        if verdict is None:
            verdict = self._allows(name)
            if len(self._verdicts) < self._REMEMBERED:
                self._verdicts[name] = verdict
        return verdict

    def _allows(self, name: str) -> bool:
        parts = fold(name).split()
        if any(set(parts) <= person for person in self.people):
            return True
        return bool(re.search(rf"\b{re.escape(' '.join(parts))}\b", self.phrases))


@functools.lru_cache(maxsize=64)
def _known_names(patient: str, doctors: tuple[str, ...], sources: tuple[str, ...]) -> _KnownNames:
    """One _KnownNames per evidence set: the evidence repeats from call to call, and so do the
    names an answer writes (clinics, doctors), whose verdicts it keeps."""
    return _KnownNames(patient, doctors, sources)
