"""GuidelineService: guideline retrieval with citations over gRPC.

SearchGuidelines runs the two retrievers of tools/guideline_search.py at once on the thread
pool, each under its own timeout; one that times out or fails is left out, and `retrievers`
names those that answered. GetPassages returns whole passages by chunk id, query terms
highlighted.
"""

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import grpc

from healthmesh.v1 import tools_pb2, tools_pb2_grpc
from runtime.errors import InvalidArgument, NotFound
from tools.guideline_loader import terms
from tools.guideline_search import (
    GuidelineSearch,
    Passage,
    Scored,
    break_ties,
    confidence,
    conflicts,
    highlight,
    merge,
    snippet,
)

log = logging.getLogger("guidelines")

MAX_QUERY_CHARS = 500
DEFAULT_TOP_K, MAX_TOP_K = 5, 20
MAX_CHUNK_IDS = 20
MAX_CHUNK_ID_CHARS = 200
MAX_HIGHLIGHT_TERMS, MAX_HIGHLIGHT_CHARS = 20, 100
MAX_QUERY_WORDS = 100


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


class GuidelineService(GuidelineSearch, tools_pb2_grpc.GuidelineServiceServicer):
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
