"""Phone numbers said digit by digit (voice-to-text) are PHI; doses and counts in words are not."""

import pytest

from orchestrator.privacy.phi import PhiDetector


@pytest.fixture(scope="module")
def detector() -> PhiDetector:
    return PhiDetector()


@pytest.mark.parametrize(("text", "number"), [
    ("call me back at five five five zero one four two", "five five five zero one four two"),
    ("my number is double five five, oh one, four two", "double five five, oh one, four two"),
    ("meu numero e nove nove oito sete um dois tres quatro", "nove nove oito sete um dois tres quatro"),
    ("Liga pro Zé: Três Três Quatro Cinco Meia Sete Oito", "Três Três Quatro Cinco Meia Sete Oito"),
])
def test_a_number_said_digit_by_digit_is_a_phone(detector: PhiDetector, text: str, number: str) -> None:
    spans = [(text[s.start:s.end], s.category) for s in detector.detect(text).spans]
    assert (number, "PHONE") in spans


@pytest.mark.parametrize("text", [
    "take one or two tablets three times a day for five days",
    "tomar um comprimido de oito em oito horas por sete dias",
    "the code is five five five zero one",  # five digits: no phone number is that short
])
def test_doses_and_short_counts_in_words_are_not_phones(detector: PhiDetector, text: str) -> None:
    assert "PHONE" not in detector.detect(text).categories
