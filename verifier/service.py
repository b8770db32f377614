"""gRPC face of the verifier: validates requests and runs the pure screen and rules. Both
are fast (well under a millisecond), so they run on the event loop. Message and answer
text are never logged: they may carry PHI."""

import grpc

from healthmesh.v1 import verifier_pb2, verifier_pb2_grpc
from runtime.errors import InvalidArgument
from verifier.rules import verify
from verifier.screen import screen

LANGUAGES = ("", "pt", "en")
# Bounds the work per call: real messages and answers are far shorter.
MAX_TEXT_CHARS = 20_000


class VerifierService(verifier_pb2_grpc.VerifierServiceServicer):
    async def ScreenInput(self, request: verifier_pb2.ScreenInputRequest,
                          context: grpc.aio.ServicerContext) -> verifier_pb2.ScreenInputResponse:
        _text(request.message, "message")
        return screen(request.message, _language(request.language))

    async def VerifyAnswer(self, request: verifier_pb2.VerifyAnswerRequest,
                           context: grpc.aio.ServicerContext) -> verifier_pb2.VerifyAnswerResponse:
        _text(request.answer, "answer")
        language = _language(request.language)
        if request.origin in (verifier_pb2.ANSWER_ORIGIN_REPHRASING, verifier_pb2.ANSWER_ORIGIN_SUMMARY):
            if not language:
                raise InvalidArgument("language", "is required to audit a model's text")
            if request.origin == verifier_pb2.ANSWER_ORIGIN_REPHRASING:
                _text(request.reference_answer, "reference_answer")
        elif request.origin not in (verifier_pb2.ANSWER_ORIGIN_UNSPECIFIED,
                                    verifier_pb2.ANSWER_ORIGIN_DETERMINISTIC):
            raise InvalidArgument("origin", "is not a known AnswerOrigin")
        return verify(request)


def _text(value: str, field: str) -> None:
    if not value.strip():
        raise InvalidArgument(field, "is required")
    if len(value) > MAX_TEXT_CHARS:
        raise InvalidArgument(field, f"must be at most {MAX_TEXT_CHARS} characters")


def _language(value: str) -> str:
    if value not in LANGUAGES:
        raise InvalidArgument("language", 'must be "pt", "en" or empty (detect)')
    return value
