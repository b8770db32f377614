"""Runs one clinic: `python -m clinics --clinic clinic_c` (or HEALTHMESH_CLINIC=clinic_c)."""

import argparse
from concurrent.futures import ThreadPoolExecutor

import grpc

from clinics.feed import SlotFeed
from clinics.service import ClinicService
from clinics.store import ClinicStore
from healthmesh.v1 import clinic_pb2, clinic_pb2_grpc
from runtime import logs, metrics, registry, server, tracing
from runtime.config import ConfigError, help_text
from runtime.ratelimit import RateLimiter
from runtime.settings import (
    ClinicSettings,
    ClockSettings,
    DataSettings,
    MetricsSettings,
    ServiceSettings,
    Settings,
    TracingSettings,
    TransportSettings,
)
from runtime.transport import Transport


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m clinics", description=__doc__,
        epilog=help_text(ServiceSettings, TransportSettings, DataSettings, ClockSettings, TracingSettings,
                         MetricsSettings, ClinicSettings),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clinic", default="", help="clinic id from the registry [HEALTHMESH_CLINIC]")
    args = parser.parse_args()
    settings = Settings.from_env()
    clinic_id = args.clinic or settings.clinic.clinic
    if not clinic_id:
        raise ConfigError("HEALTHMESH_CLINIC (or --clinic) is required")

    clinics = registry.load(settings.data.registry)
    if clinic_id not in clinics:
        raise ConfigError(f"unknown clinic {clinic_id!r}; the registry has {sorted(clinics)}")
    entry = clinics[clinic_id]
    logs.configure(entry.id, settings.service.log_level)
    tracing.configure(entry.id, settings)
    port = settings.service.port_or(entry.port)
    metrics.configure(entry.id, settings, port)

    data_dir = settings.data.data_dir
    data_dir.mkdir(parents=True, exist_ok=True)
    db = ClinicStore(data_dir / f"{entry.id}.sqlite3", entry.id, entry.specialty, settings.clock.clock())
    db.initialize()
    pool = ThreadPoolExecutor(settings.clinic.db_threads, thread_name_prefix="sqlite")
    writes = RateLimiter("bookings, moves and cancellations from this caller", settings.clinic.caller_writes,
                         settings.clinic.caller_writes_window_s)

    feed = SlotFeed(entry.id, db)

    def register(srv: grpc.aio.Server) -> list[str]:
        clinic_pb2_grpc.add_ClinicServiceServicer_to_server(ClinicService(entry, db, pool, writes, feed), srv)
        return [clinic_pb2.DESCRIPTOR.services_by_name["ClinicService"].full_name]

    server.run(server.serve(
        register, settings, port=port,
        listener=Transport.from_settings(settings.transport, settings.data.data_dir, entry.id).listener(),
        on_draining=feed.close, on_drained=lambda: pool.shutdown(wait=True),
    ))


if __name__ == "__main__":
    main()
