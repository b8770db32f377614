"""Stage 4, routing: a turn's planned steps run on their upstreams, at most `limit` of this turn's
at once, each reported to the client as it ends. Steps get the turn's deadline minus a reserve,
so a slow upstream still leaves time to answer and verify within the caller's deadline."""

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from healthmesh.v1 import orchestrator_pb2
from orchestrator.context import RequestContext
from orchestrator.events import Emit, ignored, step_message
from orchestrator.gather import gather
from orchestrator.planning.steps import PlannedStep, StepResult
from orchestrator.upstreams import Mesh

ANSWER_RESERVE_S = 0.3


def steps_context(ctx: RequestContext) -> RequestContext:
    return ctx.child(reserve=min(ANSWER_RESERVE_S, ctx.remaining() * 0.2))


@dataclass
class Route:
    """One turn's way to its upstreams."""

    mesh: Mesh
    emit: Emit
    limit: int

    async def step(self, ctx: RequestContext, step: PlannedStep) -> StepResult:
        result = await self.mesh.run_step(ctx, step)
        if self.emit is not ignored:
            await self.emit(orchestrator_pb2.AskEvent(step=step_message(result)))
        return result

    async def run(self, ctx: RequestContext, steps: Sequence[PlannedStep]) -> list[StepResult]:
        """The steps' results in plan order; the steps run concurrently, within the limit."""
        return await gather(self.limit, [partial(self.step, ctx, step) for step in steps])
