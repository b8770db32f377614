"""How services reach each other: mutual TLS with the mesh CA by default, plaintext only when
HEALTHMESH_TRANSPORT=plaintext asks for it (under Istio, whose sidecars do the mTLS).

A service's files default to the local PKI in the data directory (runtime.pki); with mTLS a
missing file stops the process at start, naming the setting."""

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc

from runtime import pki
from runtime.config import ConfigError
from runtime.settings import TransportSettings


@dataclass(frozen=True)
class Listener:
    """How a server's port is secured: the mesh's mTLS (every call then passes the authorization
    policy), the edge's TLS, or plaintext."""

    credentials: grpc.ServerCredentials | None
    authorize: bool
    name: str  # "mtls" | "tls" | "plaintext", for the log

    @classmethod
    def plaintext(cls) -> "Listener":
        return cls(None, False, "plaintext")


@dataclass(frozen=True)
class Transport:
    """One process's side of a connection: the CA it trusts and its identity's PEM bytes (mutual
    TLS), the CA alone (a client of a TLS server), or nothing (plaintext)."""

    identity: str
    cert: bytes = b""
    key: bytes = b""
    ca: bytes = b""

    @property
    def plaintext(self) -> bool:
        return not self.ca

    @classmethod
    def plain(cls, identity: str) -> "Transport":
        return cls(identity)

    @classmethod
    def from_settings(cls, settings: TransportSettings, data_dir: Path, identity: str) -> "Transport":
        if settings.plaintext:
            return cls.plain(identity)
        local = pki.Identity.local(data_dir / "pki", identity)
        files = {"HEALTHMESH_TLS_CERT": settings.cert or local.cert,
                 "HEALTHMESH_TLS_KEY": settings.key or local.key,
                 "HEALTHMESH_TLS_CA": settings.ca or local.ca}
        pem: dict[str, bytes] = {}
        for name, path in files.items():
            try:
                pem[name] = path.read_bytes()
            except OSError as err:
                raise ConfigError(f"{name}: cannot read {path} ({err.strerror}); make the mesh's "
                                  "certificates "
                                  "(`make up` does on first start) or set HEALTHMESH_TRANSPORT=plaintext "
                                  "under a service mesh that does mTLS") from None
        return cls(identity, pem["HEALTHMESH_TLS_CERT"], pem["HEALTHMESH_TLS_KEY"], pem["HEALTHMESH_TLS_CA"])

    @classmethod
    def local(cls, pki_dir: Path, identity: str) -> "Transport":
        """A local identity's transport (the launcher, tests, benchmarks), made if missing."""
        pki.ensure_local(pki_dir, [identity])
        files = pki.Identity.local(pki_dir, identity)
        return cls(identity, files.cert.read_bytes(), files.key.read_bytes(), files.ca.read_bytes())

    def listener(self) -> Listener:
        """Peers must present a certificate of the mesh CA (others fail the handshake), and each
        call passes the authorization policy."""
        if self.plaintext:
            return Listener.plaintext()
        credentials = grpc.ssl_server_credentials([(self.key, self.cert)], root_certificates=self.ca,
                                                  require_client_auth=True)
        return Listener(credentials, True, "mtls")

    def _credentials(self) -> grpc.ChannelCredentials:
        return grpc.ssl_channel_credentials(root_certificates=self.ca, private_key=self.key or None,
                                            certificate_chain=self.cert or None)

    def aio_channel(self, target: str, *, server: str = "", options: Sequence[tuple[str, Any]] = (),
                    interceptors: Sequence[Any] = ()) -> grpc.aio.Channel:
        """A channel to `target`. Naming the `server` (a mesh service) checks its certificate by that
        service's name rather than by the address dialled, so any host:port works."""
        if self.plaintext:
            return grpc.aio.insecure_channel(target, options=options, interceptors=interceptors)
        return grpc.aio.secure_channel(target, self._credentials(), options=[*options, *_named(server)],
                                       interceptors=interceptors)

    def channel(self, target: str, *, server: str = "") -> grpc.Channel:
        """A blocking channel (the launcher's health checks, tests, the chat)."""
        if self.plaintext:
            return grpc.insecure_channel(target)
        return grpc.secure_channel(target, self._credentials(), options=_named(server))


def _named(server: str) -> list[tuple[str, str]]:
    """Every mesh certificate names its service's account (runtime.pki.issue)."""
    return [("grpc.ssl_target_name_override", pki.account(server))] if server else []
