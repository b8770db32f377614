"""Server interceptors: request ids, access logs and mapping of domain errors to statuses."""

import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import grpc

from runtime.errors import ServiceError, status_metadata
from runtime.logs import request_id

log = logging.getLogger("access")

_UNLOGGED_PREFIXES = ("/grpc.health.", "/grpc.reflection.")


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


class AccessInterceptor(grpc.aio.ServerInterceptor):
    """Tags each RPC with an x-request-id (the caller's or a new one), turns ServiceError and
    undecodable requests into their status (never UNKNOWN), and writes one access-log line per
    RPC. Health and reflection are not logged."""

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        handler = await continuation(details)
        if handler is None:
            return None
        logged = not details.method.startswith(_UNLOGGED_PREFIXES)
        metadata = dict(details.invocation_metadata or ())
        rid = str(metadata.get("x-request-id") or uuid.uuid4().hex)
        method = details.method
        if handler.unary_unary:
            inner = handler.unary_unary

            async def unary(req: Any, ctx: grpc.aio.ServicerContext) -> Any:
                token = request_id.set(rid)
                start = time.perf_counter()
                try:
                    return await _call(inner, req, ctx)
                finally:
                    if logged:
                        _log(method, ctx, start)
                    request_id.reset(token)

            return grpc.unary_unary_rpc_method_handler(
                unary, _lenient(handler.request_deserializer), handler.response_serializer
            )
        if handler.unary_stream:
            inner_stream = handler.unary_stream

            async def stream(req: Any, ctx: grpc.aio.ServicerContext) -> Any:
                token = request_id.set(rid)
                start = time.perf_counter()
                try:
                    await _reject_undecodable(req, ctx)
                    async for item in inner_stream(req, ctx):
                        yield item
                except ServiceError as err:
                    await ctx.abort(err.code, err.message, status_metadata(err))
                finally:
                    if logged:
                        _log(method, ctx, start)
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


def _log(method: str, ctx: grpc.aio.ServicerContext, start: float) -> None:
    code = ctx.code() or grpc.StatusCode.OK
    name = code.name if isinstance(code, grpc.StatusCode) else str(code)
    log.info(
        "rpc",
        extra={
            "method": method,
            "code": name,
            "duration_ms": round((time.perf_counter() - start) * 1000, 3),
        },
    )
