"""The mesh's certificates: a CA and, per service, a certificate whose URI SAN is its SPIFFE id
(`spiffe://healthmesh.local/ns/<namespace>/sa/<service>`). `make run`/`make up` and the tests make
a local CA and the certificates on first start; in Kubernetes they come from the platform.

Keys are EC P-256 and written 0600. A certificate also names localhost, 127.0.0.1 and the service's
DNS name, so a client checks the server it dialled as usual.
"""

import datetime as dt
import ipaddress
import os
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

TRUST_DOMAIN = "healthmesh.local"
LOCAL_NAMESPACE = "local"
VALID_DAYS = 365


def account(service: str) -> str:
    """A service's account name: Kubernetes names allow no underscore ("clinic_a" → "clinic-a")."""
    return service.replace("_", "-")


def spiffe_id(service: str, namespace: str = LOCAL_NAMESPACE) -> str:
    return f"spiffe://{TRUST_DOMAIN}/ns/{namespace}/sa/{account(service)}"


def account_of(spiffe: str) -> str | None:
    """The account a SPIFFE id of this trust domain names, or None for anything else."""
    prefix = f"spiffe://{TRUST_DOMAIN}/ns/"
    if not spiffe.startswith(prefix):
        return None
    parts = spiffe.removeprefix(prefix).split("/")
    return parts[2] if len(parts) == 3 and parts[1] == "sa" and parts[0] and parts[2] else None


@dataclass(frozen=True)
class Identity:
    """Where one identity's PEM files are."""

    cert: Path
    key: Path
    ca: Path

    @classmethod
    def local(cls, pki_dir: Path, service: str) -> "Identity":
        name = account(service)
        return cls(pki_dir / f"{name}.crt", pki_dir / f"{name}.key", pki_dir / "ca.crt")


def ensure_local(pki_dir: Path, services: list[str]) -> None:
    """Makes the local CA (once) and the certificates of `services` that do not exist yet."""
    pki_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    ca_cert, ca_key = pki_dir / "ca.crt", pki_dir / "ca.key"
    if not ca_cert.exists():
        key = ec.generate_private_key(ec.SECP256R1())
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "healthmesh local CA")])
        cert = (_builder(name, name, key.public_key())
                .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
                .add_extension(_usage(ca=True), critical=True)
                .sign(key, hashes.SHA256()))
        _write_key(ca_key, key)
        ca_cert.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    ca = x509.load_pem_x509_certificate(ca_cert.read_bytes())
    signer = serialization.load_pem_private_key(ca_key.read_bytes(), password=None)
    for service in services:
        files = Identity.local(pki_dir, service)
        if not files.cert.exists():
            issue(ca, signer, service, files)


def edge_dev_key(pki_dir: Path) -> tuple[Path, Path]:
    """The development edge's token key pair: private (the chat signs), public (the edge verifies)."""
    return pki_dir / "edge-dev.key", pki_dir / "edge-dev.pub"


def ensure_signing_key(private: Path, public: Path) -> None:
    """A key pair for signing tokens (the development edge's), made once; the private key 0600."""
    if private.exists() and public.exists():
        return
    private.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    key = ec.generate_private_key(ec.SECP256R1())
    _write_key(private, key)
    public.write_bytes(key.public_key().public_bytes(serialization.Encoding.PEM,
                                                     serialization.PublicFormat.SubjectPublicKeyInfo))


def issue(ca: x509.Certificate, signer: ec.EllipticCurvePrivateKey, service: str, files: Identity,
          *, namespace: str = LOCAL_NAMESPACE) -> None:
    """A certificate for `service` signed by the CA, for both ends of a connection."""
    key = ec.generate_private_key(ec.SECP256R1())
    names = x509.SubjectAlternativeName([
        x509.UniformResourceIdentifier(spiffe_id(service, namespace)),
        x509.DNSName(account(service)), x509.DNSName("localhost"),
        x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
    ])
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, account(service))])
    cert = (_builder(subject, ca.subject, key.public_key())
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(_usage(ca=False), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH,
                                                  ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False)
            .add_extension(names, critical=False)
            .sign(signer, hashes.SHA256()))
    _write_key(files.key, key)
    files.cert.write_bytes(cert.public_bytes(serialization.Encoding.PEM))


def _builder(subject: x509.Name, issuer: x509.Name, public_key: ec.EllipticCurvePublicKey
             ) -> x509.CertificateBuilder:
    now = dt.datetime.now(dt.UTC)
    return (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer).public_key(public_key)
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(minutes=5))
            .not_valid_after(now + dt.timedelta(days=VALID_DAYS)))


def _usage(*, ca: bool) -> x509.KeyUsage:
    return x509.KeyUsage(digital_signature=not ca, content_commitment=False, key_encipherment=False,
                         data_encipherment=False, key_agreement=False, key_cert_sign=ca, crl_sign=ca,
                         encipher_only=False, decipher_only=False)


def _write_key(path: Path, key: ec.EllipticCurvePrivateKey) -> None:
    """Written 0600 from the first byte: the file is created with that mode, never widened."""
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(pem)
