"""Observability that costs little: the sampler keeps a share of traces plus every failed or slow
one, exports leave the event loop alone, OTLP over HTTP/protobuf reaches a real receiver, the
access log writes failures and a sample of the rest, and every service's metrics are scraped
with no PHI in them."""

import asyncio
import http.server
import json
import threading
import time
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import ClassVar

import grpc
import pytest
from opentelemetry import trace
from opentelemetry.proto.collector.metrics.v1 import metrics_service_pb2
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import (
    BatchSpanProcessor,
    SimpleSpanProcessor,
    SpanExporter,
    SpanExportResult,
)
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import NonRecordingSpan, SpanContext, Status, StatusCode, TraceFlags

from healthmesh.v1 import orchestrator_pb2
from runtime.interceptors import AccessLog, AccessPolicy
from runtime.settings import TracingSettings
from runtime.tracing import KeepFailedAndSlow, sampler
from tests.conftest import MARIA, run_mesh

SLOW_MS = 50.0
PHI = ("Maria", "Souza", "529.982.247-25", "52998224725", "cardiologia", "cardiology")


def _provider(ratio: float, sink: InMemorySpanExporter, *processors) -> TracerProvider:
    settings = TracingSettings(sampler="parentbased_traceidratio", sampler_arg=ratio)
    provider = TracerProvider(sampler=sampler(settings, record_unsampled=True))
    provider.add_span_processor(KeepFailedAndSlow(processors or [SimpleSpanProcessor(sink)], SLOW_MS))
    return provider


def test_unsampled_traces_are_kept_only_when_failed_or_slow() -> None:
    sink = InMemorySpanExporter()
    tracer = _provider(0.0, sink).get_tracer("test")

    with tracer.start_as_current_span("ok root"), tracer.start_as_current_span("ok child"):
        pass
    assert sink.get_finished_spans() == ()  # a ratio of 0 samples nothing that went well

    with tracer.start_as_current_span("root") as root, tracer.start_as_current_span("child") as child:
        child.set_status(Status(StatusCode.ERROR, "UNAVAILABLE"))
    kept = sink.get_finished_spans()
    assert [s.name for s in kept] == ["child", "root"]
    assert all(s.context.trace_flags.sampled for s in kept)  # exported as sampled: kept by the tail
    assert kept[0].parent.span_id == root.get_span_context().span_id
    assert {s.context.trace_id for s in kept} == {child.get_span_context().trace_id}
    sink.clear()

    start = time.time_ns()
    slow = tracer.start_span("slow root", start_time=start)
    slow.end(end_time=start + int(SLOW_MS * 2_000_000))
    fast = tracer.start_span("fast root", start_time=start)
    fast.end(end_time=start + int(SLOW_MS * 500_000))
    assert [s.name for s in sink.get_finished_spans()] == ["slow root"]
    sink.clear()

    # A server span under a remote, unsampled caller is this process's local root: it decides.
    caller = SpanContext(0xABC, 0xDEF, is_remote=True, trace_flags=TraceFlags(0))
    with tracer.start_as_current_span("server", context=trace.set_span_in_context(NonRecordingSpan(caller))):
        with tracer.start_as_current_span("query") as query:
            query.set_status(Status(StatusCode.ERROR))
    assert [s.name for s in sink.get_finished_spans()] == ["query", "server"]


def test_the_ratio_and_the_callers_decision_sample_at_once() -> None:
    sink = InMemorySpanExporter()
    tracer = _provider(1.0, sink).get_tracer("test")
    with tracer.start_as_current_span("root"):
        pass
    assert len(sink.get_finished_spans()) == 1
    sink.clear()
    tracer = _provider(0.0, sink).get_tracer("test")
    caller = SpanContext(0x1234, 0x5678, is_remote=True, trace_flags=TraceFlags(TraceFlags.SAMPLED))
    with tracer.start_as_current_span("server", context=trace.set_span_in_context(NonRecordingSpan(caller))):
        pass
    assert len(sink.get_finished_spans()) == 1  # parent-based: the caller sampled it


class _StuckExporter(SpanExporter):
    """Takes 0.3 s per batch, like a collector far away, and notes the threads it ran on."""

    def __init__(self) -> None:
        self.exported = 0
        self.threads: set[int] = set()

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        self.threads.add(threading.get_ident())
        time.sleep(0.3)
        self.exported += len(spans)
        return SpanExportResult.SUCCESS

    def shutdown(self) -> None:
        pass


def test_export_never_runs_on_the_event_loop() -> None:
    stuck = _StuckExporter()
    provider = _provider(1.0, InMemorySpanExporter(),
                         BatchSpanProcessor(stuck, max_export_batch_size=8, schedule_delay_millis=1))
    tracer = provider.get_tracer("test")

    async def spans_on_the_loop() -> int:
        for i in range(200):
            with tracer.start_as_current_span(f"span {i}"):
                await asyncio.sleep(0.001)
        return threading.get_ident()

    loop_thread = asyncio.run(spans_on_the_loop())
    provider.shutdown()
    assert stuck.exported == 200
    assert stuck.threads and loop_thread not in stuck.threads  # every export ran off the loop's thread


class _Receiver(http.server.BaseHTTPRequestHandler):
    """An OTLP/HTTP receiver: POST /v1/traces and /v1/metrics, protobuf bodies."""

    traces: ClassVar[list] = []  # each test gets a subclass with lists of its own
    metrics: ClassVar[list] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        if self.path == "/v1/traces":
            self.traces.append(trace_service_pb2.ExportTraceServiceRequest.FromString(body))
            reply = trace_service_pb2.ExportTraceServiceResponse()
        elif self.path == "/v1/metrics":
            self.metrics.append(metrics_service_pb2.ExportMetricsServiceRequest.FromString(body))
            reply = metrics_service_pb2.ExportMetricsServiceResponse()
        else:
            self.send_error(404)
            return
        payload = reply.SerializeToString()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def receiver() -> Iterator[tuple[type[_Receiver], int]]:
    handler = type("Receiver", (_Receiver,), {"traces": [], "metrics": []})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield handler, server.server_address[1]
    server.shutdown()
    server.server_close()


def _spans(handler: type[_Receiver]) -> list[tuple[str, str, str, float]]:
    """(service, span name, trace id, duration in ms) of every span received."""
    out = []
    for request in list(handler.traces):
        for resource in request.resource_spans:
            attributes = resource.resource.attributes
            service = next(a.value.string_value for a in attributes if a.key == "service.name")
            out += [(service, s.name, s.trace_id.hex(), (s.end_time_unix_nano - s.start_time_unix_nano) / 1e6)
                    for scope in resource.scope_spans for s in scope.spans]
    return out


def _log_lines(path: Path) -> list[dict]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.startswith("{")]


def _scrape(log_path: Path) -> str:
    port = next(line["metrics_port"] for line in _log_lines(log_path) if line["message"] == "metrics")
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as reply:
        return reply.read().decode()


def _has(scraped: str, family: str, **labels: str) -> bool:
    """A series of `family` with these labels (among others) in a Prometheus text exposition."""
    pairs = [f'{k}="{v}"' for k, v in labels.items()]
    lines = scraped.splitlines()
    return any(line.startswith(family + "{") and all(p in line for p in pairs) for line in lines)


def _sampled_by_ratio(trace_id: str, ratio: float) -> bool:
    """TraceIdRatioBased's rule: the trace id's low 64 bits under ratio * 2^64."""
    return int(trace_id, 16) & (2**64 - 1) < round(ratio * 2**64)


def test_a_running_mesh_exports_over_http_and_is_scraped_without_phi(receiver, tmp_path) -> None:
    handler, port = receiver
    mesh = run_mesh(tmp_path, OTEL_EXPORTER_OTLP_PROTOCOL="http/protobuf",
                    OTEL_EXPORTER_OTLP_ENDPOINT=f"http://127.0.0.1:{port}",
                    OTEL_BSP_SCHEDULE_DELAY="100", OTEL_METRIC_EXPORT_INTERVAL="300")
    logs = tmp_path / "logs"
    try:
        mesh.ask("horários de dermatologia")  # warms the mesh up: later Asks are not slow
        # The default sampler: 1% of new traces by trace id, so these few Asks are exported only
        # when their trace id falls in that 1% — unless something failed or was slow.
        replies = [mesh.ask("meu nome é Maria Souza, CPF 529.982.247-25: horários de cardiologia",
                            patient=MARIA) for _ in range(3)]
        mesh.mesh.clinics["clinic_c"].stop()
        partial = mesh.ask("quero ver horários de cardiologia", patient=MARIA)
        assert partial.disposition == orchestrator_pb2.DISPOSITION_PARTIAL
        with pytest.raises(grpc.RpcError) as refused:
            mesh.stub.Ask(orchestrator_pb2.AskRequest(message="oi"), metadata=[("authorization", "Bearer x")],
                          timeout=10)
        assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED

        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and not (
                any(t == partial.trace_id for _, _, t, _ in _spans(handler)) and len(handler.metrics) >= 2):
            time.sleep(0.2)
        scraped = {name: _scrape(logs / f"{name}.log") for name in ("orchestrator", "clinic_a", "verifier")}
    finally:
        mesh.close()

    spans = _spans(handler)
    # The Ask with a clinic down is kept whole in the orchestrator (its call to clinic_c failed)...
    kept = {name for service, name, t, _ in spans if t == partial.trace_id and service == "orchestrator"}
    assert {"/healthmesh.v1.OrchestratorService/Ask", "screen", "verify",
            "/healthmesh.v1.ClinicService/ListAvailableSlots"} <= kept
    # ...and the Asks that went well are exported exactly when the ratio sampled them.
    for reply in replies:
        ask = [ms for _, name, t, ms in spans if t == reply.trace_id and name.endswith("/Ask")]
        if _sampled_by_ratio(reply.trace_id, 0.01):
            assert ask, reply.trace_id
        else:
            assert not ask or ask[0] >= 500, reply.trace_id  # HEALTHMESH_SLOW_MS

    orchestrator = scraped["orchestrator"]
    for family in ("healthmesh_rpc_server_duration_seconds_bucket",
                   "healthmesh_upstream_duration_seconds_count", "healthmesh_upstream_breaker_state",
                   "healthmesh_model_routes_total", "healthmesh_admission_running"):
        assert family in orchestrator, family
    served = "healthmesh_rpc_server_duration_seconds_count"
    assert _has(orchestrator, served, method="/healthmesh.v1.OrchestratorService/Ask", code="OK")
    assert _has(orchestrator, served, method="/healthmesh.v1.OrchestratorService/Ask", code="UNAUTHENTICATED")
    upstream = "healthmesh_upstream_duration_seconds_count"
    assert _has(orchestrator, upstream, upstream="clinic_c", code="UNAVAILABLE")
    assert _has(orchestrator, "healthmesh_upstream_breaker_state", upstream="clinic_a")
    assert _has(orchestrator, "healthmesh_model_routes_total", route="none", phi_local="true")
    assert _has(scraped["clinic_a"], served, method="/healthmesh.v1.ClinicService/DescribeClinic", code="OK")
    assert _has(scraped["verifier"], served, method="/healthmesh.v1.VerifierService/ScreenInput", code="OK")
    pushed = {m.name for request in handler.metrics for resource in request.resource_metrics
              for scope in resource.scope_metrics for m in scope.metrics}
    assert {"healthmesh.rpc.server.duration", "healthmesh.upstream.duration"} <= pushed
    telemetry = "".join(scraped.values()) + repr(handler.metrics) + repr(spans)
    for secret in PHI:
        assert secret not in telemetry, secret

    # The access log: failures and slow RPCs always (WARNING), OK ones one in a hundred by default.
    for service in ("orchestrator", "clinic_a", "verifier"):
        rpcs = [line for line in _log_lines(logs / f"{service}.log") if line["message"] == "rpc"]
        assert all(r["level"] == "WARNING" and (r["code"] != "OK" or r["duration_ms"] >= 500) for r in rpcs)
        if service == "orchestrator":
            assert [r["code"] for r in rpcs if r["code"] != "OK"] == ["UNAUTHENTICATED"]


def test_every_ok_rpc_is_logged_when_asked(tmp_path) -> None:
    mesh = run_mesh(tmp_path, HEALTHMESH_ACCESS_LOG_SAMPLE="1", HEALTHMESH_METRICS_PORT="off",
                    OTEL_SDK_DISABLED="true")
    try:
        mesh.ask("quero ver horários de cardiologia")
    finally:
        mesh.close()
    lines = [line for line in _log_lines(tmp_path / "logs" / "clinic_a.log") if line["message"] == "rpc"]
    # The orchestrator's DescribeClinic at its start (its listing came from the slot replica).
    assert ("INFO", "OK", "/healthmesh.v1.ClinicService/DescribeClinic") in {
        (r["level"], r["code"], r["method"]) for r in lines}
    assert not any(line["message"] == "metrics" for line in _log_lines(tmp_path / "logs" / "clinic_a.log"))


def test_a_long_stream_is_not_logged_as_slow(caplog: pytest.LogCaptureFixture) -> None:
    # A WatchSlots stream lasts as long as its watcher: its length says nothing of the clinic's speed.
    access = AccessLog(AccessPolicy(ok_sample=0.0, slow_ms=500))
    an_hour_ago = time.perf_counter() - 3600
    with caplog.at_level("INFO", logger="access"):
        access.ended("/healthmesh.v1.ClinicService/WatchSlots", "OK", an_hour_ago, stream=True)
        access.ended("/healthmesh.v1.ClinicService/WatchSlots", "UNAVAILABLE", an_hour_ago, stream=True)
        access.ended("/healthmesh.v1.ClinicService/ListAvailableSlots", "OK", an_hour_ago)
    assert [(r.levelname, r.code) for r in caplog.records] == [("WARNING", "UNAVAILABLE"), ("WARNING", "OK")]


def test_settings_default_to_a_one_percent_parent_based_sample() -> None:
    settings = TracingSettings()
    assert (settings.sampler, settings.sampler_arg, settings.otlp_protocol) == (
        "parentbased_traceidratio", 0.01, "grpc")
    assert sampler(settings, record_unsampled=False).get_description().startswith("ParentBased")
