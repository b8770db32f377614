"""EscalationService: request checks, who acts, and the store's calls off the event loop. Who may
call which method is runtime.authz's POLICY (the orchestrator creates, operators do the rest); the
person acting is the request's `operator` (a name or staff id) or else the caller's mesh account,
recorded with the caller's SPIFFE id."""

import base64
import binascii
import json
from collections.abc import Callable
from concurrent.futures import Executor
from typing import TypeVar

import grpc

from escalation.store import OPEN, Actor, CaseStore, Page
from healthmesh.v1 import escalation_pb2 as pb
from healthmesh.v1 import escalation_pb2_grpc
from runtime import authz, sqlite
from runtime.errors import InvalidArgument
from runtime.specialties import SPECIALTIES

T = TypeVar("T")

MAX_ID_CHARS = 128  # case and session ids (the orchestrator's session ids are 32 hex digits)
MAX_OPERATOR_CHARS = 100
MAX_TEXT_CHARS = 2000  # a note or a resolution
MAX_PACKET_BYTES = 32 * 1024  # the serialized packet, as a clinic bounds a handoff
MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE = 100, 20
MAX_PAGE_TOKEN_CHARS = 100  # ours are about 30
SUGGESTIONS = (*SPECIALTIES, "general_practice")


class EscalationService(escalation_pb2_grpc.EscalationServiceServicer):
    def __init__(self, store: CaseStore, pool: Executor) -> None:
        self.store = store
        self.pool = pool

    async def _run(self, fn: Callable[..., T], *args: object) -> T:
        return await sqlite.run(fn, *args, pool=self.pool)

    async def CreateCase(self, request: pb.CreateCaseRequest,
                         context: grpc.aio.ServicerContext) -> pb.CreateCaseResponse:
        _bounded(request.session_id, "session_id", MAX_ID_CHARS, required=True)
        if request.reason not in pb.EscalationReason.values() or not request.reason:
            raise InvalidArgument("reason", "is required (an EscalationReason)")
        if request.urgency not in pb.CaseUrgency.values() or not request.urgency:
            raise InvalidArgument("urgency", "is required (a CaseUrgency)")
        if request.suggested_specialty and request.suggested_specialty not in SUGGESTIONS:
            raise InvalidArgument("suggested_specialty", f"must be one of {', '.join(SUGGESTIONS)}")
        _bounded(request.suggested_clinic_id, "suggested_clinic_id", MAX_ID_CHARS)
        if (size := request.packet.ByteSize()) > MAX_PACKET_BYTES:
            raise InvalidArgument("packet", f"is {size} bytes serialized; at most {MAX_PACKET_BYTES}")
        case, created = await self._run(self.store.create, request, _actor(context, ""))
        return pb.CreateCaseResponse(escalation_case=case, created=created)

    async def ListCases(self, request: pb.ListCasesRequest,
                        context: grpc.aio.ServicerContext) -> pb.ListCasesResponse:
        states = sorted(set(request.states)) or [OPEN]
        if any(s not in pb.CaseState.values() or not s for s in states):
            raise InvalidArgument("states", "must be CaseState values other than UNSPECIFIED")
        size = request.page_size or DEFAULT_PAGE_SIZE
        if not 1 <= size <= MAX_PAGE_SIZE:
            raise InvalidArgument("page_size", f"must be between 1 and {MAX_PAGE_SIZE}")
        cases, following = await self._run(self.store.page, states, size, _page(request.page_token),
                                           _actor(context, ""))
        token = "" if following is None else base64.urlsafe_b64encode(
            json.dumps([following.urgency, following.seq]).encode()).decode()
        return pb.ListCasesResponse(cases=cases, next_page_token=token)

    async def ClaimCase(self, request: pb.ClaimCaseRequest,
                        context: grpc.aio.ServicerContext) -> pb.ClaimCaseResponse:
        case = await self._run(self.store.claim, _case_id(request.case_id), _actor(context, request.operator))
        return pb.ClaimCaseResponse(escalation_case=case)

    async def GetCase(self, request: pb.GetCaseRequest,
                      context: grpc.aio.ServicerContext) -> pb.GetCaseResponse:
        case, packet, notes = await self._run(self.store.get, _case_id(request.case_id),
                                              _actor(context, request.operator))
        return pb.GetCaseResponse(escalation_case=case, packet=packet, notes=notes)

    async def AddNote(self, request: pb.AddNoteRequest,
                      context: grpc.aio.ServicerContext) -> pb.AddNoteResponse:
        text = _bounded(request.text, "text", MAX_TEXT_CHARS, required=True)
        note = await self._run(self.store.note, _case_id(request.case_id), text,
                               _actor(context, request.operator))
        return pb.AddNoteResponse(note=note)

    async def ResolveCase(self, request: pb.ResolveCaseRequest,
                          context: grpc.aio.ServicerContext) -> pb.ResolveCaseResponse:
        resolution = _bounded(request.resolution, "resolution", MAX_TEXT_CHARS, required=True)
        case = await self._run(self.store.resolve, _case_id(request.case_id), resolution,
                               _actor(context, request.operator))
        return pb.ResolveCaseResponse(escalation_case=case)


def _bounded(value: str, field: str, limit: int, *, required: bool = False) -> str:
    value = value.strip()
    if len(value) > limit:
        raise InvalidArgument(field, f"must be at most {limit} characters")
    if required and not value:
        raise InvalidArgument(field, "is required")
    return value


def _case_id(value: str) -> str:
    return _bounded(value, "case_id", MAX_ID_CHARS, required=True)


def _actor(context: grpc.aio.ServicerContext, operator: str) -> Actor:
    """The person named, else the caller's account (under plaintext, where the sidecar authorized the
    call, the app sees no certificate: "operator")."""
    spiffe, account = authz.caller(context)
    named = _bounded(operator, "operator", MAX_OPERATOR_CHARS)
    return Actor(named or account or authz.OPERATOR, spiffe)


def _page(token: str) -> Page | None:
    if not _bounded(token, "page_token", MAX_PAGE_TOKEN_CHARS):
        return None
    try:
        urgency, seq = json.loads(base64.urlsafe_b64decode(token.encode()))
        if isinstance(urgency, int) and isinstance(seq, int):
            return Page(urgency, seq)
    except (ValueError, TypeError, binascii.Error, RecursionError):
        pass
    raise InvalidArgument("page_token", "is not a token ListCases returned")
