"""Stage 4 for tool questions: the tool loop's calls, then the cited report; a general health
question is answered from the guideline passages found for it."""

from opentelemetry import trace

from healthmesh.v1 import tools_pb2
from orchestrator.answering.answer import Answer, AnswerBuilder
from orchestrator.context import RequestContext
from orchestrator.planning.planner import Plan
from orchestrator.planning.steps import Action, StepResult, StepStatus
from orchestrator.routing import Route, steps_context
from orchestrator.sessions import Session
from orchestrator.toolquestions import loop
from orchestrator.toolquestions.reports import missing_inputs, tool_report
from orchestrator.toolquestions.requests import ToolCall, ToolTask

tracer = trace.get_tracer("healthmesh.orchestrator")

GENERAL_PASSAGES = 3


async def answer_tools(ctx: RequestContext, route: Route, task: ToolTask, session: Session,
                       lang: str) -> tuple[Answer, list[StepResult]]:
    if task.missing:
        return Answer(missing_inputs(task.score, task.missing, lang), "needs_info"), []
    with tracer.start_as_current_span("tool loop") as span:
        result = await loop.run(steps_context(ctx), task, route.run)
        span.set_attribute("healthmesh.tool_steps", len(result.results))
        span.set_attribute("healthmesh.tool_ask", result.ask.kind if result.ask else "")
    report = tool_report(result, lang, task.readings)
    if session.consult is not None:
        session.consult.objective += report.objective
    return Answer(report.text, report.disposition, facts=report.facts, citations=report.citations), \
        result.results


async def answer_general(ctx: RequestContext, route: Route, answers: AnswerBuilder, plan: Plan,
                         session: Session, message: str, lang: str) -> tuple[Answer, list[StepResult]]:
    """The cited passages themselves (a model may summarize them), or a plain "I can't answer
    that here" with what the assistant can do when none is found."""
    search = tools_pb2.SearchGuidelinesRequest(query=message, top_k=GENERAL_PASSAGES)
    task = ToolTask(calls=[ToolCall(Action.SEARCH_GUIDELINES, search)])
    answer, results = await answer_tools(ctx, route, task, session, lang)
    passages = [p.snippet for r in results if r.status == StepStatus.OK for p in r.reply.passages]
    if not passages:
        return answers.reply(plan, lang), results
    answer.passages = passages
    return answer, results
