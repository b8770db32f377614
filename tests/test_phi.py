"""The PHI detector on a labeled set of chat messages (pt and en), redaction, the session's
patient name, the public allow-lists, and its operating promises: no network, safe to share
between threads, fast."""

import json
import socket
import statistics
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import tldextract

from clinics.seed import DOCTORS
from orchestrator.privacy.phi import CATEGORIES, PhiDetector, PhiResult, PhiSpan
from runtime import registry

LABELED = json.loads((Path(__file__).parent / "phi_labeled.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def detector() -> PhiDetector:
    clinics = registry.load().values()
    return PhiDetector(known_doctors=[d.name for doctors in DOCTORS.values() for d in doctors],
                       clinic_names=[c.name for c in clinics], clinic_addresses=[c.address for c in clinics])


def detect(detector: PhiDetector, row: dict) -> PhiResult:
    return detector.detect(row["text"], patient_names=row.get("patient_names", ()))


def test_labeled_set_is_large_balanced_and_bilingual() -> None:
    assert len(LABELED) >= 160
    with_phi = sum(bool(row["categories"]) for row in LABELED)
    assert 0.4 <= with_phi / len(LABELED) <= 0.6
    for lang in ("pt", "en"):
        rows = [row for row in LABELED if row["lang"] == lang]
        assert 0.4 <= len(rows) / len(LABELED) <= 0.6
        assert any(row["categories"] for row in rows) and any(not row["categories"] for row in rows)
    assert {c for row in LABELED for c in row["categories"]} == set(CATEGORIES)


def test_recall_and_precision_on_the_labeled_set(detector: PhiDetector) -> None:
    missed, flagged_clean, true_hits = [], [], 0
    expected_counts, found_counts = Counter(), Counter()
    for row in LABELED:
        expected, found = set(row["categories"]), set(detect(detector, row).categories)
        expected_counts.update(expected)
        found_counts.update(expected & found)
        if expected and not expected <= found:
            missed.append((row["text"], sorted(expected - found)))
        elif expected:
            true_hits += 1
        elif found:
            flagged_clean.append((row["text"], sorted(found)))
    positives = sum(bool(row["categories"]) for row in LABELED)
    recall = true_hits / positives
    precision = true_hits / (true_hits + len(flagged_clean))
    print(f"\nPHI labeled set: {len(LABELED)} messages, {positives} with PHI; "
          f"message recall {recall:.3f}, message precision {precision:.3f}")
    for category in CATEGORIES:
        print(f"  {category:12s} found {found_counts[category]:3d} of {expected_counts[category]:3d}")
    for text, categories in flagged_clean:
        print(f"  false positive {categories}: {text}")
    assert not missed, f"PHI missed: {missed}"
    assert precision >= 0.90, f"false positives: {flagged_clean}"


def test_redaction_leaves_no_detected_value(detector: PhiDetector) -> None:
    for row in LABELED:
        result = detect(detector, row)
        redacted = detector.redact(row["text"], result)
        for span in result.spans:
            assert row["text"][span.start:span.end] not in redacted, row["text"]


@pytest.mark.parametrize(("text", "values"), [
    ("Olá, sou Raquel Dias, CPF 526.018.159-06, telefone (19) 99876-5432",
     ["Raquel", "Dias", "526.018.159-06", "99876-5432"]),
    ("Name: George Harris, DOB 02/14/1939, email g.harris@mail.com",
     ["George", "Harris", "02/14/1939", "g.harris", "mail.com"]),
    ("Eu moro na Rua Augusta, 1500, CEP 01305-100, São Paulo", ["Augusta", "1500", "01305-100"]),
    ("I'm 92, SSN 372-48-1956, MRN 998877, patient id CARD-B004",
     ["92", "372-48-1956", "998877", "CARD-B004"]),
    ("Meu prontuário é 12345, IP 189.45.12.200, site www.joaopereira.com.br, nasci em 3 de maio de 1931",
     ["12345", "189.45.12.200", "joaopereira", "3 de maio", "1931"]),
    ("My address is 55 Park Avenue, New York, NY 10016 and my phone +1 415 555 0100",
     ["55 Park", "10016", "415", "0100"]),
])
def test_redact_removes_every_value(detector: PhiDetector, text: str, values: list[str]) -> None:
    redacted = detector.redact(text)
    for value in values:
        assert value not in redacted, redacted


def test_redact_replaces_spans_by_category(detector: PhiDetector) -> None:
    text = "Sou a Maria Souza, CPF 529.982.247-25, quero remarcar"
    assert detector.redact(text) == "Sou a [NAME], CPF [NATIONAL_ID], quero remarcar"
    assert detector.redact("Quero marcar cardiologia na segunda") == "Quero marcar cardiologia na segunda"


def test_redact_merges_overlapping_spans(detector: PhiDetector) -> None:
    text = "ligue 11987654321 hoje"
    same = PhiResult((PhiSpan(6, 17, "PHONE"), PhiSpan(6, 17, "NATIONAL_ID"), PhiSpan(12, 22, "RECORD_ID")))
    # One token for the merged span, named after its longest member (ties: alphabetical).
    assert detector.redact(text, same) == "ligue [NATIONAL_ID]"
    nested = PhiResult((PhiSpan(0, 10, "ADDRESS"), PhiSpan(2, 4, "POSTAL_CODE"), PhiSpan(12, 14, "NAME")))
    assert detector.redact("0123456789 abcd", nested) == "[ADDRESS] a[NAME]d"


def test_spans_index_the_original_text(detector: PhiDetector) -> None:
    text = "Olá! Sou a Luíza Araújo e nasci em 1º de março de 1950"
    result = detector.detect(text)
    assert [(text[s.start:s.end], s.category) for s in result.spans] == [
        ("Luíza Araújo", "NAME"), ("1º de março de 1950", "BIRTH_DATE")]
    assert result.categories == ("BIRTH_DATE", "NAME") and result.found
    assert not detector.detect("").found


@pytest.mark.parametrize("text", [
    "CPF 529.982.247-25",  # valid check digits
    "meu documento: 52998224725",
    "529 982 247 25 é o meu",
    "cpf 123.456.789-00",  # wrong check digits: still a CPF-shaped national id
    "o número 12345678900 é do meu cadastro",  # 11 digits, no context
])
def test_cpf_shapes_are_national_ids(detector: PhiDetector, text: str) -> None:
    assert "NATIONAL_ID" in detector.detect(text).categories


def test_the_sessions_patient_name_is_phi(detector: PhiDetector) -> None:
    maria = ["Maria Souza"]
    # "Maria precisa remarcar" names her anyway: a first name before what only people do.
    assert not detector.detect("Maria remarcar amanha").found
    result = detector.detect("Maria remarcar amanha", patient_names=maria)
    assert result.spans == (PhiSpan(0, 5, "NAME"),)
    assert detector.detect("maria souza aqui", patient_names=maria).categories == ("NAME",)
    assert detector.detect("Maria remarcar amanha", patient_names="Maria Souza").spans == result.spans
    assert detector.detect("Joao Pereira de novo", patient_names=["João Pereira"]).categories == ("NAME",)
    # A word of the name in lower case is an ordinary word; a doctor sharing the surname is public.
    assert not detector.detect("tenho uma mancha cor de rosa", patient_names=["Rosa Lima"]).found
    assert not detector.detect("Quero a Dra. Beatriz Souza", patient_names=maria).found
    assert not detector.detect("Tem vaga com Beatriz Souza?", patient_names=["Ana Souza"]).found


@pytest.mark.parametrize(("text", "patient", "category"), [
    ("Quero consulta com Eduardo Lima na quarta", "Ana Lima", "NAME"),  # a known doctor, untitled
    ("Thanks, Derma Jardins", "", "NAME"),  # a clinic's name
    ("A consulta é na Av. Paulista, 1200?", "", "ADDRESS"),  # a clinic's street address
    ("É na Avenida Paulista 1200 - Bela Vista?", "", "ADDRESS"),  # the same, spelled out
])
def test_public_names_come_from_the_constructor(detector: PhiDetector, text: str, patient: str,
                                                category: str) -> None:
    names = [patient] if patient else []
    assert category in PhiDetector().detect(text, patient_names=names).categories
    assert not detector.detect(text, patient_names=names).found


def test_doctors_learned_after_start_become_public() -> None:
    # A clinic that was down at start reports its doctors later; the detector learns them then.
    text, names = "Quero consulta com Eduardo Lima na quarta", ["Ana Lima"]
    late = PhiDetector(known_doctors=["Dr. Fernando Costa"])
    assert late.detect(text, patient_names=names).found
    late.know_doctors(["Dr. Fernando Costa", "Dr. Eduardo Lima"])
    assert not late.detect(text, patient_names=names).found


def test_a_clinic_address_allows_only_itself(detector: PhiDetector) -> None:
    # Another number on the clinic's street, or a flat in the clinic's building, is a home.
    assert detector.detect("Moro na Av. Paulista, 1500").categories == ("ADDRESS",)
    assert detector.detect("Moro na Rua dos Pinheiros, 1020, apto 52").categories == ("ADDRESS",)


def test_system_ids_are_not_phi_but_patient_ids_are(detector: PhiDetector) -> None:
    assert not detector.detect("Cancelar CARD-A-APT-1A2B3C4D5E e o horário ORTH-D-DR01-20261123-0900").found
    assert detector.detect("meu id é CARD-A001").categories == ("RECORD_ID",)


def test_no_network_access(monkeypatch: pytest.MonkeyPatch) -> None:
    attempts: list[tuple] = []

    def refuse(*args: object, **kwargs: object) -> None:
        attempts.append(args)
        raise OSError("network access refused by the test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    # The trap works: tldextract left to download the suffix list is caught trying.
    tldextract.TLDExtract(cache_dir=None, suffix_list_urls=("https://publicsuffix.org/list/public_suffix_list.dat",))(
        "example.com")
    assert attempts
    attempts.clear()

    fresh = PhiDetector()
    result = fresh.detect("escreva para ana.costa@gmail.com ou veja https://www.anacosta.com.br/perfil "
                          "and maria@clinica.med.br, www.example.org/page")
    assert result.categories == ("EMAIL", "URL")
    assert attempts == []


def test_concurrent_calls_match_sequential_ones(detector: PhiDetector) -> None:
    texts = [row["text"] for row in LABELED] * 4
    sequential = [detector.detect(text) for text in texts]
    with ThreadPoolExecutor(max_workers=8) as pool:
        concurrent = list(pool.map(detector.detect, texts))
    assert concurrent == sequential


def test_detection_is_fast(detector: PhiDetector) -> None:
    timings = []
    for _ in range(5):
        for row in LABELED:
            start = time.perf_counter()
            detector.detect(row["text"])
            timings.append(time.perf_counter() - start)
    p50 = statistics.median(timings) * 1000
    p95 = statistics.quantiles(timings, n=20)[-1] * 1000
    print(f"\nPHI detection per message: p50 {p50:.3f} ms, p95 {p95:.3f} ms ({len(timings)} calls)")
    assert p50 < 5.0


@pytest.mark.parametrize(("text", "name"), [
    ("can you book tyrone jenkins for a flu shot?", "tyrone jenkins"),  # lower case, no context
    ("aqui é a tatiane, filha da dona Cida", "tatiane"),  # lower case after "aqui é a"
    ("this is grace again, any news?", "grace"),  # a common word, introduced
    ("fala com a Rosa, ela é minha cuidadora", "Rosa"),  # a common word, capitalized and mentioned
    ("Ask for Consuelo at the reception", "Consuelo"),
    ("Reschedule Hernandez, Linda for Friday", "Hernandez, Linda"),  # surname first
    ("this is for ananya, she is 7 and has a rash", "ananya"),  # a name from India, lower case
    ("its maria-jose, can she come earlier?", "maria-jose"),  # hyphenated names
    ("boa tarde, Thiago falando, consigo encaixe?", "Thiago"),  # introduced by the words after it
    ("Hiroshi said you could help me", "Hiroshi"),
    ("Luana, dn 14/02/2001, quer consulta", "Luana"),
    ("for Anan Srisuk, dob 5/30/1977", "Anan Srisuk"),  # names outside the gazetteer, capitalized
    ("oi eh a cleide, preciso do atestado", "cleide"),  # a greeting, then who writes
    ("pode avisar a Rosangela que o resultado saiu?", "Rosangela"),  # "avisar a", a verb mentioning
    ("please call Deepak about his biopsy", "Deepak"),
    ("o Jefferson e a Kelly são meus filhos", "Jefferson"),  # an article and words making it a person
])
def test_names_from_the_gazetteer(detector: PhiDetector, text: str, name: str) -> None:
    assert (text.index(name), text.index(name) + len(name), "NAME") in [
        (s.start, s.end, s.category) for s in detector.detect(text).spans]


@pytest.mark.parametrize("text", [
    "Apareceram manchas rosa nas costas",  # a colour
    "Will the clinic be open on Thanksgiving?",
    "meu número de Portugal é novo",  # a country, also a first name
    "Vocês atendem no Distrito Federal?",
    "Fiz cirurgia no Hospital Israelita Albert Einstein",  # a place named after a person
    "Tem vaga em São José dos Campos ou Rio Grande?",
    "Is parking free at Johns Hopkins Hospital?",
    "a Rosa vermelha murchou",  # an article and a common word, nothing making it a person
    "o Jordan transbordou de novo",
    "I uploaded the pictures of my rash here",  # "rash" is also a first name
    "Is she still my dependent? Her DOB is 05/11/1960",
])
def test_common_words_and_places_are_not_names(detector: PhiDetector, text: str) -> None:
    assert "NAME" not in detector.detect(text).categories


def test_a_capitalized_name_runs_on_only_through_capitals(detector: PhiDetector) -> None:
    # "said" is also a surname; "Dr. Hiroshi Tanaka" is a doctor, public.
    assert not detector.detect("Dr. Hiroshi Tanaka said I should book an MRI").found


@pytest.mark.parametrize(("text", "phone"), [
    ("call me back at 555-0123 please", "555-0123"),  # US, no area code, after a context word
    ("Contact number 1-800-555-0134 is my work line", "1-800-555-0134"),  # toll-free, with context
])
def test_us_phone_forms_with_context(detector: PhiDetector, text: str, phone: str) -> None:
    assert (text.index(phone), text.index(phone) + len(phone), "PHONE") in [
        (s.start, s.end, s.category) for s in detector.detect(text).spans]


@pytest.mark.parametrize("text", [
    "the bus leaves at 555-0123",  # a US local shape, no phone word
    "Our pharmacy line is 1-800-555-0134.",  # toll-free without a phone word: a business
    "o protocolo do atendimento e SUP-2024-118833",  # the tail of a code
    "Transfer note: Omar Haddad, 09-30-1949, to ICU",  # a dated day is a birth date, not also a phone
    "logged in from 203.0.113.47 this morning",  # an IPv4 address
])
def test_phone_shapes_without_context_are_not_phones(detector: PhiDetector, text: str) -> None:
    assert "PHONE" not in detector.detect(text).categories


def test_record_numbers_after_record_words(detector: PhiDetector) -> None:
    assert detector.detect("meu registro de paciente e 0098-7712").categories == ("RECORD_ID",)


@pytest.mark.parametrize(("text", "address"), [
    ("I lived at 1695 N 3rd St, Unit 486, Orlando, FL. Not now", "1695 N 3rd St, Unit 486, Orlando, FL"),
    ("I'm at 4676 Riverside Dr, Seattle, WA, is there a pharmacy nearby?", "4676 Riverside Dr, Seattle, WA"),
    ("ship it to 742 maple grove lane apt 3b please", "742 maple grove lane apt 3b"),
    ("moro na Rua Coronel Lisboa, 812, apto 31, Vila Mariana, São Paulo - SP, CEP 04020-041",
     "Rua Coronel Lisboa, 812, apto 31, Vila Mariana, São Paulo - SP"),
    ("entrega na av. sete de setembro 2775 ap. 1203", "av. sete de setembro 2775 ap. 1203"),
])
def test_addresses_run_from_the_street_to_the_state(detector: PhiDetector, text: str, address: str) -> None:
    spans = [(s.start, s.end) for s in detector.detect(text).spans if s.category == "ADDRESS"]
    assert spans == [(text.index(address), text.index(address) + len(address))]


@pytest.mark.parametrize("text", [
    "Confirmo a consulta segunda 19:45 com Dr. Arthur",
    "I walked 3 blocks down the street and got dizzy",
    "Tomo 2 comprimidos de 500 mg por dia",
])
def test_numbers_and_street_words_alone_are_not_addresses(detector: PhiDetector, text: str) -> None:
    assert "ADDRESS" not in detector.detect(text).categories


@pytest.mark.parametrize(("text", "date"), [
    ("It's 6/24/1991, that's my date of birth", "6/24/1991"),  # month first: 24 is the day
    ("DN 24/06/1991, sexo feminino", "24/06/1991"),
    ("I was born on June 24, 1991", "June 24, 1991"),
    ("ela nasceu em 24 de junho de 1991", "24 de junho de 1991"),
    ("Minha data de nascimento tá errada no cadastro, o certo é 05/03/1993", "05/03/1993"),
    ("Kwame Mensah, 11/02/1979, follow-up", "11/02/1979"),  # a whole date long past
])
def test_birth_dates_in_every_order(detector: PhiDetector, text: str, date: str) -> None:
    spans = [(s.start, s.end) for s in detector.detect(text).spans if s.category == "BIRTH_DATE"]
    assert spans == [(text.index(date), text.index(date) + len(date))]


@pytest.mark.parametrize("text", [
    "Preciso de atestado pro dia 15/07/2025",  # recent: an appointment or a sick note
    "born 13/13/1990",  # no such day in either order
    "data de nascimento 01/02/2999",  # in the future
])
def test_dates_that_cannot_be_birth_dates(detector: PhiDetector, text: str) -> None:
    assert "BIRTH_DATE" not in detector.detect(text).categories


def _spans(detector: PhiDetector, text: str, category: str) -> list[str]:
    return [text[s.start:s.end] for s in detector.detect(text).spans if s.category == category]


@pytest.mark.parametrize(("text", "number"), [
    ("my member id is QXT551209874 for the claim", "QXT551209874"),  # HIPAA: health plan beneficiary numbers
    ("policy # HB20931177, is the scan covered?", "HB20931177"),
    ("her medicare number is 3KT7-GH2-WD41", "3KT7-GH2-WD41"),
    ("insurance ID BCX 4410 2287 3", "BCX 4410 2287 3"),  # the plan's letters, then groups of digits
    ("a carteirinha do convenio dela e 0 993 120045877 1", "0 993 120045877 1"),
    ("my chart number at the clinic downtown was RW-771203", "RW-771203"),  # words between, then a verb
    ("o numero do convenio da minha mae e SP-44120087-2", "SP-44120087-2"),
])
def test_health_plan_and_record_numbers_in_context(detector: PhiDetector, text: str, number: str) -> None:
    assert _spans(detector, text, "RECORD_ID") == [number]


@pytest.mark.parametrize("text", [
    "o convenio e 350 reais por mes",  # a price
    "does my insurance cover 12 visits?",
    "the policy changed in 2025",
])
def test_plan_words_beside_amounts_are_not_records(detector: PhiDetector, text: str) -> None:
    assert "RECORD_ID" not in detector.detect(text).categories


@pytest.mark.parametrize(("text", "number"), [
    ("cartao do sus 702 3316 8840 1297", "702 3316 8840 1297"),  # Brazil's national health card
    ("o numero do SUS dele e 161 2209 4410 0008", "161 2209 4410 0008"),
    ("PESEL 84071512345", "84071512345"),
])
def test_sus_card_and_foreign_ids_are_national_ids(detector: PhiDetector, text: str, number: str) -> None:
    assert _spans(detector, text, "NATIONAL_ID") == [number]


@pytest.mark.parametrize(("text", "code"), [
    ("send it to 88 w 12th st, austin tx 78701", "78701"),  # a lower-case state and ZIP
    ("Rua de Santa Catarina 40, Porto 4000-447", "4000-447"),  # Portugal's 4+3 code after the city
    ("moro em Lisboa, codigo postal 1100-148", "1100-148"),
    ("Av. Boa Viagem 3200, Recife, 51020000", "51020000"),  # a bare CEP after the city
])
def test_postal_codes_after_their_place(detector: PhiDetector, text: str, code: str) -> None:
    assert code in "".join(_spans(detector, text, "POSTAL_CODE"))


def test_post_office_boxes_are_addresses(detector: PhiDetector) -> None:
    text = "mail the forms to PO Box 9120, Helena MT 59604"
    assert _spans(detector, text, "ADDRESS") == ["PO Box 9120, Helena MT"]


@pytest.mark.parametrize(("text", "date"), [
    ("data de nascimento: agosto/1975", "agosto/1975"),  # month and year count
    ("DOB: March 1961", "March 1961"),
])
def test_month_and_year_birth_dates(detector: PhiDetector, text: str, date: str) -> None:
    assert _spans(detector, text, "BIRTH_DATE") == [date]


@pytest.mark.parametrize(("text", "age"), [
    ("minha avo tem noventa e quatro anos", "noventa e quatro"),
    ("he's ninety-one and lives alone", "ninety-one"),
])
def test_ages_over_89_in_words(detector: PhiDetector, text: str, age: str) -> None:
    assert _spans(detector, text, "AGE_OVER_89") == [age]


@pytest.mark.parametrize(("text", "name"), [
    ("grace is my neighbour, she will sign for the parcel", "grace"),  # a common word, who she is to me
    ("a paz minha prima vem junto", "paz"),
    ("rosa aqui, posso remarcar?", "rosa"),  # opening the message: the writer
    ("oi, will here, is the lab open?", "will"),
    ("please email Yusuf at yusuf.b@example.com", "Yusuf"),  # the person's e-mail right after
    ("Oluwaseun +44 7700 900123 asked for a callback", "Oluwaseun"),
    ("my granddaughter Imani has a fever", "Imani"),  # kin words: grandchildren, carers
    ("minha cuidadora Josefa vai buscar", "Josefa"),
    ("chamem a Sakura quando o exame sair", "Sakura"),
    ("I'm calling for mrs. okonkwo, she is hard of hearing", "okonkwo"),  # an honorific, lower case
])
def test_names_from_the_words_around_them(detector: PhiDetector, text: str, name: str) -> None:
    assert name in _spans(detector, text, "NAME")


@pytest.mark.parametrize("text", [
    "I live in Oregon state, is telehealth allowed?",  # a state or a country is not an address
    "moro no Rio Grande do Sul, voces atendem online?",
    "we live in Canada now",
])
def test_residence_as_large_as_a_state_is_not_an_address(detector: PhiDetector, text: str) -> None:
    assert not detector.detect(text).found


@pytest.mark.parametrize("text", [
    "My cousin got treated at Mass General last year",  # institutions known by a person's name
    "o Emilio Ribas atende infectologia?",
    "is Dana-Farber better than Mount Sinai for this?",
    "we are driving to San Jose tomorrow, any clinic there?",  # a place reached
    "a filial de Santa Rosa abre sabado?",
    "parking on Rosa Parks Blvd is free",  # a street named after a person
    "the Johnson Motor Company plan covers it",  # a company
    "Mato Grosso ou Goias, qual unidade fica mais perto?",  # Brazilian states
    "a vacina e de graca?",
])
def test_institutions_places_and_companies_are_not_names(detector: PhiDetector, text: str) -> None:
    assert "NAME" not in detector.detect(text).categories


def test_a_run_of_name_particles_alone_is_read_without_failing(detector: PhiDetector) -> None:
    """"van" between lower-case words is a particle run with no name in it: the message is still
    read (a crash here made the whole message count as PHI, unread)."""
    found = detector.detect("im tran van duc, phone +84 903 217 648")
    assert "PHONE" in {s.category for s in found.spans}


@pytest.mark.parametrize(("text", "number", "category"), [
    ("hospital number KQ55120984, is the biopsy back?", "KQ55120984", "RECORD_ID"),  # hospital, claim
    ("the claim number VA-77120943 was denied", "VA-77120943", "RECORD_ID"),
    ("carrier id AET 5521 8830 12 on the back of the card", "AET 5521 8830 12", "RECORD_ID"),
    ("carteira do planserv 3320.1187.554 vale ai?", "3320.1187.554", "RECORD_ID"),  # a card named by its plan
    ("carteirinha unimed saude 0 041 551200334 7", "0 041 551200334 7", "RECORD_ID"),
    ("i have her medical record number, its 55-120-881", "55-120-881", "RECORD_ID"),
    ("my NHS number is 485 777 3456", "485 777 3456", "NATIONAL_ID"),  # the UK's NHS number, Canada's SIN
    ("SIN 046 454 286, for the form", "046 454 286", "NATIONAL_ID"),
    ("born 1952/03/17 in Lagos", "1952/03/17", "BIRTH_DATE"),  # year first, with slashes
    ("telefone fixo 3341-2290 de manha", "3341-2290", "PHONE"),  # a landline without area code
])
def test_numbers_named_by_the_words_before_them(detector: PhiDetector, text: str, number: str,
                                                category: str) -> None:
    assert _spans(detector, text, category) == [number]


@pytest.mark.parametrize(("text", "name"), [
    ("surname Abiodun, first name Kemi", "Abiodun"),  # after a form's name field, any case
    ("a enfermeira Luzia trocou o curativo", "Luzia"),  # nurses are people, not public doctors
    ("kwabena is my brother, he has the papers", "kwabena"),  # unknown to the gazetteer, told who he is
    ("thandiwe e minha vizinha de porta", "thandiwe"),
    ("chama a flor, ela e minha irma", "flor"),  # a common word, then who she is to me
])
def test_names_by_who_they_are_to_the_writer(detector: PhiDetector, text: str, name: str) -> None:
    assert name in _spans(detector, text, "NAME")


@pytest.mark.parametrize("text", [
    "minha mae pediu pra remarcar",  # kin words are not names
    "admitted overnight for CAP, started on amoxicillin",  # an acronym
    "ticket SUP-88231 is still open",  # an id's prefix
    "socorro, minha filha caiu da escada",  # a common word opening the message, then a comma
    "does Johns Hopkins Bayview take walk-ins?",  # an institution with its branch
    "Virginia Mason or Ben Taub, which is closer?",
    "they moved him to Florence Nightingale Ward",  # wards and companies named after people
    "a Victoria Farma vende genericos?",
    "meu cel espanhol e +34 612 48 39 07",
])
def test_kin_acronyms_and_institutions_are_not_names(detector: PhiDetector, text: str) -> None:
    assert "NAME" not in detector.detect(text).categories


@pytest.mark.parametrize(("text", "date"), [
    ("date of birth: the third of march, nineteen forty-one", "the third of march, nineteen forty-one"),
    ("minha mae nasceu em doze de outubro de mil novecentos e trinta e dois",
     "doze de outubro de mil novecentos e trinta e dois"),
])
def test_birth_dates_spelled_out(detector: PhiDetector, text: str, date: str) -> None:
    assert _spans(detector, text, "BIRTH_DATE") == [date]


def test_a_birth_month_alone_is_not_a_birth_date(detector: PhiDetector) -> None:
    assert "BIRTH_DATE" not in detector.detect("born in may, one of the first in the family").categories


@pytest.mark.parametrize(("text", "name"), [
    ("this is tom, gloria's husband, about her scan", "gloria"),  # a known name owning a relative
    ("im calling for Anjalis mother", "Anjali"),  # the apostrophe left out
    ("i have deborahs medical record here", "deborah"),
])
def test_a_name_owning_a_relative_or_a_record(detector: PhiDetector, text: str, name: str) -> None:
    assert name in _spans(detector, text, "NAME")


def test_a_word_before_is_my_kin_mid_clause_is_not_a_name(detector: PhiDetector) -> None:
    assert _spans(detector, "o Caio ta com tosse, e meu sobrinho", "NAME") == ["Caio"]


@pytest.mark.parametrize(("text", "age"), [
    ("Bed 4: Halina Nowak, 93F, s/p fall, on apixaban", "93"),  # a handoff's age and sex after the name
    ("Transfer: Oskar Lind, ninety-four, from the nursing home", "ninety-four"),  # in words, apposed
    ("my grandma wanda is 99 tomorrow", "99"),
])
def test_ages_over_89_beside_a_name(detector: PhiDetector, text: str, age: str) -> None:
    assert _spans(detector, text, "AGE_OVER_89") == [age]


@pytest.mark.parametrize("text", [
    "Handoff: sats 94, RR 22, febrile",  # vital signs after a comma, no sex letter
    "the bill was $91M, not ours",
])
def test_numbers_beside_commas_are_not_ages(detector: PhiDetector, text: str) -> None:
    assert "AGE_OVER_89" not in detector.detect(text).categories


@pytest.mark.parametrize(("text", "number", "category"), [
    ("Medicaid id KS55120987 on file", "KS55120987", "RECORD_ID"),
    ("a apolice do seguro saude e AP-2023-771245", "AP-2023-771245", "RECORD_ID"),  # Portuguese 'policy'
    ("a guia do convenio pede o numero 1 204 558120334 01 7", "1 204 558120334 01 7", "RECORD_ID"),
    ("SUS 898 4410 2231 0057, paciente acamado", "898 4410 2231 0057", "NATIONAL_ID"),  # bare SUS
    ("estrangeira, RNE W551208-3", "W551208-3", "NATIONAL_ID"),  # a foreigner's registry in Brazil
    ("RNE G330917-Q, boliviano", "G330917-Q", "NATIONAL_ID"),
])
def test_plan_forms_and_foreigners_ids(detector: PhiDetector, text: str, number: str, category: str) -> None:
    assert _spans(detector, text, category) == [number]


@pytest.mark.parametrize(("text", "date"), [
    ("born 14-Feb-52, diabetic", "14-Feb-52"),  # a chart's day-month-year
    ("Pt Arjun Mehta 1949.03.08 admitted overnight", "1949.03.08"),  # dotted ISO, long past
    ("meu pai nasceu em 11/1941", "11/1941"),  # month and year
])
def test_birth_dates_in_chart_forms(detector: PhiDetector, text: str, date: str) -> None:
    assert _spans(detector, text, "BIRTH_DATE") == [date]


@pytest.mark.parametrize(("text", "name"), [
    ("a bianca (minha neta) vai trazer os exames", "bianca"),  # kin in parentheses after the name
    ("titular Rogerio, dependente Valentina (filha)", "Valentina"),
    ("can tariq bring the forms? he's my son", "tariq"),  # a pronoun telling kin later in the message
    ("o heitor e a yasmin sao meus filhos", "yasmin"),
    ("a acompanhante Nurgul fica com ela", "Nurgul"),  # an article and a relation word before the name
    ("she goes by nadia", "nadia"),
    ("Pt Min-jun Kang admitted with sepsis", "Min-jun Kang"),  # a chart's 'Pt', a hyphen in lower case
])
def test_names_by_relation_in_more_forms(detector: PhiDetector, text: str, name: str) -> None:
    assert name in _spans(detector, text, "NAME")


@pytest.mark.parametrize("text", [
    "o acompanhante e o irmao dela",  # a pronoun after a relation word
    "Socorro, minha filha caiu da escada!",  # a cry for help opening the message
    "dores de cabeca toda manha, e normal?",
    "the pharmacist at Walgreens said to take it with food",
])
def test_pronouns_cries_symptoms_and_pharmacies_are_not_names(detector: PhiDetector, text: str) -> None:
    assert "NAME" not in detector.detect(text).categories


@pytest.mark.parametrize(("text", "name"), [
    ("renata e kelvin precisam remarcar a consulta", "kelvin"),  # two first names joined, as people
    ("yusuf and amara are both due for boosters", "yusuf"),
    ("leito 4 rosangela, febre desde ontem", "rosangela"),  # a handoff's bed
    ("bed 7 is priyanka, npo after midnight", "priyanka"),
    ("sou o wellington, filho da paciente do leito 3", "wellington"),  # 'sou o' without a greeting
    ("a edilene e cuidadora da minha avo", "edilene"),  # whose relative the person is
])
def test_names_joined_in_beds_and_by_role(detector: PhiDetector, text: str, name: str) -> None:
    assert name in _spans(detector, text, "NAME")


@pytest.mark.parametrize("text", [
    "dipirona e paracetamol juntos pode?",  # drugs joined, not people
    "rosa e branco sao as cores da clinica",  # common words that are also names
    "leito 12 ocupado, aguardando limpeza",
    "sou a favor de trocar o remedio",
])
def test_joined_words_beds_and_opinions_are_not_names(detector: PhiDetector, text: str) -> None:
    assert "NAME" not in detector.detect(text).categories


@pytest.mark.parametrize(("text", "number", "category"), [
    ("numero de utente 512 884 019, sou de Braga", "512 884 019", "NATIONAL_ID"),  # Portugal's SNS user
    ("o meu NIF e 203 991 457", "203 991 457", "NATIONAL_ID"),
    ("Policy number AET 558120934 for the claim", "AET 558120934", "RECORD_ID"),  # an insurer's letters
    ("hospital no. K7741200, admitted Tuesday", "K7741200", "RECORD_ID"),  # an abbreviation's dot
])
def test_portuguese_ids_and_insurers_numbers(detector: PhiDetector, text: str, number: str,
                                              category: str) -> None:
    assert number in _spans(detector, text, category)


def test_an_age_over_89_after_a_pronoun(detector: PhiDetector) -> None:
    assert _spans(detector, "visito a dona zilda, ela tem 95 e mora sozinha", "AGE_OVER_89") == ["95"]
    assert "AGE_OVER_89" not in detector.detect("ele tem 95 kg e pressao alta").categories


@pytest.mark.parametrize(("text", "name"), [
    ("callback to nephew Tavita at 555-0199", "Tavita"),  # a bare relation word before a capitalized name
    ("my sister-in-law Miyoko drives me", "Miyoko"),  # an in-law
    ("fala com minha colega de quarto jaqueline", "jaqueline"),
    ("sorry, its spelled Adaeze not Adaze", "Adaze"),  # a name's spelling corrected
    ("meu nome e Rosicleide e nao Rosicleia", "Rosicleia"),
    ("obinna has a fever since yesterday", "obinna"),  # a name opening the message, then a verb
    ("Dmitri from room 8 lost his hearing aid", "Dmitri"),
])
def test_names_by_bare_relation_corrected_spelling_and_opening_verb(detector: PhiDetector, text: str,
                                                                     name: str) -> None:
    assert name in _spans(detector, text, "NAME")


@pytest.mark.parametrize("text", [
    "Ozempic is expensive here",  # a drug opening the message before a verb
    "Lupus is chronic, right?",
    "typo: its dose not does",
    "the family Medical leave form",
])
def test_drugs_diseases_and_typos_are_not_names(detector: PhiDetector, text: str) -> None:
    assert "NAME" not in detector.detect(text).categories


def test_an_age_over_89_after_a_relative_with_a_middle_initial(detector: PhiDetector) -> None:
    assert _spans(detector, "my grandfather Tomas R. Ueda is 99, is that too old for surgery?",
                  "AGE_OVER_89") == ["99"]


@pytest.mark.parametrize(("text", "name"), [
    ("o resultado da maria paula saiu?", "maria paula"),  # two first names, both common words
    ("the refill is for gloria paula", "gloria paula"),
])
def test_two_common_first_names_after_a_mention(detector: PhiDetector, text: str, name: str) -> None:
    assert any(name in span for span in _spans(detector, text, "NAME"))


@pytest.mark.parametrize(("text", "name"), [
    ("dob 11th nov 1952, name deng majok", "deng majok"),  # a clause opening with "name", unlisted names
    ("nascimento: 7/1/1950, nome odete", "odete"),
    ("nome maria aparecida, cpf em anexo", "maria aparecida"),  # names that are also words after "nome"
    ("please fax the letter to (303) 555-0191, attn carmen ruiz", "carmen ruiz"),  # a letter's attention
    ("policy # UHC 911 847 302, subscriber wanjiru kamau", "wanjiru kamau"),  # an insurance's subscriber
    ("numero da apolice SUL-2024-0481177, segurado eduardo", "eduardo"),
    ("my partner sione will pick up the prescription", "sione"),  # a relative, an unlisted name, a verb
    ("minha bisavo sebastiana tem 101 anos", "sebastiana"),
    ("moana kealoha here, birthday 9-21-1983", "moana kealoha"),  # the writer opening the message
    ("55 (48) 9 9617-4420 e meu whats, greice", "greice"),  # a listed name signing the message
    ("quem ta falando e o marcelo, enfermeiro do home care", "marcelo"),
    ("i'll bring fatima with me, she translates for me", "fatima"),
])
def test_names_after_cues_listed_or_not(detector: PhiDetector, text: str, name: str) -> None:
    assert name in _spans(detector, text, "NAME")


@pytest.mark.parametrize("text", [
    "my son vomited twice last night",  # a relative, then no name
    "my daughter wheezing again, what do I do?",
    "the rash here is worse",  # "here" not after who writes
    "pode ser amanha de manha, obrigada",  # a sign-off, no name
    "a mancha ficou vermelha, rosa",  # a colour closing the message
    "what name should I put on the form?",  # "name" then common words
    "subscriber number is on the back of the card",
])
def test_cues_before_words_are_not_names(detector: PhiDetector, text: str) -> None:
    assert "NAME" not in detector.detect(text).categories


def test_a_form_label_is_not_part_of_the_name(detector: PhiDetector) -> None:
    assert _spans(detector, "Nome completo: Juliana Sampaio", "NAME") == ["Juliana Sampaio"]


@pytest.mark.parametrize(("text", "value", "category"), [
    ("my va claim number is C 28 441 903 please add it", "C 28 441 903", "RECORD_ID"),  # one letter, groups
    ("o numero do prontuario da zuleica e PR 0045 1182", "PR 0045 1182", "RECORD_ID"),  # letters, two groups
    ("o numero do meu plano amil e 088142773", "088142773", "RECORD_ID"),  # a plan named by its insurer
    ("matricula do ipsemg 00451287-3 pra minha mae", "00451287-3", "RECORD_ID"),  # named by its institution
    ("please note patient Kiri Tawhiri (NHI ZAC4491) prefers", "ZAC4491", "NATIONAL_ID"),  # New Zealand
    ("liga (0xx21) 2547-8890", "(0xx21) 2547-8890", "PHONE"),  # Brazil's open-carrier long distance
    ("i moved to Montreal QC H3A 1G2 last year", "H3A 1G2", "POSTAL_CODE"),  # a Canadian postcode
])
def test_numbers_in_context_of_more_forms(detector: PhiDetector, text: str, value: str,
                                          category: str) -> None:
    assert value in _spans(detector, text, category)


@pytest.mark.parametrize("text", [
    "o plano custa 350 reais por mes?",  # a plan's price
    "a matricula da escola abre em janeiro",
    "is the NHI needed for a visit?",
])
def test_plans_and_registrations_without_numbers_are_not_ids(detector: PhiDetector, text: str) -> None:
    assert not detector.detect(text).found


@pytest.mark.parametrize("text", [
    "Jackson Memorial or Baptist Health for a second opinion on my thyroid?",
    "the Hope Lodge near the cancer center has rooms available?",
    "Gloria Dei Lutheran runs the flu shot drive at the church on Saturday",
    "Ashley Furniture delivery blocked the ramp, can the appt be moved?",
    "Will the Florence Nightingale ward accept visitors after 8pm?",
    "his coach at Lincoln High wants a sports physical",
    "o Hemocentro de Ribeirao Preto precisa de doador O negativo?",
])
def test_memorials_lodges_churches_schools_shops_and_wards_are_not_names(detector: PhiDetector,
                                                                          text: str) -> None:
    assert "NAME" not in detector.detect(text).categories


@pytest.mark.parametrize(("text", "address"), [
    ("SQS 308 bloco C apto 201, Asa Sul, Brasilia DF, CEP 70355-030", "SQS 308 bloco C apto 201"),
    ("a visita e na Quadra 204 Sul, Alameda 12, Lote 7, Palmas - TO", "Quadra 204 Sul, Alameda 12, Lote 7"),
    ("moro na quadra 12 conjunto B casa 4 em Sobradinho", "quadra 12 conjunto B casa 4"),
    ("i moved to 902 Rue Sherbrooke O, app 14, Montreal QC H3A 1G2", "902 Rue Sherbrooke O, app 14"),
])
def test_brasilia_blocks_and_quebec_streets(detector: PhiDetector, text: str, address: str) -> None:
    assert any(address in span for span in _spans(detector, text, "ADDRESS"))


def test_a_sports_court_is_not_an_address(detector: PhiDetector) -> None:
    text = "o jogo e na quadra 3 amanha, posso jogar com o joelho assim?"
    assert "ADDRESS" not in detector.detect(text).categories


@pytest.mark.parametrize(("text", "name"), [
    ("paz esta com febre desde ontem, ela tem 3 anos", "paz"),  # a name that is a word, then a person's verb
    ("Clara tem 2 anos e ta com diarreia", "Clara"),
    ("call jun-ho on 010-4827-1193", "jun-ho"),  # a Korean name's short second syllable
])
def test_word_names_before_what_people_do_and_korean_syllables(detector: PhiDetector, text: str,
                                                                name: str) -> None:
    assert name in _spans(detector, text, "NAME")


@pytest.mark.parametrize("text", [
    "Summer is here and my allergies are back",
    "paz e bem a todos, a clinica abre sabado?",
    "grace period for the payment ends friday?",
])
def test_words_opening_a_message_are_not_names(detector: PhiDetector, text: str) -> None:
    assert "NAME" not in detector.detect(text).categories


def test_portuguese_verbs_and_contractions_end_a_name(detector: PhiDetector) -> None:
    assert _spans(detector, "tiago vai receber o kit amanha", "NAME") == ["tiago"]
    assert "liga pro" not in _spans(detector, "liga pro meu irmao em luanda +244 923 456 781", "NAME")


def test_a_zip_as_where_one_is(detector: PhiDetector) -> None:
    assert _spans(detector, "which ER near 62785 is best?", "POSTAL_CODE") == ["62785"]
    assert "POSTAL_CODE" not in detector.detect("i walk near 10000 steps a day").categories


@pytest.mark.parametrize(("text", "names"), [
    ("eu estou bem mas keila acordou com febre", ["keila"]),
    ("nurse note: mei refused her evening meds", ["mei"]),
    ("o kauan tomou a vacina ontem e ficou com o braco inchado", ["kauan"]),
    ("handoff: tane in room 12 needs a repeat lactate at 2am", ["tane"]),
])
def test_a_first_name_opening_a_clause_before_what_a_person_does(detector: PhiDetector, text: str,
                                                                  names: list[str]) -> None:
    assert _spans(detector, text, "NAME") == names


def test_a_titles_dot_opens_no_clause(detector: PhiDetector) -> None:
    assert "NAME" not in detector.detect("dr. nguyen wants a follow up in 3 weeks").categories


@pytest.mark.parametrize(("text", "names"), [
    ("ana, joao e pedro precisam da vacina da gripe", ["ana", "joao", "pedro"]),
    ("priya, arjun and meera all have the same rash", ["priya", "arjun", "meera"]),
])
def test_first_names_in_a_list(detector: PhiDetector, text: str, names: list[str]) -> None:
    assert _spans(detector, text, "NAME") == names


def test_a_list_of_words_is_no_list_of_names(detector: PhiDetector) -> None:
    assert "NAME" not in detector.detect("I have cough, fever and chills since monday").categories


@pytest.mark.parametrize(("text", "name"), [
    ("bom dia thiago, preciso da segunda via do pedido", "thiago"),
    ("hi grace, is my referral through?", "grace"),
    # thanked, left or apologized to, even a name that is a word
    ("valeu mesmo rosa, deu tudo certo", "rosa"),
    ("thanks so much hope!", "hope"),
    ("sorry joy, wrong number", "joy"),
])
def test_the_name_greeted_opening_a_message(detector: PhiDetector, text: str, name: str) -> None:
    assert _spans(detector, text, "NAME") == [name]


@pytest.mark.parametrize("text", ["good morning everyone, is the clinic open?", "thanks, will do",
                                  "obrigado doutor, ate amanha", "sorry, hope that is ok"])
def test_a_greeting_to_everyone_names_no_one(detector: PhiDetector, text: str) -> None:
    assert "NAME" not in detector.detect(text).categories


@pytest.mark.parametrize(("text", "name"), [
    ("a consulta e pra mim e pro kaique", "kaique"),
    ("forward it to tomasz, he handles my paperwork", "tomasz"),
])
def test_names_after_pro_and_handing_on(detector: PhiDetector, text: str, name: str) -> None:
    assert _spans(detector, text, "NAME") == [name]


@pytest.mark.parametrize(("text", "name"), [
    ("wiremu needs his inhaler refilled before friday", "wiremu"),
    ("leave a message with kahurangi if I don't pick up", "kahurangi"),
    ("the forms are for mahina, my youngest", "mahina"),
    ("the patient kealoha makoa left AMA", "kealoha makoa"),
])
def test_maori_and_hawaiian_names_no_list_holds(detector: PhiDetector, text: str, name: str) -> None:
    assert _spans(detector, text, "NAME") == [name]


def test_a_polynesian_shaped_common_word_is_no_name(detector: PhiDetector) -> None:
    assert "NAME" not in detector.detect("can I take it with banana or tomate?").categories


def test_a_word_name_after_a_relative_before_a_verb(detector: PhiDetector) -> None:
    assert _spans(detector, "my granddaughter june has an ear infection", "NAME") == ["june"]
    assert _spans(detector, "paz is my mom, she needs a spanish interpreter", "NAME") == ["paz"]
    assert _spans(detector, "my son really has a fever", "NAME") == []


def test_a_word_name_asked_about_and_told_a_relative(detector: PhiDetector) -> None:
    assert _spans(detector, "can rosa pick up my prescription? she's my neighbor", "NAME") == ["rosa"]


def test_a_patient_marked_pt_in_a_note(detector: PhiDetector) -> None:
    assert _spans(detector, "progress note: ravi (pt) ambulating in hall", "NAME") == ["ravi"]


def test_a_toll_free_number_given_as_ones_line(detector: PhiDetector) -> None:
    assert _spans(detector, "you can reach me on my work line 0800 123 4567", "PHONE") == ["0800 123 4567"]
    assert "PHONE" not in detector.detect("the insurer's number is 0800 123 4567").categories


@pytest.mark.parametrize(("text", "name"), [
    ("it's me oksana again, about the mri", "oksana"),
    ("e eu de novo, tainara, sobre o exame de sangue", "tainara"),
    ("Nkechi from this morning, did the lab call back?", "Nkechi"),
])
def test_the_writer_back_again(detector: PhiDetector, text: str, name: str) -> None:
    assert _spans(detector, text, "NAME") == [name]


def test_someone_registered_or_told_to_be_a_name(detector: PhiDetector) -> None:
    assert _spans(detector, "quero cadastrar Ayodele como dependente", "NAME") == ["Ayodele"]
    assert _spans(detector, "Grace is my mother's first name, she is 80", "NAME") == ["Grace"]
    assert "NAME" not in detector.detect("please add ibuprofen to my list").categories


def test_a_corrected_name_and_its_right_spelling(detector: PhiDetector) -> None:
    text = "the chart has my name wrong, it is Przybylski not Przybilski"
    assert "Przybylski" in _spans(detector, text, "NAME")


def test_an_age_over_89_between_commas_before_a_verb(detector: PhiDetector) -> None:
    assert _spans(detector, "my aunt Odete Rocha, 96, lives alone", "AGE_OVER_89") == ["96"]
    assert "AGE_OVER_89" not in detector.detect("pressure 130/85, 92, was taken at noon").categories


@pytest.mark.parametrize(("text", "name"), [
    ("thanks linh!", "linh"),
    ("I told siobhan to call you tomorrow", "siobhan"),
    ("ask bill to call me when he gets in", "bill"),
    ("when emre wakes up he coughs a lot", "emre"),
    ("yuki still has the rash on her arms", "yuki"),
    ("meu marido, o ubirajara, esta internado", "ubirajara"),
    ("niamh and her brother both have lice", "niamh"),
    ("pt lindiwe, 45F, presenting with chest pain", "lindiwe"),
    ("S: thabo c/o headache x3d, no fever", "thabo"),
    ("rounds: bed 9 - joaquina, stable overnight", "joaquina"),
    ("se a potira piorar eu levo na upa", "potira"),
])
def test_first_names_told_thanked_asked_or_charted(detector: PhiDetector, text: str, name: str) -> None:
    assert _spans(detector, text, "NAME") == [name]


@pytest.mark.parametrize("text", [
    "the bill is too high, can I pay in parts?",
    "hope you are well, I need a refill of losartan",
    "pt c/o headache for 3 days, no fever",
])
def test_words_in_those_places_stay_words(detector: PhiDetector, text: str) -> None:
    assert "NAME" not in detector.detect(text).categories


def test_a_relative_before_a_possessive_is_no_name(detector: PhiDetector) -> None:
    assert "son" not in _spans(detector, "i need to move my sons appt", "NAME")


def test_streets_of_britain_ireland_and_new_zealand(detector: PhiDetector) -> None:
    for address in ("3 Marine Parade, Apt 12, Napier", "12 O'Connell Street Upper"):
        assert _spans(detector, f"send it to {address}", "ADDRESS") == [address]


def test_a_name_paired_with_the_writer(detector: PhiDetector) -> None:
    assert _spans(detector, "hope and I will both come at 3", "NAME") == ["hope"]
    assert _spans(detector, "a rosa e eu vamos juntas", "NAME") == ["rosa"]
    assert "NAME" not in detector.detect("salt and I don't get along, says my doctor").categories


@pytest.mark.parametrize(("text", "name"), [
    ("a luz ta com tosse desde domingo", "luz"),
    ("o caio mandou o exame ontem", "caio"),
    ("mark threw up twice after lunch", "mark"),
    ("o bento caiu da bicicleta", "bento"),
])
def test_a_word_name_that_falls_ill_or_acts(detector: PhiDetector, text: str, name: str) -> None:
    assert _spans(detector, text, "NAME") == [name]


@pytest.mark.parametrize("text", [
    "a luz do consultorio esta piscando",
    "a luz caiu de novo aqui no bairro",
    "mark the box if you have a fever",
])
def test_the_same_words_as_words(detector: PhiDetector, text: str) -> None:
    assert "NAME" not in detector.detect(text).categories


def test_a_name_no_list_holds_owning_a_symptom(detector: PhiDetector) -> None:
    assert _spans(detector, "seojun's rash is spreading", "NAME") == ["seojun"]
    assert "NAME" not in detector.detect("a christmas baby, born on the 25th").categories


@pytest.mark.parametrize(("text", "name"), [
    ("hi, this is k. venkataraman about my refill", "k. venkataraman"),
    ("sou o J. Albuquerque, paciente novo", "J. Albuquerque"),
    ("nome social: Heloisa", "Heloisa"),
    ("her nickname is Tati", "Tati"),
    ("could Ifeoma pick up the forms?", "Ifeoma"),
    ("it was Radek who called yesterday", "Radek"),
    ("pcte luiz fernando, 40a, dispneia", "luiz fernando"),
])
def test_names_after_an_initial_a_label_or_as_the_subject(detector: PhiDetector, text: str,
                                                          name: str) -> None:
    assert _spans(detector, text, "NAME") == [name]


@pytest.mark.parametrize("text", [
    "pcte do leito 4 estavel",
    "sou argentina e moro aqui ha dois anos",
    "policy 88120034, subscriber is my wife",
    "is Will Rogers State Park open today?",
])
def test_beds_nationalities_roles_and_parks_are_no_names(detector: PhiDetector, text: str) -> None:
    assert not {"leito", "argentina", "subscriber", "Will Rogers State"} & set(_spans(detector, text, "NAME"))


@pytest.mark.parametrize(("text", "value"), [
    ("numero do prontuario: AB 441.902", "AB 441.902"),
    ("pcte leito 3, reg. 2023/55120", "2023/55120"),
    ("matricula ipsemg 2230918-1", "2230918-1"),
    ("sulamerica saude numero 881 204 553 120 007", "881 204 553 120 007"),
    ("insurance card: aetna W88120455", "W88120455"),
])
def test_record_and_member_numbers_named_by_their_insurer_or_file(detector: PhiDetector, text: str,
                                                                  value: str) -> None:
    assert _spans(detector, text, "RECORD_ID") == [value]


@pytest.mark.parametrize(("text", "age"), [
    ("senhor de 94, diabetico, com febre", "94"),
    ("a woman of 92 with a hip fracture", "92"),
    ("my granny is 97 now", "97"),
    ("o vovo fez 101 mes passado", "101"),
    ("Mrs. Adaeze Obi, 93, with a productive cough", "93"),
])
def test_ages_over_89_of_a_person_a_relative_or_a_chart(detector: PhiDetector, text: str, age: str) -> None:
    assert _spans(detector, text, "AGE_OVER_89") == [age]


@pytest.mark.parametrize("text", ["dipirona 1 g de 6/6h, sat 94%", "a man of 45 with 95 kg",
                                  "fez 92 dias de uso"])
def test_doses_vitals_and_durations_are_no_ages(detector: PhiDetector, text: str) -> None:
    assert "AGE_OVER_89" not in detector.detect(text).categories


@pytest.mark.parametrize(("text", "number"), [
    ("call me at 1-555-555-0199 tonight", "1-555-555-0199"),
    ("text me at 555-0142 when she is out", "555-0142"),
    ("reach my daughter on 555 0188", "555 0188"),
])
def test_us_numbers_the_phone_library_rejects_in_a_phone_context(detector: PhiDetector, text: str,
                                                                  number: str) -> None:
    assert _spans(detector, text, "PHONE") == [number]


def test_a_short_number_without_a_phone_context_is_no_phone(detector: PhiDetector) -> None:
    assert "PHONE" not in detector.detect("order 555 0188 shipped from the warehouse").categories


@pytest.mark.parametrize(("text", "age"), [
    ("grandma turns ninety-four on sunday", "ninety-four"),
    ("he'll be 96 next week, can he still come alone?", "96"),
    ("minha tia vai fazer noventa e dois em maio", "noventa e dois"),
])
def test_ages_over_89_a_person_turns_or_will_be(detector: PhiDetector, text: str, age: str) -> None:
    assert _spans(detector, text, "AGE_OVER_89") == [age]


@pytest.mark.parametrize("text", ["tenho 90 comprimidos de metformina",
                                  "she'll be given 100 units of insulin",
                                  "he turned 95 pills into a weekly box"])
def test_counts_of_pills_and_units_are_no_ages(detector: PhiDetector, text: str) -> None:
    assert "AGE_OVER_89" not in detector.detect(text).categories


@pytest.mark.parametrize(("text", "name"), [
    ("send the form to Tamar's cell, she is waiting", "Tamar"),
    ("use yusuf's number for the reminder", "yusuf"),
    ("hi, I'm tolu's twin, we both need the vaccine", "tolu"),
])
def test_a_persons_phone_or_twin_names_its_owner(detector: PhiDetector, text: str, name: str) -> None:
    assert name in _spans(detector, text, "NAME")


@pytest.mark.parametrize(("text", "name"), [
    ("na recepção pergunta pelo Genivaldo", "Genivaldo"),
    ("please page Radek about the transfer", "Radek"),
    ("the name's Eamon, I booked the knee scan", "Eamon"),
    ("pt name wairimu, bed 3", "wairimu"),
])
def test_a_name_asked_for_paged_or_given_as_the_name(detector: PhiDetector, text: str, name: str) -> None:
    assert _spans(detector, text, "NAME") == [name]


@pytest.mark.parametrize("text", ["the clinic's phone is down", "pergunta pela manhã na recepção",
                                  "page 2 of the form is blank", "what's today's number in the queue?"])
def test_phones_pages_and_asking_without_a_person_are_no_names(detector: PhiDetector, text: str) -> None:
    assert "NAME" not in detector.detect(text).categories


@pytest.mark.parametrize("text", ["leito 9, reg., aceitando dieta", "pcte em BEG, sem queixas"])
def test_a_charts_general_state_is_no_name(detector: PhiDetector, text: str) -> None:
    assert "NAME" not in detector.detect(text).categories


@pytest.mark.parametrize(("text", "address"), [
    ("endereço: Travessa Boa Vista, s/n, Sítio Novo, Juazeiro - BA",
     "Travessa Boa Vista, s/n, Sítio Novo, Juazeiro - BA"),
    ("ACS visita a Estrada do Açude S/N amanhã", "Estrada do Açude S/N"),
])
def test_a_street_whose_house_has_no_number(detector: PhiDetector, text: str, address: str) -> None:
    assert _spans(detector, text, "ADDRESS") == [address]


@pytest.mark.parametrize(("text", "name"), [
    ("handoff: bed 4 Wiremu Tane, 91M, sepsis, on pip-tazo", "Wiremu Tane"),
    ("S: Nkechi Obiora, 67F, SOB. B: COPD", "Nkechi Obiora"),
])
def test_a_name_before_a_charts_age_and_sex(detector: PhiDetector, text: str, name: str) -> None:
    assert _spans(detector, text, "NAME") == [name]


def test_a_ward_before_a_floor_is_no_name(detector: PhiDetector) -> None:
    assert "NAME" not in detector.detect("Ward B, 3F, next to the lifts").categories


@pytest.mark.parametrize(("text", "name"), [
    ("my stepdaughter Wairimu has a fever since Sunday", "Wairimu"),
    ("her fiance Tomasz will sign the discharge papers", "Tomasz"),
    ("a madrinha dele, Conceição, vai buscar o atestado", "Conceição"),
    ("meu cunhado Everaldo precisa remarcar", "Everaldo"),
    ("case manager Yolanda called about the wheelchair", "Yolanda"),
    ("o responsavel Genival assinou o termo", "Genival"),
])
def test_relatives_and_roles_before_a_name(detector: PhiDetector, text: str, name: str) -> None:
    assert _spans(detector, text, "NAME") == [name]


@pytest.mark.parametrize(("text", "name"), [
    ("Nuno is my fathers caregiver, he has the keys", "Nuno"),
    ("a Jaqueline é minha nora, pode passar pra ela", "Jaqueline"),
    ("pode avisar o Rodrigo que e meu marido", "Rodrigo"),
    ("Hyun-woo (my brother in law) will translate", "Hyun-woo"),
    ("her family (Tomas, nephew) visits every day", "Tomas"),
])
def test_a_name_then_who_the_person_is_to_the_writer(detector: PhiDetector, text: str, name: str) -> None:
    assert name in _spans(detector, text, "NAME")


@pytest.mark.parametrize(("text", "names"), [
    ("the children are Vihaan, Anika and Reyansh, all due for boosters", ["Vihaan", "Anika", "Reyansh"]),
    ("maria eduarda e joao pedro tomaram a vacina juntos", ["maria eduarda", "joao pedro"]),
])
def test_names_in_a_list_even_ones_no_list_holds(detector: PhiDetector, text: str, names: list[str]) -> None:
    assert all(name in " | ".join(_spans(detector, text, "NAME")) for name in names)


@pytest.mark.parametrize(("text", "name"), [
    ("she prefers to be called Bubu at home", "Bubu"),
    ("voicemail from Oluwafemi Adeyinka about the biopsy", "Oluwafemi Adeyinka"),
    ("Referral: Tamatea Ngata, worsening cough", "Tamatea Ngata"),
    ("bed 6: Adeyemi, Bisi, stable on room air", "Adeyemi, Bisi"),
    ("please tell kwame the results are back", "kwame"),
    ("grace has been coughing since the weekend", "grace"),
    ("it is spelled Aoife not Aoiffe", "Aoife"),
])
def test_names_a_new_writer_gives_with_little_context(detector: PhiDetector, text: str, name: str) -> None:
    assert name in _spans(detector, text, "NAME")


@pytest.mark.parametrize(("text", "age"), [
    ("Iolanda Ferreira, 96, desorientada, sem febre", "96"),
    ("Harold Finch, 91, fell overnight, no injury", "91"),
])
def test_an_age_over_89_between_commas_before_a_finding(detector: PhiDetector, text: str, age: str) -> None:
    assert _spans(detector, text, "AGE_OVER_89") == [age]


@pytest.mark.parametrize("text", [
    "the kids have otite again, can we book a visit?", "Referral: Dear Dr. Osei, thank you for seeing",
    "we prayed at Grace Cathedral before the surgery", "Sacred Heart hospital faxed the results",
    "Rua Augusta, 95, apto 4", "tell me the results are normal please",
])
def test_words_letters_and_places_a_new_rule_could_take_for_names(detector: PhiDetector, text: str) -> None:
    assert "NAME" not in detector.detect(text).categories
    assert "AGE_OVER_89" not in detector.detect(text).categories


@pytest.mark.parametrize(("text", "name"), [
    # where the person works or lives
    ("sunita from billing said the claim was denied", "sunita"),
    ("grace from the front desk said to bring the card", "grace"),
    ("a neide do posto pediu os exames", "neide"),
    ("o jurandir do 302 caiu de novo", "jurandir"),
    # who a relative is, and a relative's or a child's title without "my"
    ("my mom is fumiko and she needs a ride", "fumiko"),
    ("mama wanjiru needs her pills refilled", "wanjiru"),
    ("a vo zefa precisa de receita", "zefa"),
    ("little kofi fell off his bike", "kofi"),
    # someone else's relative after a comma, a relative of someone named, a bed's number
    ("visitor today was bjorn, her son, asked about discharge", "bjorn"),
    ("a iracema mae do ubirajara pediu pra remarcar", "iracema"),
    ("handoff: yusuf in 5 refused dinner", "yusuf"),
    ("rm 12 - adaeze - pain controlled", "adaeze"),
    # brought in, asked about, signed off
    ("we are bringing nkosana in for his shots", "nkosana"),
    ("did keoni get his flu shot yet?", "keoni"),
    ("signed, ikaika", "ikaika"),
    ("- Dagny", "Dagny"),
    # two particles, a Korean surname that is a word, a name corrected with its letters
    ("Maria de la Cruz wants to change her dentist", "Maria de la Cruz"),
    ("Jae-won Park here, need a sick note", "Jae-won Park"),
    ("corrigindo: e Thaynara com y e th, nao Tainara", "Tainara"),
    # whose relative someone is, a name that is a rarer word too
    ("oi aqui e o tiago, pai da lara, ela ta com tosse", "lara"),
])
def test_names_of_round_16_families(detector: PhiDetector, text: str, name: str) -> None:
    assert any(name in span for span in _spans(detector, text, "NAME"))


@pytest.mark.parametrize(("text", "value"), [
    ("rg do meu filho MG-14.556.789", "MG-14.556.789"),
    ("perdeu o cartao do sus, numero era 706 5032 4418 7702", "706 5032 4418 7702"),
    ("do you need my SIN? its 046 454 286", "046 454 286"),
])
def test_national_ids_after_whose_or_when(detector: PhiDetector, text: str, value: str) -> None:
    assert value in _spans(detector, text, "NATIONAL_ID")


@pytest.mark.parametrize("text", [
    "my son vomited twice last night", "Contact via her son on 090-3315-7724",
    "our church, Nuestra Senora de la Paz, runs a flu clinic", "see you in 2 weeks, ana in 3 days",
    "baby formula is out of stock", "bed 4: stable, no complaints", "my daughter is allergic to penicillin",
    "mae de deus, que dor", "o filho da casa ligou",
])
def test_round_16_rules_leave_words_alone(detector: PhiDetector, text: str) -> None:
    assert "NAME" not in detector.detect(text).categories


@pytest.mark.parametrize(("text", "name"), [
    # a common Chinese surname and a pinyin given name the gazetteer is too short to hold
    ("please move Wang Yu to the afternoon", "Wang Yu"), ("o Chen Bo ja chegou", "Chen Bo"),
    ("zhang li needs her allergy shot", "zhang li"),
    # Korean given names of two syllables with a hyphen
    ("this is Min-seo, calling about my x-ray", "Min-seo"), ("Ha-eun cannot make it today", "Ha-eun"),
    # anyone's relative, children and elders named by what they are, a bed's patient
    ("his wife naledi will bring the forms", "naledi"), ("Ruslan is her father, he signs", "Ruslan"),
    ("the girl, Anahera, cut her hand", "Anahera"), ("o senhor Valdomiro ta com tontura", "Valdomiro"),
    ("room 9 pt wakanda ambulating well", "wakanda"),
    # an e-mail's subject, a relative's name after "do"/"da", surname first in lower case
    ("Re: Tamati Horomona discharge summary", "Tamati Horomona"), ("a avo da Yasmim ligou", "Yasmim"),
    ("o'brien, fiona - flu shot given", "o'brien, fiona"), ("Tui (7) has a rash again", "Tui"),
    # opening the message before what is said only of a person, or asked to do something
    ("Kaimana (age 9) needs a sports physical", "Kaimana"), ("Wairimu was admitted last night", "Wairimu"),
    ("Oyelaran hasnt received the results", "Oyelaran"),
    ("avisa o Ubirajara pra trazer os exames", "Ubirajara"),
    ("Kateryna - called twice about the bill", "Kateryna"),
    # a first name that is a rarer word, after an article and a past verb, or after a mention
    ("a jade tomou a vacina ontem", "jade"),
    # asked about as booked or due
    ("is wakanui still booked for thursday?", "wakanui"), ("a Iracema ainda ta agendada?", "Iracema"),
    # two first names that are words too, told to be twins or siblings
    ("rosa e margarida precisam de vacina, sao gemeas", "margarida"),
    # a message's header, a relative and a comma before the name
    ("From: oyelami\nSubject: refill", "oyelami"), ("please call my aunt, Wilhelmina, after 5", "Wilhelmina"),
])
def test_names_of_round_17_families(detector: PhiDetector, text: str, name: str) -> None:
    assert any(name in span for span in _spans(detector, text, "NAME"))


@pytest.mark.parametrize("text", [
    "He ran to the pharmacy yesterday", "eu li a bula e fiquei com medo", "Ma ran out of her pills",
    "the follow-up visit is on friday", "I need a top-up of my inhaler", "the boy, unfortunately, fell again",
    "bed 4 pt stable overnight", "Re: lab results from last week", "a luz caiu de novo no consultorio",
    "Tylenol (500 mg) twice a day", "my mother speaks Haitian Creole only", "ask for directions to the lab",
    "is the flu shot still booked for me?", "a consulta ainda ta agendada?",
    "faith and hope are siblings in every sermon", "ask my dad, Monday works", "from: the front desk",
])
def test_round_17_rules_leave_words_alone(detector: PhiDetector, text: str) -> None:
    assert "NAME" not in detector.detect(text).categories


@pytest.mark.parametrize(("text", "phone"), [
    ("my number is 555-0177, text first", "555-0177"), ("meu numero e 3344-5566, liga a tarde", "3344-5566"),
])
def test_a_local_number_told_to_be_whose(detector: PhiDetector, text: str, phone: str) -> None:
    assert phone in _spans(detector, text, "PHONE")


def test_a_bare_number_word_is_no_phone_cue(detector: PhiDetector) -> None:
    assert "PHONE" not in detector.detect("order number 555-0177 shipped").categories


@pytest.mark.parametrize(("text", "name"), [
    # who it is for, a two-letter nickname or a name no list holds
    ("the 4pm slot is for jo", "jo"),
    ("is there an opening for tevita today?", "tevita"),
    ("checking in for Anneliese", "Anneliese"),
    ("e pra caua, ele tem 6 anos", "caua"),
    # whose name it is under, or who it is
    ("put it under ty please", "ty"),
    ("coloca em nome de Iolanda", "Iolanda"),
    ("pra quem: Yasmin", "Yasmin"),
    ("the patient is Meseret, she speaks amharic", "Meseret"),
    ("name on file is berenice", "berenice"),
    ("ass: Potira", "Potira"),
    # moved, added, brought, seen or asked whether coming
    ("need to move Yerlan to friday", "Yerlan"),
    ("pls add sunny to the waitlist", "sunny"),
    ("can the nurse call back siosaia?", "siosaia"),
    ("Can ash come in at 3?", "ash"),
    # whose record or visit, capitalized or listed
    ("a ficha e da Txai", "Txai"),
    ("o retorno do lino e quando?", "lino"),
    # greeting, then who writes; a dash before a signature
    ("oi, e a lu, a consulta ainda ta de pe?", "lu"),
    ("thank you all \u2014 Marie-Claude", "Marie-Claude"),
    # what is booked in the person's name; who a relative is, after an article
    ("could you check on dmitri's booking", "dmitri"),
    ("o Tupa e meu neto, ele que leva", "Tupa"),
    # a surname after the name, an emergency contact
    ("it's for Ngozi Okafor please", "Ngozi Okafor"),
    ("contact: Kalani Kahananui, 808-555-0149", "Kalani Kahananui"),
    # each carer of a list after its colon
    ("caregivers: rosa (mornings), Paz (nights)", "rosa"),
    ("caregivers: rosa (mornings), Paz (nights)", "Paz"),
    ("acompanhantes: tonho e ze", "ze"),
    # room or a reminder for someone, a waitlist, the child, something sent, someone asked for
    ("is there room for Oyelaran", "Oyelaran"),
    ("waitlist: bao", "bao"),
    ("the kid is Kekoa", "Kekoa"),
    ("send the reminder to kofi", "kofi"),
    ("fala com a Cotinha por favor", "Cotinha"),
])
def test_names_in_the_slots_of_a_scheduling_request(detector: PhiDetector, text: str, name: str) -> None:
    assert name in _spans(detector, text, "NAME")


@pytest.mark.parametrize("text", [
    "it's for the flu shot", "can you book it for tuesday", "is it for real?", "it's for strep",
    "any openings for cardiology this week?", "is it for derm or peds?", "checking in for 2pm",
    "put me under sedation", "need to move tylenol to night", "bring ID at 9", "can someone come in at 3?",
    "marcar pra semana que vem", "consulta pra dermato", "o exame da tireoide saiu?",
    "a receita do Rivotril venceu", "oi, e a recepcao?", "the patient is stable", "what's the doctor's name",
    "the boy's name is on the form", "visitors: none today", "cuidadores: a filha e o genro",
    "is there room for improvement", "is it good for diabetes?", "send the results to my email",
    "fala com a recepcao", "talk to someone please", "the baby is due in march", "the kid is sick",
    "waitlist for derm", "send the form to walgreens", "a crianca e alergica",
])
def test_round_18_slots_leave_what_else_fills_them_alone(detector: PhiDetector, text: str) -> None:
    assert "NAME" not in detector.detect(text).categories


@pytest.mark.parametrize(("text", "age"), [
    ("mom's 102, is the flu shot still ok for her", "102"),
    ("meu avo nasceu em 1929, ele ta com noventa e sete", "noventa e sete"),
])
def test_a_relatives_age_told_with_s_or_ta_com(detector: PhiDetector, text: str, age: str) -> None:
    assert _spans(detector, text, "AGE_OVER_89") == [age]


@pytest.mark.parametrize("text", ["ela ta com 95 de saturacao", "minha mae ta com 95%", "dad's 95 lb",
                                  "my son's 90 day supply"])
def test_saturations_weights_and_supplies_are_no_ages(detector: PhiDetector, text: str) -> None:
    assert "AGE_OVER_89" not in detector.detect(text).categories


@pytest.mark.parametrize(("text", "names"), [
    # a clause's subject before a verb: a word of the other language, an unlisted word, a listed name
    ("luz is coming with me on monday", ["luz"]), ("hope ta com febre desde ontem", ["hope"]),
    ("o dedeco caiu da bicicleta", ["dedeco"]), ("make sure tavita brings her inhaler", ["tavita"]),
    ("please have amaru call me back", ["amaru"]), ("bobby says hi and he's better", ["bobby"]),
    ("o chico do posto disse que precisa de receita", ["chico"]),
    # two people joined
    ("hope and grace both need flu shots", ["hope", "grace"]),
    ("rosa e paz vao na consulta", ["rosa", "paz"]),
    ("both yuki and sora have the flu", ["yuki", "sora"]),
    # referred to by she/ele, thanked, introduced
    ("where is caca? she has the card", ["caca"]), ("cade o pipo? ele esqueceu a carteirinha", ["pipo"]),
    ("got it, thanks tuppence", ["tuppence"]), ("thanks a lot marites!", ["marites"]),
    ("obg duda!", ["duda"]),
    ("this is oyelaran, ok to come at 9?", ["oyelaran"]),
    # taken somewhere
    ("we took flor to the er last night", ["flor"]), ("vou levar o davi amanha pra vacina", ["davi"]),
])
def test_names_in_a_clauses_person_places(detector: PhiDetector, text: str, names: list[str]) -> None:
    assert _spans(detector, text, "NAME") == names


@pytest.mark.parametrize("text", [
    "hope the results come back soon", "the grace period ends friday", "a luz do quarto nao acende",
    "o sol ta muito forte", "amoxicillin is making me nauseous", "ibuprofen and paracetamol together ok?",
    "a dipirona e o paracetamol podem juntos?", "MRN 64872554 - can you pull up the note",
    "o cep e 13083-970",
    "dob is 3/7/44", "dr. nguyen wants a follow up", "a Dra. Rosa Kimura pediu hemograma e TSH",
    "Copay was $40, is that correct?", "seu pai nao consegue vir, ta acamado", "thanks again!",
    "fui na romaria de Aparecida e torci o pe", "o resultado saiu ontem", "the rash has spread to my arm",
])
def test_a_clauses_person_places_leave_words_alone(detector: PhiDetector, text: str) -> None:
    assert "NAME" not in detector.detect(text).categories


@pytest.mark.parametrize(("text", "name"), [
    ("the form marites filled in is wrong", "marites"), ("can we get Temitope in before noon", "Temitope"),
])
def test_a_word_that_can_only_be_a_name_needs_no_cue(detector: PhiDetector, text: str, name: str) -> None:
    assert _spans(detector, text, "NAME") == [name]


@pytest.mark.parametrize("text", ["Temperature was normal this morning", "posso tomar Tylenol com dipirona?",
                                  "is Ozempic covered?", "the rash is better", "a Unimed cobre?"])
def test_drugs_and_a_sentences_first_word_are_no_lone_names(detector: PhiDetector, text: str) -> None:
    assert "NAME" not in detector.detect(text).categories


@pytest.mark.parametrize(("text", "name"), [("can you confirm the script for gloria mbeki?", "gloria mbeki"),
                                            ("yara potiguara precisa de retorno", "yara potiguara")])
def test_a_first_name_before_a_word_of_neither_language(detector: PhiDetector, text: str, name: str) -> None:
    assert _spans(detector, text, "NAME") == [name]


@pytest.mark.parametrize("text", ["o rio transbordou de novo", "tem pronto-socorro pediatrico?"])
def test_a_first_names_word_before_a_rare_past_or_in_a_compound_is_no_name(detector: PhiDetector,
                                                                           text: str) -> None:
    assert "NAME" not in detector.detect(text).categories


@pytest.mark.parametrize(("text", "name"), [
    ("can you remind tavake about the fasting", "tavake"), ("paciente: obiageli", "obiageli"),
    ("wheres kalolaine? her dad is here", "kalolaine"), ("nalesoni and i will come at 3", "nalesoni"),
    ("eu e a jucelia vamos amanha", "jucelia"), ("pergunta pro rivaldo se ja tomou", "rivaldo"),
    ("liga pra a graca q ela sabe o horario", "graca"), ("pode ver se o aderbal ja chegou", "aderbal"),
])
def test_names_beside_a_person_cue_or_the_writer(detector: PhiDetector, text: str, name: str) -> None:
    assert name in _spans(detector, text, "NAME")


@pytest.mark.parametrize("text", ["me and my husband are coming", "pt readmitted with pneumonia",
                                  "o hospital pede encaminhamento?", "remind me about the fasting",
                                  "a luz do corredor apagou"])
def test_a_person_cue_leaves_words_and_verbs_alone(detector: PhiDetector, text: str) -> None:
    assert "NAME" not in detector.detect(text).categories


@pytest.mark.parametrize(("text", "category", "value"), [
    ("my chart is https://portal.clinica.invalid/u/ana.souza", "URL", "https://portal.clinica.invalid/u/ana.souza"),
    ("Handoff: bed 3 Odete Ramalho, 101, DNR", "AGE_OVER_89", "101"),
    ("my aunt Benedita Sousa (ninety-four) lives alone", "AGE_OVER_89", "ninety-four"),
    ("mora na Rua Quinze, casa 8 fundos, Vila Nova, Itu - SP", "ADDRESS",
     "Rua Quinze, casa 8 fundos, Vila Nova, Itu - SP"),
    ("mora na Aldeia Jaguapiru, BR-163, km 4, Dourados - MS", "ADDRESS",
     "Aldeia Jaguapiru, BR-163, km 4, Dourados - MS"),
    ("o cartao sus da minha vo eh 898 0011 2233 4455", "NATIONAL_ID", "898 0011 2233 4455"),
    ("convenio geap mat. 5521907-3", "RECORD_ID", "5521907-3"),
])
def test_other_categories_by_general_rules(detector: PhiDetector, text: str, category: str,
                                          value: str) -> None:
    assert value in _spans(detector, text, category)


@pytest.mark.parametrize(("text", "names"), [
    ("a bi e a tainara vao juntas", ["bi", "tainara"]), ("text ky when the lab is back", ["ky"]),
    ("pearl and i will both be there", ["pearl"]), ("this is for oriel, she's 5", ["oriel"]),
])
def test_nicknames_pairs_and_referred_words(detector: PhiDetector, text: str, names: list[str]) -> None:
    found = _spans(detector, text, "NAME")
    assert all(any(name in span for span in found) for name in names), found


@pytest.mark.parametrize("text", ["text me at 555-0179 if the doctor runs late", "o paciente eh o mesmo",
                                  "she flew in from Abuja, her bags are lost"])
def test_nicknames_and_referred_words_leave_pronouns_verbs_and_places(detector: PhiDetector,
                                                                       text: str) -> None:
    assert "NAME" not in detector.detect(text).categories


def test_a_first_name_alone_after_the_last_sentence_signs_it(detector: PhiDetector) -> None:
    assert _spans(detector, "the portal still says my card expired. Marcelo", "NAME") == ["Marcelo"]
    assert "NAME" not in detector.detect("can I come in on Saturday, Jan 20?").categories


def test_a_birth_date_in_words_month_first(detector: PhiDetector) -> None:
    text = "her date of birth is march third, nineteen fifty-two"
    assert _spans(detector, text, "BIRTH_DATE") == ["march third, nineteen fifty-two"]


@pytest.mark.parametrize(("text", "name"), [
    ("hope needs her refill by friday", "hope"),  # a word name opening its clause before a person's verb
    ("o sol tomou o remedio errado", "sol"), ("a branca esqueceu a receita", "branca"),
    ("will was crying all night", "will"),  # a modal before a finite verb is no modal
    ("grace is sleeping now", "grace"), ("a lua ta com dor de barriga", "lua"),  # a person's state
    ("did dawn get the letter?", "dawn"),  # after a question's auxiliary, before a verb
    ("please remind mercy about the fasting", "mercy"), ("liga pra flor amanha", "flor"),  # object
    ("fala com o rei sobre a ficha", "rei"), ("my husband and faith are sick", "faith"),
    ("ok see you tomorrow, river", "river"), ("valeu, paz", "paz"), ("- sky", "sky"),  # addressed, signed
])
def test_a_first_name_that_is_a_word_in_a_persons_place(detector: PhiDetector, text: str, name: str) -> None:
    assert name in _spans(detector, text, "NAME")


@pytest.mark.parametrize("text", [
    "hope the swelling goes down", "will do, thanks", "june is fully booked", "the grace period ended",
    "a luz apagou de novo", "o sol nasceu cedo", "liga pra mim depois", "ela viajou pra india",
    "referred for echo", "falls risk, ward 7", "faith is important to her", "ficou vermelha, rosa",
])
def test_a_word_name_as_a_word_stays_a_word(detector: PhiDetector, text: str) -> None:
    assert "NAME" not in detector.detect(text).categories


@pytest.mark.parametrize(("text", "category", "value"), [
    ("his grandmother Ines, 97.", "AGE_OVER_89", "97"),  # an age after a name, closing the sentence
    ("dad was born in 1931 and is 94", "AGE_OVER_89", "94"),  # an age after the year of birth
    ("confirming Pedro Alves, March 1951, plan 5521", "BIRTH_DATE", "March 1951"),  # month and year
    ("pickup at Hwy 191 Mile Marker 12, Chinle, AZ", "ADDRESS", "Hwy 191 Mile Marker 12, Chinle, AZ"),
])
def test_ages_birth_months_and_mile_markers(detector: PhiDetector, text: str, category: str,
                                            value: str) -> None:
    assert value in _spans(detector, text, category)


@pytest.mark.parametrize(("text", "name"), [
    ("RN Ayesha; MA Lorenzo in room 2", "Lorenzo"), ("a fono ivone vem sexta", "ivone"),  # after a role
    ("Dolores (aide) gave the meds", "Dolores"), ("familia (Raimunda) ciente", "Raimunda"),  # parentheses
    ("what time does summer go in?", "summer"), ("q horas a Lara entra?", "Lara"),  # a question's subject
    ("a mae eh a conceicao", "conceicao"),  # a copula after who someone is
    ("fwd to mirela pls", "mirela"),  # closing the message after a preposition to whom
    ("gideon's inhaler is empty", "gideon"),  # a possessive's owner, the "'s" left out
    ("clinic list: milo, zara, ishaan, noor", "ishaan"),  # a list of people after a colon
    ("remarca a consulta da neusa e do severino", "severino"),  # joined to a name found
])
def test_a_name_in_a_place_only_a_person_fills(detector: PhiDetector, text: str, name: str) -> None:
    assert name in _spans(detector, text, "NAME")


@pytest.mark.parametrize("text", [
    "Victoria's Secret gift card", "st. jude's website has info", "allergic to sulfa",
    "referred for gastroenterology", "caregivers: mornings, nights, weekends", "nurse handoff: rm 3 stable",
])
def test_places_a_thing_fills_stay_unnamed(detector: PhiDetector, text: str) -> None:
    assert "NAME" not in detector.detect(text).categories


@pytest.mark.parametrize(("text", "category", "value"), [
    ("son dmitri 555-0143", "PHONE", "555-0143"),  # a dashed exchange and line, alone
    ("wife grete (ph 555 0129)", "PHONE", "555 0129"),
    ("Pt Walter Hix 96M, lives alone", "AGE_OVER_89", "96"),  # age and sex after a name, no comma
    ("my lola is 95", "AGE_OVER_89", "95"), ("a vo ta com 96 e caiu", "AGE_OVER_89", "96"),
    ("mail goes to Route 9 Box 310, Ganado, AZ", "ADDRESS", "Route 9 Box 310, Ganado, AZ"),  # rural box
])
def test_phones_ages_and_rural_boxes_by_their_shape(detector: PhiDetector, text: str, category: str,
                                                   value: str) -> None:
    assert value in _spans(detector, text, category)


@pytest.mark.parametrize("text", ["Temp 101F this morning", "take 100-1000 mg daily", "a vo tem 84 anos"])
def test_temperatures_doses_and_younger_ages_stay_unflagged(detector: PhiDetector, text: str) -> None:
    assert not {"AGE_OVER_89", "PHONE"} & set(detector.detect(text).categories)


@pytest.mark.parametrize(("text", "name"), [
    ("Nereida, a vizinha dela, vai trazer", "Nereida"),  # set off by commas around who it is
    ("Thaddeus, the night driver, has the forms", "Thaddeus"),
    ("the pick-up person tonight is Elowen", "Elowen"),  # who-is a few words before the copula
    ("quem vai levar e o juquinha", "juquinha"),  # a word only a name is, after the copula
    ("is anne-laure on the list?", "anne-laure"),  # two first names joined by a hyphen, one span
    ("does autumn need a booster?", "autumn"),  # a question's subject before "need"
    ("ember is still feverish today", "ember"),  # a person's state after an adverb
])
def test_a_name_told_by_apposition_copula_hyphen_or_state(detector: PhiDetector, text: str,
                                                         name: str) -> None:
    assert name in _spans(detector, text, "NAME")


@pytest.mark.parametrize("text", ["the pick-up time today is noon", "is the follow-up on the list?",
                                  "the cough is still bad at night", "o responsavel agora e o plano de saude",
                                  "Monday, the clinic, was closed"])
def test_things_in_those_places_stay_unnamed(detector: PhiDetector, text: str) -> None:
    assert "NAME" not in detector.detect(text).categories


@pytest.mark.parametrize(("text", "value"), [("forgot the zip, it's 60622", "60622"),
                                             ("zip's 30309", "30309"),
                                             ("o cep novo e 40285 110", "40285 110")])
def test_postal_codes_after_a_filler_or_with_a_space(detector: PhiDetector, text: str, value: str) -> None:
    assert value in _spans(detector, text, "POSTAL_CODE")


@pytest.mark.parametrize(("text", "name"), [
    ("fwd from Ottoline - she wants the 4pm", "Ottoline"),  # who a message is passed on from
    ("recado da Genilda: ela nao vem", "Genilda"),
    ("Jorge Ruiz (goes by Coco) is in bed 3", "Coco"),  # what else a person is called
    ("pcte Ana Lima (chamam de Nana), dn 02/03/1990", "Nana"),
    ("Osvaldinho, tua avo ligou", "Osvaldinho"),  # spoken to, before a second person
    ("rota: Ivonete seg/qua, Gercina qui/sex", "Gercina"),  # a rota's days after each name
    ("the community health worker Eustacia came today", "Eustacia"),  # after a role
])
def test_a_name_passed_on_from_called_spoken_to_on_a_rota_or_after_a_role(detector: PhiDetector, text: str,
                                                                          name: str) -> None:
    assert name in _spans(detector, text, "NAME")


@pytest.mark.parametrize("text", ["fwd from billing - new statement", "mensagem da farmacia: chegou",
                                  "Tuesday, can you do the morning?", "Amanha, voce pode vir?",
                                  "plantao: seg/ter manha, qua/qui tarde", "the aide covers mon-wed"])
def test_the_same_places_with_things_stay_unnamed(detector: PhiDetector, text: str) -> None:
    assert "NAME" not in detector.detect(text).categories


@pytest.mark.parametrize(("text", "category", "value"), [
    ("Transfer: Pruitt, Ada, 93y, from home", "AGE_OVER_89", "93"),  # "y" for years
    ("ela ja esta com 97", "AGE_OVER_89", "97"),  # an adverb before "esta com"
    ("my nonno Ettore is ninety-four and fell", "AGE_OVER_89", "ninety-four"),  # the writer's, named
    ("my insurer wants claim CLM-60213348", "RECORD_ID", "CLM-60213348"),  # a claim's or an account's number
    ("re: account ACCT-81120394, please update", "RECORD_ID", "ACCT-81120394"),
])
def test_ages_in_y_and_of_named_relatives_and_claim_or_account_ids(detector: PhiDetector, text: str,
                                                                   category: str, value: str) -> None:
    assert value in _spans(detector, text, category)


@pytest.mark.parametrize("text", ["my Apple Watch is 95 percent charged", "ela ja esta com 95% de saturacao",
                                  "the account has 3 visits left"])
def test_charges_saturations_and_counts_stay_unflagged(detector: PhiDetector, text: str) -> None:
    assert not {"AGE_OVER_89", "RECORD_ID"} & set(detector.detect(text).categories)


# Phone numbers said digit by digit (voice-to-text) are PHI; doses and counts in words are not.
@pytest.mark.parametrize(("text", "number"), [
    ("call me back at five five five zero one four two", "five five five zero one four two"),
    ("my number is double five five, oh one, four two", "double five five, oh one, four two"),
    ("meu numero e nove nove oito sete um dois tres quatro", "nove nove oito sete um dois tres quatro"),
    ("Liga pro Zé: Três Três Quatro Cinco Meia Sete Oito", "Três Três Quatro Cinco Meia Sete Oito"),
])
def test_a_number_said_digit_by_digit_is_a_phone(detector: PhiDetector, text: str, number: str) -> None:
    assert number in _spans(detector, text, "PHONE")


@pytest.mark.parametrize("text", [
    "take one or two tablets three times a day for five days",
    "tomar um comprimido de oito em oito horas por sete dias",
    "the code is five five five zero one",  # five digits: no phone number is that short
])
def test_doses_and_short_counts_in_words_are_not_phones(detector: PhiDetector, text: str) -> None:
    assert "PHONE" not in detector.detect(text).categories
