"""Reads ahead of the safety screen. The screen is a round trip to the verifier; meanwhile the turn
understands and plans the raw message, and a plan made of reads alone (a listing, the patient's
appointments, a lookup's first round) starts them. Their results, and their step events, are used
only when the screen passed and the message it let through is the one planned; otherwise (an
emergency, a triage question, a person asked for) they are cancelled and dropped. A write never
starts before the screen passes: a plan with one is not read ahead at all."""

import asyncio
import contextlib
from dataclasses import dataclass

from orchestrator.context import RequestContext
from orchestrator.events import Emit, Held, ignored
from orchestrator.planning.planner import Kind, Plan
from orchestrator.planning.steps import StepResult
from orchestrator.routing import Route, steps_context

KINDS = frozenset({Kind.LIST, Kind.MY_APPOINTMENTS, Kind.LOOKUP})  # plans whose first round is reads


@dataclass
class ReadAhead:
    plan: Plan
    task: "asyncio.Task[list[StepResult]]"
    events: Held | None  # None: the turn's events are ignored

    @classmethod
    def start(cls, ctx: RequestContext, route: Route, plan: Plan) -> "ReadAhead | None":
        """The plan's steps started, or None when it is not a plan of reads."""
        if plan.kind not in KINDS or not plan.steps or any(step.action.is_write for step in plan.steps):
            return None
        events = None if route.emit is ignored else Held()
        steps = Route(route.mesh, events or ignored, route.limit).run(steps_context(ctx), plan.steps)
        task = asyncio.create_task(steps)
        return cls(plan, task, events)

    async def results(self, emit: Emit) -> list[StepResult]:
        """The steps' results (awaited if still running); their events go to the client now."""
        if self.events is not None:
            await self.events.release(emit)
        return await self.task

    async def discard(self) -> None:
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task
