"""History extraction for the symptom consult: each OPQRST field, severity forms, age and pregnancy, in
Portuguese and English (accents optional), and how answers over several messages merge."""

import statistics
import time

import pytest

from orchestrator.consult.history import FIELDS, History, extract
from orchestrator.consult.onset import onset_days

FIELD_CASES = [
    # onset
    ("I've had a rash on my arm for two weeks", "onset", "two weeks"),
    ("estou com dor no joelho direito há 3 dias", "onset", "há 3 dias"),
    ("estou com dor no joelho direito ha 3 dias", "onset", "ha 3 dias"),
    ("the pain started 2 days ago", "onset", "2 days ago"),
    ("my back hurts since yesterday", "onset", "since yesterday"),
    ("dor nas costas desde ontem", "onset", "desde ontem"),
    ("faz uma semana que coça", "onset", "faz uma semana"),
    ("I twisted my ankle yesterday", "onset", "yesterday"),
    ("it's been going on for years", "onset", "years"),
    ("nas últimas 2 semanas piorou", "onset", "2 semanas"),
    ("2 weeks", "onset", "2 weeks"),
    ("uns 3 dias", "onset", "uns 3 dias"),
    ("palpitations twice a day", "onset", None),
    # provocation
    ("my knee hurts, worse when climbing stairs", "provocation", "worse when climbing stairs"),
    ("dor nas costas que piora ao deitar", "provocation", "piora ao deitar"),
    ("climbing stairs makes it worse", "provocation", "climbing stairs makes it worse"),
    ("coceira leve, com repouso melhora", "provocation", "com repouso melhora"),
    ("chest tightness when I walk uphill", "provocation", "when I walk uphill"),
    ("Dói quando ando", "provocation", "Dói quando ando"),
    ("espinhas que pioram antes da menstruação", "provocation", "pioram antes da menstruação"),
    ("worse at night", "provocation", None),  # when, not what: that is timing
    # quality
    ("a sharp pain in my knee", "quality", "sharp"),
    ("queimação no estômago", "quality", "queimação"),
    ("queimacao no estomago", "quality", "queimacao"),
    ("itchy red patches on my arm", "quality", "itchy, red"),
    ("a pulsating headache", "quality", "pulsating"),
    ("mancha que coça", "quality", "coça"),
    ("the rash is not itchy", "quality", None),
    # region
    ("itchy patches on my left forearm", "region", "left forearm"),
    ("estou com dor no joelho direito", "region", "joelho direito"),
    ("dor no peito", "region", "peito"),
    ("lower back pain after lifting", "region", "lower back"),
    ("dor no pé esquerdo, fico de pé o dia todo", "region", "pé esquerdo"),
    ("coceira no couro cabeludo", "region", "couro cabeludo"),
    ("manchas na pele", "region", "pele"),
    ("it came back after a week", "region", None),
    ("no chest pain", "region", None),
    # timing
    ("it's worse at night", "timing", "at night"),
    ("it comes and goes", "timing", "comes and goes"),
    ("constant ache", "timing", "constant"),
    ("dói mais de manhã", "timing", "de manhã"),
    ("falta de ar ao esforço", "timing", "ao esforço"),
    ("coça à noite", "timing", "à noite"),
    ("vai e volta", "timing", "vai e volta"),
]


@pytest.mark.parametrize(("text", "field", "expected"), FIELD_CASES)
def test_each_field_in_both_languages(text: str, field: str, expected: str | None) -> None:
    assert getattr(extract(text), field) == expected


SEVERITY_CASES = [
    ("my knee hurts 7/10", 7),
    ("7 out of 10", 7),
    ("uns 7 de 10", 7),
    ("dou nota 6", 6),
    ("it's a 6, I'd say", 6),
    ("a dor é 4", 4),
    ("10/10, the worst", 10),
    ("7", 7),
    ("mild itch", 3),
    ("dor leve", 3),
    ("moderate pain", 5),
    ("dor moderada", 5),
    ("severe back pain", 8),
    ("dor forte no joelho", 8),
    ("the pain is unbearable", 9),
    ("dor insuportável", 9),
    ("the pain is not severe", None),
    ("sinto o coração batendo forte", None),
    ("desde 7/10", None),  # a date, not a score
    ("há 2 em 10 dias", None),
]


@pytest.mark.parametrize(("text", "expected"), SEVERITY_CASES)
def test_severity_forms(text: str, expected: int | None) -> None:
    assert extract(text).severity == expected


AGE_CASES = [
    ("I'm 34 and my knee hurts", 34),
    ("I am 52", 52),
    ("34-year-old with chest pain", 34),
    ("I am 34 years old", 34),
    ("tenho 16 anos", 16),
    ("tenho 16", 16),
    ("sou mulher de 45 anos, dor no ombro há cerca de 2 anos", 45),
    ("idade: 70", 70),
    ("34", 34),
    ("I'm 20 weeks pregnant", None),
    ("dor há cerca de 2 anos", None),
    ("tenho 3 manchas", None),
    ("I'm 7/10 in pain", None),
]


@pytest.mark.parametrize(("text", "expected"), AGE_CASES)
def test_age(text: str, expected: int | None) -> None:
    assert extract(text).age == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("I'm 20 weeks pregnant and my ankles are swollen", True),
    ("estou grávida de 20 semanas", True),
    ("estou gravida", True),
    ("sou gestante", True),
    ("I'm not pregnant", False),
    ("não estou grávida", False),
    ("my rash is itchy", False),
])
def test_pregnancy(text: str, expected: bool) -> None:
    assert extract(text).pregnant is expected


def test_pregnancy_weeks_are_not_an_onset() -> None:
    facts = extract("I'm 20 weeks pregnant, itchy rash since Monday")
    assert facts.onset == "since Monday"
    assert facts.pregnant and facts.age is None


def test_a_full_description_fills_every_field() -> None:
    facts = extract("My left knee hurts, worse when climbing stairs, sharp pain, 7/10, comes and goes "
                    "since 3 days ago. I'm 34")
    assert facts.missing() == ()
    assert (facts.region, facts.quality, facts.severity, facts.age) == ("left knee", "sharp", 7, 34)


def test_missing_lists_the_fields_not_found_in_order() -> None:
    assert extract("I've had a rash on my arm for two weeks").missing() == (
        "provocation", "quality", "severity", "timing")
    assert extract("hello").missing() == FIELDS


def test_merged_fills_gaps_and_never_erases() -> None:
    first = extract("tenho uma mancha no braço há 2 semanas, nota 3")
    later = extract("coça à noite, nota 6, no joelho também, não estou grávida")
    merged = first.merged(later)
    assert merged.onset == "há 2 semanas"
    assert merged.region == "braço"  # the later "joelho" does not replace it
    assert merged.severity == 3
    assert merged.quality == "coça"
    assert merged.timing == "à noite"
    assert merged.missing() == ("provocation",)


def test_merged_keeps_pregnancy_and_age_once_known() -> None:
    known = History(age=28, pregnant=True).merged(History(age=40, pregnant=False))
    assert (known.age, known.pregnant) == (28, True)
    assert History().merged(extract("estou grávida, tenho 31 anos")) == History(age=31, pregnant=True)


def test_lines_in_both_languages() -> None:
    facts = History(onset="há 2 semanas", region="joelho direito", severity=7)
    assert facts.lines("pt") == ["Início: há 2 semanas", "Local: joelho direito", "Intensidade: 7/10"]
    assert History(onset="2 weeks", timing="at night").lines("en") == ["Onset: 2 weeks", "Timing: at night"]
    assert History(age=30).lines("en") == []


@pytest.mark.parametrize(("onset", "days"), [
    ("2 weeks", 14), ("two weeks", 14), ("há 3 dias", 3), ("desde ontem", 1), ("since this morning", 0),
    ("há meses", 60), ("years", 365), ("about a month ago", 30), ("1 a 2 semanas", 7), (None, None),
])
def test_onset_days(onset: str | None, days: float | None) -> None:
    assert onset_days(onset) == days


def test_extraction_is_fast() -> None:
    messages = [row[0] for table in (FIELD_CASES, SEVERITY_CASES, AGE_CASES) for row in table]
    timings = []
    for message in messages:
        start = time.perf_counter()
        extract(message)
        timings.append(time.perf_counter() - start)
    assert statistics.mean(timings) < 0.001
