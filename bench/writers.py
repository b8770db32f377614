"""Model writers: for each model that may write (the bundled local GGUF, and the cloud stand-in —
llama_cpp.server serving the same GGUF behind the OpenAI-compatible API), how many of its
texts the verifier accepts, and what it adds to short answers, next to the same Asks with no
writer, in the same run. A writer whose acceptance is below ACCEPTANCE_FLOOR costs latency for
little: it is off by default (HEALTHMESH_WRITERS)."""

import statistics
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import grpc
from rich.console import Console
from rich.table import Table

from deploy.local.mesh import start_mesh
from healthmesh.v1 import orchestrator_pb2, orchestrator_pb2_grpc
from orchestrator.models.local import default_model_path
from tests.cloud_stub import free_port, start_llama_server, stop_process

ACCEPTANCE_FLOOR = 0.5
ROUNDS = 3
# Short answers a writer is offered (under HEALTHMESH_REPHRASE_MAX_CHARS), in both languages.
SHORT = ["what can you do?", "quais os horários de neurologia?", "I want to see an eye doctor",
         "cancel my appointment", "qual o meu diagnóstico?", "cardiology slots on Sunday",
         "horários de ortopedia no domingo", "how much ibuprofen should I take?", "obrigado",
         "minhas consultas"]


@dataclass
class WriterRun:
    label: str
    latencies_ms: list[float] = field(default_factory=list)
    attempted: int = 0
    accepted: int = 0

    def pct(self, q: float) -> float:
        ordered = sorted(self.latencies_ms)
        return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _asks(address: str, label: str) -> WriterRun:
    run = WriterRun(label)
    with grpc.insecure_channel(address) as channel:
        stub = orchestrator_pb2_grpc.OrchestratorServiceStub(channel)
        for _ in range(ROUNDS):
            for message in SHORT:
                start = time.perf_counter()
                events = stub.AskStream(orchestrator_pb2.AskRequest(message=message), timeout=30)
                details = [e.stage.detail for e in events
                           if e.HasField("stage") and e.stage.stage == orchestrator_pb2.STAGE_MODEL]
                run.latencies_ms.append((time.perf_counter() - start) * 1000)
                run.attempted += any(d.startswith("writing") for d in details)
                run.accepted += any(d.startswith("accepted") for d in details)
    return run


@contextmanager
def _mesh(env: Mapping[str, str]) -> Iterator[str]:
    with tempfile.TemporaryDirectory() as tmp:
        mesh = start_mesh(Path(tmp), ephemeral_ports=True, env={"HEALTHMESH_TRACE_FILE": "off", **env})
        try:
            yield mesh.orchestrator.address
        finally:
            mesh.stop()


def run(console: Console) -> None:
    runs: list[WriterRun] = []
    with _mesh({"HEALTHMESH_WRITERS": "none"}) as address:
        runs.append(_asks(address, "no writer (floor)"))
    with _mesh({"HEALTHMESH_WRITERS": "local"}) as address:
        runs.append(_asks(address, "local: bundled SmolLM2-135M"))
    server = start_llama_server(default_model_path(), free_port())
    try:
        port = server.args[server.args.index("--port") + 1]
        with _mesh({"HEALTHMESH_WRITERS": "cloud", "HEALTHMESH_CLOUD_BASE_URL": f"http://127.0.0.1:{port}/v1",
                    "HEALTHMESH_CLOUD_MODEL": "smollm2"}) as address:
            runs.append(_asks(address, "cloud stand-in: llama_cpp.server, same GGUF"))
    finally:
        stop_process(server)

    floor = runs[0]
    out = Table(title=f"Model writers on short answers ({len(SHORT)} messages x {ROUNDS}, default budget)",
                caption=f"a writer accepted less than {ACCEPTANCE_FLOOR:.0%} of the time is off by default")
    for column in ("writer", "attempted", "accepted", "acceptance", "Ask p50 ms", "Ask p95 ms",
                   "added p50 ms", "added p95 ms", "p95 / floor"):
        out.add_column(column, justify="left" if column == "writer" else "right")
    for r in runs:
        rate = f"{r.accepted / r.attempted:.0%}" if r.attempted else "-"
        p50, p95 = statistics.median(r.latencies_ms), r.pct(0.95)
        out.add_row(r.label, str(r.attempted), str(r.accepted), rate, f"{p50:.1f}", f"{p95:.1f}",
                    f"{p50 - statistics.median(floor.latencies_ms):+.1f}", f"{p95 - floor.pct(0.95):+.1f}",
                    f"{p95 / floor.pct(0.95):.1f}x")
    console.print(out)
