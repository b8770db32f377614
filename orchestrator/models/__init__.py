"""Model clients: the local GGUF model (llama.cpp, in-process) and an OpenAI-compatible cloud model.

Both answer `chat(ctx, messages, ...)` with a `Completion`; every failure is a `ModelError`, so
the caller can fall back (cloud -> local -> the deterministic answer) on one exception type.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Completion:
    """One model answer. `seconds` is the time the model spent on it (for the local model the
    generation on its worker, not the wait in its queue; for the cloud model the whole call,
    retries included). `truncated`: generation hit `max_tokens`, so the text is cut short."""

    text: str
    tokens: int
    seconds: float
    route: str = "local"  # "local" | "cloud"
    truncated: bool = False

    @property
    def tokens_per_second(self) -> float:
        return self.tokens / self.seconds if self.seconds > 0 else 0.0


class ModelError(Exception):
    """A model could not answer; the message never holds prompt or answer text."""


class ModelTimeout(ModelError):
    """The request's deadline passed before the model finished (or left no time to start)."""
