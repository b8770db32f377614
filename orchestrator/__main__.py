"""Runs the orchestrator: `python -m orchestrator`. Dependencies are wired here, explicitly."""

import argparse
import datetime as dt

import grpc

from healthmesh.v1 import orchestrator_pb2, orchestrator_pb2_grpc
from orchestrator.admission import Admission
from orchestrator.answering.answer import AnswerBuilder
from orchestrator.context import RequestContext
from orchestrator.edge import Edge
from orchestrator.guarded import Policy
from orchestrator.models.cloud import CloudModel
from orchestrator.models.local import LocalModel
from orchestrator.models.writer import Writer, egress_guard
from orchestrator.pipeline import Orchestrator
from orchestrator.planning.planner import Directory, Planner
from orchestrator.privacy.phi import PhiDetector
from orchestrator.service import OrchestratorService
from orchestrator.state import open_state
from orchestrator.toolquestions.drug_names import drug_names
from orchestrator.understanding.when import warm_up
from orchestrator.upstreams import Mesh, Upstream
from runtime import logs, metrics, registry, server, tracing
from runtime.config import help_text
from runtime.ratelimit import RateLimiter
from runtime.settings import (
    ORCHESTRATOR_PORT,
    ClockSettings,
    CloudSettings,
    DataSettings,
    EdgeSettings,
    MetricsSettings,
    ModelSettings,
    OrchestratorSettings,
    ServiceSettings,
    Settings,
    StateSettings,
    TracingSettings,
    TransportSettings,
)
from runtime.text.common_words import is_common
from runtime.transport import Transport


async def build_writer(directory: Directory, settings: Settings) -> Writer:
    """The PHI detector (doctors, clinic names and addresses are public, not PHI), the local
    model when it may write (loaded once and warmed) and, when configured, the cloud model
    behind the guard."""
    detector = PhiDetector(known_doctors=directory.all_doctors(),
                           clinic_names=[c.name for c in directory.clinics.values()],
                           clinic_addresses=[c.address for c in directory.clinics.values()])
    models = settings.models
    local = None
    if "local" in models.writers:
        local = LocalModel.from_settings(models)
        await local.warm_up()
    cloud = None
    if "cloud" in models.writers:
        cloud = CloudModel.from_settings(settings.cloud, egress_guard(detector))
    return Writer(detector, local, cloud, rephrase_max_chars=models.rephrase_max_chars,
                  budget_s=models.writing_budget_s, routes=models.writers)


async def run(settings: Settings) -> None:
    logs.configure("orchestrator", settings.service.log_level)
    tracing.configure("orchestrator", settings)
    port = settings.service.port_or(ORCHESTRATOR_PORT)
    metrics.configure("orchestrator", settings, port)
    edge = Edge.from_settings(settings.edge, settings.data.data_dir, settings.service.host)  # fail fast
    clinics = registry.load(settings.data.registry)
    tz = settings.clock.timezone
    config = settings.orchestrator
    policy = Policy(call_timeout_s=config.call_timeout_s, attempts=config.retry_attempts,
                    breaker_fail_max=config.breaker_fail_max, breaker_reset_s=config.breaker_reset_s)
    # The upstreams are dialled with the orchestrator's mesh identity.
    transport = Transport.from_settings(settings.transport, settings.data.data_dir, "orchestrator")
    mesh = Mesh(
        clinics={cid: Upstream(cid, entry.target, policy, transport) for cid, entry in clinics.items()},
        verifier=Upstream("verifier", config.verifier_target, policy, transport),
        tools=Upstream("tools", config.tools_target, policy, transport),
        escalation=Upstream("escalation", config.escalation_target, policy, transport),
    )
    directory = Directory(clinics)
    data_dir = settings.data.data_dir
    data_dir.mkdir(parents=True, exist_ok=True)
    planner = Planner(directory, config.slots_per_clinic)
    state = open_state(settings)
    warm_up()  # dateparser's first call is slow; pay it before serving
    drug_names()  # and so is indexing every drug name the knowledge base knows,
    is_common("pressao")  # and the common words the spell-correctors keep (0.7 s)
    await mesh.learn_doctors(RequestContext.with_timeout(3.0), directory, retry=True)
    if config.slot_replica:
        await mesh.follow_slots(settings.clock.clock(), wait_s=3.0)
    writer = await build_writer(directory, settings)
    orchestrator = Orchestrator(mesh, planner, AnswerBuilder(directory), state.recorder, writer,
                                today=lambda: dt.datetime.now(tz).date(), fanout=config.fanout,
                                writes=RateLimiter("bookings, moves and cancellations for this patient",
                                                   config.patient_writes, config.patient_writes_window_s))
    admission = Admission(config.max_turns, config.turn_queue, config.turn_queue_wait_s)
    service = OrchestratorService(orchestrator, edge, admission, config.ask_deadline_s)

    def register(srv: grpc.aio.Server) -> list[str]:
        orchestrator_pb2_grpc.add_OrchestratorServiceServicer_to_server(service, srv)
        return [orchestrator_pb2.DESCRIPTOR.services_by_name["OrchestratorService"].full_name]

    try:
        await server.serve(register, settings, port=port, listener=edge.listener)
    finally:
        await mesh.close()
        state.close()


def main() -> None:
    argparse.ArgumentParser(
        prog="python -m orchestrator", description=__doc__,
        epilog=help_text(ServiceSettings, TransportSettings, EdgeSettings, DataSettings, ClockSettings,
                         TracingSettings, MetricsSettings, OrchestratorSettings, StateSettings, ModelSettings,
                         CloudSettings),
        formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    server.run(run(Settings.from_env()))


if __name__ == "__main__":
    main()
