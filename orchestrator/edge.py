"""The public edge: who the patient of a call is.

A bearer token (`authorization: Bearer <JWT>`) names the patient: `sub` is her CPF, `name` her
full name. It must be signed by a configured key (ES256 or RS256), name the audience and be
unexpired; otherwise the call is UNAUTHENTICATED. A request that also names a patient must name
the same one (PERMISSION_DENIED otherwise), so a token for one patient never acts for another.

- production: the port serves TLS and every call carries a token;
- development (the default of `make run`/`make up`, loopback only): plaintext, and name and CPF
  in the request are accepted without a token too; the chat signs short-lived tokens with a
  development key made on first start (`$HEALTHMESH_DATA_DIR/pki/edge-dev.key`).
"""

import ipaddress
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import grpc
import jwt

from healthmesh.v1 import common_pb2, orchestrator_pb2
from runtime import pki
from runtime.config import ConfigError
from runtime.errors import InvalidArgument, PermissionDenied, Unauthenticated
from runtime.identity import normalize_cpf, normalize_name, same_name
from runtime.settings import EdgeSettings
from runtime.transport import Listener

ALGORITHMS = ["ES256", "RS256"]
LEEWAY_S = 30  # clock skew between the token's issuer and this machine
MAX_TOKEN_CHARS = 8192


def _read(name: str, path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as err:
        raise ConfigError(f"{name}: cannot read {path} ({err.strerror})") from None


class Edge:
    def __init__(self, settings: EdgeSettings, key: bytes | None, jwks: jwt.PyJWKSet | None,
                 listener: Listener) -> None:
        self.settings = settings
        self._key = key
        self._jwks = jwks
        self.listener = listener

    @classmethod
    def from_settings(cls, settings: EdgeSettings, data_dir: Path, host: str) -> "Edge":
        jwks = None
        if settings.jwks_file is not None:
            try:
                jwks = jwt.PyJWKSet.from_json(_read("HEALTHMESH_JWKS_FILE", settings.jwks_file).decode())
            except jwt.PyJWTError as err:
                raise ConfigError(f"HEALTHMESH_JWKS_FILE: not a usable JWKS ({type(err).__name__})") from None
        key = _read("HEALTHMESH_JWT_PUBLIC_KEY", settings.jwt_public_key) if settings.jwt_public_key else None
        if not settings.production:
            if not _loopback(host):
                raise ConfigError(f"HEALTHMESH_HOST={host}: development mode listens on loopback only; "
                                  "set HEALTHMESH_EDGE_MODE=production (TLS and tokens) to serve a network")
            if key is None and jwks is None:
                private, public = pki.edge_dev_key(data_dir / "pki")
                pki.ensure_signing_key(private, public)
                key = public.read_bytes()
            return cls(settings, key, jwks, Listener.plaintext())
        if key is None and jwks is None:
            raise ConfigError("production mode needs HEALTHMESH_JWT_PUBLIC_KEY or HEALTHMESH_JWKS_FILE")
        if settings.tls_cert is None or settings.tls_key is None:
            raise ConfigError("production mode needs HEALTHMESH_EDGE_TLS_CERT and HEALTHMESH_EDGE_TLS_KEY")
        credentials = grpc.ssl_server_credentials([(_read("HEALTHMESH_EDGE_TLS_KEY", settings.tls_key),
                                                    _read("HEALTHMESH_EDGE_TLS_CERT", settings.tls_cert))])
        return cls(settings, key, jwks, Listener(credentials, False, "tls"))

    def patient(self, metadata: Sequence[tuple[str, Any]] | None,
                request: orchestrator_pb2.AskRequest) -> common_pb2.PatientIdentity | None:
        """The call's patient: the token's, the request's (development only), or None."""
        asserted = _asserted(request)
        token = _bearer(metadata)
        if token is None:
            if self.settings.production:
                raise Unauthenticated("a patient's bearer token is required (authorization: Bearer …)")
            return asserted
        patient = self._verified(token)
        if asserted is not None and (asserted.cpf != patient.cpf
                                     or not same_name(asserted.full_name, patient.full_name)):
            raise PermissionDenied("the request names another patient than its token")
        return patient

    def _verified(self, token: str) -> common_pb2.PatientIdentity:
        try:
            key: Any = self._key
            if self._jwks is not None:
                kid = jwt.get_unverified_header(token).get("kid", "")
                key = self._jwks[kid].key
            claims = jwt.decode(token, key, algorithms=ALGORITHMS, audience=self.settings.audience,
                                leeway=LEEWAY_S, options={"require": ["exp", "sub", "aud"]})
            return common_pb2.PatientIdentity(full_name=normalize_name(str(claims.get("name", ""))),
                                              cpf=normalize_cpf(str(claims["sub"])))
        except (jwt.PyJWTError, KeyError, InvalidArgument) as err:
            # The reason's kind only: a token's claims are PHI.
            raise Unauthenticated(f"the bearer token is not valid here ({type(err).__name__})") from None


def _bearer(metadata: Sequence[tuple[str, Any]] | None) -> str | None:
    for key, value in metadata or ():
        if key == "authorization":
            scheme, _, token = str(value).partition(" ")
            if scheme.lower() != "bearer" or not token or len(token) > MAX_TOKEN_CHARS:
                raise Unauthenticated("authorization must be `Bearer <token>`")
            return token.strip()
    return None


def _asserted(request: orchestrator_pb2.AskRequest) -> common_pb2.PatientIdentity | None:
    if not request.HasField("patient") or not (request.patient.full_name or request.patient.cpf):
        return None
    return common_pb2.PatientIdentity(full_name=normalize_name(request.patient.full_name),
                                      cpf=normalize_cpf(request.patient.cpf))


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
