"""Service identity and authorization over real TLS on loopback, with certificates the test makes:
the handshake admits only certificates of the mesh CA, and the one policy decides which identity
may call which method."""

import os
import stat
import subprocess
import sys

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from deploy.local.processes import StartError, clinic_service, start_all
from healthmesh.v1 import clinic_pb2 as pb
from healthmesh.v1 import clinic_pb2_grpc
from runtime import authz, pki
from runtime.transport import Transport
from tests.conftest import MARIA

PATIENT = pb.GetPatientRequest(patient_id="CARD-A002")


def as_identity(clinic, identity: str) -> clinic_pb2_grpc.ClinicServiceStub:
    return clinic_pb2_grpc.ClinicServiceStub(clinic.service.channel(identity))


def code_of(call, request) -> grpc.StatusCode:
    with pytest.raises(grpc.RpcError) as err:
        call(request, timeout=5)
    return err.value.code()


def test_a_client_without_a_certificate_is_refused_at_the_handshake(clinic):
    with grpc.insecure_channel(clinic.address) as plain:
        stub = clinic_pb2_grpc.ClinicServiceStub(plain)
        assert code_of(stub.GetPatient, PATIENT) == grpc.StatusCode.UNAVAILABLE
    ca = (clinic.service.pki_dir / "ca.crt").read_bytes()
    with grpc.secure_channel(clinic.address, grpc.ssl_channel_credentials(ca)) as server_auth_only:
        stub = clinic_pb2_grpc.ClinicServiceStub(server_auth_only)
        assert code_of(stub.GetPatient, PATIENT) == grpc.StatusCode.UNAVAILABLE


def test_a_certificate_from_another_ca_is_refused(clinic, tmp_path):
    stranger = Transport.local(tmp_path / "other-ca", "orchestrator")  # the right name, the wrong CA
    with stranger.channel(clinic.address) as channel:
        assert code_of(clinic_pb2_grpc.ClinicServiceStub(channel).GetPatient, PATIENT) == \
            grpc.StatusCode.UNAVAILABLE


def test_each_identity_may_call_only_what_the_policy_grants(clinic):
    orchestrator = as_identity(clinic, "orchestrator")
    assert orchestrator.GetPatient(PATIENT, timeout=5).patient.patient_id == "CARD-A002"
    tools = as_identity(clinic, "tools")
    assert code_of(tools.GetPatient, PATIENT) == grpc.StatusCode.PERMISSION_DENIED
    assert code_of(tools.ListPatients, pb.ListPatientsRequest()) == grpc.StatusCode.PERMISSION_DENIED
    operator = as_identity(clinic, "operator")
    assert operator.GetPatient(PATIENT, timeout=5).patient.patient_id == "CARD-A002"  # a read-only admin call
    slot = operator.ListAvailableSlots(pb.ListAvailableSlotsRequest(page_size=1), timeout=5).slots[0]
    booking = pb.BookAppointmentRequest(doctor=slot.doctor, date=slot.date, time=slot.time, patient=MARIA)
    assert code_of(operator.BookAppointment, booking) == grpc.StatusCode.PERMISSION_DENIED
    handoff = pb.GetHandoffPacketRequest(appointment_id="CARD-A-APT-0000000000")
    assert code_of(operator.GetHandoffPacket, handoff) == grpc.StatusCode.PERMISSION_DENIED
    # Health stays open to any peer the handshake admitted; the refusal named the caller, not the request.
    health = health_pb2_grpc.HealthStub(clinic.service.channel("tools"))
    serving = health_pb2.HealthCheckResponse.SERVING
    assert health.Check(health_pb2.HealthCheckRequest(), timeout=5).status == serving
    log = clinic.service.log_path.read_text(encoding="utf-8")
    assert "spiffe://healthmesh.local/ns/local/sa/tools" in log and "CARD-A002" not in log


def test_keys_are_readable_by_their_owner_only(clinic):
    keys = sorted(clinic.service.pki_dir.glob("*.key"))
    assert {k.name for k in keys} >= {"ca.key", "clinic-a.key"}
    assert all(stat.S_IMODE(os.stat(k).st_mode) == 0o600 for k in keys)


def test_the_health_port_serves_probes_without_a_certificate_and_nothing_else(start_clinic, unused_port):
    port = unused_port
    clinic = start_clinic(HEALTHMESH_HEALTH_PORT=str(port))
    with grpc.insecure_channel(f"127.0.0.1:{port}") as probe:
        reply = health_pb2_grpc.HealthStub(probe).Check(
            health_pb2.HealthCheckRequest(service="healthmesh.v1.ClinicService"), timeout=5)
        assert reply.status == health_pb2.HealthCheckResponse.SERVING
        assert code_of(clinic_pb2_grpc.ClinicServiceStub(probe).GetPatient, PATIENT) == \
            grpc.StatusCode.UNIMPLEMENTED
    assert as_identity(clinic, "orchestrator").GetPatient(PATIENT, timeout=5).patient.patient_id


def test_plaintext_is_served_only_when_asked_for_by_name(start_clinic):
    clinic = start_clinic(HEALTHMESH_TRANSPORT="plaintext")
    with grpc.insecure_channel(clinic.address) as plain:
        assert clinic_pb2_grpc.ClinicServiceStub(plain).GetPatient(PATIENT, timeout=5).patient.patient_id
    assert '"transport": "plaintext"' in clinic.service.log_path.read_text(encoding="utf-8")


def test_a_missing_certificate_stops_the_service_at_start(tmp_path):
    env = {"HEALTHMESH_DATA_DIR": str(tmp_path), "HEALTHMESH_PORT": "0",
           "HEALTHMESH_TLS_CERT": str(tmp_path / "missing.crt")}
    with pytest.raises(StartError, match="HEALTHMESH_TLS_CERT: cannot read"):
        start_all([clinic_service("clinic_a", tmp_path / "logs", env)], timeout=20)
    done = subprocess.run([sys.executable, "-m", "clinics", "--clinic", "clinic_a"], capture_output=True,
                          text=True, env={**os.environ, **env, "HEALTHMESH_TRANSPORT": "tls"}, timeout=60)
    assert done.returncode != 0 and "HEALTHMESH_TRANSPORT must be one of mtls, plaintext" in done.stderr


def test_spiffe_ids_name_an_account_of_this_trust_domain_only():
    assert pki.spiffe_id("clinic_a") == "spiffe://healthmesh.local/ns/local/sa/clinic-a"
    assert pki.account_of("spiffe://healthmesh.local/ns/prod/sa/orchestrator") == "orchestrator"
    assert pki.account_of("spiffe://evil.example/ns/prod/sa/orchestrator") is None
    assert pki.account_of("spiffe://healthmesh.local/ns/prod/sa/orchestrator/extra") is None
    assert not authz.allowed("/healthmesh.v1.ClinicService/BookAppointment", None)
    assert not authz.allowed("/healthmesh.v1.ClinicService/NewMethod", "orchestrator")  # unnamed: refused
    assert authz.allowed("/grpc.health.v1.Health/Check", None)
