"""One Ask is one trace across orchestrator → verifier → clinics (or tools), received by a real OTLP
gRPC endpoint started here: parent/child links hold across processes, no PHI is recorded,
health checks are not traced, and `make trace` renders the waterfall."""

import subprocess
import sys
import time
from concurrent import futures

import grpc
import pytest
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2, trace_service_pb2_grpc

from tests.conftest import MARIA, run_mesh


class Collector(trace_service_pb2_grpc.TraceServiceServicer):
    def __init__(self) -> None:
        self.spans: list[dict] = []

    def Export(self, request, context):
        for resource_spans in request.resource_spans:
            service = next(a.value.string_value for a in resource_spans.resource.attributes
                           if a.key == "service.name")
            for scope in resource_spans.scope_spans:
                for span in scope.spans:
                    self.spans.append({
                        "service": service, "name": span.name, "kind": span.kind,
                        "trace_id": span.trace_id.hex(), "span_id": span.span_id.hex(),
                        "parent_id": span.parent_span_id.hex(),
                        "attributes": {a.key: getattr(a.value, a.value.WhichOneof("value"))
                                       for a in span.attributes},
                    })
        return trace_service_pb2.ExportTraceServiceResponse()


@pytest.fixture
def collector():
    sink = Collector()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    trace_service_pb2_grpc.add_TraceServiceServicer_to_server(sink, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    yield sink, port
    server.stop(0)


def test_one_ask_is_one_trace_across_services(collector, tmp_path):
    sink, port = collector
    mesh = run_mesh(tmp_path, OTEL_EXPORTER_OTLP_ENDPOINT=f"http://127.0.0.1:{port}",
                    OTEL_EXPORTER_OTLP_INSECURE="true", OTEL_BSP_SCHEDULE_DELAY="100",
                    OTEL_TRACES_SAMPLER="parentbased_always_on",  # every trace: its edges are the subject
                    HEALTHMESH_SLOT_REPLICA="false")  # and a listing that crosses to both clinics
    try:
        reply = mesh.ask("quero ver horários de cardiologia", patient=MARIA)
        trace_id = reply.trace_id
        expected = {"orchestrator", "verifier", "clinic_a", "clinic_c"}
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            spans = [s for s in sink.spans if s["trace_id"] == trace_id]
            if {s["service"] for s in spans} >= expected and len(spans) >= 14:
                break
            time.sleep(0.2)
        tool_trace = mesh.ask("Is warfarin safe with ibuprofen?").trace_id
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and not any(
                s["trace_id"] == tool_trace and s["service"] == "tools" for s in sink.spans):
            time.sleep(0.2)
    finally:
        mesh.close()

    spans = [s for s in sink.spans if s["trace_id"] == trace_id]
    assert {s["service"] for s in spans} == expected
    by_id = {s["span_id"]: s for s in spans}
    root = next(s for s in spans if s["name"] == "/healthmesh.v1.OrchestratorService/Ask")
    assert root["service"] == "orchestrator" and root["parent_id"] == ""

    def parent(span: dict) -> dict:
        return by_id[span["parent_id"]]

    for stage in ("screen", "plan", "verify"):
        assert parent(next(s for s in spans if s["name"] == stage)) is root
    steps = [s for s in spans if s["name"] == "step list_available_slots"]
    assert sorted(s["attributes"]["healthmesh.clinic_id"] for s in steps) == ["clinic_a", "clinic_c"]
    assert all(s["attributes"]["healthmesh.attempts"] == 1 for s in steps)
    assert all(s["attributes"]["healthmesh.breaker_state"] == "closed" for s in steps)
    for clinic_id in ("clinic_a", "clinic_c"):
        server = next(s for s in spans if s["service"] == clinic_id)
        client = parent(server)  # the orchestrator's client span for that call...
        assert client["service"] == "orchestrator" and client["name"] == server["name"]
        assert parent(client)["name"] == "step list_available_slots"  # ...inside its step
        assert parent(parent(client)) is root
    for method in ("ScreenInput", "VerifyAnswer"):
        server = next(s for s in spans if s["name"] == f"/healthmesh.v1.VerifierService/{method}"
                      and s["service"] == "verifier")
        assert parent(server)["service"] == "orchestrator"
        assert parent(parent(server))["parent_id"] == root["span_id"]

    # No PHI anywhere in the telemetry; health checks are not traced.
    text = repr(sink.spans)
    for secret in ("Maria", "Souza", "529.982.247-25", "52998224725", "cardiologia"):
        assert secret not in text
    assert not any("grpc.health" in s["name"] for s in sink.spans)

    waterfall = subprocess.run([sys.executable, "-m", "runtime.traceview", trace_id,
                                str(tmp_path / "traces.jsonl")], capture_output=True, text=True, timeout=30)
    assert waterfall.returncode == 0, waterfall.stderr
    lines = waterfall.stdout.splitlines()
    assert lines[0].startswith(f"trace {trace_id}")
    assert lines[1].startswith("/healthmesh.v1.OrchestratorService/Ask (orchestrator)")
    assert any(line.startswith("      /healthmesh.v1.ClinicService/ListAvailableSlots (clinic_a)")
               for line in lines)

    # The tool edge: orchestrator "tool loop" → step → client span → the tools service.
    tool_spans = [s for s in sink.spans if s["trace_id"] == tool_trace]
    by_id = {s["span_id"]: s for s in tool_spans}
    server = next(s for s in tool_spans if s["service"] == "tools")
    assert server["name"] == "/healthmesh.v1.DrugService/CheckInteractions"
    client = by_id[server["parent_id"]]
    step = by_id[client["parent_id"]]
    assert client["service"] == "orchestrator" and step["name"] == "step check_interactions"
    assert step["attributes"]["healthmesh.clinic_id"] == "tools"
    assert by_id[step["parent_id"]]["name"] == "tool loop"
