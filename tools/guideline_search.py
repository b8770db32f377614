"""Guideline retrieval over the tables of tools/guideline_loader.py: two retrievers, their merge,
confidence and conflicts, and the excerpts shown.

* structured: every word n-gram of the normalized query is looked up in `topics`. Passages
  whose whole topic phrase occurs in the query rank first; then by coverage (the share of the
  query's words their matched terms cover); then newer guidelines first.
* fulltext: FTS5 bm25. The MATCH expression is an OR of the query's normalized words, each
  quoted (a prefix match for words of 4+ letters), so user text never reaches FTS syntax.
  It ranks up to the service's MAX_TOP_K passages; only its first top_k count as its results below.

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
positions differ (recommend, against, consider) gives one conflict naming each position and its
sources. "info" passages take no position and never conflict.
"""

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass

from runtime.text.fold import fold
from tools.guideline_loader import WORD
from tools.readonly import PooledReader

# Bound the lookup: keyword phrases are a few words long, and a 500-character question has
# fewer content words than this.
MAX_NGRAM = 6
SNIPPET_CHARS = 240
# bm25 column weights, in the FTS column order text, section, keywords, topic.
BM25_WEIGHTS = (1.0, 2.0, 2.0, 3.0)


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
        words = WORD.findall(fold(term))
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


class GuidelineSearch(PooledReader):
    """The retrievers' queries; each runs on a pool thread with that thread's read-only connection."""

    def _by_chunk_id(self, chunk_ids: list[str]) -> dict[str, Passage]:
        rows = self.db.connection().execute(
            f"SELECT {_COLUMNS} FROM passages p JOIN guidelines g ON g.guideline_id = p.guideline_id "
            "WHERE p.chunk_id IN (SELECT value FROM json_each(?))",
            (json.dumps(chunk_ids),),
        )
        return {row[0]: Passage(*row) for row in rows}

    def _structured(self, words: list[str]) -> list[Scored]:
        grams = _ngrams(words)
        if not grams:
            return []
        matches = self.db.connection().execute(
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
        rows = self.db.connection().execute(FULLTEXT_SQL, (match_expression(words), limit)).fetchall()
        best = max((row[-1] for row in rows), default=0.0)
        return [(Passage(*row[:-1]), row[-1] / best if best > 0 else 1.0) for row in rows]
