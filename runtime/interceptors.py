"""Server interceptors: request ids, access logs, RPC metrics and mapping of domain errors to
statuses."""

import asyncio
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import grpc

from runtime import metrics
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

    def ended(self, method: str, code: str, start: float) -> None:
        seconds = time.perf_counter() - start
        metrics.record_rpc(method, code, seconds)
        if code != "OK" or seconds >= self._slow_s:
            level = logging.WARNING
        else:
            self._credit += self._sample
            if self._credit < 1.0:
                return
            self._credit -= 1.0
            level = logging.INFO
        log.log(level, "rpc", extra={"method": method, "code": code, "duration_ms": round(seconds * 1000, 3)})


class AccessInterceptor(grpc.aio.ServerInterceptor):
    """Tags each RPC with an x-request-id (the caller's or a new one), turns ServiceError and
    undecodable requests into their status (never UNKNOWN), and records each RPC's metrics and
    access-log line (AccessLog). Health and reflection are neither logged nor counted."""

    def __init__(self, policy: AccessPolicy) -> None:
        self._access = AccessLog(policy)

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        handler = await continuation(details)
        if handler is None:
            return None
        logged = not details.method.startswith(UNTRACED_PREFIXES)
        metadata = dict(details.invocation_metadata or ())
        rid = str(metadata.get("x-request-id") or uuid.uuid4().hex)
        method = details.method
        if handler.unary_unary:
            inner = handler.unary_unary

            async def unary(req: Any, ctx: grpc.aio.ServicerContext) -> Any:
                token = request_id.set(rid)
                start = time.perf_counter()
                escaped: BaseException | None = None
                try:
                    return await _call(inner, req, ctx)
                except BaseException as exc:
                    escaped = exc
                    raise
                finally:
                    if logged:
                        self._access.ended(method, _code(ctx, escaped), start)
                    request_id.reset(token)

            return grpc.unary_unary_rpc_method_handler(
                unary, _lenient(handler.request_deserializer), handler.response_serializer
            )
        if handler.unary_stream:
            inner_stream = handler.unary_stream

            async def stream(req: Any, ctx: grpc.aio.ServicerContext) -> Any:
                token = request_id.set(rid)
                start = time.perf_counter()
                escaped: BaseException | None = None
                try:
                    await _reject_undecodable(req, ctx)
                    async for item in inner_stream(req, ctx):
                        yield item
                except ServiceError as err:
                    await ctx.abort(err.code, err.message, status_metadata(err))
                except BaseException as exc:
                    escaped = exc
                    raise
                finally:
                    if logged:
                        self._access.ended(method, _code(ctx, escaped), start)
                    request_id.reset(token)

            return grpc.unary_stream_rpc_method_handler(
                stream, _lenient(handler.request_deserializer), handler.response_serializer
            )
        return handler


async def _reject_undecodable(req: Any, ctx: grpc.aio.ServicerContext) -> None:
    if req is UNDECODABLE:
        await ctx.abort(grpc.StatusCode.INVALID_ARGUMENT, "the request bytes are not this method's message")


async def _call(inner: Callable[..., Awaitable[Any]], req: Any, ctx: grpc.aio.ServicerContext) -> Any:
    await _reject_undecodable(req, ctx)
    try:
        return await inner(req, ctx)
    except ServiceError as err:
        await ctx.abort(err.code, err.message, status_metadata(err))


def _code(ctx: grpc.aio.ServicerContext, escaped: BaseException | None) -> str:
    """The RPC's status: the one set (abort sets it before raising), else what grpc makes of an
    exception that escaped the handler (cancelled by the caller or its deadline; UNKNOWN)."""
    code = ctx.code()
    if isinstance(code, grpc.StatusCode):
        return code.name
    if code is not None:
        return str(code)
    if escaped is None:
        return "OK"
    return "CANCELLED" if isinstance(escaped, asyncio.CancelledError) else "UNKNOWN"
