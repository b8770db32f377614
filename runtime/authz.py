"""Who may call what: the one authorization policy of the mesh, enforced by every server that
serves mutual TLS. A caller is the account in its certificate's SPIFFE id; health and reflection
stay open to any peer the handshake admitted. Anything the policy does not name is refused.

Only the orchestrator calls the clinics, the tools and the verifier; an operator may read a
clinic's directory and patient records, never write or read a handoff packet. The orchestrator
opens escalation cases and only an operator may list, claim, read, annotate or resolve them. A refusal is
PERMISSION_DENIED, logged with the caller's id (never a request field) and counted.
"""

import logging

import grpc
from opentelemetry import metrics

from runtime import pki

log = logging.getLogger("authz")

ORCHESTRATOR, OPERATOR = "orchestrator", "operator"
OPEN = ("/grpc.health.v1.Health/", "/grpc.reflection.")

_CLINIC_READS = ("DescribeClinic", "ListPatients", "GetPatient", "SearchPatients", "ListAvailableSlots")
_CLINIC_ORCHESTRATOR_ONLY = ("BookAppointment", "RescheduleAppointment", "CancelAppointment",
                             "ListAppointments", "GetHandoffPacket", "WatchSlots")


def _grant(service: str, methods: tuple[str, ...], *accounts: str) -> dict[str, frozenset[str]]:
    return {f"/healthmesh.v1.{service}/{method}": frozenset(accounts) for method in methods}


POLICY: dict[str, frozenset[str]] = {
    **_grant("ClinicService", _CLINIC_READS, ORCHESTRATOR, OPERATOR),
    **_grant("ClinicService", _CLINIC_ORCHESTRATOR_ONLY, ORCHESTRATOR),
    **_grant("CalculatorService", ("ComputeRiskScore",), ORCHESTRATOR),
    **_grant("GuidelineService", ("SearchGuidelines", "GetPassages"), ORCHESTRATOR),
    **_grant("DrugService", ("CheckDrugSafety", "CheckInteractions"), ORCHESTRATOR),
    **_grant("VerifierService", ("ScreenInput", "VerifyAnswer"), ORCHESTRATOR),
    # Escalation: the orchestrator opens cases; operators work them and nobody else reads them.
    **_grant("EscalationService", ("CreateCase",), ORCHESTRATOR),
    **_grant("EscalationService", ("ListCases", "ClaimCase", "GetCase", "AddNote", "ResolveCase"), OPERATOR),
}

_denied = metrics.get_meter("healthmesh.authz").create_counter(
    "healthmesh.authz.denied", description="calls refused by the authorization policy")


def allowed(method: str, account: str | None) -> bool:
    return method.startswith(OPEN) or (account is not None and account in POLICY.get(method, ()))


def caller(context: grpc.aio.ServicerContext) -> tuple[str, str | None]:
    """The caller's SPIFFE id as presented, and the account it names in this trust domain."""
    presented = context.auth_context().get("peer_spiffe_id") or [b""]
    spiffe = presented[0].decode(errors="replace")
    return spiffe, pki.account_of(spiffe)


def caller_key(context: grpc.aio.ServicerContext) -> str:
    """Who is calling, for per-caller limits: the mesh account, else (plaintext) the peer's host."""
    account = caller(context)[1]
    return account or context.peer().rpartition(":")[0]


async def enforce(context: grpc.aio.ServicerContext, method: str) -> None:
    """Aborts the call PERMISSION_DENIED unless the policy lets its caller call `method` (the
    server's interceptor, runtime.interceptors, asks before the handler runs)."""
    spiffe, account = caller(context)
    if not allowed(method, account):
        who = spiffe or "a peer without a SPIFFE id"
        log.warning("permission denied", extra={"caller": who, "method": method})
        _denied.add(1, {"method": method, "caller": account or "unknown"})
        await context.abort(grpc.StatusCode.PERMISSION_DENIED, f"{who} may not call {method}")
