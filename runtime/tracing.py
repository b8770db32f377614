"""OpenTelemetry tracing for every service: OTLP export when an endpoint is configured (the
SDK reads the other OTEL_* variables itself) plus, unless turned off, a local JSON-lines file
shared by all services and read by `make trace` (settings: runtime/settings.py TracingSettings).

W3C trace context travels in gRPC metadata through the instrumentation's interceptors.
Health checks and reflection are not traced. Span names and attributes never carry message
text, names or CPFs: callers add only ids, codes, counts and timings.
"""

import json
import os
import threading
from collections.abc import Sequence
from pathlib import Path

import grpc
from opentelemetry import trace
from opentelemetry.instrumentation.grpc import aio_client_interceptors, aio_server_interceptor
from opentelemetry.instrumentation.grpc.filters import any_of, health_check, negate, service_prefix
from opentelemetry.sdk.resources import SERVICE_NAME, Resource
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter, SpanExportResult

from runtime.settings import Settings

_NOT_TRACED = negate(any_of(health_check(), service_prefix("grpc.reflection.")))


class JsonLinesExporter(SpanExporter):
    """Appends one JSON object per finished span to a file (one write per batch, O_APPEND,
    so several services can share the file)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self._lock = threading.Lock()

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        lines = "".join(json.dumps(span_record(s), separators=(",", ":")) + "\n" for s in spans)
        with self._lock:
            os.write(self._fd, lines.encode())
        return SpanExportResult.SUCCESS

    def shutdown(self) -> None:
        with self._lock:
            os.close(self._fd)


def span_record(span: ReadableSpan) -> dict:
    ctx = span.get_span_context()
    return {
        "trace_id": f"{ctx.trace_id:032x}",
        "span_id": f"{ctx.span_id:016x}",
        "parent_id": f"{span.parent.span_id:016x}" if span.parent else None,
        "name": span.name,
        "service": span.resource.attributes.get(SERVICE_NAME, ""),
        "kind": span.kind.name,
        "start_ns": span.start_time,
        "end_ns": span.end_time,
        "status": span.status.status_code.name,
        "attributes": {k: v if isinstance(v, str | int | float | bool) else list(v)
                       for k, v in (span.attributes or {}).items()},
    }


def configure(service_name: str, settings: Settings) -> TracerProvider | None:
    """Installs the global tracer provider; returns it (to flush on exit) or None if off."""
    if settings.tracing.sdk_disabled:
        return None
    provider = TracerProvider(resource=Resource.create({SERVICE_NAME: service_name}))
    if settings.tracing.otlp_endpoint or settings.tracing.otlp_traces_endpoint:
        from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter

        provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    if settings.trace_file is not None:
        provider.add_span_processor(BatchSpanProcessor(JsonLinesExporter(settings.trace_file),
                                                       schedule_delay_millis=500))
    trace.set_tracer_provider(provider)
    return provider


def server_interceptors() -> list[grpc.aio.ServerInterceptor]:
    return [aio_server_interceptor(filter_=_NOT_TRACED)]


def client_interceptors() -> list[grpc.aio.ClientInterceptor]:
    return list(aio_client_interceptors(filter_=_NOT_TRACED))
