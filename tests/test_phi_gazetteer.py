"""The names gazetteer: the committed file says where it comes from, and the build keeps each
country's top names, folded as the detector reads text, with their best rank; and a first name that no
dictionary writes in lower case and no place or language bears is a name wherever it stands."""

import pytest

from orchestrator.privacy.build_names import lexicon, ranked
from orchestrator.privacy.gazetteer import DATA_PATH, gazetteer
from orchestrator.privacy.phi import PhiDetector


def test_the_committed_gazetteer_names_its_source_and_license() -> None:
    lines = DATA_PATH.read_text(encoding="utf-8").splitlines()
    header = " ".join(line for line in lines if line.startswith("#"))
    assert "names-dataset" in header and "MIT License" in header
    names = gazetteer()
    assert {"maria", "joao", "tatiane", "tyrone", "giuseppe", "ananya", "deepak"} <= names.first
    assert {"silva", "carvalho", "jenkins"} <= names.last
    assert {"rosa", "will", "grace"} <= names.words and "tatiane" not in names.words
    assert {"argentina", "portugal"} <= names.places
    # Deeper lists of more countries (Kazakh, Tibetan, Ethiopian names), without their words or drugs.
    assert {"aigerim", "tsering", "dawit", "babajide"} <= names.first
    assert not {"farmacia", "come", "tomei", "levar", "allegra"} & (names.first | names.last)
    assert "LibreOffice" in header and "GeoNames" in header
    # Words the dictionaries write in lower case, accents restored ("esperança"); not "marcelo", nor "june"
    # (written "June").
    assert {"grace", "rosa", "esperanca", "flor"} <= names.lexicon
    assert not {"marcelo", "tatiane", "june", "kamal"} & names.lexicon
    assert {"savannah", "charlotte", "bahia", "irish"} <= names.proper and "kamal" not in names.proper


def test_the_dictionaries_tell_a_word_from_a_name_by_its_case() -> None:
    in_lexicon = lexicon()
    assert in_lexicon({"grace"}) and in_lexicon({"xyz", "esperança"})
    assert not in_lexicon({"marcelo"}) and not in_lexicon({"june"}) and not in_lexicon({"esperanca"})


@pytest.fixture(scope="module")
def detector() -> PhiDetector:
    return PhiDetector()


@pytest.mark.parametrize("text, name", [
    ("Thiago, o exame saiu?", "Thiago"),
    ("valeu tatiane, ate sexta", "tatiane"),
    ("was it kamal who called?", "kamal"),
    ("the form came back, signed by Deepak", "Deepak"),
    # hyphenated first names, capitalized or one of them such a name
    ("is Ana-Lucia on shift today?", "Ana-Lucia"),
    ("jean-luc left his inhaler here", "jean-luc"),
])
def test_a_first_name_no_dictionary_holds_is_a_name_anywhere(detector: PhiDetector, text: str,
                                                              name: str) -> None:
    assert [text[s.start:s.end] for s in detector.detect(text).spans] == [name]


@pytest.mark.parametrize("text", [
    "we moved here from savannah in may",  # a city's
    "she only speaks irish at home",  # a language's
    "the grace period ends on friday",  # a word's
    "dr. thiago wants a follow up in 2 weeks",  # a doctor's, public
    "started pip-tazo last night",  # a drug's, hyphenated first names in lower case
])
def test_a_word_a_place_or_a_doctors_first_name_needs_more(detector: PhiDetector, text: str) -> None:
    assert "NAME" not in detector.detect(text).categories


def test_the_build_keeps_each_countrys_top_names_folded() -> None:
    names = {"João": {"rank": {"BR": 2, "US": None}}, "Zé": {"rank": {"BR": 9}},
             "Kwame": {"rank": {"GH": 40, "US": 900}}, "Jo": {"rank": {"US": 1}}}
    assert ranked(names, {"BR": 5, "GH": 50, "US": 5}) == {"joao": (2, {"joao", "joão"}),
                                                            "kwame": (40, {"kwame"})}


@pytest.mark.parametrize("text, name", [
    # who the person is to the writer, just before, even a name that is a word
    ("my sister in law Patience can drive him", "Patience"),
    ("meu irmao gemeo Jeremias ta com febre tb", "Jeremias"),
    ("my bf nico has the same rash", "nico"),
    # staff where they work
    ("falei com a socorro da recepcao ontem", "socorro"),
    # asked, thanked or authorized
    ("pode avisar a flor q o exame saiu?", "flor"),
    ("agradece a Estrela pela ajuda de ontem", "Estrela"),
    ("obg dandara pelo lanche", "dandara"),
    ("quero autorizar a luz a buscar o resultado", "luz"),
    # a month that is a first name, where only a person stands
    ("remind april her flu shot is due", "april"),
    ("this is june, about my dad's refill", "june"),
    # staff in a department, by role, named as a contact or a companion
    ("the refund was sorted by joy in billing", "joy"),
    ("a tecnica de enfermagem Graça tirou o acesso", "Graça"),
    ("ask the pharmacist Ruth about the generic", "Ruth"),
    ("hope is my emergency contact from now on", "hope"),
    ("pode colocar a paz como minha acompanhante?", "paz"),
    # whom something is for, to do it; whose health record; a named former partner
    ("is it ok for faith to take tylenol after the shot", "faith"),
    ("a pressao da rosa subiu de novo", "rosa"),
    ("my ex darnell cannot pick up the kids", "darnell"),
    # told a name; a clitic before a person's verb; an apostrophe before a capital
    ("the nurse said her name was destiny", "destiny"),
    ("Luz me ligou ontem sobre o exame", "Luz"),
    ("hi, D'Angelo here about the bill", "D'Angelo"),
])
def test_a_name_that_is_a_word_where_only_a_person_stands(detector: PhiDetector, text: str,
                                                           name: str) -> None:
    assert [text[s.start:s.end] for s in detector.detect(text).spans] == [name]


@pytest.mark.parametrize("text", ["my wife may come along", "a luz do corredor ta piscando",
                                  "thank god for the quick reply", "can i book june 12?", "see you in june",
                                  "the name was wrong on the form", "ex smoker, quit in 2010",
                                  "thanks for the help", "a consulta da tarde foi cancelada",
                                  "my son vomited.", "it's fine now"])
def test_the_same_words_in_their_own_use_name_no_one(detector: PhiDetector, text: str) -> None:
    assert "NAME" not in detector.detect(text).categories
