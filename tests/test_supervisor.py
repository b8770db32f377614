"""The supervised launcher: a clinic killed with SIGKILL comes back on its address while the
others keep serving (answers are PARTIAL meanwhile, complete again after); a service that crashes
on every start is reported crash-looping and left stopped; Ctrl-C stops every process."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from deploy.local.processes import health_status
from deploy.local.supervisor import State, Supervisor
from healthmesh.v1 import orchestrator_pb2 as pb
from runtime.settings import LauncherSettings
from tests.conftest import run_mesh

# Short backoffs; long bounds for a start, which takes over 30 s when the machine is loaded (a full suite
# beside other work): waiting longer costs nothing when it passes.
QUICK = LauncherSettings(restart_backoff_s=0.1, restart_backoff_max_s=0.5, crash_loop_restarts=2,
                         crash_loop_window_s=120, start_timeout_s=90)


@pytest.fixture
def mesh(tmp_path):
    handle = run_mesh(tmp_path, HEALTHMESH_BREAKER_FAIL_MAX="3", HEALTHMESH_BREAKER_RESET_S="0.5",
                      HEALTHMESH_CALL_TIMEOUT_S="1")
    yield handle
    handle.close()


def wait_for(predicate, timeout: float = 90.0, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if result := predicate():
            return result
        time.sleep(0.1)
    raise AssertionError(f"no {what} within {timeout} s")


def clinics_listed(reply) -> set[str]:
    return {s.clinic_id for s in reply.slots}


def test_a_killed_clinic_is_restarted_on_its_address(mesh):
    clinic_c = mesh.mesh.clinics["clinic_c"]
    address, changes = clinic_c.address, []
    supervisor = Supervisor(mesh.mesh.services, QUICK, lambda svc, status: changes.append((svc.name,
                                                                                          status.state)))
    assert mesh.ask("cardiology slots").disposition == pb.DISPOSITION_ANSWERED
    os.kill(clinic_c.proc.pid, signal.SIGKILL)
    clinic_c.proc.wait()

    # Down and not yet restarted (nothing has looked): the answer is partial, not an error.
    down = mesh.ask("cardiology slots")
    assert down.disposition == pb.DISPOSITION_PARTIAL, down.answer
    assert clinics_listed(down) == {"clinic_a"}

    supervisor.start(interval=0.05)
    try:
        wait_for(lambda: supervisor.status["clinic_c"].state is State.SERVING and changes, what="restart")
    finally:
        supervisor.stop()
    assert changes == [("clinic_c", State.RESTARTING), ("clinic_c", State.SERVING)]
    assert supervisor.status["clinic_c"].restarts == 1
    assert "killed by signal 9" in supervisor.status["clinic_c"].last_exit
    assert clinic_c.address == address  # the same port, where the registry says it is
    assert health_status(clinic_c.transport("launcher"), address, clinic_c.health_name,
                         server="clinic_c") == "SERVING"
    # The orchestrator's channel reconnects and its breaker closes after its reset time.
    back = wait_for(lambda: (r := mesh.ask("cardiology slots")).disposition == pb.DISPOSITION_ANSWERED and r,
                    what="complete answer")
    assert clinics_listed(back) == {"clinic_a", "clinic_c"}
    assert "restart 1 by the launcher after killed by signal 9" in clinic_c.log_path.read_text()


def test_a_service_that_keeps_crashing_is_reported_and_the_rest_keep_serving(mesh, tmp_path):
    clinic_a = mesh.mesh.clinics["clinic_a"]
    reported = []
    supervisor = Supervisor(mesh.mesh.services, QUICK, lambda svc, status: reported.append(status.state))
    clinic_a.kill()
    database = tmp_path / "clinic_a.sqlite3"
    for path in tmp_path.glob("clinic_a.sqlite3*"):
        path.unlink()
    database.write_bytes(b"this is not a database" * 100)  # every start now fails at once

    supervisor.start(interval=0.05)
    try:
        wait_for(lambda: supervisor.status["clinic_a"].state is State.CRASH_LOOPING, what="crash loop")
        time.sleep(0.5)  # left stopped: no more restarts
    finally:
        supervisor.stop()
    status = supervisor.status["clinic_a"]
    assert status.restarts == QUICK.crash_loop_restarts
    assert reported == [State.RESTARTING] * QUICK.crash_loop_restarts + [State.CRASH_LOOPING]
    assert status.last_exit == "exit code 1"
    assert "not a database" in clinic_a.log_tail()  # the reason, for the report
    others = [svc for svc in mesh.mesh.services if svc is not clinic_a]
    assert all(supervisor.status[svc.name].state is State.SERVING for svc in others)

    reply = mesh.ask("cardiology slots")
    assert reply.disposition == pb.DISPOSITION_PARTIAL
    assert clinics_listed(reply) == {"clinic_c"}


def launcher_processes(data_dir: Path) -> list[int]:
    """Every process whose environment names this data directory (the launcher's services)."""
    marker = f"HEALTHMESH_DATA_DIR={data_dir}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker in (entry / "environ").read_bytes().split(b"\0"):
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def test_make_up_restarts_a_killed_service_and_ctrl_c_stops_everything(tmp_path):
    """`python -m deploy.local` (make up) on free ports: a registry whose targets ask for port 0."""
    raw = json.loads(Path("deploy/registry.json").read_text(encoding="utf-8"))
    for item in raw["clinics"]:
        item["target"] = "127.0.0.1:0"
    registry = tmp_path / "registry.json"
    registry.write_text(json.dumps(raw), encoding="utf-8")
    data = tmp_path / "data"
    env = {**os.environ, "HEALTHMESH_DATA_DIR": str(data), "HEALTHMESH_REGISTRY": str(registry),
           "HEALTHMESH_ORCHESTRATOR_TARGET": "127.0.0.1:0", "HEALTHMESH_VERIFIER_TARGET": "127.0.0.1:0",
           "HEALTHMESH_TOOLS_TARGET": "127.0.0.1:0", "HEALTHMESH_SHUTDOWN_GRACE_S": "1",
           "HEALTHMESH_RESTART_BACKOFF_S": "0.1", "COLUMNS": "200"}
    out = tmp_path / "launcher.out"
    with out.open("wb") as sink:
        launcher = subprocess.Popen([sys.executable, "-m", "deploy.local"], env=env, stdout=sink,
                                    stderr=subprocess.STDOUT)
    try:
        wait_for(lambda: "Press Ctrl-C" in out.read_text(), timeout=90, what="mesh")
        clinic_log = data / "logs" / "clinic_b.log"
        clinic_b = next(pid for pid in launcher_processes(data)
                        if b"clinic_b" in Path(f"/proc/{pid}/cmdline").read_bytes())
        os.kill(clinic_b, signal.SIGKILL)
        wait_for(lambda: "clinic_b is serving again" in out.read_text(), what="restart")
        text = out.read_text()
        assert "clinic_b went down (killed by signal 9)" in text
        assert "restart 1 by the launcher" in clinic_log.read_text()
        # The table is printed again after the line that says so: wait for it rather than race it.
        wait_for(lambda: any("clinic_b" in line and "serving" in line and "│ 1 " in line
                             for line in out.read_text().splitlines()), what="the table with one restart")

        launcher.send_signal(signal.SIGINT)
        assert launcher.wait(timeout=60) == 0
    finally:
        if launcher.poll() is None:
            launcher.kill()
            launcher.wait()
        left = launcher_processes(data)
        for pid in left:
            os.kill(pid, signal.SIGKILL)
    assert left == []
    assert "stopping…" in out.read_text()
