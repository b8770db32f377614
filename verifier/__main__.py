"""Runs the verifier: `python -m verifier`.

Environment (defaults in brackets):
  HEALTHMESH_HOST              bind address [127.0.0.1]
  HEALTHMESH_PORT              port; 0 picks a free one [50060]
  HEALTHMESH_SHUTDOWN_GRACE_S  seconds in-flight RPCs get on SIGTERM [5]
  HEALTHMESH_LOG_LEVEL         [INFO]
  OTEL_*, HEALTHMESH_TRACE_FILE tracing, see runtime/tracing.py
"""

import argparse
import asyncio

import grpc

from healthmesh.v1 import verifier_pb2, verifier_pb2_grpc
from runtime import logs, server, tracing
from runtime.config import env_float, env_int, env_str
from verifier.service import VerifierService
from verifier.wording import warm_up

DEFAULT_PORT = 50060


def main() -> None:
    argparse.ArgumentParser(prog="python -m verifier", description=__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    logs.configure("verifier", env_str("HEALTHMESH_LOG_LEVEL", "INFO"))
    tracing.configure("verifier")
    warm_up()  # the word lists load in about half a second; pay it before serving

    def register(srv: grpc.aio.Server) -> list[str]:
        verifier_pb2_grpc.add_VerifierServiceServicer_to_server(VerifierService(), srv)
        return [verifier_pb2.DESCRIPTOR.services_by_name["VerifierService"].full_name]

    asyncio.run(server.serve(
        register,
        host=env_str("HEALTHMESH_HOST", "127.0.0.1"),
        port=env_int("HEALTHMESH_PORT", DEFAULT_PORT),
        grace=env_float("HEALTHMESH_SHUTDOWN_GRACE_S", 5.0),
    ))


if __name__ == "__main__":
    main()
