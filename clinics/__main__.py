"""Runs one clinic: `python -m clinics --clinic clinic_c` (or HEALTHMESH_CLINIC=clinic_c).

Environment (defaults in brackets):
  HEALTHMESH_CLINIC            clinic id from the registry (required unless --clinic)
  HEALTHMESH_REGISTRY          clinic registry file [deploy/registry.json]
  HEALTHMESH_DATA_DIR          where <clinic_id>.sqlite3 lives [./var]
  HEALTHMESH_HOST              bind address [127.0.0.1]
  HEALTHMESH_PORT              port; 0 picks a free one [the registry target's port]
  HEALTHMESH_TIMEZONE          the clinic's time zone [America/Sao_Paulo]
  HEALTHMESH_NOW               pin the clinic clock to an ISO date-time (demos, tests) [unset]
  HEALTHMESH_DB_THREADS        threads running SQLite calls [8]
  HEALTHMESH_SHUTDOWN_GRACE_S  seconds in-flight RPCs get on SIGTERM [5]
  HEALTHMESH_LOG_LEVEL         [INFO]
  OTEL_*, HEALTHMESH_TRACE_FILE tracing, see runtime/tracing.py
"""

import argparse
import asyncio
import datetime as dt
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import grpc

from clinics.service import ClinicService
from clinics.store import ClinicStore
from healthmesh.v1 import clinic_pb2, clinic_pb2_grpc
from runtime import logs, registry, server, tracing
from runtime.config import ConfigError, env_float, env_int, env_str


def clock(zone: str, pinned: str) -> Callable[[], dt.datetime]:
    try:
        tz = ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError(f"HEALTHMESH_TIMEZONE: unknown time zone {zone!r}") from None
    if not pinned:
        return lambda: dt.datetime.now(tz).replace(tzinfo=None)
    try:
        fixed = dt.datetime.fromisoformat(pinned)
    except ValueError:
        raise ConfigError(f"HEALTHMESH_NOW: {pinned!r} is not an ISO date-time") from None
    return lambda: fixed


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m clinics", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clinic", default=os.environ.get("HEALTHMESH_CLINIC", ""))
    args = parser.parse_args()
    if not args.clinic:
        raise ConfigError("HEALTHMESH_CLINIC (or --clinic) is required")

    clinics = registry.load(Path(env_str("HEALTHMESH_REGISTRY", str(registry.DEFAULT_PATH))))
    if args.clinic not in clinics:
        raise ConfigError(f"unknown clinic {args.clinic!r}; the registry has {sorted(clinics)}")
    entry = clinics[args.clinic]
    logs.configure(entry.id, env_str("HEALTHMESH_LOG_LEVEL", "INFO"))
    tracing.configure(entry.id)

    data_dir = Path(env_str("HEALTHMESH_DATA_DIR", "./var"))
    data_dir.mkdir(parents=True, exist_ok=True)
    now = clock(env_str("HEALTHMESH_TIMEZONE", "America/Sao_Paulo"),
                os.environ.get("HEALTHMESH_NOW", "").strip())
    db = ClinicStore(data_dir / f"{entry.id}.sqlite3", entry.id, entry.specialty, now)
    db.initialize()
    pool = ThreadPoolExecutor(env_int("HEALTHMESH_DB_THREADS", 8, minimum=1),
                              thread_name_prefix="sqlite")

    def register(srv: grpc.aio.Server) -> list[str]:
        clinic_pb2_grpc.add_ClinicServiceServicer_to_server(ClinicService(entry, db, pool), srv)
        return [clinic_pb2.DESCRIPTOR.services_by_name["ClinicService"].full_name]

    asyncio.run(server.serve(
        register,
        host=env_str("HEALTHMESH_HOST", "127.0.0.1"),
        port=env_int("HEALTHMESH_PORT", entry.port),
        grace=env_float("HEALTHMESH_SHUTDOWN_GRACE_S", 5.0),
        on_drained=lambda: pool.shutdown(wait=True),
    ))


if __name__ == "__main__":
    main()
