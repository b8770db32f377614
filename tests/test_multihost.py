"""The mesh across hosts: each service in its own Linux network namespace with its own address,
joined by veth pairs to a bridge, over mutual TLS. An nft rule partitions a cardiology clinic:
once keepalive finds its slot stream dead (listings come from the orchestrator's slot replica until
then), answers turn PARTIAL and the orchestrator's breaker for it opens; deleting the rule heals it and,
after the breaker's reset time, answers are complete again.

Only namespaces made here hold interfaces and addresses, the bridge included: it lives in an
"operator" namespace, the vantage point of the launcher and the patient, so the scenario runs in a
process there (`python -m tests.test_multihost PLAN`). Every namespace is removed afterwards, with
whatever it held, even on failure. Needs root, `ip` and `nft` (`.ci/run` installs nftables).
"""

import json
import os
import random
import secrets
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import jwt
import pytest

SERVICES = ("orchestrator", "verifier", "tools", "escalation", "clinic_a", "clinic_c")
PORTS = {"orchestrator": 50050, "verifier": 50060, "tools": 50070, "escalation": 50080, "clinic_a": 50051,
         "clinic_c": 50053}
PARTITIONED = "clinic_c"
# Short timeouts, so a partition is seen and healed in seconds.
FAST = {"HEALTHMESH_CALL_TIMEOUT_S": "1", "HEALTHMESH_BREAKER_FAIL_MAX": "2",
        "HEALTHMESH_BREAKER_RESET_S": "1", "HEALTHMESH_SHUTDOWN_GRACE_S": "1",
        "HEALTHMESH_REPHRASE_MAX_CHARS": "0"}
DROP_ALL_INPUT = """table inet partition {
  chain input {
    type filter hook input priority 0; policy accept;
    iifname "eth0" drop
  }
}
"""


def _missing() -> str:
    if os.geteuid() != 0:
        return "needs root to create network namespaces"
    if absent := [tool for tool in ("ip", "nft") if shutil.which(tool) is None]:
        return f"needs {' and '.join(absent)} (iproute2, nftables; `.ci/run` installs nftables)"
    return ""


def ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=30)


@contextmanager
def network(tag: str) -> Iterator[dict[str, Any]]:
    """An operator namespace holding a bridge, and one namespace per service with a veth on it.
    Yields the plan: namespace names and addresses."""
    subnet = f"10.77.{random.randrange(1, 255)}"
    operator = f"{tag}-operator"
    plan: dict[str, Any] = {"operator": operator, "namespaces": {}, "addresses": {}}
    made: list[str] = []
    try:
        ip("netns", "add", operator)
        made.append(operator)
        ip("-n", operator, "link", "set", "lo", "up")
        ip("-n", operator, "link", "add", "br0", "type", "bridge")
        ip("-n", operator, "addr", "add", f"{subnet}.1/24", "dev", "br0")
        ip("-n", operator, "link", "set", "br0", "up")
        for index, service in enumerate(SERVICES):
            namespace, address = f"{tag}-{service}", f"{subnet}.{10 + index}"
            ip("netns", "add", namespace)
            made.append(namespace)
            ip("-n", operator, "link", "add", f"v{index}", "type", "veth",
               "peer", "name", "eth0", "netns", namespace)
            ip("-n", operator, "link", "set", f"v{index}", "master", "br0", "up")
            ip("-n", namespace, "addr", "add", f"{address}/24", "dev", "eth0")
            ip("-n", namespace, "link", "set", "eth0", "up")
            ip("-n", namespace, "link", "set", "lo", "up")
            plan["namespaces"][service] = namespace
            plan["addresses"][service] = f"{address}:{PORTS[service]}"
        yield plan
    finally:
        for namespace in reversed(made):  # whatever still runs in it first, then the namespace
            pids = subprocess.run(["ip", "netns", "pids", namespace], capture_output=True, text=True).stdout
            for pid in pids.split():
                try:
                    os.kill(int(pid), 9)
                except ProcessLookupError:
                    pass
            subprocess.run(["ip", "netns", "del", namespace], capture_output=True)


def namespaces_named(tag: str) -> list[str]:
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    return [line.split()[0] for line in listed.splitlines() if line.startswith(f"{tag}-")]


@pytest.mark.skipif(bool(_missing()), reason=_missing() or "runs")
def test_a_partitioned_clinic_turns_answers_partial_and_heals(tmp_path):
    tag = f"hm{secrets.token_hex(3)}"
    try:
        with network(tag) as plan:
            plan["data_dir"] = str(tmp_path / "data")
            (tmp_path / "plan.json").write_text(json.dumps(plan))
            done = subprocess.run(
                ["ip", "netns", "exec", plan["operator"], sys.executable, "-m", "tests.test_multihost",
                 str(tmp_path / "plan.json")],
                capture_output=True, text=True, timeout=120, cwd=Path(__file__).resolve().parent.parent)
            print(done.stdout)
            assert done.returncode == 0, f"{done.stdout}\n{done.stderr[-6000:]}"
    finally:
        left = namespaces_named(tag)
    assert left == []
    assert "healed in" in done.stdout


# --- the scenario, run in the operator's namespace ---------------------------------------------

def wait_for(what: str, probe: Callable[[], Any], timeout: float = 30.0) -> tuple[Any, float]:
    """The first truthy result of `probe` and how long it took."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if result := probe():
            return result, time.monotonic() - start
        time.sleep(0.2)
    raise AssertionError(f"no {what} within {timeout} s")


def across_hosts(plan: dict[str, Any]) -> None:
    from deploy.local.mesh import start_mesh
    from healthmesh.v1 import orchestrator_pb2 as pb
    from healthmesh.v1 import orchestrator_pb2_grpc
    from runtime import pki, registry
    from tests.conftest import MARIA

    data, where = Path(plan["data_dir"]), plan["addresses"]
    data.mkdir(parents=True)
    raw = json.loads(registry.DEFAULT_PATH.read_text(encoding="utf-8"))
    raw["clinics"] = [dict(item, target=where[item["id"]]) for item in raw["clinics"] if item["id"] in where]
    clinics = data / "registry.json"
    clinics.write_text(json.dumps(raw), encoding="utf-8")
    # The public edge off loopback: production mode, TLS from the mesh CA and patients' tokens.
    pki.ensure_local(data / "pki", ["orchestrator"])
    edge = pki.Identity.local(data / "pki", "orchestrator")
    signer, verifier_key = data / "issuer.key", data / "issuer.pub"
    pki.ensure_signing_key(signer, verifier_key)
    now = int(time.time())
    bearer = jwt.encode({"sub": MARIA.cpf, "name": MARIA.full_name, "aud": "healthmesh", "iat": now,
                         "exp": now + 600}, signer.read_bytes(), algorithm="ES256")
    env = {**FAST, "HEALTHMESH_EDGE_MODE": "production", "HEALTHMESH_JWT_PUBLIC_KEY": str(verifier_key),
           "HEALTHMESH_EDGE_TLS_CERT": str(edge.cert), "HEALTHMESH_EDGE_TLS_KEY": str(edge.key)}
    prefixes = {name: ["ip", "netns", "exec", namespace] for name, namespace in plan["namespaces"].items()}
    mesh = start_mesh(data, ephemeral_ports=False, env=env, registry_path=clinics, timeout=60,
                      service_addresses=where, prefixes=prefixes)
    try:
        assert {svc.name: svc.address for svc in mesh.services} == where  # announced where peers dial
        channel = mesh.orchestrator.channel()
        stub = orchestrator_pb2_grpc.OrchestratorServiceStub(channel)

        def ask() -> pb.AskResponse:
            return stub.Ask(pb.AskRequest(message="cardiology slots"), timeout=10,
                            metadata=[("authorization", f"Bearer {bearer}")])

        def breaker() -> int:
            upstreams = stub.DescribeMesh(pb.DescribeMeshRequest(), timeout=10).upstreams
            return next(u.breaker for u in upstreams if u.name == PARTITIONED)

        def step(reply: pb.AskResponse) -> int:
            return next(s.status for s in reply.steps if s.clinic_id == PARTITIONED)

        whole = ask()
        assert whole.disposition == pb.DISPOSITION_ANSWERED, whole.answer
        assert {s.clinic_id for s in whole.slots} == {"clinic_a", "clinic_c"}

        nft = ["ip", "netns", "exec", plan["namespaces"][PARTITIONED], "nft"]
        subprocess.run([*nft, "-f", "-"], input=DROP_ALL_INPUT, text=True, check=True, timeout=10)
        # Listed from the replica until keepalive finds the clinic's stream dead (about 5 s); then
        # the clinic is asked, and its calls fail.
        partial, found = wait_for("partial answer",
                                  lambda: (r := ask()).disposition == pb.DISPOSITION_PARTIAL and r)
        assert {s.clinic_id for s in partial.slots} == {"clinic_a"}
        # Timed out, or refused at once by a channel that saw the transport fail (and whose retry may
        # already have opened the breaker).
        assert step(partial) in (pb.STEP_STATUS_TIMED_OUT, pb.STEP_STATUS_UNAVAILABLE,
                                 pb.STEP_STATUS_CIRCUIT_OPEN)
        opened, took = wait_for("open breaker",
                                lambda: (r := ask()) and step(r) == pb.STEP_STATUS_CIRCUIT_OPEN and r)
        assert opened.disposition == pb.DISPOSITION_PARTIAL
        # Open, or already letting a trial through: its reset time (1 s) may pass on a busy machine.
        assert breaker() in (pb.BREAKER_STATE_OPEN, pb.BREAKER_STATE_HALF_OPEN)
        print(f"partitioned: PARTIAL after {found:.1f} s, breaker open after {took:.1f} s more")

        subprocess.run([*nft, "delete table inet partition"], check=True, timeout=10)
        healed, took = wait_for("complete answer",
                                lambda: (r := ask()).disposition == pb.DISPOSITION_ANSWERED and r)
        assert {s.clinic_id for s in healed.slots} == {"clinic_a", "clinic_c"}
        assert breaker() == pb.BREAKER_STATE_CLOSED
        print(f"healed in {took:.1f} s (breaker reset {FAST['HEALTHMESH_BREAKER_RESET_S']} s)")
        channel.close()
    finally:
        mesh.stop()


if __name__ == "__main__":
    across_hosts(json.loads(Path(sys.argv[1]).read_text()))
