"""The names gazetteer: the committed file says where it comes from, and the build keeps each
country's top names, folded as the detector reads text, with their best rank."""

from orchestrator.privacy.build_names import ranked
from orchestrator.privacy.gazetteer import DATA_PATH, gazetteer


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


def test_the_build_keeps_each_countrys_top_names_folded() -> None:
    names = {"João": {"rank": {"BR": 2, "US": None}}, "Zé": {"rank": {"BR": 9}},
             "Kwame": {"rank": {"GH": 40, "US": 900}}, "Jo": {"rank": {"US": 1}}}
    assert ranked(names, {"BR": 5, "GH": 50, "US": 5}) == {"joao": (2, {"joao", "joão"}),
                                                            "kwame": (40, {"kwame"})}
