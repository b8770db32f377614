"""Domain errors raised by service logic and their mapping to gRPC status codes.

Service code raises these; the server layer turns them into a status with a clear message
(and google.rpc.BadRequest details naming the field for INVALID_ARGUMENT).
"""

import math

import grpc
from google.protobuf import duration_pb2
from google.protobuf.message import Message
from google.rpc import error_details_pb2, status_pb2

# An error echoes at most this much of what it was sent: a 1 MB id must not become a status
# trailer the client cannot even read (gRPC caps metadata at 16 KiB by default).
MAX_MESSAGE_CHARS = 300


def bounded(text: str) -> str:
    return text if len(text) <= MAX_MESSAGE_CHARS else text[:MAX_MESSAGE_CHARS - 1] + "\u2026"


class ServiceError(Exception):
    code: grpc.StatusCode = grpc.StatusCode.INTERNAL

    def __init__(self, message: str) -> None:
        message = bounded(message)
        super().__init__(message)
        self.message = message

    def details(self) -> list[Message]:
        """google.rpc detail messages sent with the status (BadRequest, ErrorInfo …)."""
        return []


class InvalidArgument(ServiceError):
    code = grpc.StatusCode.INVALID_ARGUMENT

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = bounded(field)
        self.problem = bounded(problem)

    def details(self) -> list[Message]:
        return [error_details_pb2.BadRequest(field_violations=[
            error_details_pb2.BadRequest.FieldViolation(field=self.field, description=self.problem)])]


class NotFound(ServiceError):
    code = grpc.StatusCode.NOT_FOUND


class FailedPrecondition(ServiceError):
    code = grpc.StatusCode.FAILED_PRECONDITION


class AlreadyExists(ServiceError):
    code = grpc.StatusCode.ALREADY_EXISTS


class PermissionDenied(ServiceError):
    code = grpc.StatusCode.PERMISSION_DENIED


class Unauthenticated(ServiceError):
    code = grpc.StatusCode.UNAUTHENTICATED


class ResourceExhausted(ServiceError):
    code = grpc.StatusCode.RESOURCE_EXHAUSTED


class RetryLater(ResourceExhausted):
    """Refused for now: the status says when to try again (google.rpc.RetryInfo, and gRPC's
    `grpc-retry-pushback-ms`, which client retry policies honour)."""

    def __init__(self, message: str, retry_after_s: float) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s

    def details(self) -> list[Message]:
        delay = duration_pb2.Duration()
        delay.FromNanoseconds(round(self.retry_after_s * 1e9))
        return [error_details_pb2.RetryInfo(retry_delay=delay)]


class RateLimited(RetryLater):
    """Over a rate limit, counted in whole seconds."""

    def __init__(self, what: str, retry_after_s: float) -> None:
        seconds = max(1, math.ceil(retry_after_s))
        super().__init__(f"too many {what}; try again in {seconds} s", seconds)


class Overloaded(RetryLater):
    """More turns than the server takes on at once: refused before any work is done."""


class DeadlineExceeded(ServiceError):
    code = grpc.StatusCode.DEADLINE_EXCEEDED


def status_metadata(err: ServiceError) -> tuple[tuple[str, bytes], ...]:
    """Trailing metadata carrying a google.rpc.Status with details, when there are any."""
    details = err.details()
    if not details:
        return ()
    status = status_pb2.Status(code=err.code.value[0], message=err.message)
    for detail in details:
        status.details.add().Pack(detail)
    pushback = (("grpc-retry-pushback-ms", str(round(err.retry_after_s * 1000))),) \
        if isinstance(err, RetryLater) else ()
    return (("grpc-status-details-bin", status.SerializeToString()), *pushback)


def error_info(trailing_metadata: object) -> error_details_pb2.ErrorInfo | None:
    """The ErrorInfo detail of an RPC error's trailing metadata, if it has one."""
    for detail in _details(trailing_metadata):
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return info
    return None


def bad_request_fields(trailing_metadata: object) -> list[str]:
    """Field names from a BadRequest detail in an RPC error's trailing metadata."""
    for detail in _details(trailing_metadata):
        bad_request = error_details_pb2.BadRequest()
        if detail.Unpack(bad_request):
            return [v.field for v in bad_request.field_violations]
    return []


def _details(trailing_metadata: object) -> list:
    for key, value in trailing_metadata or ():
        if key == "grpc-status-details-bin":
            return list(status_pb2.Status.FromString(value).details)
    return []
