"""The answer audit (R1 to R4) as pure functions: the orchestrator's deterministic answers
pass, faithful model rephrasings pass, and crafted bad rephrasings fail with the right rule."""

import time
import unicodedata

import pytest

from healthmesh.v1 import common_pb2, verifier_pb2
from tests.conftest import JOAO, MARIA
from verifier.rules import verify
from verifier.screen import screen

R1 = verifier_pb2.RULE_R1_UNSUPPORTED_TREATMENT
R2 = verifier_pb2.RULE_R2_PRIVACY
R3 = verifier_pb2.RULE_R3_OUT_OF_SCOPE
R4 = verifier_pb2.RULE_R4_UNFAITHFUL

FERNANDO = "Dr. Fernando Almeida"
MARCELO = "Dr. Marcelo Carvalho"
DOCTORS = [FERNANDO, "Dra. Beatriz Souza", "Dr. Ricardo Nunes", MARCELO, "Dra. Juliana Prado"]
CLINICS = ["Clínica Coração Paulista", "Instituto Cardio Campinas", "Derma Jardins"]
ADDRESS = "Clínica Coração Paulista: Av. Paulista, 1200 - Bela Vista, São Paulo - SP"


def slot(clinic_id: str, doctor: str, date: str, time_: str) -> common_pb2.Slot:
    return common_pb2.Slot(slot_id=f"{clinic_id}-{date}-{time_}", doctor=doctor, date=date, time=time_,
                           clinic_id=clinic_id)


def appointment(appointment_id: str, date: str, time_: str, status: str, doctor: str = FERNANDO
                ) -> common_pb2.Appointment:
    return common_pb2.Appointment(
        appointment_id=appointment_id, clinic_id="clinic_a", doctor=doctor, date=date, time=time_,
        status=common_pb2.AppointmentStatus.Value(f"APPOINTMENT_STATUS_{status}"),
    )


def evidence(slots=(), appointments=(), facts=(ADDRESS,)) -> verifier_pb2.Evidence:
    return verifier_pb2.Evidence(slots=list(slots), appointments=list(appointments), doctors=DOCTORS,
                                 clinics=CLINICS, facts=list(facts))


def check(answer: str, ev: verifier_pb2.Evidence | None = None, patient=MARIA, query: str = ""
          ) -> verifier_pb2.VerifyAnswerResponse:
    return verify(verifier_pb2.VerifyAnswerRequest(
        user_query=query, answer=answer, evidence=ev or evidence(), current_patient=patient,
    ))


def rules(reply: verifier_pb2.VerifyAnswerResponse) -> set[int]:
    return {v.rule for v in reply.violations}


LISTING = evidence(slots=[
    slot("clinic_a", FERNANDO, "2026-11-23", "09:00"),
    slot("clinic_a", FERNANDO, "2026-11-23", "10:00"),
    slot("clinic_c", MARCELO, "2026-11-24", "09:30"),
])
LISTING_EN = """Open slots in cardiology (first 5 per clinic):
Clínica Coração Paulista (clinic_a):
- Mon 2026-11-23 09:00 — Dr. Fernando Almeida ← earliest
- Mon 2026-11-23 10:00 — Dr. Fernando Almeida
Instituto Cardio Campinas (clinic_c):
- Tue 2026-11-24 09:30 — Dr. Marcelo Carvalho
Earliest: Mon 2026-11-23 09:00 with Dr. Fernando Almeida at Clínica Coração Paulista.
Instituto Cardio Campinas (clinic_c) could not be reached right now; its slots are not shown."""
ONE_SLOT = evidence(slots=[slot("clinic_a", FERNANDO, "2026-11-23", "09:00")])
# The answer builder's agenda: a line per doctor and day, its times in order.
GROUPED_EN = """Open slots in cardiology (first 5 per clinic):
Clínica Coração Paulista (clinic_a):
- Mon 2026-11-23 — Dr. Fernando Almeida: 09:00 ← earliest, 10:00
Instituto Cardio Campinas (clinic_c):
- Tue 2026-11-24 — Dr. Marcelo Carvalho: 09:30
Earliest: Mon 2026-11-23 09:00 with Dr. Fernando Almeida at Clínica Coração Paulista."""
GROUPED_PT = """Horários disponíveis em cardiologia (os 5 primeiros de cada clínica):
Clínica Coração Paulista (clinic_a):
- seg 23/11/2026 — Dr. Fernando Almeida: 09:00 ← mais cedo, 10:00
Instituto Cardio Campinas (clinic_c):
- ter 24/11/2026 — Dr. Marcelo Carvalho: 09:30
Mais cedo: seg 23/11/2026 09:00 com Dr. Fernando Almeida na Clínica Coração Paulista."""
LISTING_PT = """Horários disponíveis em cardiologia (os 5 primeiros de cada clínica):
Clínica Coração Paulista (clinic_a):
- seg 23/11/2026 09:00 — Dr. Fernando Almeida ← mais cedo
Mais cedo: seg 23/11/2026 09:00 com Dr. Fernando Almeida na Clínica Coração Paulista."""
BOOKED = evidence(appointments=[appointment("CARD-A-APT-1A2B3C4D5E", "2026-11-23", "09:00", "BOOKED")])
MOVED = evidence(appointments=[
    appointment("CARD-A-APT-1A2B3C4D5E", "2026-11-23", "09:00", "RESCHEDULED"),
    appointment("CARD-A-APT-9F8E7D6C5B", "2026-11-27", "14:00", "BOOKED"),
])
CANCELLED = evidence(appointments=[appointment("CARD-A-APT-1A2B3C4D5E", "2026-11-23", "09:00", "CANCELLED")])

DETERMINISTIC = {
    "listing en": (LISTING_EN, LISTING),
    "listing pt": (LISTING_PT, ONE_SLOT),
    "agenda en": (GROUPED_EN, LISTING),
    "agenda pt": (GROUPED_PT, LISTING),
    "booked en": ("Booked: Mon 2026-11-23 09:00 with Dr. Fernando Almeida at Clínica Coração Paulista "
                  "(Av. Paulista, 1200 - Bela Vista, São Paulo - SP). Appointment CARD-A-APT-1A2B3C4D5E "
                  "for Maria Souza.", BOOKED),
    "booked pt": ("Agendado: seg 23/11/2026 09:00 com Dr. Fernando Almeida na Clínica Coração Paulista "
                  "(Av. Paulista, 1200 - Bela Vista, São Paulo - SP). Consulta CARD-A-APT-1A2B3C4D5E para "
                  "Maria Souza.", BOOKED),
    "moved en": ("Moved: your appointment with Dr. Fernando Almeida at Clínica Coração Paulista from Mon "
                 "2026-11-23 09:00 to Fri 2026-11-27 14:00. Appointment CARD-A-APT-9F8E7D6C5B for Maria "
                 "Souza.", MOVED),
    "moved pt": ("Remarcado: sua consulta com Dr. Fernando Almeida na Clínica Coração Paulista de seg "
                 "23/11/2026 09:00 para sex 27/11/2026 14:00. Consulta CARD-A-APT-9F8E7D6C5B para Maria "
                 "Souza.", MOVED),
    "cancelled en": ("Cancelled: Mon 2026-11-23 09:00 with Dr. Fernando Almeida at Clínica Coração "
                     "Paulista. Appointment CARD-A-APT-1A2B3C4D5E.", CANCELLED),
    "cancelled pt": ("Cancelado: seg 23/11/2026 09:00 com Dr. Fernando Almeida na Clínica Coração "
                     "Paulista. Consulta CARD-A-APT-1A2B3C4D5E.", CANCELLED),
    "listing with a period": (
        LISTING_EN.replace("(first 5 per clinic)", "(from Mon 2026-11-23 to Fri 2026-11-27)")
        + '\nTo book, say for example "the earliest one", or a doctor, day and time.', LISTING),
    "my appointments pt": (
        "Suas próximas consultas:\n"
        "- seg 23/11/2026 09:00 — Dr. Fernando Almeida, Clínica Coração Paulista (CARD-A-APT-1A2B3C4D5E)\n"
        "- ter 24/11/2026 09:30 — Dr. Marcelo Carvalho, Instituto Cardio Campinas (CARD-C-APT-0A1B2C3D4E)",
        evidence(appointments=[
            appointment("CARD-A-APT-1A2B3C4D5E", "2026-11-23", "09:00", "BOOKED"),
            appointment("CARD-C-APT-0A1B2C3D4E", "2026-11-24", "09:30", "BOOKED", MARCELO),
        ])),
    "no slots en": ("No open slots in dermatology for 2026-11-28.", evidence()),
    "no slots pt": ("Não há horários disponíveis em dermatologia para 28/11/2026.", evidence()),
    "question en": ("Which specialty? cardiology, dermatology or orthopedics", evidence()),
    "question pt": ("Qual especialidade? cardiologia, dermatologia ou ortopedia", evidence()),
    "refusal en": ("I can only help with booking, rescheduling or cancelling appointments; I cannot give a "
                   "diagnosis or treatment advice.", evidence()),
    "refusal pt": ("Só posso ajudar a marcar, remarcar ou cancelar consultas; não posso dar diagnóstico "
                   "nem orientar tratamento.", evidence()),
}


@pytest.mark.parametrize("answer, ev", DETERMINISTIC.values(), ids=DETERMINISTIC.keys())
def test_deterministic_answers_pass(answer, ev):
    reply = check(answer, ev)
    assert reply.safe, [v.note for v in reply.violations]
    assert not reply.violations


@pytest.mark.parametrize("message", ["estou com dor no peito", "I have chest pain", "quero me matar",
                                     "I want to kill myself"])
def test_emergency_texts_pass(message):
    assert check(screen(message).emergency_message).safe


REPHRASINGS = {
    "en prose": ("Dr. Fernando Almeida at Clínica Coração Paulista has openings on Monday, November 23 at "
                 "9:00 AM and 10:00 AM. At Instituto Cardio Campinas, Dr. Marcelo Carvalho is available "
                 "on Tuesday, Nov 24 at 9:30 am. The earliest is Monday at 9 am.", LISTING),
    "en headings": ("**Monday, November 23:**\n- 9:00 AM \u2013 Dr. Fernando Almeida\n- 10:00 AM \u2013 Dr. "
                    "Fernando Almeida\n\n**Tuesday, November 24:**\n- 9:30 AM \u2013 Dr. Marcelo Carvalho",
                    LISTING),
    "en times first": ("You can see Dr. Fernando at 9:00 or 10:00 on Nov 23, or Dr. Marcelo Carvalho at "
                       "9:30 on Nov 24.", LISTING),
    "pt prose": ("O Dr. Fernando Almeida (Clínica Coração Paulista) tem horários na segunda-feira, 23 de "
                 "novembro, às 9h e às 10h. No Instituto Cardio Campinas, o Dr. Marcelo Carvalho atende "
                 "na terça, 24/11, às 9h30.", LISTING),
    "pt short": ("O Dr. Fernando tem vaga no dia 23 às 9h.", ONE_SLOT),
    "en surname": ("Dr. Almeida can see you on the 23rd at 9 a.m.", ONE_SLOT),
    "us date": ("Dr. Fernando Almeida: 11/23/2026 9:00 AM", ONE_SLOT),
    "dotted date": ("Dr. Fernando Almeida — 23.11.2026, 09h00", ONE_SLOT),
    "pt abbreviations": ("Próximo horário: seg., 23 nov. às 09:00 com Dr. Fernando Almeida.", ONE_SLOT),
    "booked en prose": ("Done! Maria Souza, you're booked with Dr. Fernando Almeida on Monday, 23 November "
                        "2026 at 9:00 at Clínica Coração Paulista, Av. Paulista, 1200. Your appointment id "
                        "is CARD-A-APT-1A2B3C4D5E.", BOOKED),
    "moved pt prose": ("Pronto, Sra. Maria: sua consulta passou de segunda 23/11 às 9h para sexta 27/11 "
                       "às 14h, com o Dr. Fernando Almeida.", MOVED),
}


@pytest.mark.parametrize("answer, ev", REPHRASINGS.values(), ids=REPHRASINGS.keys())
def test_faithful_rephrasings_pass(answer, ev):
    reply = check(answer, ev)
    assert reply.safe, [v.note for v in reply.violations]


BAD = {
    "invented slot": (LISTING_EN.replace(
        "- Mon 2026-11-23 10:00 — Dr. Fernando Almeida",
        "- Mon 2026-11-23 10:00 — Dr. Fernando Almeida\n- Mon 2026-11-23 11:00 — Dr. Fernando Almeida"),
        LISTING, R4, "2026-11-23 11:00 is not an open slot"),
    "missing slot": (LISTING_EN.replace("- Mon 2026-11-23 10:00 — Dr. Fernando Almeida\n", ""),
                     LISTING, R4, "2026-11-23 10:00 with Dr. Fernando Almeida is missing"),
    "agenda: invented time": (GROUPED_EN.replace("09:00 ← earliest, 10:00", "09:00 ← earliest, 10:00, 11:00"),
                              LISTING, R4, "2026-11-23 11:00 is not an open slot"),
    "agenda: missing time": (GROUPED_PT.replace("09:00 ← mais cedo, 10:00", "09:00 ← mais cedo"),
                             LISTING, R4, "2026-11-23 10:00 with Dr. Fernando Almeida is missing"),
    "agenda: wrong doctor": (GROUPED_EN.replace("Dr. Marcelo Carvalho: 09:30", "Dr. Fernando Almeida: 09:30"),
                             LISTING, R4, "2026-11-24 09:30 is not with Dr. Fernando Almeida"),
    "nothing available": ("Sorry, there is no available slots in cardiology.", LISTING, R4,
                          "says nothing is available"),
    "nada disponível": ("Infelizmente não temos vagas em cardiologia.", LISTING, R4, "nothing is available"),
    "denied date": ("No slots on Monday 2026-11-23.", LISTING, R4, "nothing is available on 2026-11-23"),
    "wrong doctor": (LISTING_EN.replace("10:00 — Dr. Fernando Almeida", "10:00 — Dr. Marcelo Carvalho"),
                     LISTING, R4, "2026-11-23 10:00 is not with Dr. Marcelo Carvalho"),
    "weekday contradicts": (LISTING_EN.replace("Tue 2026-11-24", "Wed 2026-11-24"), LISTING, R4,
                            "Wednesday does not match 2026-11-24, a Tuesday"),
    "pt weekday contradicts": (LISTING_PT.replace("- seg 23/11", "- ter 23/11"), ONE_SLOT, R4,
                               "Tuesday does not match 2026-11-23, a Monday"),
    "invented doctor": ("Dr. João Ribeiro: seg 23/11/2026 09:00", ONE_SLOT, R4,
                        "names a doctor who is not in the evidence"),
    "wrong date": ("Dr. Fernando Almeida: 25/11 09:00", ONE_SLOT, R4, "2026-11-25"),
    "stray time": ("Dr. Fernando Almeida can see you at 16:00.", ONE_SLOT, R4, "16:00"),
    "booking moved in the telling": (DETERMINISTIC["booked en"][0].replace("09:00", "10:00"), BOOKED, R4,
                                     "appointment 2026-11-23 09:00 with Dr. Fernando Almeida is missing"),
    "dose": ("Take 500 mg of paracetamol before your appointment.", evidence(), R1, "500 mg"),
    "pt dose": ("Tome dipirona de 8 em 8 horas.", evidence(), R1, "dipirona"),
    "dose change": ("Increase your dose until the visit.", evidence(), R1, "dose change"),
    "diagnosis": ("You probably have arrhythmia.", evidence(), R3, "diagnosis"),
    "pt diagnosis": ("Pelo que descreve, você tem uma dermatite.", evidence(), R3, "diagnosis"),
    "lab reading": ("Your ECG results look normal.", evidence(), R3, "test or exam result"),
    "stop medication": ("Stop taking metoprolol before the appointment.", evidence(), R3,
                        "stop a medication"),
    "prognosis": ("Don't worry, it is nothing serious.", evidence(), R3, "prognosis"),
    "other patient": ("Your neighbour Fábio Costa has atrial fibrillation.", evidence(), R2, "person's name"),
    "pt other patient": ("Consulta confirmada; o paciente João Silva também vem.", evidence(), R2,
                         "person's name"),
    "honorific first name": ("Sr. Fábio is also booked.", evidence(), R2, "person's name"),
    "foreign cpf": ("Booked for CPF 111.444.777-35.", evidence(), R2, "CPF that is not the patient's"),
    "e-mail": ("Write to joao.silva@example.com for results.", evidence(), R2, "e-mail"),
    "phone": ("Ligue para (11) 98765-4321.", evidence(), R2, "phone number"),
}


@pytest.mark.parametrize("answer, ev, rule, note", BAD.values(), ids=BAD.keys())
def test_bad_rephrasings_fail_with_the_right_rule(answer, ev, rule, note):
    reply = check(answer, ev)
    assert not reply.safe
    assert rule in rules(reply)
    assert any(note in v.note for v in reply.violations if v.rule == rule), [v.note for v in reply.violations]


def test_decomposed_accents_read_like_composed_ones():
    answer = unicodedata.normalize("NFD", LISTING_PT)
    assert answer != LISTING_PT
    assert check(answer, ONE_SLOT).safe
    assert not check(unicodedata.normalize("NFD", "Você provavelmente tem uma arritmia.")).safe


def test_identifiers_addresses_and_counts_are_not_dates_or_times():
    answer = ("Appointment CARD-A-APT-1A2B3C4D5E (slot CARD-A-DR01-20261123-0900) at Av. Paulista, 1200 "
              "for Maria Souza, CPF 529.982.247-25. Showing the first 5 slots per clinic; call 192 if "
              "needed. Help is available 24/7.")
    assert check(answer).safe


def test_a_missing_year_is_inferred_from_the_evidence():
    december = evidence(slots=[slot("clinic_a", FERNANDO, "2026-12-30", "09:00"),
                               slot("clinic_a", FERNANDO, "2027-01-04", "09:00")])
    assert check("Dr. Fernando Almeida: qua 30/12 às 9h e seg 4/1 às 9h.", december).safe
    reply = check("Dr. Fernando Almeida: Wednesday, December 30 at 9:00 and Tuesday, January 4 at 9:00.",
                  december)
    assert [v.note for v in reply.violations] == ["R4: Tuesday does not match 2027-01-04, a Monday"]


def test_a_date_the_user_asked_about_may_be_echoed():
    answer = "Não há horários em 28/11; o mais cedo é seg 23/11/2026 09:00 com Dr. Fernando Almeida."
    assert check(answer, ONE_SLOT).safe
    assert not check("Dr. Fernando Almeida: seg 23/11/2026 09:00. Você pediu 30/11.", ONE_SLOT).safe
    assert check("Dr. Fernando Almeida: seg 23/11/2026 09:00. Você pediu 30/11.", ONE_SLOT,
                 query="quero cardiologista em 30/11").safe


def test_a_doctor_named_by_first_name_or_surname_is_resolved():
    assert check("Dr. Fernando, seg 23/11/2026 09:00.", ONE_SLOT).safe
    assert check("Fernando Almeida, 23/11 09:00.", ONE_SLOT).safe
    reply = check("Dra. Beatriz, seg 23/11/2026 09:00.", ONE_SLOT)
    assert rules(reply) == {R4}


def test_doses_and_treatments_in_the_evidence_may_be_stated():
    ev = evidence(facts=[ADDRESS, "Guideline: ibuprofen 400 mg as needed for pain"])
    assert check("The guideline mentions ibuprofen 400mg as needed; take ibuprofen only as your doctor "
                 "says.", ev).safe
    assert not check("Take 600 mg of ibuprofen.", ev).safe


@pytest.mark.parametrize("answer", [
    "Your doctor will discuss treatment options at the visit.",
    "O médico vai avaliar o tratamento na consulta.",
    "You have an appointment with Dr. Fernando Almeida; bring your medication list.",
    "Você tem uma consulta para acompanhamento da arritmia.",
    "You have 3 options.",
])
def test_booking_talk_is_not_treatment_or_diagnosis(answer):
    reply = check(answer)
    assert not rules(reply) & {R1, R3}, [v.note for v in reply.violations]


def test_the_patients_own_data_and_clinic_contacts_are_fine():
    ev = evidence(facts=[ADDRESS, "Clínica Coração Paulista phone: (11) 3251-4000"])
    assert check("Maria Souza (CPF 52998224725), Sra. Maria: call Clínica Coração Paulista at "
                 "(11) 3251-4000. Address: Av. Paulista, 1200 - Bela Vista, São Paulo - SP.", ev).safe
    assert rules(check("Booked for João Pereira, CPF 111.444.777-35.", evidence(), patient=JOAO)) == set()


def test_notes_carry_no_personal_data():
    reply = check("o paciente João Silva, CPF 111.444.777-35, e-mail joao@example.com, "
                  "Dr. Fábio Costa seg 23/11/2026 09:00", ONE_SLOT)
    notes = " ".join(v.note for v in reply.violations)
    assert rules(reply) == {R2, R4}
    for private in ("João", "Silva", "111", "joao@", "Fábio", "Costa"):
        assert private not in notes


def test_violations_come_in_rule_order():
    reply = check("You probably have arrhythmia; take 500 mg of paracetamol; Fábio Costa said there are no "
                  "slots.", LISTING)
    order = [v.rule for v in reply.violations]
    assert order == sorted(order) and set(order) == {R1, R2, R3, R4}


def test_same_request_same_verdict():
    assert check(LISTING_EN, LISTING) == check(LISTING_EN, LISTING)
    bad = BAD["wrong doctor"]
    assert check(bad[0], bad[1]) == check(bad[0], bad[1])


def test_verifying_takes_well_under_a_millisecond():
    cases = [(a, e) for a, e in [*DETERMINISTIC.values(), *REPHRASINGS.values()]]
    start = time.process_time()
    for _ in range(5):
        for answer, ev in cases:
            check(answer, ev)
    per_call = (time.process_time() - start) / (5 * len(cases))
    print(f"\nverify: {per_call * 1e6:.0f} µs CPU per answer")
    assert per_call < 0.001


def test_verdicts_follow_each_calls_own_evidence_however_often_it_repeats():
    # What is read once per evidence set (doctors, names, the dates and times of facts) is never
    # carried over to another set: the same answer passes or fails with the evidence it comes with.
    answer = "The clinic opens at 08:00. Sr. Paulo Mendes gives a talk there on 2026-11-30."
    notice = "Notice: the clinic opens at 08:00; talk by Paulo Mendes on 2026-11-30"
    with_notice, without = evidence(facts=(ADDRESS, notice)), evidence()
    for _ in range(3):
        assert check(answer, with_notice).safe
        failed = check(answer, without)
        assert rules(failed) == {R2, R4}
        assert [v.note for v in failed.violations] == [
            "R2: a person's name that is not the patient's, a doctor's or a clinic's",
            "R4: the time 08:00 is not in the evidence", "R4: the date 2026-11-30 is not in the evidence"]
