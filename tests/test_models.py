"""Model clients against real parts: the bundled SmolLM2 GGUF through llama.cpp in-process, and
llama_cpp.server (the same GGUF) behind a recording proxy as the OpenAI-compatible cloud."""

import asyncio
import json
import re
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from orchestrator.context import RequestContext
from orchestrator.guarded import Policy
from orchestrator.models import Completion, ModelError, ModelTimeout
from orchestrator.models.cloud import UNCHECKED, CloudModel, CloudUnavailable, EgressRefused
from orchestrator.models.local import LocalModel, default_model_path
from orchestrator.models.prompts import rephrase_messages, summary_messages
from runtime.config import ConfigError
from runtime.errors import ResourceExhausted
from runtime.settings import Settings
from tests.cloud_stub import RecordingProxy, free_port, start_llama_server, stop_process

COUNT = [{"role": "user", "content": "Count from 1 to 200, separated by commas."}]  # ~120 tokens
HELLO = [{"role": "user", "content": "Say hello."}]
CPF = re.compile(r"\b\d{3}\.\d{3}\.\d{3}-\d{2}\b")
PATIENT = re.compile(r"\bMaria Souza\b")
FAST_RETRIES = Policy(call_timeout_s=10.0, attempts=3, backoff_s=0.01, backoff_max_s=0.05,
                      breaker_fail_max=4, breaker_reset_s=60.0)


def phi_guard(text: str, patient_names: Sequence[str]) -> list[str]:
    """A stand-in for the PHI detector's check."""
    return [name for name, pattern in (("CPF", CPF), ("PERSON", PATIENT)) if pattern.search(text)]


class TimedLocalModel(LocalModel):
    """Records when each generation ran on the worker thread."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.spans: list[tuple[float, float]] = []

    def _generate(self, *args, **kwargs) -> Completion:
        start = time.monotonic()
        try:
            return super()._generate(*args, **kwargs)
        finally:
            self.spans.append((start, time.monotonic()))


def ctx(seconds: float = 30.0) -> RequestContext:
    return RequestContext.with_timeout(seconds)


@pytest.fixture(scope="module")
def model_path() -> Path:
    return default_model_path()


@pytest.fixture(scope="module")
def local(model_path: Path) -> Iterator[TimedLocalModel]:
    model = TimedLocalModel(model_path, threads=1)
    asyncio.run(model.warm_up())
    yield model
    model.close()


# --- local model -------------------------------------------------------------------------------

def test_default_model_is_the_bundled_gguf(model_path: Path) -> None:
    assert model_path.suffix == ".gguf" and model_path.is_file()


def test_missing_or_non_gguf_model_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not found"):
        LocalModel(tmp_path / "absent.gguf", threads=1)
    (tmp_path / "notes.gguf").write_text("not a model")
    with pytest.raises(ConfigError, match="not a GGUF"):
        LocalModel(tmp_path / "notes.gguf", threads=1)


def test_local_chat_returns_text(local: TimedLocalModel) -> None:
    answer = "Dr. Ana Lima has a slot at Clinic A on 2025-07-18 at 10:00 (slot A-123)."
    completion = asyncio.run(local.chat(ctx(), rephrase_messages(answer, "en"), max_tokens=80))
    assert completion.text and completion.tokens > 0 and completion.seconds > 0
    assert completion.route == "local"
    assert local.tokens_per_second > 0
    general = asyncio.run(local.chat(ctx(), summary_messages(
        "What is a cholesterol test?", ["A lipid panel measures total, LDL and HDL cholesterol."], "en"),
        max_tokens=80))
    assert general.text


def test_local_calls_are_serialized(local: TimedLocalModel) -> None:
    async def two_at_once() -> list[Completion]:
        return await asyncio.gather(local.chat(ctx(), COUNT, max_tokens=40),
                                    local.chat(ctx(), HELLO, max_tokens=40))

    before = len(local.spans)
    first, second = asyncio.run(two_at_once())
    assert first.text and second.text
    (_, first_end), (second_start, _) = sorted(local.spans[before:])
    assert first_end <= second_start, "two generations overlapped on one Llama object"


def test_full_queue_is_refused_at_once(model_path: Path) -> None:
    model = LocalModel(model_path, threads=1, max_queue=1)  # one running + one waiting

    async def three_at_once() -> list[Completion | BaseException]:
        return await asyncio.gather(*(model.chat(ctx(), COUNT, max_tokens=20) for _ in range(3)),
                                    return_exceptions=True)

    try:
        running, waiting, refused = asyncio.run(three_at_once())
        assert isinstance(running, Completion) and isinstance(waiting, Completion)
        assert isinstance(refused, ResourceExhausted) and refused.message == "local model queue is full"
        # The slots come back once the worker is done.
        assert asyncio.run(model.chat(ctx(), HELLO, max_tokens=5)).text
    finally:
        model.close()


def test_spent_deadline_fails_before_starting(local: TimedLocalModel) -> None:
    before = len(local.spans)
    with pytest.raises(ModelTimeout):
        asyncio.run(local.chat(RequestContext(deadline=time.monotonic() - 1), HELLO, max_tokens=5))
    assert len(local.spans) == before  # nothing reached the worker


def test_short_deadline_stops_generation_early(local: TimedLocalModel) -> None:
    baseline = asyncio.run(local.chat(ctx(), HELLO, max_tokens=20)).text
    request = ctx(0.3)
    with pytest.raises(ModelTimeout):
        asyncio.run(local.chat(request, COUNT, max_tokens=1000))  # ~1 s of work when unbounded
    # The next call queues behind the interrupted one: the model is usable and still deterministic.
    assert asyncio.run(local.chat(ctx(), HELLO, max_tokens=20)).text == baseline
    _, interrupted_end = local.spans[-2]
    # Unbounded, the generation runs about 1 s past the deadline; a busy machine may add a token's time.
    assert interrupted_end - request.deadline < 0.5, "the worker kept generating past the deadline"


def test_deadline_passing_in_the_queue_skips_generation(local: TimedLocalModel) -> None:
    async def queued_behind_a_long_call() -> tuple[float, list]:
        long_call = asyncio.create_task(local.chat(ctx(0.8), COUNT, max_tokens=1000))
        await asyncio.sleep(0)  # let it take the worker
        start = time.monotonic()
        with pytest.raises(ModelTimeout):
            await local.chat(ctx(0.2), HELLO, max_tokens=20)
        waited = time.monotonic() - start
        outcomes = await asyncio.gather(long_call, local.chat(ctx(), HELLO, max_tokens=5),
                                        return_exceptions=True)
        return waited, outcomes

    before = len(local.spans)
    waited, (long_outcome, after) = asyncio.run(queued_behind_a_long_call())
    assert waited < 0.4  # the queued caller gave up at its own deadline
    assert isinstance(long_outcome, ModelTimeout) and isinstance(after, Completion)
    assert len(local.spans) == before + 2  # the long call and the one after; the timed-out one never ran


def test_prompt_longer_than_the_context_is_a_model_error(local: TimedLocalModel) -> None:
    with pytest.raises(ModelError, match="does not fit"):
        asyncio.run(local.chat(ctx(), [{"role": "user", "content": "word " * 2100}], max_tokens=5))


def test_json_schema_output_parses_and_validates(local: TimedLocalModel) -> None:
    schema = {
        "type": "object",
        "properties": {
            "intent": {"type": "string", "enum": ["book", "cancel", "reschedule", "other"]},
            "specialty": {"type": "string", "enum": ["cardiology", "dermatology", "orthopedics", "none"]},
            "urgent": {"type": "boolean"},
        },
        "required": ["intent", "specialty", "urgent"],
        "additionalProperties": False,
    }
    messages = [{"role": "system", "content": "Classify the message as JSON."},
                {"role": "user", "content": "quero marcar uma consulta com um cardiologista"}]
    completion = asyncio.run(local.chat(ctx(), messages, max_tokens=60, json_schema=schema))
    value = json.loads(completion.text)
    assert set(value) == {"intent", "specialty", "urgent"}
    assert value["intent"] in schema["properties"]["intent"]["enum"]
    assert value["specialty"] in schema["properties"]["specialty"]["enum"]
    assert isinstance(value["urgent"], bool)
    assert not completion.truncated


# --- cloud model -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def llama_server(model_path: Path) -> Iterator[str]:
    port = free_port()
    proc = start_llama_server(model_path, port)
    yield f"http://127.0.0.1:{port}"
    stop_process(proc)


@pytest.fixture
def proxy(llama_server: str) -> Iterator[RecordingProxy]:
    proxy = RecordingProxy(llama_server).start()
    yield proxy
    proxy.stop()


async def ask_cloud(url: str, request: RequestContext, messages: list[dict], *, policy: Policy = FAST_RETRIES,
                    max_tokens: int = 20) -> tuple[CloudModel, Completion | BaseException]:
    """One chat through a fresh client (clients belong to one event loop); returns the outcome."""
    cloud = CloudModel(url, "smollm2", guard=phi_guard, policy=policy)
    try:
        return cloud, await cloud.chat(request, messages, max_tokens=max_tokens)
    except Exception as exc:
        return cloud, exc
    finally:
        await cloud.close()


def test_cloud_answers_through_the_proxy(proxy: RecordingProxy) -> None:
    messages = rephrase_messages("Dr. Ana Lima has a slot at Clinic A on 2025-07-18 at 10:00.", "pt")
    _, completion = asyncio.run(ask_cloud(proxy.url, ctx(), messages))
    assert isinstance(completion, Completion), completion
    assert completion.route == "cloud" and completion.text and completion.tokens > 0
    assert [json.loads(body) for body in proxy.bodies] == [
        {"model": "smollm2", "messages": messages, "max_tokens": 20, "temperature": 0}]


@pytest.mark.parametrize("content", [
    "Meu CPF é 529.982.247-25, quero remarcar.",
    "Paciente:\nMaria Souza",  # on the wire "\nMaria": the escape hides the word boundary
])
def test_egress_guard_refuses_phi_and_sends_nothing(proxy: RecordingProxy, content: str) -> None:
    cloud, outcome = asyncio.run(ask_cloud(proxy.url, ctx(), [{"role": "user", "content": content}]))
    assert isinstance(outcome, EgressRefused)
    assert outcome.categories in (("CPF",), ("PERSON",))
    assert "529" not in str(outcome) and "Maria" not in str(outcome)
    assert cloud.refusals == 1
    assert proxy.bodies == []


def test_guard_failure_sends_nothing(proxy: RecordingProxy) -> None:
    def broken_guard(text: str, patient_names: Sequence[str]) -> list[str]:
        raise RuntimeError("detector down")

    async def ask() -> EgressRefused:
        cloud = CloudModel(proxy.url, "smollm2", guard=broken_guard, policy=FAST_RETRIES)
        try:
            with pytest.raises(EgressRefused) as refused:
                await cloud.chat(ctx(), HELLO, max_tokens=5)
            return refused.value
        finally:
            await cloud.close()

    assert asyncio.run(ask()).categories == (UNCHECKED,)
    assert proxy.bodies == []


def test_spent_deadline_sends_nothing(proxy: RecordingProxy) -> None:
    _, outcome = asyncio.run(ask_cloud(proxy.url, RequestContext(deadline=time.monotonic() - 1), HELLO))
    assert isinstance(outcome, CloudUnavailable)
    assert proxy.bodies == []


def test_client_error_is_not_retried(proxy: RecordingProxy) -> None:
    too_long = [{"role": "user", "content": "word " * 2100}]  # past n_ctx 2048: llama_cpp.server says 400
    cloud, outcome = asyncio.run(ask_cloud(proxy.url, ctx(), too_long))
    assert isinstance(outcome, CloudUnavailable) and "HTTP 400" in str(outcome)
    assert len(proxy.bodies) == 1
    assert cloud.breaker_state == "closed"


def test_server_errors_are_retried_then_the_breaker_opens(model_path: Path) -> None:
    port = free_port()
    server = start_llama_server(model_path, port)
    proxy = RecordingProxy(f"http://127.0.0.1:{port}").start()
    cloud = CloudModel(proxy.url, "smollm2", guard=phi_guard, policy=FAST_RETRIES)  # 3 attempts, trips at 4

    async def ask() -> tuple[Completion | CloudUnavailable, int]:
        """One chat's outcome, and how many requests the proxy has received so far."""
        try:
            outcome: Completion | CloudUnavailable = await cloud.chat(ctx(), HELLO, max_tokens=5)
        except CloudUnavailable as exc:
            outcome = exc
        return outcome, len(proxy.bodies)

    async def scenario() -> list[tuple[Completion | CloudUnavailable, int]]:
        outcomes = [await ask()]
        stop_process(server)  # from now on the proxy answers 502
        outcomes += [await ask() for _ in range(3)]
        await cloud.close()
        return outcomes

    try:
        (ok, sent_ok), (failed, sent_failed), (tripped, sent_tripped), (refused, sent_refused) = (
            asyncio.run(scenario()))
    finally:
        stop_process(server)
        proxy.stop()
    assert isinstance(ok, Completion) and sent_ok == 1
    assert isinstance(failed, CloudUnavailable) and "HTTP 502" in str(failed)
    assert sent_failed == 1 + 3  # every attempt reached the proxy
    # The 4th consecutive failure opens the breaker; the retry after it is refused locally.
    assert isinstance(tripped, CloudUnavailable) and sent_tripped == 4 + 1
    assert isinstance(refused, CloudUnavailable) and "circuit is open" in str(refused)
    assert sent_refused == sent_tripped  # an open breaker sends nothing
    assert cloud.breaker_state == "open"


def test_cloud_config_from_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HEALTHMESH_CLOUD_BASE_URL", raising=False)
    monkeypatch.delenv("HEALTHMESH_CLOUD_MODEL", raising=False)
    assert CloudModel.from_settings(Settings.from_env().cloud, phi_guard) is None
    monkeypatch.setenv("HEALTHMESH_CLOUD_BASE_URL", "http://127.0.0.1:9/v1")
    with pytest.raises(ConfigError, match="HEALTHMESH_CLOUD_MODEL"):
        CloudModel.from_settings(Settings.from_env().cloud, phi_guard)
    monkeypatch.setenv("HEALTHMESH_CLOUD_MODEL", "smollm2")
    cloud = CloudModel.from_settings(Settings.from_env().cloud, phi_guard)
    assert cloud is not None and cloud.model == "smollm2" and cloud.breaker_state == "closed"
    asyncio.run(cloud.close())
