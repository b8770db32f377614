"""What AskStream tells the client while a turn runs: a stage event as each stage ends, a step
event as each upstream call ends. Ask ignores them."""

from collections.abc import Awaitable, Callable

from healthmesh.v1 import orchestrator_pb2
from orchestrator.context import RequestContext
from orchestrator.planning.steps import StepResult, StepStatus

Emit = Callable[[orchestrator_pb2.AskEvent], Awaitable[None]]


async def ignored(_: orchestrator_pb2.AskEvent) -> None:
    """The Emit of a unary Ask: the events are not even built (a step event per clinic was
    measurable CPU in a wide fan-out)."""

STEP_STATUS = {s: orchestrator_pb2.StepStatus.Value(f"STEP_STATUS_{s.name}") for s in StepStatus}


def step_message(r: StepResult) -> orchestrator_pb2.Step:
    return orchestrator_pb2.Step(step_id=r.step.step_id, clinic_id=r.step.upstream,
                                 action=r.step.action.value, status=STEP_STATUS[r.status],
                                 message=r.status.value.replace("_", " "), attempts=r.attempts,
                                 latency_ms=round(r.latency_ms, 3))


async def stage(emit: Emit, ctx: RequestContext, stage: int, detail: str) -> None:
    if emit is ignored:
        return
    await emit(orchestrator_pb2.AskEvent(stage=orchestrator_pb2.StageEvent(
        stage=stage, detail=detail, elapsed_ms=round(ctx.elapsed_ms(), 3))))


class Held:
    """An Emit that keeps its events until `release` sends them, and every later one, to the
    client: the steps read ahead of the safety screen are shown only once the screen passed."""

    def __init__(self) -> None:
        self._events: list[orchestrator_pb2.AskEvent] = []
        self._emit: Emit | None = None

    async def __call__(self, event: orchestrator_pb2.AskEvent) -> None:
        if self._emit is None:
            self._events.append(event)
        else:
            await self._emit(event)

    async def release(self, emit: Emit) -> None:
        while self._events:  # in order; an event held meanwhile joins the queue
            await emit(self._events.pop(0))
        self._emit = emit
