"""The guideline knowledge base: tools/data/guidelines.json validated and written to SQLite.

`load` writes, in one transaction, the tables `guidelines`, `passages`, `passages_fts` (FTS5
over text, section, keywords and topic, accents removed) and `topics`, the structured index of
every passage's topic phrase and keywords in normalized form. Normalized (`terms`) means folded
(lowercase, no accents), split into words, Portuguese and English stopwords dropped, and a
plural "s" stripped, so "Anticoagulantes" and "anticoagulante" meet; queries are normalized the
same way (tools/guideline_search.py).
"""

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

from runtime import specialties
from runtime.text.fold import fold
from tools.readonly import json_list, json_text

DEFAULT_DATA = Path(__file__).parent / "data" / "guidelines.json"
SPECIALTIES = (*specialties.SPECIALTIES, "general")
_SPECIALTIES_SQL = ", ".join(f"'{s}'" for s in SPECIALTIES)
POSITIONS = ("recommend", "against", "consider", "info")
PASSAGE_FIELDS = ("chunk_id", "guideline_id", "section", "topic", "position", "keywords", "text")

# Folded (lowercase, no accents) function words of Portuguese and English questions, and the
# words of asking about guidelines at all ("what do the guidelines say about ...").
STOPWORDS = frozenset("""
    a an the of in on at to for from by with without and or but not no nor is are was were be been
    being am do does did have has had i me my mine we our you your he she it its they them their
    this that these those what which who whom when where why how can could should would will shall
    may might must about into after before over than then so if as vs versus per any some all
    more most very just also there here get got need needs want please tell know take taking
    patient patients someone anyone guideline guidelines say says recommend recommends recommendation
    recommendations
    o os as um uma uns umas de do da dos das em na nas nos num numa dum duma neste nesta nesse nessa
    deste desta desse dessa ao aos pelo pela pelos pelas por para pra
    com sem e ou mas nao que qual quais quando como onde porque sao ser estar esta estao sou eu
    meu minha meus minhas mim voce se seu sua seus suas tem tenho ter tinha devo deve devem pode
    posso podem preciso precisa sobre isso isto esse essa este muito mais menos ja tambem ha quero
    saber fazer faz alguem paciente pacientes diretriz diretrizes diz dizem recomenda recomendam
    recomendacao recomendacoes
""".split())

WORD = re.compile(r"[^\W_]+")

SCHEMA = (
    "DROP TABLE IF EXISTS topics",
    "DROP TABLE IF EXISTS passages_fts",
    "DROP TABLE IF EXISTS passages",
    "DROP TABLE IF EXISTS guidelines",
    f"""CREATE TABLE guidelines (
      guideline_id TEXT PRIMARY KEY,
      source TEXT NOT NULL,
      specialty TEXT NOT NULL CHECK (specialty IN ({_SPECIALTIES_SQL})),
      year INTEGER NOT NULL
    )""",
    """CREATE TABLE passages (
      id INTEGER PRIMARY KEY,
      chunk_id TEXT NOT NULL UNIQUE,
      guideline_id TEXT NOT NULL REFERENCES guidelines(guideline_id),
      section TEXT NOT NULL,
      topic TEXT NOT NULL,
      position TEXT NOT NULL CHECK (position IN ('recommend', 'against', 'consider', 'info')),
      keywords TEXT NOT NULL,
      text TEXT NOT NULL
    )""",
    # rowid = passages.id
    """CREATE VIRTUAL TABLE passages_fts USING fts5(
      text, section, keywords, topic, tokenize = 'unicode61 remove_diacritics 2'
    )""",
    # One row per normalized topic phrase or keyword of a passage; the primary key is the index
    # the lookup uses (term first).
    """CREATE TABLE topics (
      term TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('topic', 'keyword')),
      chunk_id TEXT NOT NULL REFERENCES passages(chunk_id),
      PRIMARY KEY (term, chunk_id, kind)
    ) WITHOUT ROWID""",
)


def terms(text: str) -> list[str]:
    """The normalized content words of `text`: folded, stopwords dropped, a plural "s" stripped."""
    return [_stem(w) for w in WORD.findall(fold(text)) if w not in STOPWORDS]


def _stem(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def load(conn: sqlite3.Connection, path: Path = DEFAULT_DATA) -> None:
    """(Re)creates the guideline tables from `path` in one transaction. The whole file is
    validated before anything is written, so a bad file raises ValueError and changes nothing."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    guidelines = _parse_guidelines(json_list(data, "guidelines", "the file"))
    passages = _parse_passages(json_list(data, "passages", "the file"), guidelines)
    # A savepoint rather than BEGIN: a transaction of its own on an idle connection, nested in
    # the caller's transaction when there is one.
    conn.execute("SAVEPOINT guidelines_load")
    try:
        for statement in SCHEMA:
            conn.execute(statement)
        conn.executemany("INSERT INTO guidelines VALUES (?, ?, ?, ?)", guidelines.values())
        for row_id, p in enumerate(passages, start=1):
            conn.execute(
                "INSERT INTO passages VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (row_id, p["chunk_id"], p["guideline_id"], p["section"], p["topic"], p["position"],
                 json.dumps(p["keywords"], ensure_ascii=False), p["text"]),
            )
            conn.execute(
                "INSERT INTO passages_fts (rowid, text, section, keywords, topic) VALUES (?, ?, ?, ?, ?)",
                (row_id, p["text"], p["section"], "; ".join(p["keywords"]), p["topic"]),
            )
            conn.executemany(
                "INSERT OR IGNORE INTO topics VALUES (?, ?, ?)",
                [(" ".join(terms(p["topic"])), "topic", p["chunk_id"])]
                + [(" ".join(terms(k)), "keyword", p["chunk_id"]) for k in p["keywords"]],
            )
    except BaseException:
        conn.execute("ROLLBACK TO guidelines_load")
        conn.execute("RELEASE guidelines_load")
        raise
    conn.execute("RELEASE guidelines_load")


def _parse_guidelines(raw_guidelines: list[Any]) -> dict[str, tuple[str, str, str, int]]:
    guidelines: dict[str, tuple[str, str, str, int]] = {}
    for i, raw in enumerate(raw_guidelines):
        guideline_id = json_text(raw, "guideline_id", f"guidelines[{i}]")
        where = f"guideline {guideline_id!r}"
        if guideline_id in guidelines:
            raise ValueError(f"{where}: listed twice")
        specialty = json_text(raw, "specialty", where)
        if specialty not in SPECIALTIES:
            raise ValueError(f"{where}: specialty must be one of {', '.join(SPECIALTIES)}")
        year = raw.get("year")
        if not isinstance(year, int) or isinstance(year, bool):
            raise ValueError(f"{where}: year must be an integer")
        guidelines[guideline_id] = (guideline_id, json_text(raw, "source", where), specialty, year)
    return guidelines


def _parse_passages(raw_passages: list[Any], guidelines: dict[str, Any]) -> list[dict[str, Any]]:
    passages: dict[str, dict[str, Any]] = {}
    for i, raw in enumerate(raw_passages):
        where = f"passages[{i}]"
        if isinstance(raw, dict) and isinstance(raw.get("chunk_id"), str) and raw["chunk_id"].strip():
            where = f"passage {raw['chunk_id'].strip()!r}"
        missing = [f for f in PASSAGE_FIELDS if not isinstance(raw, dict) or f not in raw]
        if missing:
            raise ValueError(f"{where}: missing field {missing[0]!r}")
        p = {f: json_text(raw, f, where) for f in PASSAGE_FIELDS if f != "keywords"}
        p["keywords"] = [json_text({"keyword": k}, "keyword", where)
                         for k in json_list(raw, "keywords", where)]
        if p["chunk_id"] in passages:
            raise ValueError(f"{where}: listed twice")
        if p["guideline_id"] not in guidelines:
            raise ValueError(f"{where}: unknown guideline_id {p['guideline_id']!r}")
        if not p["chunk_id"].startswith(f"{p['guideline_id']}#"):
            raise ValueError(f"{where}: chunk_id must start with its guideline_id and '#'")
        if p["topic"] != p["topic"].lower():
            raise ValueError(f"{where}: topic must be lowercase")
        if p["position"] not in POSITIONS:
            raise ValueError(f"{where}: position must be one of {', '.join(POSITIONS)}")
        if not p["keywords"]:
            raise ValueError(f"{where}: keywords must not be empty")
        for phrase in (p["topic"], *p["keywords"]):
            if not terms(phrase):
                raise ValueError(f"{where}: {phrase!r} has no words besides stopwords")
        passages[p["chunk_id"]] = p
    return list(passages.values())
