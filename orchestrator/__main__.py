"""Runs the orchestrator: `python -m orchestrator`. Dependencies are wired here, explicitly.

Environment (defaults in brackets):
  HEALTHMESH_REGISTRY          clinic registry file [deploy/registry.json]
  HEALTHMESH_VERIFIER_TARGET   the verifier's gRPC target [127.0.0.1:50060]
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
  HEALTHMESH_SHUTDOWN_GRACE_S  drain period on SIGTERM [5]
  HEALTHMESH_LOG_LEVEL         [INFO]
  OTEL_*, HEALTHMESH_TRACE_FILE tracing, see runtime/tracing.py
"""

import asyncio
import datetime as dt
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import grpc

from healthmesh.v1 import clinic_pb2, clinic_pb2_grpc, orchestrator_pb2, orchestrator_pb2_grpc
from orchestrator.answer import AnswerBuilder
from orchestrator.context import RequestContext
from orchestrator.planner import Directory, Planner
from orchestrator.resilience import Policy, Upstream
from orchestrator.service import OrchestratorService
from orchestrator.sessions import SessionStore
from orchestrator.turn import Mesh, Orchestrator
from orchestrator.when import warm_up
from runtime import logs, registry, server, tracing
from runtime.config import ConfigError, env_float, env_int, env_str


async def learn_doctors(mesh: Mesh, directory: Directory) -> None:
    """Best effort at start: clinics that are down are asked again on later turns."""
    ctx = RequestContext.with_timeout(3.0)

    async def describe(clinic_id: str, upstream: Upstream) -> None:
        stub = clinic_pb2_grpc.ClinicServiceStub(upstream.channel)
        outcome = await upstream.call(ctx, stub.DescribeClinic, clinic_pb2.DescribeClinicRequest(),
                                      retry=True)
        if outcome.reply is not None:
            directory.doctors[clinic_id] = [d.name for d in outcome.reply.doctors]

    async with asyncio.TaskGroup() as group:
        for clinic_id, upstream in mesh.clinics.items():
            group.create_task(describe(clinic_id, upstream))


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
    )
    directory = Directory(clinics)
    data_dir = Path(env_str("HEALTHMESH_DATA_DIR", "./var"))
    data_dir.mkdir(parents=True, exist_ok=True)  # noqa: ASYNC240 (start-up, before serving)
    planner = Planner(directory, env_int("HEALTHMESH_SLOTS_PER_CLINIC", 5, minimum=1))
    sessions = SessionStore(data_dir / "orchestrator.sqlite3")
    orchestrator = Orchestrator(mesh, planner, AnswerBuilder(directory), sessions,
                                today=lambda: dt.datetime.now(tz).date(),
                                fanout=env_int("HEALTHMESH_FANOUT", 8, minimum=1))
    warm_up()  # dateparser's first call is slow; pay it before serving
    await learn_doctors(mesh, directory)
    service = OrchestratorService(orchestrator, env_float("HEALTHMESH_ASK_DEADLINE_S", 10.0, minimum=0.1))

    def register(srv: grpc.aio.Server) -> list[str]:
        orchestrator_pb2_grpc.add_OrchestratorServiceServicer_to_server(service, srv)
        return [orchestrator_pb2.DESCRIPTOR.services_by_name["OrchestratorService"].full_name]

    try:
        await server.serve(register, host=env_str("HEALTHMESH_HOST", "127.0.0.1"),
                           port=env_int("HEALTHMESH_PORT", 50050),
                           grace=env_float("HEALTHMESH_SHUTDOWN_GRACE_S", 5.0))
    finally:
        for upstream in [*mesh.clinics.values(), mesh.verifier]:
            await upstream.close()


def main() -> None:
    asyncio.run(run())


if __name__ == "__main__":
    main()
