"""Model routing costs: local generation through the mesh next to raw llama-cpp-python on the
same prompt, and PHI detection per message next to a single regex scan (the floor)."""

import json
import re
import statistics
import tempfile
import time
from pathlib import Path

import grpc
from llama_cpp import Llama
from rich.console import Console
from rich.table import Table

from bench.stats import Result, table
from deploy.local.mesh import start_mesh
from healthmesh.v1 import orchestrator_pb2, orchestrator_pb2_grpc
from orchestrator.models.local import default_model_path
from orchestrator.models.prompts import general_question_messages
from orchestrator.phi import PhiDetector

QUESTION = "what is hypertension?"
MAX_TOKENS = 160  # the orchestrator's budget for a health question
ROUNDS = 5
LABELED = Path(__file__).resolve().parent.parent / "tests" / "phi_labeled.json"


def raw_generation() -> tuple[list[float], float]:
    """Seconds per completion and tokens/s, llama-cpp-python called directly."""
    llm = Llama(model_path=str(default_model_path()), n_ctx=2048, n_threads=2, verbose=False)
    messages = general_question_messages(QUESTION, "en")
    seconds, tokens = [], 0
    for _ in range(ROUNDS):
        start = time.perf_counter()
        out = llm.create_chat_completion(messages=messages, max_tokens=MAX_TOKENS, temperature=0)
        seconds.append(time.perf_counter() - start)
        tokens += out["usage"]["completion_tokens"]
    return seconds, tokens / sum(seconds)


def mesh_first_verified_answer() -> tuple[list[float], str]:
    """Seconds from sending the question to the first verified answer text through AskStream."""
    seconds, route = [], ""
    with tempfile.TemporaryDirectory() as tmp:
        mesh = start_mesh(Path(tmp), ephemeral_ports=True, env={"HEALTHMESH_TRACE_FILE": "off"})
        try:
            with grpc.insecure_channel(mesh.orchestrator.address) as channel:
                stub = orchestrator_pb2_grpc.OrchestratorServiceStub(channel)
                for _ in range(ROUNDS):
                    start = time.perf_counter()
                    first = None
                    for event in stub.AskStream(orchestrator_pb2.AskRequest(message=QUESTION), timeout=60):
                        if event.HasField("answer_chunk") and first is None:
                            first = time.perf_counter() - start
                        if event.HasField("response"):
                            route = orchestrator_pb2.ModelRoute.Name(event.response.model_route)
                    seconds.append(first or time.perf_counter() - start)
        finally:
            mesh.stop()
    return seconds, route


def phi_detection() -> tuple[Result, Result]:
    messages = [item["text"] for item in json.loads(LABELED.read_text(encoding="utf-8"))] * 5
    detector = PhiDetector()
    cpf = re.compile(r"\d{3}\.?\d{3}\.?\d{3}-?\d{2}")

    def timed(name: str, fn) -> Result:
        latencies = []
        start = time.perf_counter()
        for text in messages:
            t = time.perf_counter()
            fn(text)
            latencies.append((time.perf_counter() - t) * 1000)
        return Result(name, 1, latencies, time.perf_counter() - start)

    timed("warm-up", detector.detect)
    return timed("one regex scan (floor)", cpf.search), timed("PHI detection", detector.detect)


def run(console: Console) -> None:
    raw, raw_tps = raw_generation()
    mesh, route = mesh_first_verified_answer()
    out = Table(title=f"Local model: '{QUESTION}' ({MAX_TOKENS} tokens max, {ROUNDS} rounds)",
                caption="target: mesh overhead ≤ 15% over raw llama-cpp-python")
    for column in ("path", "p50 s", "max s", "note"):
        out.add_column(column)
    raw_p50, mesh_p50 = statistics.median(raw), statistics.median(mesh)
    out.add_row("raw llama-cpp-python", f"{raw_p50:.3f}", f"{max(raw):.3f}", f"{raw_tps:.0f} tokens/s")
    out.add_row("mesh: first verified answer", f"{mesh_p50:.3f}", f"{max(mesh):.3f}",
                f"overhead {(mesh_p50 / raw_p50 - 1) * 100:+.0f}%, route {route}")
    console.print(out)
    floor, phi = phi_detection()
    console.print(table("PHI detection per message (labeled set x5)", [floor, phi], {1: floor}, "regex",
                        "target: p50 ≤ 1 ms"))
