"""The cloud model: any OpenAI-compatible chat-completions endpoint, behind an egress guard.

- Egress guard: the request body is serialized once, the PHI check runs on exactly that text,
  and only that text (parsed back) is sent. The OpenAI client is a private attribute used in
  one method, right after the check, so no path reaches the network unchecked. A refusal
  carries the PHI categories only, never the text.
- The call is guarded like every upstream's (orchestrator.guarded): retries and the breaker
  count only transient failures (connection errors, timeouts, 429 and 5xx), and every attempt's
  timeout is what is left of the deadline, at most the policy's cap.
Every failure is a CloudUnavailable (an open breaker too), so the caller answers locally.
"""

import asyncio
import json
import logging
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import openai

from orchestrator.context import RequestContext
from orchestrator.guarded import CircuitOpen, DeadlineSpent, Guard, Policy
from orchestrator.models import Completion, ModelError
from runtime.settings import CloudSettings

EgressGuard = Callable[[str, Sequence[str]], Sequence[str]]  # text, patient names -> PHI categories in it
UNCHECKED = "UNCHECKED"  # the category of a payload the guard failed on: it is not sent either

log = logging.getLogger(__name__)

DEFAULT_POLICY = Policy(call_timeout_s=15.0, attempts=3, backoff_s=0.2, backoff_max_s=2.0,
                        breaker_fail_max=5, breaker_reset_s=30.0)
# OpenAI-compatible servers without auth (llama.cpp, vLLM, Ollama) ignore the key, but the
# client requires one.
_NO_API_KEY = "unused"


class CloudUnavailable(ModelError):
    """The cloud model did not answer: transport error, error status, deadline or open breaker."""


class EgressRefused(ModelError):
    """The payload holds PHI, so nothing was sent. Holds the categories found, never the text."""

    def __init__(self, categories: Sequence[str]) -> None:
        self.categories = tuple(sorted(set(categories)))
        super().__init__(f"payload holds PHI ({', '.join(self.categories)}); not sent")


def _transient(exc: BaseException | None) -> bool:
    """Failures worth retrying and counting against the endpoint: it may answer next time."""
    if isinstance(exc, openai.APIStatusError):
        return exc.status_code == 429 or exc.status_code >= 500
    return isinstance(exc, openai.APIConnectionError | TimeoutError)  # APITimeoutError included


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _egress_text(wire: str) -> str:
    """The text the guard checks: the exact wire JSON, plus each of its strings decoded, because
    a JSON escape can hide a word boundary from a pattern ("\\nMaria" reads as "nMaria")."""
    return "\n".join([wire, *_strings(json.loads(wire))])


def _failure(exc: BaseException) -> str:
    """A short, text-free reason for a CloudUnavailable."""
    if isinstance(exc, openai.APIStatusError):
        return f"cloud model answered HTTP {exc.status_code}"
    if isinstance(exc, openai.APITimeoutError | TimeoutError):
        return "cloud model timed out"
    if isinstance(exc, openai.APIConnectionError):
        return "cloud model unreachable"
    return f"cloud model failed ({type(exc).__name__})"


class CloudModel:
    """Chat completions from an OpenAI-compatible endpoint; payloads with PHI are never sent."""

    def __init__(self, base_url: str, model: str, *, guard: EgressGuard, api_key: str = _NO_API_KEY,
                 policy: Policy = DEFAULT_POLICY) -> None:
        self.base_url = base_url
        self.model = model
        self.policy = policy
        self.refusals = 0
        self._egress_guard = guard
        self._http = openai.DefaultAsyncHttpxClient()
        self.__client = openai.AsyncOpenAI(base_url=base_url, api_key=api_key, timeout=policy.call_timeout_s,
                                           max_retries=0, http_client=self._http)
        self._guarded = Guard("cloud-model", policy, errors=(openai.OpenAIError, TimeoutError),
                                 counted=_transient, transient=_transient)

    @classmethod
    def from_settings(cls, settings: CloudSettings, guard: EgressGuard,
                      policy: Policy = DEFAULT_POLICY) -> "CloudModel | None":
        """The configured endpoint; None (all answers local) when no base URL is set."""
        if not settings.base_url:
            return None
        return cls(settings.base_url, settings.model, guard=guard, policy=policy,
                   api_key=settings.api_key or _NO_API_KEY)

    @property
    def breaker_state(self) -> str:
        return self._guarded.state

    async def chat(self, ctx: RequestContext, messages: list[dict], *, max_tokens: int) -> Completion:
        """Greedy (temperature 0) completion of `messages`. Raises EgressRefused (nothing sent)
        or CloudUnavailable."""
        payload = {"model": self.model, "messages": messages, "max_tokens": max_tokens, "temperature": 0}
        wire = json.dumps(payload, ensure_ascii=False)  # PHI patterns match "João", not "Jo\u00e3o"
        found = self._check(wire, ctx.patient_names)
        if found:
            self.refusals += 1
            raise EgressRefused(found)
        outcome = await self._guarded.call(ctx, lambda timeout: self._send(wire, budget_s=timeout),
                                           retry=True)
        if isinstance(outcome.error, CircuitOpen):
            raise CloudUnavailable("cloud model circuit is open")
        if isinstance(outcome.error, DeadlineSpent):
            raise CloudUnavailable("no time left for the cloud model")
        if outcome.error is not None:
            raise CloudUnavailable(_failure(outcome.error)) from outcome.error
        return self._completion(outcome.reply, outcome.latency_ms / 1000)

    async def _send(self, wire: str, *, budget_s: float) -> Any:
        """The only path to the network, given the exact text the guard checked."""
        # The client's timeout bounds each network phase; this bounds the whole attempt.
        async with asyncio.timeout(budget_s):
            return await self.__client.chat.completions.create(**json.loads(wire), timeout=budget_s)

    def _check(self, wire: str, patient_names: Sequence[str]) -> Sequence[str]:
        try:
            return self._egress_guard(_egress_text(wire), patient_names)
        except Exception as exc:  # fail closed; the error's message may quote the text, so log its type
            log.warning("PHI guard failed (%s); cloud payload not sent", type(exc).__name__)
            return (UNCHECKED,)

    @staticmethod
    def _completion(response: Any, seconds: float) -> Completion:
        if not response.choices:
            raise CloudUnavailable("cloud model answered no choices")
        choice = response.choices[0]
        tokens = response.usage.completion_tokens if response.usage else 0
        return Completion(text=(choice.message.content or "").strip(), tokens=tokens, seconds=seconds,
                          route="cloud", truncated=choice.finish_reason == "length")

    async def close(self) -> None:
        await self._http.aclose()
