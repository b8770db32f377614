"""The red-flag catalogue (verifier/data/redflags.yaml) as data: every entry names public
sources that the catalogue cites, every example of a rule is flagged by that rule's category,
every deciding question is asked for its examples, and a bad entry fails with its id named."""

import pytest

from healthmesh.v1 import verifier_pb2
from verifier.redflags import catalogue, parse, read
from verifier.screen import screen

RAW = catalogue().raw
RULE_EXAMPLES = [(r["id"], r["category"], text) for r in RAW["rules"] for text in r.get("examples", ())]
ASK_EXAMPLES = [(a["id"], text) for a in RAW["asks"] for text in a["examples"]]


def test_every_entry_names_its_sources():
    for entry in [*RAW["rules"], *RAW["asks"]]:
        assert entry["sources"], entry["id"]
        assert set(entry["sources"]) <= set(RAW["sources"]), entry["id"]
    for entry in RAW["asks"]:
        assert set(entry["question"]) == {"pt", "en"} and entry["emergency_if"] in ("yes", "no")


def test_every_category_has_a_rule_and_new_rules_have_examples():
    categories = {r["category"] for r in RAW["rules"]}
    names = {n.removeprefix("RED_FLAG_CATEGORY_") for n in verifier_pb2.RedFlagCategory.keys()}
    assert categories == names - {"UNSPECIFIED"}
    assert len(RULE_EXAMPLES) >= 60 and {lang for lang in ("pt", "en")}


@pytest.mark.parametrize(("rule_id", "category", "text"), RULE_EXAMPLES, ids=[t for *_, t in RULE_EXAMPLES])
def test_every_example_is_flagged(rule_id, category, text):
    reading = read(text)
    assert reading.flag is not None, rule_id
    assert reading.flag.category == verifier_pb2.RedFlagCategory.Value(f"RED_FLAG_CATEGORY_{category}")


@pytest.mark.parametrize(("ask_id", "text"), ASK_EXAMPLES, ids=[t for _, t in ASK_EXAMPLES])
def test_a_high_risk_topic_gets_its_deciding_question_first(ask_id, text):
    reply = screen(text)
    assert not reply.red_flag and reply.question.rule_id == ask_id
    assert reply.question.text.endswith(("yes or no.", "sim ou não.")) and reply.question.emergency_message


@pytest.mark.parametrize("message", [
    "HEART score for a patient with chest pain, age 54, normal ECG",
    "CHA2DS2-VASc para paciente de 70 anos com hipertensão e AVC prévio",
    "Wells score for a 60-year-old woman with sudden shortness of breath and chest pain",
])
def test_a_clinicians_score_question_is_not_an_emergency_but_carries_a_reminder(message):
    reply = screen(message)
    assert not reply.red_flag and reply.advisory
    assert "192" in reply.advisory


def test_the_same_words_about_oneself_now_are_an_emergency():
    assert screen("I have chest pain right now, what is my HEART score?").red_flag


@pytest.mark.parametrize("message", [
    "fui picado por uma abelha, sem inchaço da língua e respirando normalmente",
    "tenho um resfriado e uma leve dor de cabeça",
    "ele não está com dificuldade para respirar",
    "My face and lips aren't swollen and I'm breathing normally",
    "I fell asleep on the sofa",
    "estou com queda de cabelo",
])
def test_negations_and_everyday_words_are_not_emergencies(message):
    assert not screen(message).red_flag


def test_a_bad_entry_fails_with_its_id():
    raw = {"rules": [{"id": "broken_rule", "category": "TRAUMA", "sources": ["x"],
                      "patterns": ["(unclosed"]}]}
    with pytest.raises(ValueError, match="broken_rule"):
        parse(raw)
