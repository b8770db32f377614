"""Runs the tool services (calculators, guidelines, drugs) in one process: `python -m tools`.

Environment (defaults in brackets):
  HEALTHMESH_DATA_DIR          where tools.sqlite3 is built from tools/data at start [./var]
  HEALTHMESH_HOST              bind address [127.0.0.1]
  HEALTHMESH_PORT              port; 0 picks a free one [50070]
  HEALTHMESH_DB_THREADS        threads running SQLite queries [4]
  HEALTHMESH_RETRIEVER_TIMEOUT_S  time each guideline retriever gets [0.5]
  HEALTHMESH_SHUTDOWN_GRACE_S  seconds in-flight RPCs get on SIGTERM [5]
  HEALTHMESH_LOG_LEVEL         [INFO]
  OTEL_*, HEALTHMESH_TRACE_FILE tracing, see runtime/tracing.py
"""

import argparse
import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import grpc

from healthmesh.v1 import tools_pb2, tools_pb2_grpc
from runtime import logs, server, tracing
from runtime.config import env_float, env_int, env_str
from tools import knowledge
from tools.calculator_service import CalculatorService
from tools.drug_service import DrugService
from tools.guideline_service import GuidelineService

DEFAULT_PORT = 50070
SERVICES = ("CalculatorService", "GuidelineService", "DrugService")


def main() -> None:
    argparse.ArgumentParser(prog="python -m tools", description=__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    logs.configure("tools", env_str("HEALTHMESH_LOG_LEVEL", "INFO"))
    tracing.configure("tools")
    db_path = knowledge.build(Path(env_str("HEALTHMESH_DATA_DIR", "./var")) / "tools.sqlite3")
    pool = ThreadPoolExecutor(env_int("HEALTHMESH_DB_THREADS", 4, minimum=1), thread_name_prefix="sqlite")
    retriever_timeout = env_float("HEALTHMESH_RETRIEVER_TIMEOUT_S", 0.5, minimum=0.001)

    def register(srv: grpc.aio.Server) -> list[str]:
        tools_pb2_grpc.add_CalculatorServiceServicer_to_server(CalculatorService(), srv)
        tools_pb2_grpc.add_GuidelineServiceServicer_to_server(
            GuidelineService(db_path, pool, retriever_timeout_s=retriever_timeout), srv)
        tools_pb2_grpc.add_DrugServiceServicer_to_server(DrugService(db_path, pool), srv)
        return [tools_pb2.DESCRIPTOR.services_by_name[name].full_name for name in SERVICES]

    asyncio.run(server.serve(
        register,
        host=env_str("HEALTHMESH_HOST", "127.0.0.1"),
        port=env_int("HEALTHMESH_PORT", DEFAULT_PORT),
        grace=env_float("HEALTHMESH_SHUTDOWN_GRACE_S", 5.0),
        on_drained=lambda: pool.shutdown(wait=True),
    ))


if __name__ == "__main__":
    main()
