"""The red-flag screen against the labeled set in tests/eval/redflags.json: every emergency
is flagged with its category (recall must be 100%); false positives are measured, printed
and bounded. Plus the emergency texts, language choice, determinism and speed."""

import json
import re
import time
import unicodedata
from pathlib import Path

import pytest

from healthmesh.v1 import verifier_pb2
from verifier.screen import detect_language, screen

LABELED = json.loads((Path(__file__).parent / "eval" / "redflags.json").read_text(encoding="utf-8"))
EMERGENCIES = LABELED["emergencies"]
NON_EMERGENCIES = LABELED["non_emergencies"]
# The known false positives are symptom words with no negation and no long-past time ("my
# father had a heart attack"), flagged on purpose; the bound leaves room for a few more
# ambiguous messages, never for a miss.
MAX_FALSE_POSITIVE_RATE = 0.15


def category(name: str) -> int:
    return verifier_pb2.RedFlagCategory.Value(f"RED_FLAG_CATEGORY_{name}")


def test_labeled_set_covers_every_category_in_both_languages():
    assert len(EMERGENCIES) >= 40 and len(NON_EMERGENCIES) >= 30
    covered = {(case["category"], case["lang"]) for case in EMERGENCIES}
    names = [n for n in verifier_pb2.RedFlagCategory.keys() if not n.endswith("UNSPECIFIED")]
    assert covered == {(n.removeprefix("RED_FLAG_CATEGORY_"), lang) for n in names for lang in ("pt", "en")}


@pytest.mark.parametrize("case", EMERGENCIES, ids=lambda case: case["text"])
def test_every_emergency_is_flagged_with_its_category(case):
    reply = screen(case["text"])
    assert reply.red_flag
    assert reply.category == category(case["category"])
    assert re.fullmatch(r"[a-z]+\.[a-z_]+", reply.rule_id)
    assert reply.language == case["lang"] == detect_language(case["text"])
    assert reply.emergency_message


def test_recall_is_total_and_false_positives_are_bounded():
    missed = [c["text"] for c in EMERGENCIES if not screen(c["text"]).red_flag]
    flagged = [c["text"] for c in NON_EMERGENCIES if screen(c["text"]).red_flag]
    recall = 1 - len(missed) / len(EMERGENCIES)
    false_positive_rate = len(flagged) / len(NON_EMERGENCIES)
    print(f"\nred-flag screen: recall {recall:.1%} on {len(EMERGENCIES)} emergencies, false-positive "
          f"rate {false_positive_rate:.1%} on {len(NON_EMERGENCIES)} non-emergencies: {flagged}")
    assert not missed
    assert false_positive_rate <= MAX_FALSE_POSITIVE_RATE
    known = {c["text"] for c in NON_EMERGENCIES if c.get("known_false_positive")}
    assert set(flagged) <= known, "a new false positive: add it to the set as known, or fix the rule"


@pytest.mark.parametrize("message", ["book a cardiologist", "quero marcar cardiologista",
                                     "I have no chest pain", "sem dor no peito",
                                     "não tenho dor no peito", "the patient denies chest pain"])
def test_booking_requests_and_clear_negations_are_not_flagged(message):
    reply = screen(message)
    assert not reply.red_flag
    assert reply.category == verifier_pb2.RED_FLAG_CATEGORY_UNSPECIFIED
    assert reply.rule_id == "" and reply.emergency_message == ""


@pytest.mark.parametrize("message", ["I had chest pain last year, now I want a checkup",
                                     "tive um desmaio há dois anos e quero investigar"])
def test_a_long_past_event_told_as_history_is_not_flagged(message):
    assert not screen(message).red_flag


@pytest.mark.parametrize("message", ["I had chest pain last year and it is back today",
                                     "tive um desmaio há dois anos e hoje desmaiei de novo",
                                     "I had chest pain an hour ago"])
def test_a_past_event_happening_again_or_recent_is_flagged(message):
    assert screen(message).red_flag


@pytest.mark.parametrize("message", ["no chest pain but I can't breathe",
                                     "sem dor no peito, mas estou vomitando sangue",
                                     "I'm not suicidal, but I want to kill myself"])
def test_a_negation_never_hides_another_emergency(message):
    assert screen(message).red_flag


def test_decomposed_accents_are_read_like_composed_ones():
    reply = screen(unicodedata.normalize("NFD", "não consigo respirar, estou com falta de ar intensa"))
    assert reply.red_flag and reply.language == "pt"


def test_portuguese_emergency_text():
    reply = screen("estou com dor no peito")
    assert reply.language == "pt"
    assert "SAMU 192" in reply.emergency_message and "pronto-socorro" in reply.emergency_message
    assert "Nenhuma consulta será agendada" in reply.emergency_message
    assert "CVV" not in reply.emergency_message


def test_english_emergency_text():
    reply = screen("I'm having chest pain")
    assert reply.language == "en"
    for part in ("911", "112", "SAMU 192", "emergency room", "No appointment will be booked"):
        assert part in reply.emergency_message


def test_self_harm_adds_the_crisis_line():
    pt = screen("quero me matar")
    assert pt.category == verifier_pb2.RED_FLAG_CATEGORY_MENTAL_HEALTH
    assert "CVV — ligue 188 (24 h, gratuito) ou chat em cvv.org.br" in pt.emergency_message
    assert "SAMU 192" in pt.emergency_message
    en = screen("I want to end my life")
    assert "call or text 988 (US Suicide & Crisis Lifeline); in Brazil CVV 188" in en.emergency_message


def test_requested_language_wins_over_detection():
    reply = screen("I have chest pain", "pt")
    assert reply.language == "pt" and "SAMU 192" in reply.emergency_message
    assert screen("quero marcar cardiologista", "en").language == "en"


def test_language_is_detected_for_messages_without_a_flag():
    assert screen("quero marcar uma consulta com cardiologista").language == "pt"
    assert screen("I want to book a dermatologist").language == "en"


def test_rule_id_never_carries_message_text():
    message = "meu vizinho Fábio Costa está com dor no peito"
    reply = screen(message)
    assert reply.rule_id == "cardiac.chest_pain"
    assert not set(reply.rule_id.split(".")) & set(message.casefold().split())


def test_same_message_same_verdict():
    assert all(screen(c["text"]) == screen(c["text"]) for c in EMERGENCIES + NON_EMERGENCIES)


def test_screening_takes_well_under_a_millisecond():
    messages = [c["text"] for c in EMERGENCIES + NON_EMERGENCIES]
    start = time.process_time()
    for _ in range(5):
        for message in messages:
            screen(message)
    per_call = (time.process_time() - start) / (5 * len(messages))
    print(f"\nscreen: {per_call * 1e6:.0f} µs CPU per message")
    assert per_call < 0.001
