"""Makes the certificates and keys the Kubernetes manifests mount, as manifests to apply:

  python -m deploy.k8s.certs --namespace healthmesh-dev --out var/k8s/healthmesh-dev
  kubectl apply -f var/k8s/healthmesh-dev/secrets.yaml

Per service account (every service, the clinics of deploy/registry.json and `operator`) a Secret
`<account>-mtls` (tls.crt, tls.key, ca.crt: the layout cert-manager writes) whose certificate carries
`spiffe://healthmesh.local/ns/<namespace>/sa/<account>`; the orchestrator's edge certificate
(`orchestrator-edge-tls`, for a cluster without a public one) and the ConfigMap `edge-jwt` with the
public key that verifies patients' tokens; and `orchestrator-state-keys` (audit.key, session.key:
the audit chain's HMAC key and the sessions' seal, the same for every orchestrator replica) and
`escalation-audit-key` (audit.key: the escalation service's chain key). The CA's key, the operator's
files, the token-signing private key and the three chain and state keys (an audit key verifies its
chain later) stay in --out (mode 0600).
Run again to re-issue every certificate with the same CA. Not needed under Istio (its sidecars hold
the workloads' certificates), except for the edge's Secret and ConfigMap.
"""

import argparse
import base64
from pathlib import Path

import yaml
from cryptography import x509
from cryptography.hazmat.primitives import serialization

from runtime import pki, registry, secretfile

SERVICES = ("orchestrator", "tools", "verifier", "escalation")
OPERATOR = "operator"
EDGE_TLS_SECRET, EDGE_JWT_CONFIGMAP = "orchestrator-edge-tls", "edge-jwt"
STATE_KEYS_SECRET = "orchestrator-state-keys"
ESCALATION_KEY_SECRET = "escalation-audit-key"
LABELS = {"app.kubernetes.io/part-of": "healthmesh"}


def accounts(registry_path: Path = registry.DEFAULT_PATH) -> list[str]:
    """Every identity that gets a mesh certificate."""
    return [*SERVICES, *registry.load(registry_path), OPERATOR]


def _tls_secret(name: str, namespace: str, files: pki.Identity, *, with_ca: bool) -> dict:
    data = {"tls.crt": files.cert, "tls.key": files.key, **({"ca.crt": files.ca} if with_ca else {})}
    return {"apiVersion": "v1", "kind": "Secret", "type": "kubernetes.io/tls",
            "metadata": {"name": name, "namespace": namespace, "labels": LABELS},
            "data": {key: base64.b64encode(path.read_bytes()).decode() for key, path in data.items()}}


def _opaque(name: str, namespace: str, data: dict[str, bytes]) -> dict:
    return {"apiVersion": "v1", "kind": "Secret", "type": "Opaque",
            "metadata": {"name": name, "namespace": namespace, "labels": LABELS},
            "data": {key: base64.b64encode(value).decode() for key, value in data.items()}}


def make(out: Path, namespace: str, registry_path: Path = registry.DEFAULT_PATH) -> Path:
    """Writes the files and `secrets.yaml` into `out`; returns the manifest's path."""
    pki.ensure_local(out, [])  # the CA alone, made once
    ca = x509.load_pem_x509_certificate((out / "ca.crt").read_bytes())
    signer = serialization.load_pem_private_key((out / "ca.key").read_bytes(), password=None)
    documents = []
    for service in accounts(registry_path):
        files = pki.Identity.local(out, service)
        pki.issue(ca, signer, service, files, namespace=namespace)
        if service != OPERATOR:  # the operator's files stay with the operator
            documents.append(_tls_secret(f"{pki.account(service)}-mtls", namespace, files, with_ca=True))
    edge = pki.Identity(out / "orchestrator-edge.crt", out / "orchestrator-edge.key", out / "ca.crt")
    pki.issue(ca, signer, "orchestrator", edge, namespace=namespace)
    documents.append(_tls_secret(EDGE_TLS_SECRET, namespace, edge, with_ca=False))
    private, public = out / "edge-jwt.key", out / "edge-jwt.pub"
    pki.ensure_signing_key(private, public)
    documents.append({"apiVersion": "v1", "kind": "ConfigMap",
                      "metadata": {"name": EDGE_JWT_CONFIGMAP, "namespace": namespace,
                                   "labels": LABELS},
                      "data": {"public.pem": public.read_text()}})
    keys = {name: secretfile.load(out / name, create=True) for name in ("audit.key", "session.key")}
    documents.append(_opaque(STATE_KEYS_SECRET, namespace, keys))
    escalation_key = secretfile.load(out / "escalation-audit.key", create=True)
    documents.append(_opaque(ESCALATION_KEY_SECRET, namespace, {"audit.key": escalation_key}))
    manifest = out / "secrets.yaml"
    manifest.write_text("".join(f"---\n{yaml.safe_dump(d, sort_keys=False)}" for d in documents))
    manifest.chmod(0o600)
    return manifest


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m deploy.k8s.certs", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--namespace", required=True, help="the namespace the overlay deploys to")
    parser.add_argument("--out", type=Path, required=True, help="directory for the CA, keys and secrets.yaml")
    args = parser.parse_args()
    manifest = make(args.out, args.namespace)
    print(f"wrote {manifest}: kubectl apply -f {manifest}")


if __name__ == "__main__":
    main()
