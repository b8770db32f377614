"""Patients at the public edge: a signed bearer token names the patient, a token never acts for
another patient (by naming her or by reusing her session), and a bad token is UNAUTHENTICATED.
Development mode (the default) is exercised on the shared mesh; production mode on its own mesh,
serving TLS with a certificate made in the test."""

import os
import subprocess
import sys
import time
from pathlib import Path

import grpc
import jwt
import pytest

from healthmesh.v1 import common_pb2, orchestrator_pb2
from runtime import pki
from tests.conftest import JOAO, MARIA, run_mesh

MY_APPOINTMENTS = "what appointments do I have?"


def token(key: Path, who: common_pb2.PatientIdentity, *, audience: str = "healthmesh",
          expires_in: int = 300) -> str:
    now = int(time.time())
    claims = {"sub": who.cpf, "name": who.full_name, "aud": audience, "iat": now, "exp": now + expires_in}
    return jwt.encode(claims, key.read_bytes(), algorithm="ES256")


def ask(mesh, message: str, bearer: str | None = None, **request: object) -> orchestrator_pb2.AskResponse:
    metadata = [("authorization", f"Bearer {bearer}")] if bearer else []
    request_message = orchestrator_pb2.AskRequest(message=message, **request)
    return mesh.stub.Ask(request_message, metadata=metadata, timeout=20)


def refused(mesh, message: str, bearer: str | None = None, **request: object) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as err:
        ask(mesh, message, bearer, **request)
    return err.value


@pytest.fixture(scope="module")
def dev_key(mesh) -> Path:
    private, _ = pki.edge_dev_key(mesh.mesh.orchestrator.pki_dir)
    return private


def test_a_token_names_the_patient(mesh, dev_key):
    by_token = ask(mesh, MY_APPOINTMENTS, token(dev_key, MARIA))
    by_name = ask(mesh, MY_APPOINTMENTS, patient=MARIA)  # development: name and CPF are accepted too
    assert by_token.disposition == by_name.disposition and by_token.answer == by_name.answer


def test_a_token_never_acts_for_another_patient(mesh, dev_key):
    maria = ask(mesh, MY_APPOINTMENTS, token(dev_key, MARIA))
    joao = token(dev_key, JOAO)
    named = refused(mesh, "cancel my appointment", joao, patient=MARIA)
    assert named.code() == grpc.StatusCode.PERMISSION_DENIED
    reused = refused(mesh, "cancel my appointment", joao, session_id=maria.session_id)
    assert reused.code() == grpc.StatusCode.PERMISSION_DENIED


@pytest.mark.parametrize("bad", ["expired", "another key", "another audience", "not a CPF", "garbage"])
def test_a_bad_token_is_unauthenticated(mesh, dev_key, tmp_path, bad):
    other = tmp_path / "other.key"
    pki.ensure_signing_key(other, tmp_path / "other.pub")
    bearer = {
        "expired": lambda: token(dev_key, MARIA, expires_in=-120),
        "another key": lambda: token(other, MARIA),
        "another audience": lambda: token(dev_key, MARIA, audience="someone-else"),
        "not a CPF": lambda: token(dev_key, common_pb2.PatientIdentity(full_name="Maria Souza", cpf="123")),
        "garbage": lambda: "not.a.jwt",
    }[bad]()
    err = refused(mesh, MY_APPOINTMENTS, bearer)
    assert err.code() == grpc.StatusCode.UNAUTHENTICATED
    assert MARIA.cpf not in err.details() and "Maria" not in err.details()  # a token's claims are PHI


def test_production_serves_tls_and_requires_a_token(tmp_path):
    data = tmp_path / "data"
    pki.ensure_local(data / "pki", ["orchestrator"])  # the edge's certificate, from a CA made here
    signer, verifier = tmp_path / "issuer.key", tmp_path / "issuer.pub"
    pki.ensure_signing_key(signer, verifier)
    edge = pki.Identity.local(data / "pki", "orchestrator")
    mesh = run_mesh(data, HEALTHMESH_EDGE_MODE="production", HEALTHMESH_JWT_PUBLIC_KEY=str(verifier),
                    HEALTHMESH_EDGE_TLS_CERT=str(edge.cert), HEALTHMESH_EDGE_TLS_KEY=str(edge.key))
    try:
        with grpc.insecure_channel(mesh.mesh.orchestrator.address) as plain:  # TLS only
            with pytest.raises(grpc.RpcError) as err:
                plain.unary_unary("/healthmesh.v1.OrchestratorService/Ask")(b"", timeout=5)
            assert err.value.code() == grpc.StatusCode.UNAVAILABLE
        assert refused(mesh, MY_APPOINTMENTS, patient=MARIA).code() == grpc.StatusCode.UNAUTHENTICATED
        reply = ask(mesh, MY_APPOINTMENTS, token(signer, MARIA))
        assert reply.disposition == orchestrator_pb2.DISPOSITION_ANSWERED
    finally:
        mesh.close()


@pytest.mark.parametrize(("env", "message"), [
    ({"HEALTHMESH_HOST": "0.0.0.0"}, "development mode listens on loopback only"),
    ({"HEALTHMESH_EDGE_MODE": "production"}, "production mode needs HEALTHMESH_JWT_PUBLIC_KEY"),
])
def test_an_unsafe_edge_does_not_start(tmp_path, env, message):
    env = {**os.environ, "HEALTHMESH_DATA_DIR": str(tmp_path), "HEALTHMESH_PORT": "0", **env}
    done = subprocess.run([sys.executable, "-m", "orchestrator"], capture_output=True, text=True, timeout=60,
                          env=env)
    assert done.returncode != 0 and message in done.stderr


def test_the_chat_signs_a_token_for_the_patient_it_asked_for(mesh):
    data_dir = mesh.mesh.orchestrator.pki_dir.parent
    env = {**os.environ, "HEALTHMESH_DATA_DIR": str(data_dir)}
    command = [sys.executable, "-m", "clients.chat", "--target", mesh.mesh.orchestrator.address, "ask",
               MY_APPOINTMENTS, "--name", MARIA.full_name, "--cpf", MARIA.cpf]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    session = done.stdout.strip().splitlines()[-1].removeprefix("session ")
    # The session is Maria's: the token bound it, so another patient's token cannot use it.
    joao = token(pki.edge_dev_key(data_dir / "pki")[0], JOAO)
    reused = refused(mesh, MY_APPOINTMENTS, joao, session_id=session)
    assert reused.code() == grpc.StatusCode.PERMISSION_DENIED
