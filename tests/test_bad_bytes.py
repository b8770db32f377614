"""Any byte string gets a documented status: bytes that are not the method's request message
(a corrupt wire format, invalid UTF-8 in a string field) are INVALID_ARGUMENT on every RPC of
every service, never UNKNOWN, with a short message; and the process keeps serving."""

import base64
import json

import grpc
import pytest

from healthmesh.v1 import clinic_pb2, escalation_pb2, orchestrator_pb2, tools_pb2, verifier_pb2
from runtime import authz
from tests.conftest import caller_of

CORRUPT = [
    b"\xff\xff\xff\xff",  # a tag that never ends
    b"\x08\x80",  # a varint cut short
    b"\x0a\xff\xff\xff\xff\x0f",  # a length far past the end
]
INVALID_UTF8 = b"\x0a\x02\xc3\x28"  # field 1 as two bytes of invalid UTF-8: bad where field 1 is a string
SERVICES = {
    "clinics": [clinic_pb2.DESCRIPTOR.services_by_name["ClinicService"]],
    "tools": [tools_pb2.DESCRIPTOR.services_by_name[n] for n in ("CalculatorService", "GuidelineService",
                                                                 "DrugService")],
    "verifier": [verifier_pb2.DESCRIPTOR.services_by_name["VerifierService"]],
    "orchestrator": [orchestrator_pb2.DESCRIPTOR.services_by_name["OrchestratorService"]],
    "escalation": [escalation_pb2.DESCRIPTOR.services_by_name["EscalationService"]],
}


# Streams that never end by themselves: their first message (or error) is their answer.
ENDLESS = frozenset({"/healthmesh.v1.ClinicService/WatchSlots"})


def call_raw(channel: grpc.Channel, path: str, streaming: bool, raw: bytes) -> grpc.RpcError | None:
    try:
        if path in ENDLESS:
            call = channel.unary_stream(path)(raw, timeout=10)
            next(call, None)
            call.cancel()
        elif streaming:
            list(channel.unary_stream(path)(raw, timeout=10))
        else:
            channel.unary_unary(path)(raw, timeout=10)
    except grpc.RpcError as err:
        return err
    return None


@pytest.mark.parametrize("target", sorted(SERVICES))
def test_undecodable_requests_are_invalid_argument_everywhere(mesh, target):
    svc = mesh.mesh.clinics["clinic_a"] if target == "clinics" else getattr(mesh.mesh, target)
    channels = {who: svc.channel(who) for who in (authz.ORCHESTRATOR, authz.OPERATOR)}
    with channels[authz.ORCHESTRATOR] as channel, channels[authz.OPERATOR]:
        for service in SERVICES[target]:
            for method in service.methods:
                path = f"/{service.full_name}/{method.name}"
                for raw in CORRUPT:
                    err = call_raw(channels[caller_of(path)], path, method.server_streaming, raw)
                    assert err is not None and err.code() == grpc.StatusCode.INVALID_ARGUMENT, (path, raw)
                    assert len(err.details()) <= 300 and "class" not in err.details()
                # Where field 1 is no string the bytes may well decode: then any documented answer.
                err = call_raw(channels[caller_of(path)], path, method.server_streaming, INVALID_UTF8)
                assert err is None or err.code() not in (grpc.StatusCode.UNKNOWN, grpc.StatusCode.INTERNAL)
        health = "/grpc.health.v1.Health/Check"
        err = call_raw(channel, health, False, INVALID_UTF8)  # HealthCheckRequest.service is a string
        assert err is not None and err.code() == grpc.StatusCode.INVALID_ARGUMENT
    # Still serving, and the log holds no traceback for the client's bytes.
    assert "Traceback" not in svc.log_path.read_text(encoding="utf-8")


@pytest.mark.parametrize("payload", [
    "[" * 400 + "]" * 100,  # nested past what a token holds
    '["\\ud800", "09:00", "Dr. X", "s1"]',  # a lone surrogate
])
def test_a_forged_page_token_is_invalid_argument(clinic, payload):
    token = base64.urlsafe_b64encode(payload.encode()).decode()
    with pytest.raises(grpc.RpcError) as err:
        clinic.stub.ListAvailableSlots(clinic_pb2.ListAvailableSlotsRequest(page_token=token), timeout=10)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "page_token" in err.value.details()
    json.dumps(err.value.details())  # printable text, bounded
