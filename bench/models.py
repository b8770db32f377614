"""Model routing costs: raw llama-cpp-python generation of a grounded summary (what the model
adds through the mesh is in bench/writers.py), and PHI detection per message next to a single
regex scan (the floor)."""

import json
import re
import statistics
import time
from pathlib import Path

from llama_cpp import Llama
from rich.console import Console
from rich.table import Table

from bench.stats import Result, table
from orchestrator.models.local import default_model_path
from orchestrator.models.prompts import summary_messages
from orchestrator.privacy.phi import PhiDetector

QUESTION = "what is hypertension?"
PASSAGE = ("Hypertension is diagnosed when clinic blood pressure is 140/90 mmHg or higher and confirmed by "
           "ambulatory or home monitoring.")
MAX_TOKENS = 160  # the orchestrator's budget for a health question
ROUNDS = 5
LABELED = Path(__file__).resolve().parent.parent / "tests" / "phi_labeled.json"


def raw_generation() -> tuple[list[float], float]:
    """Seconds per completion and tokens/s, llama-cpp-python called directly."""
    llm = Llama(model_path=str(default_model_path()), n_ctx=2048, n_threads=2, verbose=False)
    messages = summary_messages(QUESTION, [PASSAGE], "en")
    seconds, tokens = [], 0
    for _ in range(ROUNDS):
        start = time.perf_counter()
        out = llm.create_chat_completion(messages=messages, max_tokens=MAX_TOKENS, temperature=0)
        seconds.append(time.perf_counter() - start)
        tokens += out["usage"]["completion_tokens"]
    return seconds, tokens / sum(seconds)


def phi_detection() -> tuple[Result, Result]:
    messages = [item["text"] for item in json.loads(LABELED.read_text(encoding="utf-8"))] * 5
    detector = PhiDetector()
    cpf = re.compile(r"\d{3}\.?\d{3}\.?\d{3}-?\d{2}")

    def timed(name: str, fn) -> Result:
        latencies = []
        start = time.perf_counter()
        for text in messages:
            t = time.perf_counter()
            fn(text)
            latencies.append((time.perf_counter() - t) * 1000)
        return Result(name, 1, latencies, time.perf_counter() - start)

    timed("warm-up", detector.detect)
    return timed("one regex scan (floor)", cpf.search), timed("PHI detection", detector.detect)


def run(console: Console) -> None:
    raw, raw_tps = raw_generation()
    out = Table(title=f"Local model: a grounded summary of '{QUESTION}' ({MAX_TOKENS} tokens max, "
                      f"{ROUNDS} rounds)",
                caption="what the model costs through the mesh: the model writers table below")
    for column in ("path", "p50 s", "max s", "note"):
        out.add_column(column)
    out.add_row("raw llama-cpp-python", f"{statistics.median(raw):.3f}", f"{max(raw):.3f}",
                f"{raw_tps:.0f} tokens/s")
    console.print(out)
    floor, phi = phi_detection()
    console.print(table("PHI detection per message (labeled set x5)", [floor, phi], {1: floor}, "regex",
                        "target: p50 ≤ 1 ms"))
