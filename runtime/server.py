"""Bootstrap shared by every healthmesh server.

Each server gets the standard health service, server reflection, one interceptor (runtime.interceptors:
its span — a no-op until runtime.tracing.configure ran —, authorization, RPC metrics and the access
log, see AccessPolicy) and a graceful
drain on SIGTERM/SIGINT: health turns NOT_SERVING first, then in-flight RPCs get `grace`
seconds to finish. Over the mesh's mutual TLS every call passes the authorization policy (runtime.authz);
a `health_port` serves the health service alone, in plaintext, for probes without a certificate.
"""

import asyncio
import logging
import signal
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

import grpc
import uvloop
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1._async import HealthServicer
from opentelemetry import trace

from runtime import addresses, metrics, reflection
from runtime.interceptors import AccessPolicy, RpcInterceptor
from runtime.settings import Settings
from runtime.transport import Listener

log = logging.getLogger("server")

Register = Callable[[grpc.aio.Server], Sequence[str]]


def run(main: Coroutine[Any, Any, None]) -> None:
    """Runs a service's main coroutine on libuv's event loop (uvloop): every RPC is a few loop
    callbacks, and uvloop's are cheaper than asyncio's own (bench: the bare hop floor takes ~15%
    less CPU per Ask on it)."""
    uvloop.run(main)


class Health(HealthServicer):
    """The library's health service plus `List`, which grpc.health.v1 defines and the library
    leaves UNIMPLEMENTED. It reads the library's status table (grpcio-health-checking is pinned)."""

    async def List(self, request: health_pb2.HealthListRequest,
                   context: grpc.aio.ServicerContext) -> health_pb2.HealthListResponse:
        statuses = self._server_status.items()
        return health_pb2.HealthListResponse(
            statuses={name: health_pb2.HealthCheckResponse(status=status) for name, status in statuses})


# Peers may ping every 2 s while a call is open and quiet (the orchestrator's keepalive, every 3 s, on a
# WatchSlots stream); gRPC's default answers pings more often than every 5 minutes without data with GOAWAY.
KEEPALIVE = [("grpc.http2.min_recv_ping_interval_without_data_ms", 2_000)]


async def serve(
    register: Register,
    settings: Settings,
    *,
    port: int,
    listener: Listener,
    on_draining: Callable[[], None] | None = None,
    on_drained: Callable[[], None] | None = None,
) -> None:
    """Runs until SIGTERM/SIGINT. `register` adds servicers and returns their full names. The bind
    host, drain grace, access log and health port come from `settings`. The "serving" log line
    announces HEALTHMESH_ADVERTISE_HOST (the host peers dial; default the bind host) and the bound
    port: launchers read it to learn where the service is."""
    service = settings.service
    host, advertise_host, grace = service.host, service.advertise_host, service.shutdown_grace_s
    health_port, access = settings.transport.health_port, AccessPolicy.from_settings(service)
    server = grpc.aio.server(interceptors=[RpcInterceptor(access, authorize=listener.authorize)],
                             options=[("grpc.so_reuseport", 0), *KEEPALIVE])
    names = list(register(server))
    health = Health()
    health_pb2_grpc.add_HealthServicer_to_server(health, server)
    reflection.enable(server, [*names, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name])
    if listener.credentials is None:
        bound = server.add_insecure_port(addresses.join(host, port))
    else:
        bound = server.add_secure_port(addresses.join(host, port), listener.credentials)
    if bound == 0:
        raise SystemExit(f"cannot bind {host}:{port}")
    probes = None
    if health_port is not None:
        probes = grpc.aio.server(options=[("grpc.so_reuseport", 0)])
        health_pb2_grpc.add_HealthServicer_to_server(health, probes)
        if probes.add_insecure_port(addresses.join(host, health_port)) == 0:
            raise SystemExit(f"cannot bind the health port {host}:{health_port}")
        await probes.start()
    await server.start()
    for name in ["", *names]:
        await health.set(name, health_pb2.HealthCheckResponse.SERVING)
    log.info("serving", extra={"address": addresses.join(advertise_host or host, bound), "port": bound,
                               "services": names, "transport": listener.name})

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()

    log.info("draining", extra={"grace_s": grace})
    await health.enter_graceful_shutdown()
    if on_draining is not None:
        on_draining()  # ends what would never end by itself (watch streams)
    await server.stop(grace)
    if probes is not None:
        await probes.stop(0)
    if on_drained is not None:
        on_drained()
    provider = trace.get_tracer_provider()
    if hasattr(provider, "shutdown"):
        provider.shutdown()  # flushes spans still queued for export
    metrics.shutdown()
    log.info("stopped")
