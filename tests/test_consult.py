"""When a message opens a symptom consult, and what the consult asks and recommends."""

import asyncio
import datetime as dt

import pytest

from orchestrator.consult import flow as consult
from orchestrator.context import RequestContext
from orchestrator.sessions import ConsultState
from orchestrator.understanding.understand import understand
from runtime.specialties import SPECIALTIES


def opens(message: str) -> bool:
    return consult.opens_consult(message, understand(message, today=dt.date(2026, 11, 23), known_doctors=[]))


@pytest.mark.parametrize("message", [
    "I've had a rash on my arm for two weeks", "My knee hurts below the kneecap after basketball practice",
    "estou com dor no joelho há 3 dias", "apareceu uma falha redonda no cabelo",
    "minha pressão tá dando 15 por 9 quando meço em casa", "My heart has been racing on and off for a month",
    # breathlessness without "short of breath" or "falta de ar"
    "fico sem fôlego quando subo a ladeira", "perco o folego andando rapido",
    "I get winded walking up stairs", "I'm out of breath after a short walk",
    # pain said by its idiom
    "my lower back has been killing me all week", "minhas costas tão me matando",
    "minha coluna trava quando acordo", "my knee keeps giving out", "my back locks up in the morning",
])
def test_a_symptom_told_as_ones_own_opens_a_consult(message):
    assert opens(message)


@pytest.mark.parametrize("message", [
    "what causes acne?", "o que é psoríase?", "quais horários de cardiologia?", "cardiology slots",
    "no chest pain, just a routine cardiology check-up",
    "tive dor no peito ano passado, quero um retorno com cardiologista",
    "I want to book a dermatologist for my rash", "cancel my appointment", "hello",
])
def test_questions_and_scheduling_requests_do_not(message):
    assert not opens(message)


@pytest.mark.parametrize(("message", "expected"), [
    ("marca um corte de cabelo pra sabado", False), ("book me a haircut friday", False),
    ("depois do futebol meu joelho dói", True),
])
def test_a_symptom_word_inside_an_errand_opens_no_consult(message, expected):
    assert opens(message) is expected


def test_history_questions_stop_after_two_rounds():
    state = ConsultState(texts=["I have a rash"])
    first = consult.questions(state, "en")
    assert first is not None and "When did it start?" in first and "How old are you?" in first
    state.texts.append("no idea")
    assert consult.questions(state, "en") is not None and state.rounds == 2
    state.texts.append("still no idea")
    assert consult.questions(state, "en") is None  # the council runs with what it has


def test_recommendation_never_diagnoses_and_offers_slots():
    state = ConsultState(texts=["I've had an itchy red scaly rash on my left forearm for two weeks",
                                "scratching makes it worse, 4/10, comes and goes at night. I'm 34."])
    asyncio.run(consult.assess(RequestContext.with_timeout(30), state, list(SPECIALTIES)))
    text, offer = consult.recommendation(state, "en")
    assert state.specialty == "dermatology" and offer
    assert "consistent with an evaluation in dermatology" in text and "not a diagnosis" in text
    assert 'list open slots at dermatology clinics? Say "yes".' in text
