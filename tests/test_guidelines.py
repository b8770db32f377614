"""GuidelineService logic over real SQLite files built with `load`: the curated knowledge base
and its known-answer questions, the confidence rules (small custom bases force each case),
retrievers timing out or failing, conflicts, passages with highlights, and request validation."""

import asyncio
import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from healthmesh.v1 import tools_pb2
from runtime.errors import InvalidArgument, NotFound
from tools.guideline_loader import DEFAULT_DATA, load
from tools.guideline_search import SNIPPET_CHARS
from tools.guideline_service import GuidelineService

EVAL = json.loads((Path(__file__).parent / "eval" / "retrieval.json").read_text(encoding="utf-8"))
ASPIRIN = {"uspstf-aspirin-2022#aspirin-1", "uspstf-aspirin-2016#aspirin-1",
           "acc-aha-prevention-2019#aspirin-1"}


def build(db: Path, data_path: Path = DEFAULT_DATA) -> Path:
    conn = sqlite3.connect(db)
    try:
        load(conn, data_path)
    finally:
        conn.close()
    return db


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("kb") / "tools.sqlite3")


@pytest.fixture
def pool() -> Iterator[ThreadPoolExecutor]:
    # A fresh pool per test: a timed-out retriever keeps its thread busy until it finishes.
    executor = ThreadPoolExecutor(max_workers=2)
    yield executor
    executor.shutdown(wait=True)


def search(servicer: GuidelineService, query: str, top_k: int = 0) -> tools_pb2.SearchGuidelinesResponse:
    request = tools_pb2.SearchGuidelinesRequest(query=query, top_k=top_k)
    return asyncio.run(servicer.SearchGuidelines(request, None))


def get_passages(servicer: GuidelineService, chunk_ids: list[str],
                 terms: tuple[str, ...] | list[str] = ()) -> tools_pb2.GetPassagesResponse:
    request = tools_pb2.GetPassagesRequest(chunk_ids=chunk_ids, highlight_terms=terms)
    return asyncio.run(servicer.GetPassages(request, None))


def ids(response: Any) -> list[str]:
    return [p.chunk_id for p in response.passages]


# ---- small custom knowledge bases ------------------------------------------------------------

def passage(chunk_id: str, topic: str, keywords: list[str], text: str, *,
            position: str = "recommend", section: str = "Recommendations") -> dict[str, Any]:
    return {"chunk_id": chunk_id, "guideline_id": chunk_id.split("#")[0], "section": section,
            "topic": topic, "position": position, "keywords": keywords, "text": text}


def custom_kb(tmp_path: Path, passages: list[dict[str, Any]]) -> Path:
    names = sorted({p["guideline_id"] for p in passages})
    data = {
        "guidelines": [{"guideline_id": g, "source": f"Guideline {g.upper()} {2000 + i}",
                        "specialty": "general", "year": 2000 + i} for i, g in enumerate(names)],
        "passages": passages,
    }
    path = tmp_path / "kb.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return build(tmp_path / "kb.sqlite3", path)


FILLER = "This longer passage says many other things about care and follow-up, and mentions alpha once."
# The structured lookup finds it by keyword; its text never says the query word.
KEYWORD_HIT = passage("g1#a", "beta gamma", ["alpha"], "Unrelated words only.")
# Full text ranks it first (query word in section and text); the lookup never sees it.
TEXT_LEADER = passage("g9#x", "delta epsilon", ["delta"], "Alpha, alpha and alpha again.", section="Alpha")


def corroborating(n: int) -> list[dict[str, Any]]:
    """Passages on the keyword hit's topic that only the full text finds."""
    return [passage(f"g2#b{i}", "beta gamma", ["other"], FILLER) for i in range(n)]


# ---- the curated knowledge base --------------------------------------------------------------

def test_knowledge_base_spans_four_specialties_with_sources(kb):
    data = json.loads(DEFAULT_DATA.read_text(encoding="utf-8"))
    sources = {g["guideline_id"]: g for g in data["guidelines"]}
    per_specialty: dict[str, int] = {}
    for p in data["passages"]:
        guideline = sources[p["guideline_id"]]
        assert guideline["source"].strip() and p["section"].strip(), p["chunk_id"]
        per_specialty[guideline["specialty"]] = per_specialty.get(guideline["specialty"], 0) + 1
    assert len(data["passages"]) >= 40
    assert all(per_specialty[s] >= 10 for s in ("cardiology", "dermatology", "orthopedics"))
    assert per_specialty["general"] >= 8
    conn = sqlite3.connect(kb)
    try:
        assert conn.execute("SELECT count(*) FROM passages").fetchone()[0] == len(data["passages"])
    finally:
        conn.close()


def test_load_recreates_the_tables(tmp_path):
    db = build(build(tmp_path / "twice.sqlite3"))
    conn = sqlite3.connect(db)
    try:
        count, = conn.execute("SELECT count(*) FROM passages").fetchone()
        fts, = conn.execute("SELECT count(*) FROM passages_fts").fetchone()
    finally:
        conn.close()
    assert count == fts == len(json.loads(DEFAULT_DATA.read_text(encoding="utf-8"))["passages"])


def test_a_bad_file_names_the_passage_and_changes_nothing(tmp_path, pool):
    db = custom_kb(tmp_path, [KEYWORD_HIT])
    broken = passage("g1#broken", "beta", ["alpha"], "Text.")
    del broken["section"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"guidelines": [{"guideline_id": "g1", "source": "G1", "specialty": "general",
                                                "year": 2020}], "passages": [broken]}), encoding="utf-8")
    conn = sqlite3.connect(db)
    try:
        with pytest.raises(ValueError, match=r"g1#broken.*section"):
            load(conn, path)
    finally:
        conn.close()
    assert ids(search(GuidelineService(db, pool), "alpha")) == ["g1#a"]


@pytest.mark.parametrize("case", EVAL["queries"], ids=[q["query"] for q in EVAL["queries"]])
def test_known_answer_questions_find_their_passages_in_the_top_3(kb, pool, case):
    assert len(EVAL["queries"]) >= 20 and {q["language"] for q in EVAL["queries"]} == {"en", "pt"}
    top3 = ids(search(GuidelineService(kb, pool), case["query"]))[:3]
    assert set(case["expected"]) <= set(top3), top3


def test_accents_and_case_do_not_change_the_answer(kb, pool):
    servicer = GuidelineService(kb, pool)
    accented = search(servicer, "Anticoagulação na Fibrilação Atrial")
    assert ids(accented) == ids(search(servicer, "anticoagulacao na fibrilacao atrial"))


def test_query_text_never_reaches_fts_syntax(kb, pool):
    response = search(GuidelineService(kb, pool), 'warfarin" OR NEAR(a b) AND * -col:^x "unbalanced')
    assert response.retrievers == ["structured", "fulltext"]
    assert "esc-af-2020#noac-1" in ids(response)


def test_search_results_carry_citation_and_a_snippet_around_the_match(kb, pool):
    response = search(GuidelineService(kb, pool), "mitral stenosis")
    top = response.passages[0]
    assert top.chunk_id in {"esc-af-2020#noac-1", "acc-aha-af-2023#oac-1"}
    assert top.source and top.section and top.specialty == "cardiology" and top.guideline_id
    assert "mitral stenosis" in top.snippet and len(top.snippet) <= SNIPPET_CHARS + 2
    scores = [p.relevance_score for p in response.passages]
    assert scores == sorted(scores, reverse=True) and all(0 < s <= 1 for s in scores)


# ---- ranking and confidence ------------------------------------------------------------------

def test_an_exact_topic_phrase_ranks_before_keyword_matches(tmp_path, pool):
    db = custom_kb(tmp_path, [
        passage("g1#topic", "alpha beta", ["zzz"], "Text one."),
        passage("g2#keywords", "other thing", ["alpha", "beta"], "Alpha beta alpha beta."),  # newer
    ])
    response = search(GuidelineService(db, pool), "alpha beta")
    assert ids(response) == ["g1#topic", "g2#keywords"]
    assert response.passages[0].relevance_score == 1.0


def test_a_repeated_word_does_not_break_a_keyword_phrase(tmp_path, pool):
    db = custom_kb(tmp_path, [passage("g1#a", "spine care", ["back pain"], "About the spine.")])
    response = search(GuidelineService(db, pool), "knee pain and back pain")
    assert ids(response) == ["g1#a"] and response.confidence == 0.9  # found by the lookup


def test_a_structured_hit_starts_at_0_9(tmp_path, pool):
    db = custom_kb(tmp_path, [passage("g1#a", "beta gamma", ["alpha"], "A passage about alpha.")])
    response = search(GuidelineService(db, pool), "alpha")
    assert ids(response) == ["g1#a"] and response.confidence == 0.9


def test_a_full_text_only_result_starts_at_0_6(tmp_path, pool):
    db = custom_kb(tmp_path, [passage("g1#a", "beta gamma", ["delta"], "Only the text mentions quux.")])
    response = search(GuidelineService(db, pool), "quux")
    assert ids(response) == ["g1#a"] and response.confidence == 0.6
    assert list(response.retrievers) == ["structured", "fulltext"]


def test_nothing_found_gives_zero_confidence(tmp_path, pool):
    db = custom_kb(tmp_path, [KEYWORD_HIT])
    response = search(GuidelineService(db, pool), "nothing here matches")
    assert not response.passages and response.confidence == 0.0


def test_each_corroborating_passage_adds_0_03(tmp_path, pool):
    db = custom_kb(tmp_path, [KEYWORD_HIT, *corroborating(3)])
    response = search(GuidelineService(db, pool), "alpha", top_k=10)
    assert ids(response)[0] == "g1#a" and len(response.passages) == 4
    assert response.confidence == 0.99


def test_disagreeing_retrievers_cost_0_1(tmp_path, pool):
    db = custom_kb(tmp_path, [KEYWORD_HIT, TEXT_LEADER])
    response = search(GuidelineService(db, pool), "alpha")
    assert ids(response) == ["g1#a", "g9#x"]  # structured hit first, then the full-text one
    assert response.confidence == 0.8


def test_the_corroboration_bonus_stops_at_0_15(tmp_path, pool):
    # Six corroborating passages (+0.18 uncapped) and a disagreement: 0.9 + 0.15 - 0.1.
    db = custom_kb(tmp_path, [KEYWORD_HIT, TEXT_LEADER, *corroborating(6)])
    response = search(GuidelineService(db, pool), "alpha", top_k=10)
    assert ids(response)[:2] == ["g1#a", "g9#x"]
    assert response.confidence == 0.95


# ---- retrievers timing out or failing --------------------------------------------------------

@contextlib.contextmanager
def writer_holding(db: Path, seconds: float) -> Iterator[None]:
    """Another connection holds the file's write lock for `seconds`: in SQLite's rollback-journal
    mode the read-only retrievers wait for it, as they would behind a rebuild of the base."""
    locked = threading.Event()

    def hold() -> None:
        conn = sqlite3.connect(db, isolation_level=None)
        conn.execute("BEGIN EXCLUSIVE")
        locked.set()
        time.sleep(seconds)
        conn.execute("ROLLBACK")
        conn.close()

    thread = threading.Thread(target=hold)
    thread.start()
    locked.wait()
    try:
        yield
    finally:
        thread.join()


def test_retrievers_out_of_time_are_left_out_and_the_service_recovers(tmp_path, pool):
    db = build(tmp_path / "tools.sqlite3")
    servicer = GuidelineService(db, pool, retriever_timeout_s=0.1)
    with writer_holding(db, 0.5):
        late = search(servicer, "aspirin primary prevention")
    assert list(late.retrievers) == [] and not late.passages and late.confidence == 0
    again = search(servicer, "aspirin primary prevention")
    assert list(again.retrievers) == ["structured", "fulltext"]
    assert set(ids(again)[:3]) == ASPIRIN


def test_a_failing_full_text_ranking_leaves_the_structured_results(tmp_path, pool):
    db = build(tmp_path / "tools.sqlite3")
    conn = sqlite3.connect(db)
    conn.execute("DROP TABLE passages_fts")
    conn.commit()
    conn.close()
    response = search(GuidelineService(db, pool), "aspirin primary prevention")
    assert list(response.retrievers) == ["structured"]
    assert set(ids(response)[:3]) == ASPIRIN and response.confidence == 0.9


def test_a_failing_retriever_is_left_out(tmp_path, pool):
    db = custom_kb(tmp_path, [passage("g1#a", "beta gamma", ["alpha"], "A passage about alpha.")])
    conn = sqlite3.connect(db)
    conn.execute("DROP TABLE topics")
    conn.commit()
    conn.close()
    response = search(GuidelineService(db, pool), "alpha")
    assert list(response.retrievers) == ["fulltext"] and ids(response) == ["g1#a"]


# ---- conflicts -------------------------------------------------------------------------------

def test_conflicting_guidelines_are_surfaced(kb, pool):
    response = search(GuidelineService(kb, pool), "aspirin for primary prevention")
    conflict, = [c for c in response.conflicts if c.topic == "aspirin primary prevention"]
    assert set(conflict.chunk_ids) == ASPIRIN
    for words in ("against", "recommend", "consider", "USPSTF 2022", "USPSTF 2016", "2019 ACC/AHA"):
        assert words in conflict.note


def test_portuguese_question_surfaces_the_glucosamine_disagreement(kb, pool):
    response = search(GuidelineService(kb, pool), "glucosamina para artrose do joelho")
    topics = {c.topic: set(c.chunk_ids) for c in response.conflicts}
    assert {"esceo-knee-oa-2019#sysadoa-1", "aaos-knee-oa-2013#glucosamine-1"} <= topics[
        "knee osteoarthritis glucosamine"]


def test_agreeing_guidelines_are_not_a_conflict(kb, pool):
    response = search(GuidelineService(kb, pool), "anticoagulation in atrial fibrillation")
    assert {"esc-af-2020#oac-1", "acc-aha-af-2023#oac-1"} <= set(ids(response))
    assert "atrial fibrillation anticoagulation" not in {c.topic for c in response.conflicts}


def test_info_passages_take_no_position(tmp_path, pool):
    db = custom_kb(tmp_path, [
        passage("g1#a", "shared topic", ["alpha"], "Do it.", position="recommend"),
        passage("g2#b", "shared topic", ["alpha"], "Background.", position="info"),
        passage("g3#c", "shared topic", ["alpha"], "Do not.", position="against"),
    ])
    response = search(GuidelineService(db, pool), "alpha")
    conflict, = response.conflicts
    assert conflict.topic == "shared topic" and sorted(conflict.chunk_ids) == ["g1#a", "g3#c"]


# ---- GetPassages -----------------------------------------------------------------------------

def test_passages_come_in_the_order_asked_with_full_text(kb, pool):
    asked = ["esc-af-2020#oac-1", "aad-acne-2024#isotretinoin-1", "esc-af-2020#noac-1"]
    response = get_passages(GuidelineService(kb, pool), asked)
    assert ids(response) == asked
    for p in response.passages:
        assert p.snippet.endswith(".") and len(p.snippet) > 200 and p.source and p.section
        assert p.highlighted_text == p.snippet  # no terms, nothing marked


def test_highlights_are_whole_word_and_ignore_case_and_accents(kb, pool):
    response = get_passages(GuidelineService(kb, pool), ["esc-af-2020#noac-1"],
                            ["WARFARIN", "vitamin k", "Apixabán", "coagulation"])
    text = response.passages[0].highlighted_text
    assert "such as **warfarin**." in text and "(NOAC: **apixaban**," in text
    assert text.count("**vitamin K**") == 3
    assert "**coagulation**" not in text and "anticoagulation" in text  # not inside a word
    assert text.replace("**", "") == response.passages[0].snippet


def test_an_unknown_passage_is_not_found_by_name(kb, pool):
    with pytest.raises(NotFound, match="esc-af-2020#nope"):
        get_passages(GuidelineService(kb, pool), ["esc-af-2020#oac-1", "esc-af-2020#nope"])


# ---- validation ------------------------------------------------------------------------------

@pytest.mark.parametrize(("query", "top_k", "field"), [
    ("", 0, "query"),
    ("   ", 0, "query"),
    ("a" * 501, 0, "query"),
    ("aspirin", -1, "top_k"),
    ("aspirin", 21, "top_k"),
])
def test_bad_search_requests_name_the_field(kb, pool, query, top_k, field):
    with pytest.raises(InvalidArgument) as info:
        search(GuidelineService(kb, pool), query, top_k)
    assert info.value.field == field


def test_top_k_defaults_to_5_and_is_honoured(kb, pool):
    servicer = GuidelineService(kb, pool)
    assert len(search(servicer, "atrial fibrillation").passages) == 5
    assert len(search(servicer, "atrial fibrillation", top_k=2).passages) == 2
    assert len(search(servicer, "atrial fibrillation", top_k=20).passages) > 5


@pytest.mark.parametrize(("chunk_ids", "terms", "field"), [
    ([], [], "chunk_ids"),
    ([f"esc-af-2020#oac-{i}" for i in range(21)], [], "chunk_ids"),
    ([""], [], "chunk_ids[0]"),
    (["esc-af-2020#oac-1"], ["x"] * 21, "highlight_terms"),
    (["esc-af-2020#oac-1"], ["x" * 101], "highlight_terms[0]"),
])
def test_bad_passage_requests_name_the_field(kb, pool, chunk_ids, terms, field):
    with pytest.raises(InvalidArgument) as info:
        get_passages(GuidelineService(kb, pool), chunk_ids, terms)
    assert info.value.field == field
