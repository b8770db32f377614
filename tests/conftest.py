"""Fixtures that run real healthmesh services on loopback, on ephemeral ports, with their
data in a temporary directory; every process is stopped when its test ends."""

import datetime as dt
import socket
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from deploy.local.mesh import start_mesh
from deploy.local.processes import Service, clinic_service, start_all, stop_all
from healthmesh.v1 import clinic_pb2_grpc, common_pb2, orchestrator_pb2, orchestrator_pb2_grpc
from runtime import authz
from tests.pgserver import PostgresServer, Unavailable

# Valid CPFs (check digits verified) for fictional patients used across the tests.
MARIA = common_pb2.PatientIdentity(full_name="Maria Souza", cpf="529.982.247-25")
JOAO = common_pb2.PatientIdentity(full_name="João Pereira", cpf="111.444.777-35")


class ClinicHandle:
    """A clinic process plus a channel to it; restartable on the same data directory."""

    def __init__(self, service: Service) -> None:
        self.service = service
        self.channel: grpc.Channel | None = None

    @property
    def address(self) -> str:
        return self.service.address

    @property
    def stub(self) -> clinic_pb2_grpc.ClinicServiceStub:
        if self.channel is None:
            self.channel = self.service.channel()
        return clinic_pb2_grpc.ClinicServiceStub(self.channel)

    def restart(self, **env: str) -> None:
        self.close_channel()
        self.service.stop()
        self.service.env = {**self.service.env, **env}
        start_all([self.service])

    def close_channel(self) -> None:
        if self.channel is not None:
            self.channel.close()
            self.channel = None


@pytest.fixture
def start_clinic(tmp_path: Path) -> Iterator:
    handles: list[ClinicHandle] = []

    def start(clinic_id: str = "clinic_a", **env: str) -> ClinicHandle:
        base = {"HEALTHMESH_DATA_DIR": str(tmp_path / "data"), "HEALTHMESH_PORT": "0",
                "HEALTHMESH_SHUTDOWN_GRACE_S": "2"}
        svc = clinic_service(clinic_id, tmp_path / "logs", {**base, **env})
        start_all([svc])
        handle = ClinicHandle(svc)
        handles.append(handle)
        return handle

    yield start
    for handle in handles:
        handle.close_channel()
    stop_all(h.service for h in handles)


@pytest.fixture
def clinic(start_clinic) -> "ClinicHandle":
    return start_clinic("clinic_a")


def caller_of(path: str) -> str:
    """An identity the policy lets call the method `path`: the orchestrator's, where it may."""
    allowed = authz.POLICY.get(path, frozenset({authz.ORCHESTRATOR}))
    return authz.ORCHESTRATOR if authz.ORCHESTRATOR in allowed else min(allowed)


def monday_after(day: dt.date) -> dt.date:
    return day + dt.timedelta(days=7 - day.weekday())


class MeshHandle:
    """A running local mesh plus a channel to its orchestrator."""

    def __init__(self, mesh) -> None:
        self.mesh = mesh
        self.channel = mesh.orchestrator.channel()
        self.stub = orchestrator_pb2_grpc.OrchestratorServiceStub(self.channel)
        self._patients: dict[str, common_pb2.PatientIdentity] = {}

    def clinic_stub(self, clinic_id: str) -> clinic_pb2_grpc.ClinicServiceStub:
        return clinic_pb2_grpc.ClinicServiceStub(
            self.mesh.clinics[clinic_id].channel())

    def ask(self, message: str, session_id: str = "", patient=None, timeout: float = 20.0):
        """One turn; a session's patient is sent again on its later turns, as the chat does."""
        patient = patient or self._patients.get(session_id)
        reply = self.stub.Ask(orchestrator_pb2.AskRequest(
            session_id=session_id, message=message, patient=patient), timeout=timeout)
        if patient is not None:
            self._patients[reply.session_id] = patient
        return reply

    def close(self) -> None:
        self.channel.close()
        self.mesh.stop()


def run_mesh(data_dir: Path, **env: str) -> MeshHandle:
    """The mesh on ephemeral ports. Model rephrasing is off unless a test turns it on, so the
    planning and routing tests see the deterministic answers (general questions still go to
    the local model)."""
    return MeshHandle(start_mesh(data_dir, ephemeral_ports=True, env={
        "HEALTHMESH_SHUTDOWN_GRACE_S": "2", "HEALTHMESH_REPHRASE_MAX_CHARS": "0", **env}))


@pytest.fixture(scope="module")
def mesh(tmp_path_factory) -> Iterator[MeshHandle]:
    handle = run_mesh(tmp_path_factory.mktemp("mesh"))
    yield handle
    handle.close()


@pytest.fixture
def unused_port() -> int:
    """A loopback port with nothing listening (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One real PostgreSQL server for the session (tests.pgserver); skipped where none can run."""
    try:
        server = PostgresServer().start()
    except Unavailable as reason:
        pytest.skip(f"no PostgreSQL server: {reason}")
    yield server
    server.stop()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """A fresh, empty database of its own for each test."""
    return postgres_server.database()
