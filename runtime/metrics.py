"""Metrics for every service, through the OpenTelemetry metrics API: a Prometheus scrape endpoint
(`/metrics` on HEALTHMESH_METRICS_PORT, bound on the service's host) and OTLP export when an
endpoint is configured (settings: runtime/settings.py MetricsSettings). Off, like tracing, with
OTEL_SDK_DISABLED=true: the instruments are then the API's no-ops.

Instruments are created where their events happen (this module: every server's RPCs; the
orchestrator: upstreams, admission, models). Their labels are method names, status codes,
upstream names, routes and reasons — never a request field, so never PHI.
"""

import logging

from opentelemetry import metrics
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import MetricExporter, MetricReader, PeriodicExportingMetricReader
from opentelemetry.sdk.resources import SERVICE_NAME, Resource

from runtime.settings import Settings

log = logging.getLogger("server")  # the lifecycle logger: the "metrics" line is always written

# Seconds; from a fast in-process RPC (~1 ms) to the longest deadline (10 s).
LATENCY_BUCKETS_S = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

# Requests, errors by code and latency in one instrument: its `_count` per code is the request
# and error count, so each RPC costs one record.
_served = metrics.get_meter("healthmesh.rpc").create_histogram(
    "healthmesh.rpc.server.duration", unit="s",
    description="RPCs served (health and reflection aside), by method and status code",
    explicit_bucket_boundaries_advisory=LATENCY_BUCKETS_S)


def record_rpc(method: str, code: str, seconds: float) -> None:
    _served.record(seconds, {"method": method, "code": code})


def _otlp_exporter(protocol: str) -> MetricExporter:
    """It reads the endpoint, headers and certificates from the OTEL_EXPORTER_OTLP_* variables."""
    if protocol == "http/protobuf":
        from opentelemetry.exporter.otlp.proto.http.metric_exporter import OTLPMetricExporter as Http

        return Http()
    from opentelemetry.exporter.otlp.proto.grpc.metric_exporter import OTLPMetricExporter as Grpc

    return Grpc()


def configure(service_name: str, settings: Settings, grpc_port: int) -> int | None:
    """Installs the global meter provider and starts the scrape endpoint; returns its port (None
    when metrics or the endpoint are off). A port that cannot be bound stops the service."""
    if settings.tracing.sdk_disabled:
        return None
    readers: list[MetricReader] = []
    port = settings.metrics.port_for(grpc_port)
    scrape = None
    if port is not None:
        from opentelemetry.exporter.prometheus import PrometheusMetricReader
        from prometheus_client import start_http_server

        readers.append(PrometheusMetricReader())
        try:
            scrape, _ = start_http_server(port, addr=settings.service.host)
        except OSError as err:
            raise SystemExit(f"cannot bind the metrics port {settings.service.host}:{port}: {err}") from None
    if settings.tracing.otlp_endpoint or settings.metrics.otlp_metrics_endpoint:
        readers.append(PeriodicExportingMetricReader(_otlp_exporter(settings.tracing.otlp_protocol)))
    metrics.set_meter_provider(MeterProvider(resource=Resource.create({SERVICE_NAME: service_name}),
                                             metric_readers=readers))
    bound = scrape.server_port if scrape is not None else None
    log.info("metrics", extra={"metrics_port": bound, "otlp": len(readers) > (scrape is not None)})
    return bound


def shutdown() -> None:
    """Exports what is pending (OTLP) and stops the readers."""
    provider = metrics.get_meter_provider()
    if isinstance(provider, MeterProvider):
        provider.shutdown()
