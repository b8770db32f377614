"""The reactive tool loop, decided by code, not by a model.

- At most MAX_STEPS tool calls per turn; the same call (tool and arguments) never runs twice.
- Calls run in waves: the calls asked run together (bounded per turn), then the follow-ups
  their results add (a score's tier asks for the guideline passage that acts on it); the task
  is complete when every asked call and its follow-ups have an outcome. Results are read in
  call order.
- Errors by rule: an unknown drug or an invalid argument stops the loop and asks the user;
  a transient error was already retried by the upstream policy (two retries), after which the
  call is skipped and named in the answer; other calls still run.
"""

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from healthmesh.v1 import tools_pb2
from orchestrator.context import RequestContext
from orchestrator.planning.steps import TOOLS, Action, PlannedStep, StepResult, StepStatus
from orchestrator.toolquestions.requests import ToolCall, ToolTask

MAX_STEPS = 4

RunSteps = Callable[[RequestContext, list[PlannedStep]], Awaitable[list[StepResult]]]

# A score in these tiers is followed by the guideline passages that act on it (only where the
# knowledge base has that topic: a follow-up that finds nothing relevant would cite noise).
_TOPIC = {"cha2ds2_vasc": "atrial fibrillation anticoagulation", "heart": "chest pain risk stratification",
          "curb65": "community acquired pneumonia severity", "qsofa": "sepsis screening"}
_FOLLOW_UP = {(score, tier): topic for score, topic in _TOPIC.items()
              for tier in (tools_pb2.RISK_TIER_MODERATE, tools_pb2.RISK_TIER_HIGH)}


@dataclass
class Ask:
    """What the loop needs from the user before it can go on."""

    kind: str  # "unknown_drug" | "invalid_argument"
    subject: str  # the drug name as written, or the field
    suggestions: list[str] = field(default_factory=list)


@dataclass
class LoopResult:
    results: list[StepResult]
    ask: Ask | None = None
    dropped: int = 0  # calls left out by the step limit


def follow_up(call: ToolCall, result: StepResult) -> ToolCall | None:
    if call.action != Action.COMPUTE_SCORE or result.status != StepStatus.OK:
        return None
    query = _FOLLOW_UP.get((call.request.WhichOneof("inputs"), result.reply.risk_tier))
    if query is None:
        return None
    return ToolCall(Action.SEARCH_GUIDELINES, tools_pb2.SearchGuidelinesRequest(query=query, top_k=2))


def _ask(call: ToolCall, result: StepResult) -> Ask | None:
    """What the user must say before the loop can go on, if this result needs it."""
    if result.status == StepStatus.NOT_FOUND and call.action in (Action.CHECK_DRUG_SAFETY,
                                                                    Action.CHECK_INTERACTIONS):
        info = result.extra.get("error_info")
        metadata = dict(info.metadata) if info is not None else {}
        suggestions = [s for s in metadata.get("suggestions", "").split(",") if s]
        return Ask("unknown_drug", metadata.get("drug_name", ""), suggestions)
    if result.status == StepStatus.INVALID:
        return Ask("invalid_argument", result.extra.get("field", ""))
    return None


async def run(ctx: RequestContext, task: ToolTask, run_steps: RunSteps, first_step: int = 1) -> LoopResult:
    queue = list(task.calls)
    seen: set[tuple[str, bytes]] = set()
    results: list[StepResult] = []
    while queue and len(results) < MAX_STEPS:
        wave: list[ToolCall] = []
        while queue and len(results) + len(wave) < MAX_STEPS:
            call = queue.pop(0)
            if call.key not in seen:
                seen.add(call.key)
                wave.append(call)
        steps = [PlannedStep(f"s{first_step + len(results) + i}", TOOLS, call.action, call.request)
                 for i, call in enumerate(wave)]
        for call, result in zip(wave, await run_steps(ctx, steps), strict=True):
            results.append(result)
            if (ask := _ask(call, result)) is not None:
                return LoopResult(results, ask)
            if (extra := follow_up(call, result)) is not None:
                queue.append(extra)
    return LoopResult(results, dropped=len([c for c in queue if c.key not in seen]))
