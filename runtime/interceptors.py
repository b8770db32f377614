"""The server interceptor: one wrapper per RPC for its span, authorization, request id, access
log, metrics and the mapping of domain errors to statuses."""

import asyncio
import contextvars
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import grpc
from opentelemetry import context as otel_context
from opentelemetry import trace
from opentelemetry.trace import Span

from runtime import authz, metrics, tracing
from runtime.errors import ServiceError, status_metadata
from runtime.logs import request_id
from runtime.settings import ServiceSettings
from runtime.tracing import UNTRACED_PREFIXES

log = logging.getLogger("access")


class _Undecodable:
    """What bytes that are not the method's request message decode to (corrupt wire format,
    invalid UTF-8 in a string field): the call is answered INVALID_ARGUMENT instead of UNKNOWN."""


UNDECODABLE = _Undecodable()


def _lenient(deserialize: Callable[[bytes], Any] | None) -> Callable[[bytes], Any] | None:
    if deserialize is None:
        return None

    def decode(raw: bytes) -> Any:
        try:
            return deserialize(raw)
        except Exception:  # DecodeError and its kin: the client's bytes, not a server fault
            return UNDECODABLE

    return decode


@dataclass(frozen=True)
class AccessPolicy:
    """Which RPCs get an access-log line: every failed (non-OK) or slow one, at WARNING, and a
    share `ok_sample` of the OK ones, at INFO (a JSON line per RPC was measurable CPU)."""

    ok_sample: float
    slow_ms: float

    @classmethod
    def from_settings(cls, settings: ServiceSettings) -> "AccessPolicy":
        return cls(settings.access_log_sample, settings.slow_ms)


class AccessLog:
    """Records an ended RPC: its metrics always, its log line as the policy says. OK RPCs are
    sampled by counting (every 1/ok_sample-th), so the share is exact and the choice costs no
    random number."""

    def __init__(self, policy: AccessPolicy) -> None:
        self._sample = policy.ok_sample
        self._slow_s = policy.slow_ms / 1000
        self._credit = 0.0

    def ended(self, method: str, code: str, start: float, *, stream: bool = False) -> None:
        """`stream`: a server stream, which lasts as long as its watcher, so its length is not slowness."""
        seconds = time.perf_counter() - start
        metrics.record_rpc(method, code, seconds)
        if code != "OK" or (seconds >= self._slow_s and not stream):
            level = logging.WARNING
        else:
            self._credit += self._sample
            if self._credit < 1.0:
                return
            self._credit -= 1.0
            level = logging.INFO
        log.log(level, "rpc", extra={"method": method, "code": code, "duration_ms": round(seconds * 1000, 3)})


class RpcInterceptor(grpc.aio.ServerInterceptor):
    """Every server's one interceptor, so an RPC is wrapped once rather than once per concern: the
    RPC's server span (runtime.tracing), its caller's authorization when the listener asks for it
    (runtime.authz), an x-request-id (the caller's or a new one), ServiceError and undecodable
    requests as their status (never UNKNOWN), and the RPC's metrics and access-log line
    (AccessLog). Health and reflection are neither traced, logged nor counted."""

    def __init__(self, policy: AccessPolicy, *, authorize: bool) -> None:
        self._access = AccessLog(policy)
        self._authorize = authorize

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler | None:
        handler = await continuation(details)
        if handler is None:
            return None
        method = details.method
        observed = not method.startswith(UNTRACED_PREFIXES)
        checked = self._authorize and not method.startswith(authz.OPEN)
        metadata = dict(details.invocation_metadata or ())
        rid = str(metadata.get("x-request-id") or uuid.uuid4().hex)
        access = self._access

        def begin(stream: bool = False) -> _Begun:
            span = tracing.server_span(method, metadata) if observed else None
            attached = otel_context.attach(trace.set_span_in_context(span)) if span is not None else None
            return _Begun(request_id.set(rid), span, attached, time.perf_counter(), stream)

        def end(ctx: grpc.aio.ServicerContext, escaped: BaseException | None, begun: _Begun) -> None:
            code = _code(ctx, escaped)
            if observed:
                access.ended(method, code.name, begun.start, stream=begun.stream)
            # A stream the client left is closed by asyncio's generator finalizer, in a copy of the RPC's
            # context: its variables cannot be reset there (nor need to be: the copy is dropped).
            try:
                request_id.reset(begun.token)
                own = True
            except ValueError:
                own = False
            if begun.span is not None:
                if own:
                    otel_context.detach(begun.attached)
                tracing.end_rpc_span(begun.span, code)

        if handler.unary_unary:
            inner = handler.unary_unary

            async def unary(req: Any, ctx: grpc.aio.ServicerContext) -> Any:
                begun = begin()
                escaped: BaseException | None = None
                try:
                    if checked:
                        await authz.enforce(ctx, method)
                    await _reject_undecodable(req, ctx)
                    try:
                        return await inner(req, ctx)
                    except ServiceError as err:
                        await ctx.abort(err.code, err.message, status_metadata(err))
                except BaseException as exc:
                    escaped = exc
                    raise
                finally:
                    end(ctx, escaped, begun)

            return grpc.unary_unary_rpc_method_handler(
                unary, _lenient(handler.request_deserializer), handler.response_serializer
            )
        if handler.unary_stream:
            inner_stream = handler.unary_stream

            async def stream(req: Any, ctx: grpc.aio.ServicerContext) -> Any:
                begun = begin(stream=True)
                escaped: BaseException | None = None
                try:
                    if checked:
                        await authz.enforce(ctx, method)
                    await _reject_undecodable(req, ctx)
                    try:
                        async for item in inner_stream(req, ctx):
                            yield item
                    except ServiceError as err:
                        await ctx.abort(err.code, err.message, status_metadata(err))
                except BaseException as exc:
                    escaped = exc
                    raise
                finally:
                    end(ctx, escaped, begun)

            return grpc.unary_stream_rpc_method_handler(
                stream, _lenient(handler.request_deserializer), handler.response_serializer
            )
        # Only reflection streams requests: open, untraced, served as it is. Another such method
        # is refused (UNIMPLEMENTED) where calls are authorized, until it is covered here.
        return None if checked else handler


@dataclass
class _Begun:
    """What an RPC's start set, for its end to undo."""

    token: contextvars.Token[str]
    span: Span | None
    attached: object
    start: float
    stream: bool


async def _reject_undecodable(req: Any, ctx: grpc.aio.ServicerContext) -> None:
    if req is UNDECODABLE:
        await ctx.abort(grpc.StatusCode.INVALID_ARGUMENT, "the request bytes are not this method's message")


_BY_NUMBER = {code.value[0]: code for code in grpc.StatusCode}


def _code(ctx: grpc.aio.ServicerContext, escaped: BaseException | None) -> grpc.StatusCode:
    """The RPC's status: the one set (abort sets it before raising), else what grpc makes of an
    exception that escaped the handler (cancelled by the caller or its deadline; UNKNOWN)."""
    code = ctx.code()
    if isinstance(code, grpc.StatusCode):
        return code
    if code is not None:
        return _BY_NUMBER.get(code, grpc.StatusCode.UNKNOWN)
    if escaped is None:
        return grpc.StatusCode.OK
    return grpc.StatusCode.CANCELLED if isinstance(escaped, asyncio.CancelledError) \
        else grpc.StatusCode.UNKNOWN
