"""The public contracts: generated code is fresh, reflection exposes the services, and a
real reflection client (buf curl) can call them without local protos."""

import filecmp
import json
import subprocess
from pathlib import Path

import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from deploy.local.processes import Service
from runtime import pki
from runtime.protogen import generate

ROOT = Path(__file__).resolve().parent.parent
BUF = ROOT / "node_modules" / ".bin" / "buf"


def test_generated_code_is_not_stale(tmp_path):
    generate(ROOT / "protos", tmp_path)
    fresh = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    committed = sorted(p.relative_to(ROOT / "gen") for p in (ROOT / "gen").rglob("*")
                       if p.is_file() and "__pycache__" not in p.parts)
    assert fresh == committed, "run `make gen`"
    mismatched = [str(p) for p in fresh if not filecmp.cmp(tmp_path / p, ROOT / "gen" / p,
                                                          shallow=False)]
    assert not mismatched, f"stale generated files {mismatched}: run `make gen`"


def reflected_services(service: Service, version: str = "v1alpha") -> set[str]:
    """The services listed by reflection; v1 shares v1alpha's messages, only its path differs."""
    request = reflection_pb2.ServerReflectionRequest(list_services="")
    with service.channel() as channel:
        if version == "v1alpha":
            replies = reflection_pb2_grpc.ServerReflectionStub(channel).ServerReflectionInfo(
                iter([request]), timeout=5)
        else:
            replies = channel.stream_stream(
                f"/grpc.reflection.{version}.ServerReflection/ServerReflectionInfo",
                request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
                response_deserializer=reflection_pb2.ServerReflectionResponse.FromString,
            )(iter([request]), timeout=5)
        reply = next(replies)
    return {s.name for s in reply.list_services_response.service}


@pytest.mark.parametrize("version", ["v1", "v1alpha"])
def test_reflection_lists_the_clinic_service(clinic, version):
    services = reflected_services(clinic.service, version)
    assert {"healthmesh.v1.ClinicService", "grpc.health.v1.Health",
            "grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection"} <= services


def buf_curl(service: Service, method: str, body: dict, reflect_protocol: str = "grpc-v1alpha") -> dict:
    """`buf curl` as a person would call a service: the plaintext edge as is, a mesh service with
    the orchestrator's certificate."""
    if not BUF.exists():
        pytest.fail("buf CLI missing: run `make setup`")
    if service.transport().plaintext:  # also makes the orchestrator's certificate if missing
        target = ["--http2-prior-knowledge", f"http://{service.address}/{method}"]
    else:
        files = pki.Identity.local(service.pki_dir, "orchestrator")
        target = ["--cacert", str(files.ca), "--cert", str(files.cert), "--key", str(files.key),
                  f"https://{service.address}/{method}"]
    result = subprocess.run(
        [str(BUF), "curl", "--protocol", "grpc", "--reflect-protocol", reflect_protocol, *target,
         "-d", json.dumps(body)],
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_health_lists_every_service_of_the_server(clinic):
    with clinic.service.channel() as channel:
        listed = health_pb2_grpc.HealthStub(channel).List(health_pb2.HealthListRequest(), timeout=5)
    serving = health_pb2.HealthCheckResponse.SERVING
    assert {name: s.status for name, s in listed.statuses.items()} == {
        "": serving, "healthmesh.v1.ClinicService": serving}


@pytest.mark.parametrize("reflect_protocol", ["grpc-v1", "grpc-v1alpha"])
def test_buf_curl_calls_describe_clinic_through_reflection(clinic, reflect_protocol):
    reply = buf_curl(clinic.service, "healthmesh.v1.ClinicService/DescribeClinic", {}, reflect_protocol)
    assert reply["clinicId"] == "clinic_a"
    assert reply["specialty"] == "SPECIALTY_CARDIOLOGY"


def test_buf_lint_passes():
    result = subprocess.run([str(BUF), "lint"], cwd=ROOT, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
