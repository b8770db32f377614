"""The tool services and a full consult turn, next to a direct SQLite FTS5 query on the same
knowledge-base file (the floor: no gRPC, no merging, one query on one thread) and a health
check on the tools server (the cost of the gRPC round trip alone)."""

import sqlite3
import tempfile
import time
from pathlib import Path

from grpc_health.v1 import health_pb2, health_pb2_grpc
from rich.console import Console

from bench.stats import Result, measure, table
from deploy.local.mesh import start_mesh
from healthmesh.v1 import orchestrator_pb2, orchestrator_pb2_grpc, tools_pb2, tools_pb2_grpc
from tools.guideline_loader import terms
from tools.guideline_search import FULLTEXT_SQL, match_expression

QUERIES = ("anticoagulation in atrial fibrillation", "low back pain imaging", "acne isotretinoin",
           "knee osteoarthritis exercise", "hypertension blood pressure target", "psoriasis topical therapy")
DRUGS = ("warfarin", "Marevan", "amiodarona", "isotretinoin", "ibuprofen", "simvastatin")
CONSULT = ("I've had an itchy rash on my left forearm for two weeks",
           "It started after gardening; scratching makes it worse. Red and scaly, 4/10, comes and goes. "
           "I'm 34.")


def fts_floor(db_path: Path):
    """One FTS5 MATCH query, as the guideline search issues it, straight on SQLite."""
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)

    async def query(i: int) -> None:
        words = terms(QUERIES[i % len(QUERIES)])
        conn.execute(FULLTEXT_SQL, (match_expression(words), 5)).fetchall()
    return conn, query


async def run(console: Console, requests: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        mesh = start_mesh(Path(tmp), ephemeral_ports=True, env={"HEALTHMESH_TRACE_FILE": "off",
                                                                "HEALTHMESH_REPHRASE_MAX_CHARS": "0"})
        try:
            results, floor = await _measure(mesh, Path(tmp) / "tools.sqlite3", requests)
        finally:
            mesh.stop()
    console.print(table("Tool services and a consult turn vs a direct SQLite FTS5 query", results, floor,
                        "FTS5 query", "floor: the FTS5 query alone, in-process"))


async def _measure(mesh, db_path: Path, requests: int) -> tuple[list[Result], dict[int, Result]]:
    conn, fts = fts_floor(db_path)
    results: list[Result] = []
    floor: dict[int, Result] = {}
    async with mesh.tools.transport().aio_channel(mesh.tools.address) as tools_channel, \
            mesh.orchestrator.transport().aio_channel(mesh.orchestrator.address) as orch_channel:
        search = tools_pb2_grpc.GuidelineServiceStub(tools_channel).SearchGuidelines
        drugs = tools_pb2_grpc.DrugServiceStub(tools_channel)
        orchestrator = orchestrator_pb2_grpc.OrchestratorServiceStub(orch_channel)
        health = health_pb2_grpc.HealthStub(tools_channel)

        async def transport(_: int) -> None:
            await health.Check(health_pb2.HealthCheckRequest(), timeout=5)

        async def guideline(i: int) -> None:
            request = tools_pb2.SearchGuidelinesRequest(query=QUERIES[i % len(QUERIES)], top_k=5)
            await search(request, timeout=5)

        async def safety(i: int) -> None:
            await drugs.CheckDrugSafety(tools_pb2.CheckDrugSafetyRequest(drug_name=DRUGS[i % len(DRUGS)]),
                                        timeout=5)

        async def interactions(i: int) -> None:
            names = [DRUGS[i % len(DRUGS)], DRUGS[(i + 3) % len(DRUGS)]]
            await drugs.CheckInteractions(tools_pb2.CheckInteractionsRequest(drug_names=names), timeout=5)

        async def consult_turn(_: int) -> float:
            """The turn that runs the council (history answered), timed alone."""
            first = await orchestrator.Ask(orchestrator_pb2.AskRequest(message=CONSULT[0]), timeout=10)
            start = time.perf_counter()
            reply = await orchestrator.Ask(orchestrator_pb2.AskRequest(
                session_id=first.session_id, message=CONSULT[1]), timeout=10)
            elapsed = (time.perf_counter() - start) * 1000
            assert reply.consult.stage == orchestrator_pb2.CONSULT_STAGE_RECOMMENDED, reply.answer
            return elapsed

        for concurrency in (1, 8):
            floor[concurrency] = await measure("FTS5 query (direct, in-process)", fts,
                                               concurrency=concurrency, requests=requests)
            results += [
                floor[concurrency],
                await measure("health Check (gRPC round trip)", transport, concurrency=concurrency,
                              requests=requests),
                await measure("SearchGuidelines", guideline, concurrency=concurrency, requests=requests),
                await measure("CheckDrugSafety", safety, concurrency=concurrency, requests=requests),
                await measure("CheckInteractions", interactions, concurrency=concurrency, requests=requests),
                await measure("Consult turn (council)", consult_turn, concurrency=concurrency,
                              requests=max(20, requests // 10), warmup=2),
            ]
    conn.close()
    return results, floor
