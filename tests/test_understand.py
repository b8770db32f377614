"""Message understanding: intents, scope, specialties, doctors, dates, times and slot references, in
Portuguese and English. Tables of real phrasings; `today` is fixed so dates are exact."""

import datetime as dt
import statistics
import time

import pytest

from clinics.seed import DOCTORS
from orchestrator.understanding import when
from orchestrator.understanding.understand import Intent, OutOfScope, Understanding, understand, warm_up
from runtime.text.fold import fold_latin as fold

SUNDAY = dt.date(2026, 11, 22)
WEDNESDAY = dt.date(2026, 11, 25)
FRIDAY = dt.date(2026, 11, 27)
KNOWN_DOCTORS = tuple(doctor.name for clinic in DOCTORS.values() for doctor in clinic)
D = dt.date


@pytest.fixture(scope="module", autouse=True)
def _warm() -> None:
    warm_up()


def u(message: str, today: dt.date = SUNDAY, previous: str | None = None) -> Understanding:
    return understand(message, today=today, known_doctors=KNOWN_DOCTORS, previous_language=previous)


# --- intents ---------------------------------------------------------------------------------------------

IN, OOS = Intent, OutOfScope
INTENTS = [
    # list
    ("horários de cardiologia", IN.LIST, None),
    ("any dermatologist next week?", IN.LIST, None),
    ("tem horário com dermatologista semana que vem?", IN.LIST, None),
    ("cardiologia", IN.LIST, None),
    ("dermatologist please", IN.LIST, None),
    ("show me available orthopedics slots", IN.LIST, None),
    ("quais horários o Dr. Fernando tem amanhã?", IN.LIST, None),
    ("which slots can I book with a cardiologist?", IN.LIST, None),
    ("quais horários posso marcar?", IN.LIST, None),
    ("vagas de ortopedia em dezembro", IN.LIST, None),
    ("qual o horário mais cedo de cardiologia?", IN.LIST, None),
    ("I need a dermatologist", IN.LIST, None),
    ("Dr. Fernando amanhã?", IN.LIST, None),
    ("18/07", IN.LIST, None),
    # book
    ("quero marcar uma consulta com um cardiologista", IN.BOOK, None),
    ("book the earliest", IN.BOOK, None),
    ("I'll take the earliest one", IN.BOOK, None),
    ("Dr. Fernando on the 18th at 10", IN.BOOK, None),
    ("o das 10h", IN.BOOK, None),
    ("quero o das 14h", IN.BOOK, None),
    ("a segunda opção", IN.BOOK, None),
    ("the second one", IN.BOOK, None),
    ("fico com o primeiro", IN.BOOK, None),
    ("quero o mais cedo possível", IN.BOOK, None),
    ("agende para mim com a Dra. Beatriz na quinta às 10h30", IN.BOOK, None),
    ("I'd like to book a cardiologist tomorrow at 9am", IN.BOOK, None),
    ("sim, pode marcar", IN.BOOK, None),
    ("eu tenho diabetes e quero marcar com cardiologista", IN.BOOK, None),
    ("dia 18 de março com ortopedista, pode marcar?", IN.BOOK, None),
    ("marque para mim o primeiro horário livre com ortopedista", IN.BOOK, None),
    ("I want the 10:30 slot", IN.BOOK, None),
    ("não consigo marcar pelo site, pode marcar pra mim?", IN.BOOK, None),
    # reschedule
    ("move it to Friday at 14:00", IN.RESCHEDULE, None),
    ("remarcar minha consulta para sexta às 14h", IN.RESCHEDULE, None),
    ("can we move my appointment to the 30th?", IN.RESCHEDULE, None),
    ("change it to 3 pm", IN.RESCHEDULE, None),
    ("push it back to next week", IN.RESCHEDULE, None),
    ("mudar para terça às 10h", IN.RESCHEDULE, None),
    ("quero cancelar e marcar outra", IN.RESCHEDULE, None),
    ("don't cancel, move it to Friday", IN.RESCHEDULE, None),
    ("I can't make it tomorrow", IN.RESCHEDULE, None),
    ("não vou poder ir amanhã", IN.RESCHEDULE, None),
    # cancel
    ("cancel my appointment", IN.CANCEL, None),
    ("quero cancelar minha consulta", IN.CANCEL, None),
    ("desmarcar a consulta de segunda", IN.CANCEL, None),
    ("please cancel the booking with Dr. Almeida", IN.CANCEL, None),
    ("não posso mais ir", IN.CANCEL, None),
    # my appointments
    ("what appointments do I have?", IN.MY_APPOINTMENTS, None),
    ("minhas consultas", IN.MY_APPOINTMENTS, None),
    ("do I have an appointment tomorrow?", IN.MY_APPOINTMENTS, None),
    ("tenho consulta amanhã?", IN.MY_APPOINTMENTS, None),
    ("quando é minha consulta?", IN.MY_APPOINTMENTS, None),
    ("show my bookings", IN.MY_APPOINTMENTS, None),
    # greetings
    ("hi", IN.GREETING, None),
    ("olá", IN.GREETING, None),
    ("bom dia", IN.GREETING, None),
    ("thanks", IN.GREETING, None),
    ("muito obrigada!", IN.GREETING, None),
    # health education
    ("what is hypertension?", IN.GENERAL_QUESTION, None),
    ("o que é psoríase?", IN.GENERAL_QUESTION, None),
    ("quais os sintomas de artrose?", IN.GENERAL_QUESTION, None),
    ("how can I prevent heart disease?", IN.GENERAL_QUESTION, None),
    ("what is a cardiologist?", IN.GENERAL_QUESTION, None),
    ("what does a cardiologist do?", IN.GENERAL_QUESTION, None),
    # a pronoun after a named condition is the condition; after "this rash" it is still the user's
    ("o que é psoríase? isso é contagioso?", IN.GENERAL_QUESTION, None),
    ("what is this rash, is it serious?", IN.OUT_OF_SCOPE, OOS.DIAGNOSIS),
    ("who is at risk for gout?", IN.GENERAL_QUESTION, None),
    # the sources of the last answer, asked without "show"
    ("where did you get that from?", IN.SOURCES, None),
    ("cite your sources", IN.SOURCES, None),
    # small talk and thanks as written
    ("what can you help me with?", IN.GREETING, None),
    ("em que voce pode me ajudar?", IN.GREETING, None),
    ("brigado", IN.GREETING, None),
    # the patient's appointments, asked around the word
    ("am I booked for anything on friday?", IN.MY_APPOINTMENTS, None),
    ("tenho alguma coisa marcada amanhã?", IN.MY_APPOINTMENTS, None),
    ("show my dermatology appointments", IN.MY_APPOINTMENTS, None),
    # cancel and move in every form of the verb and with the specialty in between
    ("desmarque a consulta das 14h", IN.CANCEL, None),
    ("drop appointment CARD-A-APT-5F21C0D9E1", IN.CANCEL, None),
    ("can I move my cardiology appointment to tomorrow?", IN.RESCHEDULE, None),
    ("push it to monday", IN.RESCHEDULE, None),
    ("get me a slot with Dr. Paulo next available", IN.BOOK, None),
    # out of scope: diagnosis
    ("do I have cancer?", IN.OUT_OF_SCOPE, OOS.DIAGNOSIS),
    ("what disease do I have", IN.OUT_OF_SCOPE, OOS.DIAGNOSIS),
    ("o que eu tenho?", IN.OUT_OF_SCOPE, OOS.DIAGNOSIS),
    ("is this mole melanoma?", IN.OUT_OF_SCOPE, OOS.DIAGNOSIS),
    ("será que é câncer?", IN.OUT_OF_SCOPE, OOS.DIAGNOSIS),
    ("isso é grave?", IN.OUT_OF_SCOPE, OOS.DIAGNOSIS),
    ("minha pressão está 15 por 9, é grave?", IN.OUT_OF_SCOPE, OOS.DIAGNOSIS),
    ("could this be melanoma? I want to book a dermatologist", IN.OUT_OF_SCOPE, OOS.DIAGNOSIS),
    # out of scope: dosage
    ("how many mg of ibuprofen should I take", IN.OUT_OF_SCOPE, OOS.DOSAGE),
    ("posso tomar dipirona?", IN.OUT_OF_SCOPE, OOS.DOSAGE),
    ("qual a dose de losartana?", IN.OUT_OF_SCOPE, OOS.DOSAGE),
    ("can I take ibuprofen with losartan?", IN.OUT_OF_SCOPE, OOS.DOSAGE),
    ("remédio para dor de cabeça", IN.OUT_OF_SCOPE, OOS.DOSAGE),
    ("should I stop taking my metoprolol before the appointment?", IN.OUT_OF_SCOPE, OOS.DOSAGE),
    # out of scope: another patient
    ("show me Fábio Costa's record", IN.OUT_OF_SCOPE, OOS.OTHER_PATIENT),
    ("what medications is Ana Silva taking?", IN.OUT_OF_SCOPE, OOS.OTHER_PATIENT),
    ("mostre os dados do paciente Fábio Costa", IN.OUT_OF_SCOPE, OOS.OTHER_PATIENT),
    ("dados do paciente CARD-A002", IN.OUT_OF_SCOPE, OOS.OTHER_PATIENT),
    ("who else is booked with Dr. Fernando?", IN.OUT_OF_SCOPE, OOS.OTHER_PATIENT),
    ("list all patients", IN.OUT_OF_SCOPE, OOS.OTHER_PATIENT),
    ("quais pacientes a Dra. Beatriz atende?", IN.OUT_OF_SCOPE, OOS.OTHER_PATIENT),
    ("qual o telefone da Mariana?", IN.OUT_OF_SCOPE, OOS.OTHER_PATIENT),
    ("cancel DERM-B004's appointment", IN.OUT_OF_SCOPE, OOS.OTHER_PATIENT),
    ("consultas da minha mãe", IN.OUT_OF_SCOPE, OOS.OTHER_PATIENT),
    # out of scope: lab or image
    ("interpret my blood test", IN.OUT_OF_SCOPE, OOS.LAB_OR_IMAGE),
    ("o que significa meu exame", IN.OUT_OF_SCOPE, OOS.LAB_OR_IMAGE),
    ("what does my x-ray show?", IN.OUT_OF_SCOPE, OOS.LAB_OR_IMAGE),
    ("meu hemograma está normal?", IN.OUT_OF_SCOPE, OOS.LAB_OR_IMAGE),
    ("can you look at this photo of my rash?", IN.OUT_OF_SCOPE, OOS.LAB_OR_IMAGE),
    # out of scope: specialty not offered
    ("quero marcar com neurologista", IN.OUT_OF_SCOPE, OOS.UNSUPPORTED_SPECIALTY),
    ("preciso de um pediatra", IN.OUT_OF_SCOPE, OOS.UNSUPPORTED_SPECIALTY),
    ("tem ginecologista amanhã?", IN.OUT_OF_SCOPE, OOS.UNSUPPORTED_SPECIALTY),
    ("I need a psychiatrist next week", IN.OUT_OF_SCOPE, OOS.UNSUPPORTED_SPECIALTY),
    ("dentist please", IN.OUT_OF_SCOPE, OOS.UNSUPPORTED_SPECIALTY),
    ("book an ophthalmologist", IN.OUT_OF_SCOPE, OOS.UNSUPPORTED_SPECIALTY),
    # out of scope: not healthcare
    ("what's the weather tomorrow?", IN.OUT_OF_SCOPE, OOS.OTHER),
    ("quem ganhou o jogo de futebol ontem?", IN.OUT_OF_SCOPE, OOS.OTHER),
    ("write python code to sort a list", IN.OUT_OF_SCOPE, OOS.OTHER),
    ("what's the capital of France?", IN.OUT_OF_SCOPE, OOS.OTHER),
    ("book a table at a restaurant", IN.OUT_OF_SCOPE, OOS.OTHER),
    # a booking noun with the specialty or doctor in between
    ("I want to make a cardiology appointment", IN.BOOK, None),
    ("can I get an orthopedics consultation?", IN.BOOK, None),
    ("I need a skin doctor appointment next week", IN.BOOK, None),
    ("i'd like a derm appointment with dr ricardo", IN.BOOK, None),
    # "passar a consulta … para": the booking named, with its specialty or doctor, then the new day
    ("quero passar a consulta de dermatologia para dia 3/12", IN.RESCHEDULE, None),
    ("passa minha consulta com o dr ricardo pra sexta", IN.RESCHEDULE, None),
    ("passe o agendamento de cardiologia para segunda", IN.RESCHEDULE, None),
    # not being able to go is a reschedule, unless a cancel is asked as well
    ("I can't make it on monday, please cancel it", IN.CANCEL, None),
    ("nao vou poder ir, pode desmarcar", IN.CANCEL, None),
    ("não consigo ir amanhã, cancela por favor", IN.CANCEL, None),
    ("I cant make it thursday", IN.RESCHEDULE, None),
    # a bare time on a past day asks about that day (the answer says it passed); with a verb it is a booking
    ("dermatologia ontem às 15h", IN.LIST, None),
    ("Dr. Fernando yesterday at 10", IN.LIST, None),
    ("quero marcar ortopedia ontem às 9", IN.BOOK, None),
    # a detail of one's own booking: its code, time, day, place
    ("qual o número do meu agendamento?", IN.MY_APPOINTMENTS, None),
    ("qual e o protocolo da minha consulta", IN.MY_APPOINTMENTS, None),
    ("what's my appointment id?", IN.MY_APPOINTMENTS, None),
    ("my booking code?", IN.MY_APPOINTMENTS, None),
    ("what is the address of my dermatology appointment?", IN.MY_APPOINTMENTS, None),
    ("a minha consulta de cardiologia é que dia?", IN.MY_APPOINTMENTS, None),
    ("minha consulta com a dra beatriz vai ser em que horario?", IN.MY_APPOINTMENTS, None),
    ("my appointment with dr ricardo is at what time?", IN.MY_APPOINTMENTS, None),
    ("what day is my ortho appointment?", IN.MY_APPOINTMENTS, None),
    # health education: causes, links, cures
    ("are migraines caused by stress?", IN.GENERAL_QUESTION, None),
    ("is eczema linked to allergies", IN.GENERAL_QUESTION, None),
    ("can psoriasis be cured?", IN.GENERAL_QUESTION, None),
    ("what triggers gout?", IN.GENERAL_QUESTION, None),
    ("a gota é causada pela alimentação?", IN.GENERAL_QUESTION, None),
    ("enxaqueca tem a ver com estresse?", IN.GENERAL_QUESTION, None),
    ("psoriase pode ser curada?", IN.GENERAL_QUESTION, None),
    ("o que piora a artrose?", IN.GENERAL_QUESTION, None),
    # small talk after a greeting, about the assistant itself, and colloquial
    ("hello, how are you today?", IN.GREETING, None),
    ("hey there! what can you do?", IN.GREETING, None),
    ("oi, tudo bom?", IN.GREETING, None),
    ("e aí, tudo tranquilo?", IN.GREETING, None),
    ("eai, td certo?", IN.GREETING, None),
    ("how's it going?", IN.GREETING, None),
    ("what's up", IN.GREETING, None),
    ("is this a bot?", IN.GREETING, None),
    ("am i talking to a real person?", IN.GREETING, None),
    ("você é um robô?", IN.GREETING, None),
    ("vc é humano?", IN.GREETING, None),
    ("estou falando com uma pessoa de verdade?", IN.GREETING, None),
    ("qual o seu nome?", IN.GREETING, None),
    ("what's your name?", IN.GREETING, None),
    ("ok", IN.GREETING, None),  # an acknowledgement; a pending question reads it as a yes (confirmation)
    # nothing recognised
    ("10", IN.UNKNOWN, None),
    ("asdf qwerty", IN.UNKNOWN, None),
    ("não quero cancelar", IN.UNKNOWN, None),
    ("", IN.UNKNOWN, None),
]


@pytest.mark.parametrize(("message", "intent", "out_of_scope"), INTENTS)
def test_intent(message: str, intent: Intent, out_of_scope: OutOfScope | None) -> None:
    result = u(message)
    assert (result.intent, result.out_of_scope) == (intent, out_of_scope)


@pytest.mark.parametrize(
    "message",
    [
        "I was diagnosed with psoriasis, I need a dermatologist",
        "I have a rash on my skin, I need a dermatologist",
        "joguei futebol e machuquei o joelho, preciso de um ortopedista",
        "quero marcar uma consulta para mostrar meus exames ao cardiologista",
        "do I have to bring anything to the appointment?",
        "sou paciente da clínica e quero marcar dermatologia",
    ],
)
def test_scheduling_phrasings_are_not_out_of_scope(message: str) -> None:
    assert u(message).out_of_scope is None


# --- specialties -----------------------------------------------------------------------------------------

SPECIALTIES = [
    ("quero um cardiologista", "cardiology", None),
    ("cardio amanhã", "cardiology", None),
    ("médico do coração", "cardiology", None),
    ("heart doctor next week", "cardiology", None),
    ("cardiac appointment", "cardiology", None),
    ("DERMATOLOGISTA", "dermatology", None),
    ("médico de pele", "dermatology", None),
    ("skin specialist", "dermatology", None),
    ("derma", "dermatology", None),
    ("ortopedista", "orthopedics", None),
    ("orthopaedic surgeon", "orthopedics", None),
    ("bone doctor", "orthopedics", None),
    ("Ortopedia e Traumatologia", "orthopedics", None),
    ("tenho uma mancha na pele", None, None),  # a symptom is not a specialty request
    ("my heart is racing", None, None),
    ("neurologista", None, "neurologista"),
    ("Pediatra", None, "pediatra"),
    ("ortodontista", None, "ortodontista"),
    ("gynecologist", None, "gynecologist"),
    ("cardiologista ou neurologista?", "cardiology", "neurologista"),
]


@pytest.mark.parametrize(("message", "specialty", "unsupported"), SPECIALTIES)
def test_specialty(message: str, specialty: str | None, unsupported: str | None) -> None:
    result = u(message)
    assert (result.specialty, result.unsupported_specialty) == (specialty, unsupported)


# --- doctors ---------------------------------------------------------------------------------------------

DOCTOR_MENTIONS = [
    ("Dr. Fernando", ("Dr. Fernando Almeida",)),
    ("quero com o Fernando", ("Dr. Fernando Almeida",)),
    ("Almeida", ("Dr. Fernando Almeida",)),
    ("dr almeida", ("Dr. Fernando Almeida",)),
    ("dra beatriz", ("Dra. Beatriz Souza",)),
    ("DRA. BEATRIZ SOUZA", ("Dra. Beatriz Souza",)),
    ("Dr. Andre Teixeira", ("Dr. André Teixeira",)),
    ("dra patricia", ("Dra. Patrícia Rocha",)),
    ("doutora Helena amanhã", ("Dra. Helena Castro",)),
    ("Dr. Fernando or Dra. Camila", ("Dr. Fernando Almeida", "Dra. Camila Ferreira")),
    ("Dr. Fábio", ()),  # a patient's first name, not a doctor
    ("Maria Souza", ()),  # shares a surname with Dra. Beatriz Souza
    ("Fernando Souza", ()),  # first name of one doctor, surname of another
    ("a clínica de São Paulo", ()),
    ("cardiologista", ()),
]


@pytest.mark.parametrize(("message", "doctors"), DOCTOR_MENTIONS)
def test_doctors(message: str, doctors: tuple[str, ...]) -> None:
    assert u(message).doctors == doctors


def test_doctors_come_from_known_doctors_only() -> None:
    result = understand("Dr. Fernando", today=SUNDAY, known_doctors=["Dra. Camila Ferreira"])
    assert result.doctors == ()


# --- dates -----------------------------------------------------------------------------------------------

DATES = [
    # numeric: day/month, the next one on or after today
    ("18/07", SUNDAY, D(2027, 7, 18)),
    ("dia 18/07", SUNDAY, D(2027, 7, 18)),
    ("25/12", SUNDAY, D(2026, 12, 25)),
    ("22/11", SUNDAY, D(2026, 11, 22)),
    ("18/07/2027", SUNDAY, D(2027, 7, 18)),
    ("7/18", SUNDAY, D(2027, 7, 18)),  # only month/day makes sense
    ("2027-01-05", SUNDAY, D(2027, 1, 5)),
    ("31/02", SUNDAY, None),  # impossible: asked back, never guessed
    # month names
    ("July 18", SUNDAY, D(2027, 7, 18)),
    ("18 de julho", SUNDAY, D(2027, 7, 18)),
    ("18 de julho às 10h", SUNDAY, D(2027, 7, 18)),
    ("3 de março", SUNDAY, D(2027, 3, 3)),
    ("December 3rd", SUNDAY, D(2026, 12, 3)),
    ("22 de novembro", SUNDAY, D(2026, 11, 22)),
    ("1º de dezembro", SUNDAY, D(2026, 12, 1)),
    ("10 dez", SUNDAY, D(2026, 12, 10)),
    ("3 set", SUNDAY, D(2027, 9, 3)),  # dateparser alone reads this as 3 November
    ("15 de janeiro de 2027", SUNDAY, D(2027, 1, 15)),
    # day of month: the next such day on or after today
    ("dia 18", SUNDAY, D(2026, 12, 18)),
    ("on the 18th", SUNDAY, D(2026, 12, 18)),
    ("no dia 25", SUNDAY, D(2026, 11, 25)),
    ("the 22nd", SUNDAY, D(2026, 11, 22)),
    ("dia 31", SUNDAY, D(2026, 12, 31)),
    # relative words
    ("amanhã", SUNDAY, D(2026, 11, 23)),
    ("amanha", WEDNESDAY, D(2026, 11, 26)),
    ("tomorrow", WEDNESDAY, D(2026, 11, 26)),
    ("hoje", WEDNESDAY, WEDNESDAY),
    ("today", SUNDAY, SUNDAY),
    ("depois de amanhã", SUNDAY, D(2026, 11, 24)),
    ("day after tomorrow", WEDNESDAY, D(2026, 11, 27)),
    ("daqui a 3 dias", SUNDAY, D(2026, 11, 25)),
    ("in 2 weeks", SUNDAY, None),  # a week, not a day (RANGES)
    # weekdays: the next one strictly after today; "this"/"esta" includes today
    ("next Monday", SUNDAY, D(2026, 11, 23)),
    ("segunda que vem", SUNDAY, D(2026, 11, 23)),
    ("próxima segunda", WEDNESDAY, D(2026, 11, 30)),
    ("sexta-feira", SUNDAY, D(2026, 11, 27)),
    ("sexta", WEDNESDAY, D(2026, 11, 27)),
    ("Friday", FRIDAY, D(2026, 12, 4)),
    ("this Friday", FRIDAY, FRIDAY),
    ("esta sexta", FRIDAY, FRIDAY),
    ("sábado", WEDNESDAY, D(2026, 11, 28)),
    ("quarta", WEDNESDAY, D(2026, 12, 2)),
    ("sexta da semana que vem", WEDNESDAY, D(2026, 12, 4)),
    ("Friday next week", WEDNESDAY, D(2026, 12, 4)),
    # several dates: the one after "para"/"to" wins
    ("move it from Monday to Friday", WEDNESDAY, D(2026, 11, 27)),
    ("de segunda para quinta", WEDNESDAY, D(2026, 11, 26)),
    ("mudar do dia 10/12 para o dia 15/12", SUNDAY, D(2026, 12, 15)),
    # not dates
    ("às 14:00", SUNDAY, None),
    ("10h", SUNDAY, None),
    ("a segunda opção", SUNDAY, None),
    ("3 out of 5", SUNDAY, None),
    ("may I book?", SUNDAY, None),
    ("bom dia", SUNDAY, None),
    ("em 2-3 dias", SUNDAY, None),
    ("10.30", SUNDAY, None),
]


@pytest.mark.parametrize(("message", "today", "expected"), DATES)
def test_date(message: str, today: dt.date, expected: dt.date | None) -> None:
    assert u(message, today).date == expected


RANGES = [
    ("semana que vem", SUNDAY, (D(2026, 11, 23), D(2026, 11, 29))),
    ("next week", WEDNESDAY, (D(2026, 11, 30), D(2026, 12, 6))),
    ("próxima semana", FRIDAY, (D(2026, 11, 30), D(2026, 12, 6))),
    ("esta semana", WEDNESDAY, (WEDNESDAY, D(2026, 11, 29))),
    ("this week", SUNDAY, (D(2026, 11, 23), D(2026, 11, 29))),  # on a weekend: the coming week
    ("em dezembro", SUNDAY, (D(2026, 12, 1), D(2026, 12, 31))),
    ("in January", SUNDAY, (D(2027, 1, 1), D(2027, 1, 31))),
    ("novembro", WEDNESDAY, (WEDNESDAY, D(2026, 11, 30))),  # the current month: from today
    ("outubro", SUNDAY, (D(2027, 10, 1), D(2027, 10, 31))),  # passed: next year
    ("this month", SUNDAY, (SUNDAY, D(2026, 11, 30))),
    ("mês que vem", SUNDAY, (D(2026, 12, 1), D(2026, 12, 31))),
    # "in two weeks": the week that day falls in; "within": from today until then
    ("in 2 weeks", SUNDAY, (D(2026, 11, 30), D(2026, 12, 6))),
    ("daqui a duas semanas", WEDNESDAY, (D(2026, 12, 7), D(2026, 12, 13))),
    ("cardiologia em duas semanas", FRIDAY, (D(2026, 12, 7), D(2026, 12, 13))),
    ("in a week", WEDNESDAY, (D(2026, 11, 30), D(2026, 12, 6))),
    ("within two weeks", WEDNESDAY, (WEDNESDAY, D(2026, 12, 9))),
    ("daqui a 3 dias", SUNDAY, None),
    ("amanhã", SUNDAY, None),
    ("march", SUNDAY, None),  # "march" and "may" alone are words, not months
]


@pytest.mark.parametrize(("message", "today", "expected"), RANGES)
def test_date_range(message: str, today: dt.date, expected: tuple[dt.date, dt.date] | None) -> None:
    assert u(message, today).date_range == expected


# --- times -----------------------------------------------------------------------------------------------

TIMES = [
    ("10h", "10:00"),
    ("10h30", "10:30"),
    ("10h30min", "10:30"),
    ("10:30", "10:30"),
    ("às 14h", "14:00"),
    ("as 14", "14:00"),
    ("14hs", "14:00"),
    ("2 pm", "14:00"),
    ("2pm", "14:00"),
    ("2:30 pm", "14:30"),
    ("10 a.m.", "10:00"),
    ("12 pm", "12:00"),
    ("14:00", "14:00"),
    ("at 10", "10:00"),
    ("às 10", "10:00"),
    ("ao meio-dia", "12:00"),
    ("at noon", "12:00"),
    ("às 3 da tarde", "15:00"),
    ("8 da noite", "20:00"),
    ("o das 9h", "09:00"),
    ("Dr. Fernando on the 18th at 10", "10:00"),
    ("move it from 10h to 14h", "14:00"),
    ("25h", None),  # impossible
    ("às 10h75", None),
    ("at 3", None),  # a bare hour outside 7-20 is too ambiguous
    ("daqui a 2 horas", None),  # a duration
    ("as 3 opções", None),
    ("18/07", None),
    ("on the 18th", None),
    ("opção 2", None),
]


@pytest.mark.parametrize(("message", "expected"), TIMES)
def test_time(message: str, expected: str | None) -> None:
    assert u(message).time == expected


# --- slot references -------------------------------------------------------------------------------------

SLOT_REFERENCES = [
    ("I'll take the earliest one", None, True),
    ("o mais cedo", None, True),
    ("o primeiro horário", None, True),
    ("first available", None, True),
    ("o quanto antes", None, True),
    ("as soon as possible", None, True),
    ("the first one", 1, False),
    ("o primeiro", 1, False),
    ("the second one", 2, False),
    ("second", 2, False),
    ("a segunda opção", 2, False),
    ("quero a segunda", 2, False),
    ("a terceira", 3, False),
    ("option 3", 3, False),
    ("opção 2", 2, False),
    ("o 2º", 2, False),
    ("the 2nd one", 2, False),
    ("2", 2, False),
    ("segunda", None, False),  # Monday
    ("na segunda às 10h", None, False),
    ("quinta-feira", None, False),
    ("first time here", None, False),
    ("wait a second", None, False),
]


@pytest.mark.parametrize(("message", "choice", "earliest"), SLOT_REFERENCES)
def test_slot_reference(message: str, choice: int | None, earliest: bool) -> None:
    result = u(message)
    assert (result.choice, result.earliest) == (choice, earliest)


REFERENCES = [
    ("move it to Friday", True),
    ("cancel that one", True),
    ("cancel my appointment", True),
    ("quero desmarcar minha consulta", True),
    ("pode remarcar essa?", True),
    ("a mesma, mas às 15h", True),
    ("horários de cardiologia esta semana", False),
    ("quero marcar uma consulta", False),
]


@pytest.mark.parametrize(("message", "expected"), REFERENCES)
def test_refers_to_previous(message: str, expected: bool) -> None:
    assert u(message).refers_to_previous is expected


CONFIRMATIONS = [
    ("sim", True), ("ok", True), ("yes please", True), ("pode ser!", True), ("sim, pode marcar", True),
    ("não", False), ("no, I want Friday", False), ("não quero cancelar", None), ("simples", None),
    ("nope", False), ("okay", True), ("quero marcar", None),
]


@pytest.mark.parametrize(("message", "expected"), CONFIRMATIONS)
def test_confirmation(message: str, expected: bool | None) -> None:
    assert u(message).confirmation is expected


# --- language --------------------------------------------------------------------------------------------

LANGUAGES = [
    ("quero marcar uma consulta", None, "pt"),
    ("I want to book an appointment", None, "en"),
    ("amanhã às 10h", None, "pt"),
    ("tomorrow at 10", None, "en"),
    ("olá", None, "pt"),
    ("hi", "pt", "en"),
    ("show me Fábio Costa's record", None, "en"),
    ("Dr. Fernando on the 18th at 10", None, "en"),
    ("dermatologista", None, "pt"),
    ("dermatologist", None, "en"),
    ("sexta", "en", "pt"),
    ("Friday", "pt", "en"),
    ("10h", "pt", "pt"),  # no clue: the session's language
    ("10h", "en", "en"),
    ("ok", "pt", "pt"),
    ("ok", None, "en"),
    ("2", "pt", "pt"),
    ("Dr. Fernando", "pt", "pt"),
]


@pytest.mark.parametrize(("message", "previous", "expected"), LANGUAGES)
def test_language(message: str, previous: str | None, expected: str) -> None:
    assert u(message, previous=previous).language == expected


# --- whole messages --------------------------------------------------------------------------------------


def test_the_issue_booking_follow_up() -> None:
    assert u("Dr. Fernando on the 18th at 10") == Understanding(
        language="en", intent=Intent.BOOK, out_of_scope=None, specialty=None, unsupported_specialty=None,
        doctors=("Dr. Fernando Almeida",), date=D(2026, 12, 18), date_range=None, time="10:00",
        earliest=False, choice=None, refers_to_previous=False, confirmation=None,
        date_guessed=True,  # no month written: the answer says which 18th it took
    )


@pytest.mark.parametrize(("message", "guessed", "part"), [
    ("cardiology on the 18th", True, None),
    ("cardiologia 18/01", True, None),
    ("cardiologia 18/01/2027", False, None),
    ("cardiology next friday", True, None),
    ("cardiology on friday", False, None),
    ("dermatologia amanhã à tarde", False, "afternoon"),
    ("cardiology tomorrow morning", False, "morning"),
    ("ortopedia hoje à noite", False, "evening"),
    ("dermatology in the evening", False, "evening"),
    ("consulta às 3 da tarde", False, None),  # a clock time, not a part of the day
])
def test_a_guessed_month_and_a_part_of_the_day(message: str, guessed: bool, part: str | None) -> None:
    result = u(message)
    assert (result.date_guessed, result.part_of_day) == (guessed, part)


def test_the_issue_reschedule() -> None:
    result = u("remarcar minha consulta com a Dra. Beatriz para sexta às 14h", WEDNESDAY)
    assert (result.language, result.intent) == ("pt", Intent.RESCHEDULE)
    assert result.doctors == ("Dra. Beatriz Souza",)
    assert (result.date, result.time, result.refers_to_previous) == (D(2026, 11, 27), "14:00", True)


def test_the_issue_list_next_week() -> None:
    result = u("tem horário com dermatologista semana que vem?", WEDNESDAY)
    assert (result.intent, result.specialty, result.date, result.date_range) == (
        Intent.LIST, "dermatology", None, (D(2026, 11, 30), D(2026, 12, 6))
    )


def test_the_issue_unsupported_specialty_keeps_the_users_word() -> None:
    result = u("Quero marcar com um Neurologista amanhã às 9h")
    assert (result.intent, result.out_of_scope, result.unsupported_specialty, result.date, result.time) == (
        Intent.OUT_OF_SCOPE, OutOfScope.UNSUPPORTED_SPECIALTY, "neurologista", D(2026, 11, 23), "09:00"
    )


def test_understanding_is_deterministic() -> None:
    for message, *_ in INTENTS:
        assert u(message) == u(message)


ODD_INPUT = ["🙂", "?!", "   ", "x" * 5000, "dia 99", "99/99/9999", "às 99h", "option 0"]


@pytest.mark.parametrize("message", ODD_INPUT)
def test_odd_input_is_understood_without_error(message: str) -> None:
    result = u(message)
    assert result.language in ("pt", "en")
    assert result.date is None and result.time is None


def test_fold_keeps_length_and_strips_accents() -> None:
    text = "Remarcação às 14h com a Dra. Patrícia — São Paulo\u2019s \u0130"
    assert len(fold(text)) == len(text)
    assert fold("ÀÉÎÕÜÇ ãéíóúâêô") == "aeiouc aeiouaeo"


def test_dateparser_only_sees_date_fragments() -> None:
    before = when._library_date.cache_info()
    u("quero marcar com cardiologista às 10h, o das 14h30 ou option 2")
    u("18/07 or the 18th at 2 pm")  # numeric and day-of-month forms are computed without the library
    after = when._library_date.cache_info()
    assert (after.hits, after.misses) == (before.hits, before.misses)


def test_understanding_is_fast() -> None:
    messages = [row[0] for table in (INTENTS, DATES, TIMES, SLOT_REFERENCES, LANGUAGES) for row in table]
    timings = []
    for message in messages:
        start = time.perf_counter()
        u(message, WEDNESDAY)
        timings.append(time.perf_counter() - start)
    assert statistics.mean(timings) < 0.002
    assert max(timings) < 0.05


# --- chat shorthand, past weekdays, asking what was booked (issue 16, heldout-d round) -----------------

SHORTHAND = [
    ("qdo é minha consulta?", IN.MY_APPOINTMENTS),
    ("qndo e a minha proxima consulta", IN.MY_APPOINTMENTS),
    ("what time is my derm appt?", IN.MY_APPOINTMENTS),
    ("where is my next appointment", IN.MY_APPOINTMENTS),
    ("can u move my appt to wednesday", IN.RESCHEDULE),
    ("pls cancel my appt", IN.CANCEL),
    ("marca cons com cardiologista quarta 9h", IN.BOOK),
    ("agenda uma consulta com o ortopedista amanhã", IN.BOOK),
    ("de onde vc tirou essa informação?", IN.SOURCES),
    ("whats your source for that", IN.SOURCES),
    ("what is your reference", IN.SOURCES),
    ("thx, that's all", IN.GREETING),
    ("obrigado, era só isso", IN.GREETING),
]


@pytest.mark.parametrize(("message", "intent"), SHORTHAND)
def test_chat_shorthand_is_read_as_the_word_meant(message: str, intent: Intent) -> None:
    assert u(message).intent == intent


ASKED_WHAT_WAS_BOOKED = [
    "did i book anything with dr ricardo?", "have I booked an appointment for friday?",
    "do i have something scheduled next week?", "eu agendei alguma coisa pra sexta?",
    "marquei algum horário com a dra beatriz?", "me mostra o que eu tenho agendado",
    "o que tenho marcado?", "remind me when my appointment is",
]


@pytest.mark.parametrize("message", ASKED_WHAT_WAS_BOOKED)
def test_asking_what_was_booked_lists_my_appointments(message: str) -> None:
    assert u(message).intent == IN.MY_APPOINTMENTS


@pytest.mark.parametrize(("message", "intent", "choice"), [
    ("drop the first one", IN.CANCEL, 1),
    ("remove the second one please", IN.CANCEL, 2),
    ("delete that one", IN.CANCEL, None),
    ("desmarca a segunda", IN.CANCEL, 2),
    ("cancela a primeira", IN.CANCEL, 1),
    ("can we move the first one to friday?", IN.RESCHEDULE, 1),
    ("move the other one to next week", IN.RESCHEDULE, None),
])
def test_a_listed_booking_picked_for_cancel_or_reschedule(message: str, intent: Intent,
                                                          choice: int | None) -> None:
    result = u(message)
    assert (result.intent, result.choice) == (intent, choice)


def test_a_weekday_after_cancel_with_its_preposition_stays_a_day() -> None:
    result = u("cancela a de segunda-feira")
    assert (result.intent, result.choice, result.date) == (IN.CANCEL, None, D(2026, 11, 23))


@pytest.mark.parametrize(("message", "today", "expected"), [
    ("reschedule to last friday at 1pm", SUNDAY, D(2026, 11, 20)),
    ("sexta passada", SUNDAY, D(2026, 11, 20)),
    ("na última sexta-feira", SUNDAY, D(2026, 11, 20)),
    ("segunda-feira passada", D(2026, 11, 23), D(2026, 11, 16)),  # on a Monday: a week ago
    ("last sunday", SUNDAY, D(2026, 11, 15)),
    ("past tuesday", WEDNESDAY, D(2026, 11, 24)),
])
def test_a_last_weekday_is_the_latest_before_today_and_past(message: str, today: dt.date,
                                                            expected: dt.date) -> None:
    result = u(message, today)
    assert (result.date, result.date_past) == (expected, True)


@pytest.mark.parametrize(("message", "intent", "out_of_scope"), [
    ("qual é a frequência cardíaca normal?", IN.GENERAL_QUESTION, None),
    ("qual o colesterol ideal", IN.GENERAL_QUESTION, None),
    ("quais os valores de pressao normais", IN.GENERAL_QUESTION, None),
    ("whats a healthy resting heart rate for adults", IN.GENERAL_QUESTION, None),
    ("what is a normal blood sugar level?", IN.GENERAL_QUESTION, None),
    ("how much sleep should an adult get", IN.GENERAL_QUESTION, None),
    ("how often should people get a skin check", IN.GENERAL_QUESTION, None),
    ("me ajuda com meu imposto de renda", IN.OUT_OF_SCOPE, OOS.OTHER),
    ("help me file my taxes", IN.OUT_OF_SCOPE, OOS.OTHER),
    ("pede uma pizza pra mim", IN.OUT_OF_SCOPE, OOS.OTHER),
    ("me recomenda uma série na netflix", IN.OUT_OF_SCOPE, OOS.OTHER),
    ("show me the medical record of patient John Silva", IN.OUT_OF_SCOPE, OOS.OTHER_PATIENT),
    ("open the chart for another patient", IN.OUT_OF_SCOPE, OOS.OTHER_PATIENT),
    ("any derm slots this friday?", IN.LIST, None),
])
def test_reference_values_and_more_of_what_is_not_ours(message: str, intent: Intent,
                                                        out_of_scope: OutOfScope | None) -> None:
    result = u(message)
    assert (result.intent, result.out_of_scope) == (intent, out_of_scope)


@pytest.mark.parametrize(("message", "intent"), [
    ("minhas consultas agendadas", IN.MY_APPOINTMENTS),
    ("agendamentos marcados?", IN.MY_APPOINTMENTS),
    ("show me my upcoming bookings", IN.MY_APPOINTMENTS),
    ("bring up my reservations pls", IN.MY_APPOINTMENTS),
    ("are we still scheduled for cardio?", IN.MY_APPOINTMENTS),
    ("is my derm appt still on", IN.MY_APPOINTMENTS),
    ("a consulta do dr ricardo ainda esta marcada?", IN.MY_APPOINTMENTS),
    ("que horas é a consulta que eu agendei", IN.MY_APPOINTMENTS),
    ("when is the appointment I booked", IN.MY_APPOINTMENTS),
    ("desmarca a consulta de ortopedia que eu tinha marcado", IN.CANCEL),
    ("cancel the derm appointment I booked", IN.CANCEL),
    ("cancela e marca outra pra sexta", IN.RESCHEDULE),
])
def test_the_booking_already_made_is_asked_about_or_cancelled_not_booked_again(message: str,
                                                                                intent: Intent) -> None:
    assert u(message).intent == intent


@pytest.mark.parametrize(("message", "source"), [
    ("de onde vc tirou isso", None), ("tirou isso de onde?", None), ("where's that from", None),
    ("qual a origem dessa resposta", None), ("where did this info come from", None),
    ("what is your answer based on?", None), ("essa informação é baseada em que?", None),
    ("em qual estudo vc se baseou", None), ("show me source number 2", 2), ("abre a fonte num 3", 3),
])
def test_asking_where_the_last_answer_came_from_is_sources(message: str, source: int | None) -> None:
    result = u(message)
    assert (result.intent, result.source) == (IN.SOURCES, source)


@pytest.mark.parametrize("message", [
    "what are the treatments for eczema", "tratamentos pra psoriase", "como se trata gota?",
    "como se previne infarto", "how is gout diagnosed", "is red meat bad for your heart",
    "açucar faz mal pro coração?", "colesterol 240 é alto?", "how much salt is too much",
])
def test_health_education_questions_in_more_forms(message: str) -> None:
    assert u(message).intent == IN.GENERAL_QUESTION


@pytest.mark.parametrize("message", ["oii", "oiee", "hii", "heyyy", "olaaa", "bom diaaa", "boa noiteee"])
def test_greetings_with_letters_drawn_out(message: str) -> None:
    assert u(message).intent == IN.GREETING


@pytest.mark.parametrize("message", [
    "write an email to my landlord", "escreve uma carta pro meu vizinho", "who won the premier league",
    "quem ganhou a libertadores",
])
def test_writing_chores_and_sports_results_are_not_ours(message: str) -> None:
    assert (u(message).intent, u(message).out_of_scope) == (IN.OUT_OF_SCOPE, OOS.OTHER)


@pytest.mark.parametrize(("message", "expected"), [
    ("derm tmrw?", D(2026, 11, 23)), ("cardio 2moro 10am", D(2026, 11, 23)),
    ("ortho thurs", D(2026, 11, 26)), ("book dr fernando fri 9am", D(2026, 11, 27)),
    ("cardiologia na seg", D(2026, 11, 23)), ("anything on sat?", D(2026, 11, 28)),
    ("derm wed 3pm", D(2026, 11, 25)),
])
def test_tomorrow_and_weekdays_as_typed_in_chat(message: str, expected: dt.date) -> None:
    assert u(message).date == expected


@pytest.mark.parametrize("message", ["i sat down and my knee hurt", "the sun makes my rash worse"])
def test_weekday_abbreviations_that_are_words_need_a_day_word(message: str) -> None:
    assert u(message).date is None


@pytest.mark.parametrize(("message", "intent", "choice"), [
    ("desmarca a terceira consulta da lista", IN.CANCEL, 3),
    ("cancel the second appointment on the list", IN.CANCEL, 2),
    ("move my derm appt to a later time", IN.RESCHEDULE, None),
    ("switch the cardio booking to friday", IN.RESCHEDULE, None),
    ("grab me the earliest ortho slot", IN.BOOK, None),
    ("snag me a derm appointment friday", IN.BOOK, None),
])
def test_picking_from_a_list_and_chat_verbs(message: str, intent: Intent, choice: int | None) -> None:
    result = u(message)
    assert (result.intent, result.choice) == (intent, choice)


@pytest.mark.parametrize(("message", "intent"), [
    ("agenda dermato amanha as 9", IN.BOOK), ("agenda do dr paulo amanha?", IN.LIST),
    ("me encaixa amanha na ortopedia", IN.BOOK), ("can you squeeze me in with dermatology tomorrow", IN.BOOK),
    ("push my appointment with dr paulo to friday", IN.RESCHEDULE),
    ("move appointment DERM-F-APT-03AE504A37 to monday 10am", IN.RESCHEDULE),
    ("passa a consulta CARD-A-APT-4D7E19B0C2 pro dia 5", IN.RESCHEDULE),
])
def test_imperatives_being_fitted_in_and_moves_without_my(message: str, intent: Intent) -> None:
    assert u(message).intent == intent


@pytest.mark.parametrize(("message", "choice", "earliest"), [
    ("marca o 3rd", 3, False), ("quero o 2nd pra mim", 2, False), ("me encaixa no mais cedo", None, True),
])
def test_english_ordinal_suffixes_and_the_earliest_after_no(
        message: str, choice: int | None, earliest: bool) -> None:
    result = u(message)
    assert (result.choice, result.earliest) == (choice, earliest)


@pytest.mark.parametrize(("message", "time"), [
    ("quero marcar as oito da manha com dr paulo", "08:00"), ("dra renata quinta às onze horas", "11:00"),
    ("cardiology tomorrow at seven pm", "19:00"), ("daqui a duas horas", None), ("in two hours", None),
])
def test_hours_in_words_but_not_durations(message: str, time: str | None) -> None:
    assert u(message).time == time


@pytest.mark.parametrize("message", [
    "que dia eu marquei com a dra juliana mesmo", "when did i book with dr paulo?", "whens my appt?",
    "where's my next appointment", "quais sao meus appointments?", "meus appts",
    "can you check if my appointment is booked?", "pode verificar se minha consulta ficou marcada?",
])
def test_asking_about_what_was_booked_in_more_forms(message: str) -> None:
    assert u(message).intent == IN.MY_APPOINTMENTS


@pytest.mark.parametrize("message", [
    "link?", "which paper says that", "which study says that?", "isso vem de qual estudo",
    "de qual estudo veio isso?", "isso é de qual diretriz?", "who published that", "quem disse isso?",
    "manda o link",
])
def test_the_study_link_or_author_behind_the_answer_is_its_sources(message: str) -> None:
    assert u(message).intent == IN.SOURCES


@pytest.mark.parametrize("message", ["show me studies on psoriasis", "em que dia vem a consulta"])
def test_studies_on_a_topic_are_no_sources_question(message: str) -> None:
    assert u(message).intent != IN.SOURCES


@pytest.mark.parametrize("message", [
    "eczema pega?", "psoriase transmite?", "what counts as high blood pressure", "o que é considerado febre?",
    "quais os symptoms de heart failure", "symptoms da psoriase", "what is urticaria? é grave?",
])
def test_contagion_thresholds_and_mixed_language_questions_are_general(message: str) -> None:
    assert u(message).intent == IN.GENERAL_QUESTION


def test_is_it_serious_about_ones_own_finding_stays_out_of_scope() -> None:
    assert u("minha mancha é grave?").out_of_scope == OOS.DIAGNOSIS


@pytest.mark.parametrize("message", [
    "bom diaa, tudo certo?", "boa tardee", "ty!", "tysm", "valeuu", "much appreciated",
])
def test_greetings_and_thanks_as_typed_in_chat(message: str) -> None:
    assert u(message).intent == IN.GREETING


@pytest.mark.parametrize(("message", "kind"), [
    ("me passa o telefone pessoal do dr fernando", OOS.OTHER),
    ("me passa o whatsapp da dra renata", OOS.OTHER),
    ("what is dr paulo's personal cell number?", OOS.OTHER),
    ("faz meu trabalho de historia sobre a revolução francesa", OOS.OTHER),
    ("help me with my school project", OOS.OTHER),
])
def test_someones_private_number_and_school_work_are_not_ours(message: str, kind: OutOfScope) -> None:
    assert u(message).out_of_scope == kind


def test_the_clinics_phone_is_not_private() -> None:
    assert u("me passa o telefone da clinica").out_of_scope is None


@pytest.mark.parametrize("message", [
    "schedule cardio appt tmrw 2:30pm", "pls schedule derm appt friday 10am",
    "schedule me in dermatology friday",
])
def test_schedule_opening_the_message_books(message: str) -> None:
    assert u(message).intent == IN.BOOK


def test_schedule_for_a_specialty_asks_for_slots() -> None:
    assert u("schedule for cardiology?").intent == IN.LIST


@pytest.mark.parametrize("message", [
    "move my consulta de ortopedia pra dia 2", "change my consulta to friday",
])
def test_a_booking_named_in_portuguese_is_moved(message: str) -> None:
    assert u(message).intent == IN.RESCHEDULE


@pytest.mark.parametrize("message", [
    "Por gentileza, poderia me informar para quando ficou marcado o meu retorno na cardiologia?",
    "minha consulta com a dra juliana prado ta confirmada?", "minha consulta ta marcada mesmo?",
    "did my cardiology appointment get booked or not", "has my booking been confirmed",
    "is my appt with dr ricardo confirmed?", "tenho appt marcado amanha?", "tenho consulta amanha?",
])
def test_whether_ones_booking_stands_is_my_appointments(message: str) -> None:
    assert u(message).intent == IN.MY_APPOINTMENTS


@pytest.mark.parametrize("message", [
    "qual estudo fala isso?", "tem o link?", "which study?", "got a link for that?", "any source for that?",
    "Poderia, por gentileza, informar a fonte dessa informação?", "me diz a fonte disso",
    "essa informação saiu de qual diretriz?", "qual diretriz vc usou?",
])
def test_the_evidence_asked_for_in_few_or_polite_words_is_sources(message: str) -> None:
    assert u(message).intent == IN.SOURCES


@pytest.mark.parametrize("message", [
    "artrose tem tratamento?", "psoriase tem cura?", "is there a cure for psoriasis?",
    "artrite e artrose sao a mesma coisa?",
])
def test_treatment_and_sameness_of_conditions_are_general_questions(message: str) -> None:
    assert u(message).intent == IN.GENERAL_QUESTION


@pytest.mark.parametrize("message", ["that's all, see ya", "cya", "ok take care"])
def test_goodbyes_as_typed_in_chat(message: str) -> None:
    assert u(message).intent == IN.GREETING


@pytest.mark.parametrize("message", [
    "cotacao do euro agora", "como faço pra renovar minha cnh", "renovar passaporte",
])
def test_money_and_civil_paperwork_are_not_ours(message: str) -> None:
    assert u(message).out_of_scope == OOS.OTHER


@pytest.mark.parametrize("message", [
    "agenda livre da dra larissa", "agenda disponivel do dr ricardo", "agenda aberta de dermato?",
])
def test_a_free_or_open_agenda_asks_for_slots(message: str) -> None:
    assert u(message).intent == IN.LIST


def test_agenda_as_an_imperative_with_a_time_still_books() -> None:
    assert u("agenda cardio amanha as 10").intent == IN.BOOK


@pytest.mark.parametrize(("message", "choice"), [
    ("drop the second appointment", 2), ("cancel the second appointment", 2),
    ("desmarca a segunda consulta", 2), ("cancela a terceira marcação", 3),
])
def test_a_listed_booking_named_by_its_ordinal_is_a_choice(message: str, choice: int) -> None:
    assert (u(message).intent, u(message).choice) == (IN.CANCEL, choice)


@pytest.mark.parametrize("message", [
    "I need a second appointment with dermatology", "can I book a second consultation",
])
def test_a_second_appointment_is_another_booking_not_a_choice(message: str) -> None:
    assert (u(message).intent, u(message).choice) == (IN.BOOK, None)


@pytest.mark.parametrize("message", [
    "Boa tarde, minha filha marcou uma consulta para mim e eu não sei para quando ficou. Poderia verificar?",
    "meu marido marcou uma consulta pra mim, quando é?", "my wife booked an appt for me, what day is it?",
    "esqueci que dia ficou a consulta", "I forgot when it is, my appointment",
    "to marcado pra algum dia?", "tô agendada com a dra?", "am I booked in for friday?",
    "what appointments do i have coming up", "what visits do i have booked",
    "which appointments do i have on the calendar",
    "Could you kindly confirm the date and time of my upcoming visit?",
    "can you confirm the time of my appointment",
])
def test_bookings_made_by_others_or_asked_about_in_passing_are_my_appointments(message: str) -> None:
    assert u(message).intent == IN.MY_APPOINTMENTS


def test_do_i_have_a_condition_is_still_a_diagnosis_question() -> None:
    assert u("do I have diabetes?").out_of_scope == OOS.DIAGNOSIS


@pytest.mark.parametrize("message", [
    "isso ta em qual estudo?", "isso está em qual artigo?", "that is in which study?",
    "qual diretriz diz isso",
    "which guideline says that", "qual estudo fala isso?", "where's that info from exactly?",
    "where's that data from?",
])
def test_what_the_answer_rests_on_is_sources(message: str) -> None:
    assert u(message).intent == IN.SOURCES


@pytest.mark.parametrize(("message", "number"), [
    ("open citation one", 1), ("show source two", 2), ("abre a fonte três", 3), ("open the first source", 1),
])
def test_a_citation_named_by_a_word_is_numbered(message: str, number: int) -> None:
    assert (u(message).intent, u(message).source) == (IN.SOURCES, number)


@pytest.mark.parametrize("message", [
    "colesterol alto da sintoma?", "pressão alta dá sintomas?", "does diabetes give you any symptoms?",
    "How many people are affected by atrial fibrillation?", "quantas pessoas tem diabetes no brasil?",
    "what's the prevalence of AF?",
])
def test_symptoms_and_prevalence_of_a_condition_are_general_questions(message: str) -> None:
    assert u(message).intent == IN.GENERAL_QUESTION


@pytest.mark.parametrize("message", ["kkk beleza", "hiya", "haha ok", "lol", "rs valeu", "heya"])
def test_laughter_and_acknowledgements_are_smalltalk(message: str) -> None:
    assert u(message).intent == IN.GREETING


@pytest.mark.parametrize(("message", "kind"), [
    ("can you give me a sick note for work", OOS.OTHER), ("I need a doctor's note for work", OOS.OTHER),
    ("preciso de um atestado médico", OOS.OTHER),
    ("give me a prescription for oxycodone", OOS.DOSAGE),
    ("can you write me a prescription for amoxicillin", OOS.DOSAGE),
    ("me passa uma receita de rivotril", OOS.DOSAGE), ("refill my prescription please", OOS.DOSAGE),
])
def test_sick_notes_and_prescriptions_are_not_ours(message: str, kind: OutOfScope) -> None:
    assert u(message).out_of_scope == kind


@pytest.mark.parametrize("message", [
    "scrap my booking for friday at 10", "ditch my appt", "get rid of my friday appointment", "unbook me",
    "take me off the schedule for thursday", "anula meu agendamento de ortopedia de quarta",
    "apaga minha consulta",
    "tira minha consulta de quinta", "desisto da consulta de cardiologia", "kanselar consulta",
    "cancl my apointment",
    "cancelem minha marcação por favor, estou doente",
])
def test_undoing_ones_booking_in_any_words_is_a_cancel(message: str) -> None:
    assert u(message).intent == IN.CANCEL


def test_a_cancellation_slot_is_a_slot_and_an_item_is_a_choice() -> None:
    assert u("can i get a cancellation slot with cardiology?").intent == IN.LIST
    assert (u("cancela o item 2").intent, u("cancel item 2").choice) == (IN.CANCEL, 2)


@pytest.mark.parametrize("message", [
    "remind me what i booked", "me lembra o que eu marquei", "which doctor am i seeing tomorrow",
    "Could you tell me which doctor I am seeing and at what time?", "com qual médico eu vou amanhã?",
    "have i got anything booked?", "what's on my schedule", "onde fica a clínica da minha consulta de amanhã",
    "qual o endereço da minha consulta", "marquei ou não marquei a consulta?",
    "eu marquei consulta com a dra beatriz?", "a minha consulta de quarta continua de pé?",
    "quando é my next appointment?", "what time é a minha consulta?",
])
def test_asking_after_ones_own_booking_is_my_appointments(message: str) -> None:
    assert u(message).intent == IN.MY_APPOINTMENTS


@pytest.mark.parametrize("message", [
    "which study was that from?", "u got a link for that?", "cite it pls", "according to whom?",
    "segundo quem?",
    "where'd you get that", "where did you get isso?", "isso ta escrito onde? quero ver o documento",
    "where can i read that", "onde vc leu isso", "how do you know that?", "como vc sabe disso?",
    "what are you basing that on", "show me the evidence", "proof?", "me passa o link da fonte",
    "manda a fonte pfv", "voce tirou isso da onde",
])
def test_asking_what_an_answer_rests_on_is_sources(message: str) -> None:
    assert u(message).intent == IN.SOURCES


def test_where_a_pain_comes_from_is_no_sources_question() -> None:
    assert u("de onde vem a dor no ciático? o que é ciática").intent != IN.SOURCES


@pytest.mark.parametrize("message", [
    "write a haiku about my cat", "how do i fix my car's brakes", "como troco o óleo do carro",
    "como faço bolo de cenoura", "how do i make pancakes", "compra uma passagem pra salvador",
    "me mostra as consultas da maria silva", "quais as consultas do joao pereira",
    "quanto de dipirona eu tomo",
])
def test_chores_cooking_other_peoples_bookings_and_doses_are_out_of_scope(message: str) -> None:
    assert u(message).intent == IN.OUT_OF_SCOPE


@pytest.mark.parametrize("message", [
    "so what kind of stuff can you help me with", "what else can you do", "o que mais você sabe fazer?",
])
def test_asking_what_else_the_assistant_does_is_smalltalk(message: str) -> None:
    assert u(message).intent == IN.GREETING


def test_changing_a_booking_in_portuguese_reschedules() -> None:
    assert u("mudar consulta p/ dia 30").intent == IN.RESCHEDULE


@pytest.mark.parametrize("message, number", [
    ("can you cite that", None), ("pls cite", None), ("whats the evidence for that", None),
    ("is there any evidence behind that", None), ("where's the proof", None), ("cade a fonte", None),
    ("i want to check the reference you used", None), ("queria conferir a referencia que vc usou", None),
    ("what backs that up", None), ("tem base cientifica isso que vc falou?", None), ("whats ur source", None),
    ("what's the reference for number 2", 2), ("source do item 2 pls", 2), ("which reference is number 3", 3),
])
def test_citing_backing_and_numbered_items_are_sources(message: str, number: int | None) -> None:
    reading = u(message)
    assert reading.intent == IN.SOURCES and reading.source == number


@pytest.mark.parametrize("message", [
    "qual o horario de funcionamento do banco", "what are the opening hours of the library",
    "horario do onibus pra campinas", "me ajuda com meu resume in english", "summarize this article for me",
    "resolve essa equacao pra mim", "suggest a name for my dog", "what's the best phone to buy",
    "how many km from lisbon to porto", "tell me about the history of rome",
])
def test_other_places_papers_sums_and_pastimes_are_out_of_scope(message: str) -> None:
    assert u(message).intent == IN.OUT_OF_SCOPE


@pytest.mark.parametrize("message", [
    "who gets gout", "who can get shingles", "quem tem mais risco de diabetes",
])
def test_who_a_condition_strikes_is_a_general_question(message: str) -> None:
    assert u(message).intent == IN.GENERAL_QUESTION


@pytest.mark.parametrize("message", [
    "que agendamentos eu tenho?", "qnd q é meu retorno", "qdo q vai ser minha proxima consulta",
    "tem alguma reserva no meu nome", "bookings under my name pls", "meu marido marcou pra mim um retorno",
    "nao me lembro a data da consulta", "i can't remember the time", "minha reserva deu certo?",
    "my appointment went through?", "qual o meu booking", "what's my next appt",
])
def test_ones_own_bookings_asked_loosely_are_my_appointments(message: str) -> None:
    assert u(message).intent == IN.MY_APPOINTMENTS


@pytest.mark.parametrize("message", [
    "tem link dessa resposta?", "manda a pesquisa dessa recomendação", "url to the source?",
    "is there a site where i can read that", "onde eu vejo mais sobre isso", "where u got that from?",
    "was that from an actual study", "tem pesquisa que comprova isso?", "de qual site voce pegou isso",
])
def test_links_sites_and_where_it_was_got_are_sources(message: str) -> None:
    assert u(message).intent == IN.SOURCES


@pytest.mark.parametrize("message", [
    "what really causes acne", "o que afinal é artrose", "where do kidney stones come from",
    "de onde vem a gota", "como faco pra reduzir o colesterol ruim", "psoriase passa de pessoa pra pessoa?",
    "could i catch eczema from another person", "dermatite e eczema é tudo igual?",
    "existe diferenca entre gota e artrite", "is gout a chronic disease", "enxaqueca é hereditaria?",
    "fatores de risco de avc", "what happens if blood pressure stays high",
])
def test_adverbs_origins_contagion_sameness_and_nature_are_general_questions(message: str) -> None:
    assert u(message).intent == IN.GENERAL_QUESTION


def test_the_answers_sources_stay_sources_not_a_conditions_origin() -> None:
    assert u("where does that come from?").intent == IN.SOURCES
    assert u("de onde vem essa informação?").intent == IN.SOURCES


@pytest.mark.parametrize("message, intent", [
    ("ok take the second slot", IN.BOOK), ("grab the earliest one then", IN.BOOK),
    ("something came up, could we make it friday instead", IN.RESCHEDULE),
    ("tive um imprevisto, pode ser na sexta em vez disso?", IN.RESCHEDULE),
])
def test_taking_a_slot_books_and_another_day_instead_reschedules(message: str, intent: Intent) -> None:
    assert u(message).intent == intent


def test_a_possessive_day_without_its_apostrophe_is_that_day() -> None:
    assert u("cancel tomorrows appointment").date == D(2026, 11, 23)
    assert u("cancel todays appointment").date == SUNDAY


def test_summarizing_a_book_is_out_of_scope() -> None:
    assert u("resume esse livro pra mim").intent == IN.OUT_OF_SCOPE


@pytest.mark.parametrize("message", [
    "who recommends this?", "who claims that", "quem afirma isso?", "esse dado e de quem?",
    "segundo que pesquisa?", "according to what source", "according to whom exactly?",
    "was it from a protocol?", "isso vem de algum consenso?", "esse numero que vc citou e de qual estudo?",
    "which protocol is this?", "url do artigo?", "got a link to the study", "any link so i can read it",
    "de onde eh esse dado?", "where do these stats come from", "where exactly did you read that",
    "sauce pls", "point me to where it says that", "mostra onde ta escrito isso",
    "send the paper you took that from", "manda o link por favor, quero conferir",
])
def test_who_says_so_guidelines_links_and_figures_behind_the_answer_are_sources(message: str) -> None:
    assert u(message).intent == IN.SOURCES


@pytest.mark.parametrize("message, intent", [
    ("what do the guidelines say about statins after 75", None), ("o que e uma diretriz clinica", None),
    ("who should be screened for colon cancer", None), ("where does gout come from", IN.GENERAL_QUESTION),
    ("de onde e esse medico?", None),
])
def test_guideline_and_general_questions_are_no_sources(message: str, intent: Intent | None) -> None:
    assert u(message).intent != IN.SOURCES
    if intent:
        assert u(message).intent == intent


@pytest.mark.parametrize("message, doctor, time", [
    ("marca com o dr paulo sexta at 8 15 am", "Dr. Paulo Mendes", "08:15"),
    ("book dra camila on tuesday at 10 45", "Dra. Camila Ferreira", "10:45"),
    ("agenda com a dra helena quinta 9 e 30", "Dra. Helena Castro", "09:30"),
    ("quero marcar com o dr eduardo as 11 e meia", "Dr. Eduardo Lima", "11:30"),
])
def test_minutes_said_after_a_space_or_an_e_are_the_time(message: str, doctor: str, time: str) -> None:
    reading = u(message)
    assert (reading.intent, reading.doctors[:1], reading.time) == (IN.BOOK, (doctor,), time)


@pytest.mark.parametrize("message, time", [("nos dias 10 e 15", None), ("entre 10 e 30 anos", None)])
def test_two_numbers_joined_by_e_are_no_time_when_days_or_a_count(message: str, time: str | None) -> None:
    assert u(message).time == time


@pytest.mark.parametrize("message", [
    "get me in with ortho thursday at 9", "lock in that 3pm slot", "put me down for the second option",
    "could you get me in with the dermatologist friday",
])
def test_getting_in_locking_in_and_putting_oneself_down_book(message: str) -> None:
    assert u(message).intent == IN.BOOK


@pytest.mark.parametrize("message", [
    "mostra os agendamentos que eu fiz e marquei", "quais as consultas que eu agendei?",
    "show me the appointments that i scheduled", "quais os horarios que eu reservei",
    "que dia caiu o meu retorno?", "em que data ficou minha consulta com a dra juliana",
    "what day did my derm appointment end up on", "did the appointment with dr paulo go thru?",
    "when am i seeing dr ricardo", "what time do i see the cardiologist",
    "do i have any scheduled appointments", "qual horario ficou agendado?",
])
def test_ones_own_bookings_listed_or_their_day_asked_are_my_appointments(message: str) -> None:
    assert u(message).intent == IN.MY_APPOINTMENTS


def test_the_slots_that_exist_are_still_asked_as_slots() -> None:
    assert u("quais os horarios livres amanha?").intent == IN.LIST
    assert u("quais horarios que tem na sexta").intent == IN.LIST


@pytest.mark.parametrize("message", [
    "ok, entendi", "ah ta entendido, obrigada", "hmm i see, thanks", "alright, makes sense",
    "evening! hope you're doing well", "morning, how are you", "oi, espero que esteja tudo bem",
    "right, got it, thank you",
])
def test_acknowledgements_and_well_wishing_are_smalltalk(message: str) -> None:
    assert u(message).intent == IN.GREETING


def test_a_part_of_the_day_in_a_request_is_no_greeting() -> None:
    assert u("morning slots in cardiology").intent == IN.LIST


def test_moving_an_appointment_named_by_its_id_reschedules() -> None:
    reading = u("move CARD-A-APT-5F21C0D9E1 to friday 10am", today=WEDNESDAY)
    assert (reading.intent, reading.appointment_id, reading.date, reading.time) == (
        IN.RESCHEDULE, "CARD-A-APT-5F21C0D9E1", FRIDAY, "10:00")


@pytest.mark.parametrize("message", [
    "what's the phone number of the bakery nearby", "a que horas abre a padaria", "when does the gym close",
])
def test_other_places_hours_and_phones_are_out_of_scope(message: str) -> None:
    assert u(message).intent == IN.OUT_OF_SCOPE


@pytest.mark.parametrize("message", [
    "when do i need to be at the clinic?", "o horario que eu peguei foi qual mesmo",
    "any plans on my calendar?", "what did i end up booking", "quantos retornos eu tenho?",
    "is my check-up at 9 or 10?", "tenho algo agendado pra amanha", "which doctor am i seeing next week?",
    "the appointment with dr paulo is when?", "ve se ficou agendado por favor",
    "i've booked something, when was it again?",
])
def test_a_question_about_ones_own_booking_is_my_appointments(message: str) -> None:
    assert u(message).intent == IN.MY_APPOINTMENTS


@pytest.mark.parametrize(("message", "intent"), [
    ("can i book my check-up for friday?", IN.BOOK), ("please cancel my follow up", IN.CANCEL),
    ("joga meu retorno pra quinta", IN.RESCHEDULE), ("do you have anything free on monday?", IN.LIST),
    ("do i have something serious?", IN.OUT_OF_SCOPE),
])
def test_a_booking_asked_for_anew_or_changed_is_not_my_appointments(message: str, intent: IN) -> None:
    assert u(message).intent == intent


@pytest.mark.parametrize("message", [
    "🤝", "!!", "okey", "ta bom entao", "certinho, obrigadinha", "you are so helpful",
    "esse app e lento demais", "vc e humana?", "quem te fez?",
])
def test_a_message_asking_nothing_is_smalltalk(message: str) -> None:
    assert u(message).intent == IN.GREETING


@pytest.mark.parametrize("message", [
    "ok, show me dermatology slots", "thanks! when is my next appt?", "beleza, cancela minha consulta",
])
def test_thanks_with_a_request_is_the_request(message: str) -> None:
    assert u(message).intent != IN.GREETING


@pytest.mark.parametrize("message", [
    "does gout come back", "anemia tem a ver com cansaco?", "is high cholesterol dangerous for young people",
    "asma mata?", "varizes e perigoso", "why would someone get a stroke",
])
def test_a_question_about_a_condition_is_a_general_question(message: str) -> None:
    assert u(message).intent == IN.GENERAL_QUESTION


@pytest.mark.parametrize(("message", "intent"), [
    ("eu tenho asma?", IN.OUT_OF_SCOPE), ("do i have anemia?", IN.OUT_OF_SCOPE),
])
def test_asking_whether_one_has_a_condition_is_a_diagnosis(message: str, intent: IN) -> None:
    assert u(message).intent == intent


def test_a_numbered_source_by_its_ordinal_is_that_source_not_a_date() -> None:
    reading = u("open the 3rd source please")
    assert (reading.intent, reading.source, reading.date) == (IN.SOURCES, 3, None)


@pytest.mark.parametrize("message", ["what's the wifi password", "how tall is mount kilimanjaro"])
def test_passwords_and_geography_are_out_of_scope(message: str) -> None:
    assert u(message).intent == IN.OUT_OF_SCOPE


@pytest.mark.parametrize("message", ["was my derm appointment cancelled?", "minha consulta foi desmarcada?",
                                     "did my booking get rescheduled"])
def test_a_change_asked_about_as_done_is_my_appointments(message: str) -> None:
    assert u(message).intent == IN.MY_APPOINTMENTS


@pytest.mark.parametrize("message", ["ok i gotta run now", "g2g, thanks!", "bom, tenho que ir agora. valeu",
                                     "vou nessa, bjs", "i'm off, have a great weekend"])
def test_leaving_is_smalltalk(message: str) -> None:
    assert u(message).intent == IN.GREETING


@pytest.mark.parametrize(("message", "intent"), [
    ("have to go to a dermatologist on friday, any openings?", IN.LIST),
    ("tenho que ir na ortopedia, tem vaga amanhã?", IN.LIST),
])
def test_having_to_go_to_a_clinic_is_no_goodbye(message: str, intent: IN) -> None:
    assert u(message).intent == intent


@pytest.mark.parametrize("message", ["show me the appointments i've got", "will i be seeing somebody monday?",
                                     "confirma pra mim o horário que eu peguei ontem",
                                     "vou passar com algum médico amanhã?"])
def test_what_one_has_got_or_is_seeing_is_my_appointments(message: str) -> None:
    assert u(message).intent == IN.MY_APPOINTMENTS


@pytest.mark.parametrize("message", ["cancela tudo que eu agendei com a cardio",
                                     "cancel whatever i've booked", "remove everything i scheduled"])
def test_cancelling_what_one_booked_is_no_new_booking(message: str) -> None:
    assert u(message).intent == IN.CANCEL


@pytest.mark.parametrize("message", ["where's this data coming from?", "what are those numbers based on"])
def test_where_an_answer_comes_from_or_rests_on_is_sources(message: str) -> None:
    assert u(message).intent == IN.SOURCES


@pytest.mark.parametrize("message", ["qual o cep da rua da consolação",
                                     "book a table for four at a steakhouse",
                                     "marca um horário no cabeleireiro",
                                     "i need piano lessons on saturdays"])
def test_postal_codes_and_other_trades_bookings_are_out_of_scope(message: str) -> None:
    assert u(message).intent == IN.OUT_OF_SCOPE


@pytest.mark.parametrize("message", ["conta uma piada sobre dentistas", "tell me a pun about nurses",
                                     "bora jogar stop?", "wanna play trivia", "i'm bored, say something fun"])
def test_entertainment_is_out_of_scope_whatever_its_topic(message: str) -> None:
    assert u(message).intent == IN.OUT_OF_SCOPE


@pytest.mark.parametrize("message", ["plan a weekend in paris for me", "compra um fone bluetooth pra mim",
                                     "pode procurar um apartamento pra alugar?",
                                     "where is the nearest gas station", "quanto custa um iphone novo"])
def test_errands_and_questions_outside_health_are_out_of_scope(message: str) -> None:
    assert u(message).intent == IN.OUT_OF_SCOPE


@pytest.mark.parametrize(("message", "intent"), [
    ("is it ok to go swimming while pregnant?", IN.GENERAL_QUESTION),
    ("does hot weather raise blood pressure?", IN.GENERAL_QUESTION),
    ("quais alimentos sao fonte de ferro?", IN.GENERAL_QUESTION),
    ("how are you today, assistant?", IN.GREETING),
    ("o que vc sabe fazer?", IN.GREETING),
    ("tô com consulta marcada amanhã?", IN.MY_APPOINTMENTS),
    ("heloisa barbosa ramos", IN.UNKNOWN),
])
def test_health_questions_chitchat_and_replies_stay_in_scope(message: str, intent: IN) -> None:
    assert u(message).intent == intent


@pytest.mark.parametrize("message", ["qual a referência bibliográfica disso?",
                                     "in which paper was that published", "this was published where?",
                                     "can you cite what your previous answer used",
                                     "send me the sources please"])
def test_provenance_of_the_answer_is_sources(message: str) -> None:
    assert u(message).intent == IN.SOURCES


def test_a_doctor_of_an_organ_in_the_plural_names_the_specialty() -> None:
    assert u("tem medicos do coracao livres sexta?").specialty == "cardiology"


@pytest.mark.parametrize("message", ["muito grato pela paciência", "appreciated, cheers mate", "byebyee",
                                     "obrigadinha viu", "thankss so much", "hahaha boa essa",
                                     "nossa, que lerdeza",
                                     "😴😴", "have a good weekend!", "até segunda então", "see you on friday",
                                     "ugh its snowing again", "yo, how's life", "e aí, tudo em paz?"])
def test_a_message_with_no_request_nor_health_nor_booking_is_smalltalk(message: str) -> None:
    assert u(message).intent == IN.GREETING


@pytest.mark.parametrize(("message", "intent"), [
    ("valeu! tem horário de dermato na sexta?", IN.LIST),
    ("thanks, and cancel my ortho appointment please", IN.CANCEL),
    ("hi there, how long does a cold sore last?", IN.GENERAL_QUESTION),
    ("oi, tudo bem? o que é gripe?", IN.GENERAL_QUESTION),
    ("thanks!! translate hello to german", IN.OUT_OF_SCOPE),
    ("what's the weather like in recife today", IN.OUT_OF_SCOPE),
    ("sexta de manhã", IN.LIST),
    ("ok, e na sexta de manhã?", IN.LIST),
])
def test_a_request_after_a_greeting_or_thanks_is_that_request(message: str, intent: IN) -> None:
    assert u(message).intent == intent


@pytest.mark.parametrize("message", ["where did u find that", "that answer, what was it based on?",
                                     "de onde saiu isso que voce escreveu",
                                     "o que vc disse consta em qual documento?",
                                     "show me the study you cited"])
def test_asking_where_what_was_said_came_from_is_sources(message: str) -> None:
    assert u(message).intent == IN.SOURCES


@pytest.mark.parametrize("message", ["where can i get that vaccine", "where do i find it in the clinic?"])
def test_asking_where_a_symptom_or_a_thing_comes_from_is_no_sources(message: str) -> None:
    assert u(message).intent != IN.SOURCES


@pytest.mark.parametrize("message", ["move my cardio to thursday 2pm", "move meu ortopedista pra quarta"])
def test_moving_ones_specialty_moves_its_booking(message: str) -> None:
    assert u(message).intent == IN.RESCHEDULE
