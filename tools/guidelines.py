"""Guideline retrieval with citations: the knowledge base tables and the GuidelineService.

`load` turns tools/data/guidelines.json into SQLite tables (validated first, written in one
transaction): `guidelines`, `passages`, `passages_fts` (FTS5 over text, section, keywords and
topic, accents removed) and `topics`, the structured index of every passage's topic phrase and
keywords in normalized form. Normalized means folded (lowercase, no accents), split into words,
Portuguese and English stopwords dropped, and a plural "s" stripped, so "Anticoagulantes" and
"anticoagulante" meet.

SearchGuidelines runs two retrievers at once on the thread pool, each under its own timeout;
one that times out or fails is left out, and `retrievers` names those that answered.

* structured: every word n-gram of the normalized query is looked up in `topics`. Passages
  whose whole topic phrase occurs in the query rank first; then by coverage (the share of the
  query's words their matched terms cover); then newer guidelines first.
* fulltext: FTS5 bm25. The MATCH expression is an OR of the query's normalized words, each
  quoted (a prefix match for words of 4+ letters), so user text never reaches FTS syntax.
  It ranks up to MAX_TOP_K passages; only its first top_k count as its results below.

Merge: structured hits first, hits of equal match quality ordered by their full-text score
(so a question sharing one keyword with several passages shows the one the text supports),
then the remaining full-text results in bm25 order, deduplicated by chunk id, cut to top_k.
The "top structured hit" below is the first structured hit in this order.

relevance_score never rises down the list: a structured hit scores 0.75 + 0.25 x coverage with
an exact topic phrase, 0.5 + 0.25 x coverage without; a full-text hit scores its bm25 relative
to the best full-text hit, halved when structured hits precede it.

Confidence: 0.9 when the structured lookup hit, 0.6 when only the full text found something, 0
when nothing was found; +0.03 for each full-text result (of its top_k) that shares the top
structured hit's topic, other than that hit itself, at most +0.15; -0.1 when both retrievers
found something and the top full-text passage's topic differs from the top structured passage's
topic. Clamped to [0, 1] and rounded to 2 decimals.

Conflicts: among the returned passages, a topic covered by more than one guideline whose
positions differ (recommend, against, consider) gives one GuidelineConflict naming each
position and its sources. "info" passages take no position and never conflict.
"""

import asyncio
import json
import logging
import re
import sqlite3
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc

from healthmesh.v1 import tools_pb2, tools_pb2_grpc
from runtime.errors import InvalidArgument, NotFound
from runtime.text.fold import fold
from tools.readonly import PooledReader, json_list, json_text

log = logging.getLogger("guidelines")

DEFAULT_DATA = Path(__file__).parent / "data" / "guidelines.json"
SPECIALTIES = ("cardiology", "dermatology", "orthopedics", "general")
POSITIONS = ("recommend", "against", "consider", "info")
PASSAGE_FIELDS = ("chunk_id", "guideline_id", "section", "topic", "position", "keywords", "text")
MAX_QUERY_CHARS = 500
DEFAULT_TOP_K, MAX_TOP_K = 5, 20
MAX_CHUNK_IDS = 20
MAX_CHUNK_ID_CHARS = 200
MAX_HIGHLIGHT_TERMS, MAX_HIGHLIGHT_CHARS = 20, 100
# Bound the lookup: keyword phrases are a few words long, and a 500-character question has
# fewer content words than this.
MAX_NGRAM = 6
MAX_QUERY_WORDS = 100
SNIPPET_CHARS = 240
# bm25 column weights, in the FTS column order text, section, keywords, topic.
BM25_WEIGHTS = (1.0, 2.0, 2.0, 3.0)

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

_WORD = re.compile(r"[^\W_]+")

SCHEMA = (
    "DROP TABLE IF EXISTS topics",
    "DROP TABLE IF EXISTS passages_fts",
    "DROP TABLE IF EXISTS passages",
    "DROP TABLE IF EXISTS guidelines",
    """CREATE TABLE guidelines (
      guideline_id TEXT PRIMARY KEY,
      source TEXT NOT NULL,
      specialty TEXT NOT NULL CHECK (specialty IN ('cardiology', 'dermatology', 'orthopedics', 'general')),
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


# ---- text ------------------------------------------------------------------------------------


def terms(text: str) -> list[str]:
    """The normalized content words of `text`: folded, stopwords dropped, a plural "s" stripped."""
    return [_stem(w) for w in _WORD.findall(fold(text)) if w not in STOPWORDS]


def _stem(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def snippet(text: str, words: Iterable[str]) -> str:
    """About SNIPPET_CHARS of `text` around the earliest place a query word starts a word."""
    if len(text) <= SNIPPET_CHARS:
        return text
    folded = fold(text)
    hits = [m.start() for w in words if (m := re.search(rf"(?<!\w){re.escape(w)}", folded))]
    start = max(0, min(hits) - SNIPPET_CHARS // 3) if hits else 0
    start = min(start, len(text) - SNIPPET_CHARS)  # near the end: still a full-length excerpt
    if start > 0:
        start = text.find(" ", start) + 1  # begin on a word
    end = start + SNIPPET_CHARS
    if end >= len(text):
        return ("…" if start else "") + text[start:]
    end = text.rfind(" ", start, end)  # end on a word
    return ("…" if start else "") + text[start:end].rstrip(" ,;:") + "…"


def highlight(text: str, highlight_terms: Iterable[str]) -> str:
    """`text` with every whole-word, case- and accent-insensitive occurrence of each term in **."""
    folded = fold(text)
    spans: list[tuple[int, int]] = []
    for term in highlight_terms:
        words = _WORD.findall(fold(term))
        if words:
            pattern = r"(?<!\w)" + r"\W+".join(map(re.escape, words)) + r"(?!\w)"
            spans += [m.span() for m in re.finditer(pattern, folded)]
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    out, at = [], 0
    for start, end in merged:
        out += [text[at:start], "**", text[start:end], "**"]
        at = end
    return "".join([*out, text[at:]])


# ---- loading ---------------------------------------------------------------------------------


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




# ---- retrieval -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Passage:
    chunk_id: str
    guideline_id: str
    source: str
    section: str
    topic: str
    position: str
    specialty: str
    year: int
    text: str


# A passage and its relevance, 0 to 1.
Scored = tuple[Passage, float]

_COLUMNS = "p.chunk_id, p.guideline_id, g.source, p.section, p.topic, p.position, g.specialty, g.year, p.text"

FULLTEXT_SQL = (
    f"SELECT {_COLUMNS}, -bm25(passages_fts, {', '.join(map(str, BM25_WEIGHTS))}) AS score FROM passages_fts "
    "JOIN passages p ON p.id = passages_fts.rowid "
    "JOIN guidelines g ON g.guideline_id = p.guideline_id "
    "WHERE passages_fts MATCH ? ORDER BY score DESC, p.id LIMIT ?"
)


def match_expression(words: list[str]) -> str:
    """An OR of the words for FTS5 MATCH. Words are letters and digits only, so quoting makes
    each one a plain FTS5 string (never query syntax); longer ones match as prefixes."""
    return " OR ".join(f'"{w}"*' if len(w) >= 4 else f'"{w}"' for w in dict.fromkeys(words))


def _ngrams(words: list[str]) -> dict[str, list[tuple[int, int]]]:
    """Every n-gram (n <= MAX_NGRAM) of `words` -> where it occurs, as (start, length)."""
    grams: dict[str, list[tuple[int, int]]] = {}
    for start in range(len(words)):
        for n in range(1, min(MAX_NGRAM, len(words) - start) + 1):
            grams.setdefault(" ".join(words[start:start + n]), []).append((start, n))
    return grams


def break_ties(structured: list[Scored], ranked_text: list[Scored]) -> list[Scored]:
    """Structured hits of equal match quality (equal relevance) ordered by their full-text
    score; the sort is stable, so remaining ties keep the lookup's order."""
    text_score = {p.chunk_id: score for p, score in ranked_text}
    return sorted(structured, key=lambda hit: (-hit[1], -text_score.get(hit[0].chunk_id, 0.0)))


def merge(structured: list[Scored] | None, fulltext: list[Scored] | None, top_k: int) -> list[Scored]:
    merged: dict[str, Scored] = {p.chunk_id: (p, score) for p, score in structured or []}
    scale = 0.5 if merged else 1.0
    for p, score in fulltext or []:
        merged.setdefault(p.chunk_id, (p, score * scale))
    return list(merged.values())[:top_k]


def confidence(structured: list[Scored] | None, fulltext: list[Scored] | None) -> float:
    """The module docstring's rule; None means the retriever did not answer."""
    if structured:
        top = structured[0][0]
        value = 0.9
        if fulltext:
            corroborating = sum(1 for p, _ in fulltext if p.topic == top.topic and p.chunk_id != top.chunk_id)
            value += min(0.03 * corroborating, 0.15)
            if fulltext[0][0].topic != top.topic:
                value -= 0.1
    elif fulltext:
        value = 0.6
    else:
        return 0.0
    return round(min(max(value, 0.0), 1.0), 2)


def conflicts(passages: Iterable[Passage]) -> list[tuple[str, list[Passage]]]:
    """(topic, its passages) for each topic on which different guidelines take different positions."""
    by_topic: dict[str, list[Passage]] = {}
    for p in passages:
        if p.position != "info":
            by_topic.setdefault(p.topic, []).append(p)
    return [
        (topic, group) for topic, group in by_topic.items()
        if any(a.guideline_id != b.guideline_id and a.position != b.position for a in group for b in group)
    ]


def _conflict_message(topic: str, group: list[Passage]) -> tools_pb2.GuidelineConflict:
    sources: dict[str, list[str]] = {}
    for p in group:
        names = sources.setdefault(p.position, [])
        if p.source not in names:
            names.append(p.source)
    note = "Guidelines differ: " + "; ".join(f"{position} — {', '.join(names)}"
                                              for position, names in sources.items())
    return tools_pb2.GuidelineConflict(topic=topic, chunk_ids=[p.chunk_id for p in group], note=note)


def _message(p: Passage, text: str, relevance: float = 0.0,
             highlighted: str = "") -> tools_pb2.GuidelinePassage:
    return tools_pb2.GuidelinePassage(
        chunk_id=p.chunk_id, guideline_id=p.guideline_id, source=p.source, section=p.section,
        snippet=text, relevance_score=round(relevance, 4), specialty=p.specialty, topic=p.topic,
        highlighted_text=highlighted,
    )


# ---- service ---------------------------------------------------------------------------------


class GuidelineServicer(PooledReader, tools_pb2_grpc.GuidelineServiceServicer):
    def __init__(self, db_path: Path, pool: ThreadPoolExecutor, *, retriever_timeout_s: float = 0.5) -> None:
        super().__init__(db_path, pool)
        self.retriever_timeout_s = retriever_timeout_s

    async def SearchGuidelines(self, request: tools_pb2.SearchGuidelinesRequest,
                               context: grpc.aio.ServicerContext) -> tools_pb2.SearchGuidelinesResponse:
        if not request.query.strip():
            raise InvalidArgument("query", "is required")
        if len(request.query) > MAX_QUERY_CHARS:
            raise InvalidArgument("query", f"must be at most {MAX_QUERY_CHARS} characters")
        top_k = request.top_k or DEFAULT_TOP_K
        if not 1 <= top_k <= MAX_TOP_K:
            raise InvalidArgument("top_k", f"must be 1 to {MAX_TOP_K} (0 means {DEFAULT_TOP_K})")
        # In query order with repeats: the lookup matches phrases of adjacent words.
        words = terms(request.query)[:MAX_QUERY_WORDS]
        structured, ranked_text = await asyncio.gather(
            self._retrieve("structured", self._structured, words),
            self._retrieve("fulltext", self._fulltext, words, MAX_TOP_K),
        )
        fulltext = None if ranked_text is None else ranked_text[:top_k]
        if structured and ranked_text:
            structured = break_ties(structured, ranked_text)
        results = merge(structured, fulltext, top_k)
        return tools_pb2.SearchGuidelinesResponse(
            passages=[_message(p, snippet(p.text, words), relevance) for p, relevance in results],
            confidence=confidence(structured, fulltext),
            conflicts=[_conflict_message(t, g) for t, g in conflicts(p for p, _ in results)],
            retrievers=[name for name, answer in (("structured", structured), ("fulltext", fulltext))
                        if answer is not None],
        )

    async def GetPassages(self, request: tools_pb2.GetPassagesRequest,
                          context: grpc.aio.ServicerContext) -> tools_pb2.GetPassagesResponse:
        chunk_ids = list(request.chunk_ids)
        if not 1 <= len(chunk_ids) <= MAX_CHUNK_IDS:
            raise InvalidArgument("chunk_ids", f"must list 1 to {MAX_CHUNK_IDS} passage ids")
        for i, chunk_id in enumerate(chunk_ids):
            if not chunk_id.strip() or len(chunk_id) > MAX_CHUNK_ID_CHARS:
                problem = f"must be a passage id of 1 to {MAX_CHUNK_ID_CHARS} characters"
                raise InvalidArgument(f"chunk_ids[{i}]", problem)
        if len(request.highlight_terms) > MAX_HIGHLIGHT_TERMS:
            raise InvalidArgument("highlight_terms", f"must list at most {MAX_HIGHLIGHT_TERMS} terms")
        for i, term in enumerate(request.highlight_terms):
            if len(term) > MAX_HIGHLIGHT_CHARS:
                raise InvalidArgument(f"highlight_terms[{i}]",
                                      f"must be at most {MAX_HIGHLIGHT_CHARS} characters")
        found = await self._run(self._by_chunk_id, chunk_ids)
        missing = [c for c in dict.fromkeys(chunk_ids) if c not in found]
        if missing:
            raise NotFound(f"unknown chunk_id: {', '.join(missing)}")
        return tools_pb2.GetPassagesResponse(passages=[
            _message(found[c], found[c].text, highlighted=highlight(found[c].text, request.highlight_terms))
            for c in chunk_ids
        ])

    async def _retrieve(self, name: str, fn: Callable[..., list[Scored]],
                        *args: object) -> list[Scored] | None:
        """The retriever's answer, or None when it timed out or failed: the search goes on
        without it. (A timed-out query still finishes on its pool thread; it is only ignored.)"""
        try:
            async with asyncio.timeout(self.retriever_timeout_s):
                return await self._run(fn, *args)
        except TimeoutError:
            log.warning("guideline retriever %s timed out after %.3fs", name, self.retriever_timeout_s)
        except Exception as exc:
            # The type only: messages may quote the query, which can carry health information.
            log.warning("guideline retriever %s failed: %s", name, type(exc).__name__)
        return None

    def _by_chunk_id(self, chunk_ids: list[str]) -> dict[str, Passage]:
        rows = self._conn().execute(
            f"SELECT {_COLUMNS} FROM passages p JOIN guidelines g ON g.guideline_id = p.guideline_id "
            "WHERE p.chunk_id IN (SELECT value FROM json_each(?))",
            (json.dumps(chunk_ids),),
        )
        return {row[0]: Passage(*row) for row in rows}

    def _structured(self, words: list[str]) -> list[Scored]:
        grams = _ngrams(words)
        if not grams:
            return []
        matches = self._conn().execute(
            "SELECT term, kind, chunk_id FROM topics WHERE term IN (SELECT value FROM json_each(?))",
            (json.dumps(list(grams)),),
        ).fetchall()
        covered: dict[str, set[int]] = {}
        exact: set[str] = set()
        for term, kind, chunk_id in matches:
            if kind == "topic":
                exact.add(chunk_id)
            for start, n in grams[term]:
                covered.setdefault(chunk_id, set()).update(range(start, start + n))
        passages = self._by_chunk_id(list(covered))
        ranked = sorted(covered, key=lambda c: (c not in exact, -len(covered[c]), -passages[c].year, c))
        return [
            (passages[c], (0.75 if c in exact else 0.5) + 0.25 * len(covered[c]) / len(words))
            for c in ranked
        ]

    def _fulltext(self, words: list[str], limit: int) -> list[Scored]:
        if not words:
            return []
        rows = self._conn().execute(FULLTEXT_SQL, (match_expression(words), limit)).fetchall()
        best = max((row[-1] for row in rows), default=0.0)
        return [(Passage(*row[:-1]), row[-1] / best if best > 0 else 1.0) for row in rows]
