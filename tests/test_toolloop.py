"""The reactive tool loop's rules: at most 4 calls, no duplicate call, follow-ups decided by the
results, an unknown drug stops the loop and asks. Steps are answered in-process by the real
calculator code; the network path is covered end to end in test_clinical_flows."""

import asyncio

import grpc
from google.rpc import error_details_pb2

from healthmesh.v1 import tools_pb2
from orchestrator.context import RequestContext
from orchestrator.planning.steps import Action, PlannedStep, StepResult, StepStatus
from orchestrator.toolquestions import loop as toolloop
from orchestrator.toolquestions.requests import ToolCall, ToolTask, read
from tools.calculators import compute


def run(task: ToolTask) -> tuple[toolloop.LoopResult, list[PlannedStep]]:
    seen: list[PlannedStep] = []

    def run_step(step: PlannedStep) -> StepResult:
        seen.append(step)
        if step.action == Action.COMPUTE_SCORE:
            return StepResult(step, StepStatus.OK, compute(step.request))
        if step.action == Action.CHECK_DRUG_SAFETY and step.request.drug_name == "warfarn":
            info = error_details_pb2.ErrorInfo(reason="UNKNOWN_DRUG",
                                               metadata={"drug_name": "warfarn", "suggestions": "warfarin"})
            return StepResult(step, StepStatus.NOT_FOUND, code=grpc.StatusCode.NOT_FOUND,
                              extra={"error_info": info})
        return StepResult(step, StepStatus.OK, None)

    async def run_steps(ctx: RequestContext, steps: list[PlannedStep]) -> list[StepResult]:
        return [run_step(step) for step in steps]

    return asyncio.run(toolloop.run(RequestContext.with_timeout(5), task, run_steps)), seen


def safety(name: str) -> ToolCall:
    return ToolCall(Action.CHECK_DRUG_SAFETY, tools_pb2.CheckDrugSafetyRequest(drug_name=name))


def test_at_most_four_calls_and_the_rest_counted_as_dropped():
    result, seen = run(ToolTask(calls=[safety(n) for n in ("a1", "b2", "c3", "d4", "e5")]))
    assert [s.request.drug_name for s in seen] == ["a1", "b2", "c3", "d4"]
    assert [s.step_id for s in seen] == ["s1", "s2", "s3", "s4"]
    assert result.dropped == 1 and result.ask is None


def test_the_same_call_runs_once():
    result, seen = run(ToolTask(calls=[safety("warfarin"), safety("aspirin"), safety("warfarin")]))
    assert [s.request.drug_name for s in seen] == ["warfarin", "aspirin"]
    assert result.dropped == 0


def test_a_high_stroke_risk_score_is_followed_by_its_guideline():
    _, seen = run(read("CHA2DS2-VASc for a 78-year-old woman with hypertension and diabetes"))
    assert [s.action for s in seen] == [Action.COMPUTE_SCORE, Action.SEARCH_GUIDELINES]
    assert seen[1].request.query == "atrial fibrillation anticoagulation"


def test_a_low_score_needs_no_follow_up():
    _, seen = run(read("CHA2DS2-VASc for a 40-year-old man"))
    assert [s.action for s in seen] == [Action.COMPUTE_SCORE]


def test_an_unknown_drug_stops_the_loop_and_asks():
    # The calls of one wave run together; the loop's outcome ends at the first that asks.
    result, _ = run(ToolTask(calls=[safety("warfarn"), safety("aspirin")]))
    assert [r.step.request.drug_name for r in result.results] == ["warfarn"]
    assert result.ask == toolloop.Ask("unknown_drug", "warfarn", ["warfarin"])


def test_each_score_follows_up_with_its_own_topic():
    _, seen = run(read("CURB-65: 70 year old, confused, urea 8, RR 32, BP 85/50"))
    assert [s.request.query for s in seen[1:]] == ["community acquired pneumonia severity"]
    _, seen = run(read("qSOFA RR 24 SBP 95, confused"))
    assert [s.request.query for s in seen[1:]] == ["sepsis screening"]
