"""Starts healthmesh services as local processes and waits until they are healthy.

Used by `make up`/`make run`, by the tests and by the benchmark, so all three run the mesh
the same way. A service announces its address (advertised host, bound port) in its JSON "serving"
log line, which lets callers ask for port 0 (a free ephemeral port) and still find it; a restart
pins the port it announced, so the service comes back where its peers dial it. Unless plaintext is asked for
(HEALTHMESH_TRANSPORT=plaintext), a service's mesh certificate is made on its first start, in
the data directory's local PKI, and the launcher checks health with a certificate of its own.
"""

import functools
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from runtime import addresses, pki
from runtime.settings import DataSettings
from runtime.transport import Transport


class StartError(RuntimeError):
    """A service exited or never became healthy; the message carries its log tail."""


@dataclass
class Service:
    name: str
    argv: list[str]
    env: Mapping[str, str]
    health_name: str
    log_path: Path
    edge: bool = False  # the public port (the orchestrator's): plaintext in development
    prefix: Sequence[str] = ()  # runs argv under it, e.g. `ip netns exec <namespace>`
    proc: subprocess.Popen | None = None
    address: str = ""  # announced in the "serving" log line
    _log: object = field(default=None, repr=False)

    @property
    def port(self) -> int:
        return addresses.split(self.address)[1] if self.address else 0

    def _setting(self, name: str) -> str:
        return (self.env.get(name) or os.environ.get(name) or "").strip()

    @property
    def pki_dir(self) -> Path:
        return Path(self._setting("HEALTHMESH_DATA_DIR") or DataSettings().data_dir) / "pki"

    @property
    def mtls(self) -> bool:
        return self._setting("HEALTHMESH_TRANSPORT") != "plaintext"

    def transport(self, identity: str = "orchestrator") -> Transport:
        """How `identity` reaches this service. A production edge serves TLS with a certificate the
        local CA signed (tests), so its clients trust that CA."""
        if self.edge:
            if self._setting("HEALTHMESH_EDGE_MODE") == "production":
                return Transport(identity, ca=(self.pki_dir / "ca.crt").read_bytes())
            return Transport.plain(identity)
        if not self.mtls:
            return Transport.plain(identity)
        return local_transport(self.pki_dir, identity)

    def channel(self, identity: str = "orchestrator") -> grpc.Channel:
        """A blocking channel to this service, as `identity` (its certificate made if missing)."""
        return self.transport(identity).channel(self.address, server=self.name)

    def start(self) -> None:
        """A fresh start: a new log, and the port the settings ask for."""
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self.log_path.write_bytes(b"")
        self.address = ""
        self._spawn()

    def restart(self, note: str) -> None:
        """Starts the exited process again on the address it announced; its log continues after
        `note`, so the tail shows why it exited."""
        self._close_log()
        if self.address:
            self.env = {**self.env, "HEALTHMESH_PORT": str(self.port)}
        with self.log_path.open("ab") as log:
            log.write(f"--- {note} ---\n".encode())
        self._spawn()

    def _spawn(self) -> None:
        if self.mtls:
            pki.ensure_local(self.pki_dir, [self.name])
        self._log = self.log_path.open("ab")
        self.proc = subprocess.Popen(
            [*self.prefix, *self.argv], env={**os.environ, **self.env}, stdin=subprocess.DEVNULL,
            stdout=self._log, stderr=subprocess.STDOUT, start_new_session=True,
        )

    def healthy(self) -> bool:
        """One look: True once the process announced its address and its health says SERVING;
        StartError (with the log tail) if it exited."""
        assert self.proc is not None
        if self.proc.poll() is not None:
            raise StartError(f"{self.name} exited with code {self.proc.returncode}\n{self.log_tail()}")
        if not self.address:
            self.address = announced_address(self.log_path)
        return bool(self.address) and health_status(
            self.transport("launcher"), self.address, self.health_name, server=self.name) == "SERVING"

    def wait_healthy(self, deadline: float) -> None:
        while time.monotonic() < deadline:
            if self.healthy():
                return
            time.sleep(0.05)
        raise StartError(f"{self.name} was not healthy in time\n{self.log_tail()}")

    def stop(self, timeout: float = 15.0) -> int | None:
        """SIGTERM (the service drains), then SIGKILL if it overstays `timeout`."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._close_log()
        return self.proc.returncode

    def kill(self) -> None:
        """SIGKILL: a crash, with no drain."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self._close_log()

    def log_tail(self, lines: int = 30) -> str:
        try:
            text = self.log_path.read_text(errors="replace").splitlines()
        except OSError:
            return "(no log)"
        return "\n".join(f"  | {line}" for line in text[-lines:])

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()  # type: ignore[attr-defined]
            self._log = None


def announced_address(log_path: Path) -> str:
    try:
        text = log_path.read_text(errors="replace")
    except OSError:
        return ""
    for line in text.splitlines():
        if '"serving"' in line:
            try:
                return str(json.loads(line)["address"])
            except (ValueError, KeyError):
                continue
    return ""


@functools.lru_cache
def local_transport(pki_dir: Path, identity: str) -> Transport:
    return Transport.local(pki_dir, identity)


def health_status(transport: Transport, address: str, service: str = "", timeout: float = 1.0, *,
                  server: str = "") -> str:
    """The standard health service's answer, or the error code's name when unreachable. `server`
    names the mesh service expected at `address` (see Transport.channel)."""
    with transport.channel(address, server=server) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        try:
            reply = stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=timeout)
        except grpc.RpcError as err:
            return err.code().name
    return health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)


def clinic_service(clinic_id: str, log_dir: Path, env: Mapping[str, str]) -> Service:
    return Service(
        name=clinic_id,
        argv=[sys.executable, "-m", "clinics", "--clinic", clinic_id],
        env=env,
        health_name="healthmesh.v1.ClinicService",
        log_path=log_dir / f"{clinic_id}.log",
    )


def verifier_service(log_dir: Path, env: Mapping[str, str]) -> Service:
    return Service(name="verifier", argv=[sys.executable, "-m", "verifier"], env=env,
                   health_name="healthmesh.v1.VerifierService", log_path=log_dir / "verifier.log")


def tools_service(log_dir: Path, env: Mapping[str, str]) -> Service:
    return Service(name="tools", argv=[sys.executable, "-m", "tools"], env=env,
                   health_name="healthmesh.v1.DrugService", log_path=log_dir / "tools.log")


def escalation_service(log_dir: Path, env: Mapping[str, str]) -> Service:
    return Service(name="escalation", argv=[sys.executable, "-m", "escalation"], env=env,
                   health_name="healthmesh.v1.EscalationService", log_path=log_dir / "escalation.log")


def orchestrator_service(log_dir: Path, env: Mapping[str, str]) -> Service:
    return Service(name="orchestrator", argv=[sys.executable, "-m", "orchestrator"], env=env,
                   health_name="healthmesh.v1.OrchestratorService",
                   log_path=log_dir / "orchestrator.log", edge=True)


def start_all(services: Iterable[Service], timeout: float = 30.0) -> list[Service]:
    """Starts every service at once and waits for all to be healthy. On any failure the
    others are stopped and StartError names the culprit with its log."""
    started = list(services)
    for svc in started:
        svc.start()
    deadline = time.monotonic() + timeout
    try:
        for svc in started:
            svc.wait_healthy(deadline)
    except StartError:
        stop_all(started)
        raise
    return started


def stop_all(services: Iterable[Service]) -> None:
    services = list(services)
    for svc in services:
        if svc.proc is not None and svc.proc.poll() is None:
            svc.proc.send_signal(signal.SIGTERM)
    for svc in services:
        svc.stop()
