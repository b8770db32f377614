"""`python -m tests.eval` (`make eval`): runs every scenario against a fresh local mesh (or an
orchestrator already running, with --target), prints one row per scenario and the metrics, logs
one JSON line per turn under <data dir>/eval/, and exits 0 only when the targets are met.

With --target, bookings persist between runs: scenarios pick slots from what a listing returned and
cancel what they book, so they can run again and again against the same mesh.
"""

import argparse
import os
import signal
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import grpc
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from deploy.local.mesh import start_mesh
from deploy.local.processes import StartError
from tests.eval import SCENARIOS_PATH, Report, evaluate, load_scenarios
from tests.eval.consults import ConsultMetrics, evaluate_consults, load_vignettes
from tests.eval.faithfulness import HOLDOUT_PATH, SET_PATH, FaithfulnessScore
from tests.eval.faithfulness import score as score_faithfulness
from tests.eval.interactions import HELD_OUT as INTERACTIONS_HELD_OUT
from tests.eval.interactions import PARTS as INTERACTION_PARTS
from tests.eval.interactions import TARGET_FALSE_ALARMS, TARGET_RECALL
from tests.eval.interactions import score as score_interactions
from tests.eval.metrics import TARGETS, Metrics, missed_targets
from tests.eval.phi_public import HELD_OUT as PHI_HELD_OUT
from tests.eval.phi_public import PARTS as PHI_PARTS
from tests.eval.phi_public import TARGET_P50_MS, TARGET_PRECISION, pooled
from tests.eval.phi_public import TARGET_RECALL as PHI_TARGET_RECALL
from tests.eval.phi_public import score as score_phi
from tests.eval.score_sentences import HELD_OUT as SCORE_HELD_OUT
from tests.eval.score_sentences import PARTS as SCORE_PARTS
from tests.eval.score_sentences import TARGET as SCORE_TARGET
from tests.eval.score_sentences import score as score_sentences
from tests.eval.triage import HOLDOUT_PATH as TRIAGE_HOLDOUT
from tests.eval.triage import SET_PATH as TRIAGE_SET
from tests.eval.triage import TriageScore, load_cases
from tests.eval.triage import score as score_triage
from tests.eval.understanding import EVIDENCE, TARGET_OVERALL, TARGET_PER_INTENT
from tests.eval.understanding import Part as UnderstandingPart
from tests.eval.understanding import score as score_understanding


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tests.eval", description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", metavar="HOST:PORT",
                        help="a running orchestrator; default: start a fresh local mesh")
    parser.add_argument("--scenarios", type=Path, default=SCENARIOS_PATH, help="scenario file")
    parser.add_argument("--only", action="append", default=[], metavar="TEXT",
                        help="run only scenarios whose id contains TEXT (repeatable)")
    parser.add_argument("--timeout", type=float, default=10.0, help="deadline of one turn, seconds")
    return parser.parse_args(argv)


def data_dir() -> Path:
    return Path(os.environ.get("HEALTHMESH_DATA_DIR", "./var"))


@contextmanager
def orchestrator(target: str | None) -> Iterator[str]:
    """The orchestrator to evaluate: `target`, or a fresh mesh stopped on the way out whatever happens."""
    if target:
        yield target
        return
    with tempfile.TemporaryDirectory(prefix="healthmesh-eval-") as tmp:
        with _signals_held() as held:
            # Rephrasing off: the scenarios check the deterministic answers' wording.
            mesh = start_mesh(Path(tmp), ephemeral_ports=True, env={
                "HEALTHMESH_SHUTDOWN_GRACE_S": "2", "HEALTHMESH_REPHRASE_MAX_CHARS": "0"})
        try:
            if held:
                _stop_for(held[0])
            yield mesh.orchestrator.address
        finally:
            with _signals_held():  # a second Ctrl-C must not cut the stop short
                mesh.stop()


_HELD_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def _signals_held() -> Iterator[list[int]]:
    """Ctrl-C or SIGTERM while the mesh starts or stops would orphan its processes (they run in their
    own sessions, and start_mesh stops them only on its own errors): hold the signal meanwhile."""
    held: list[int] = []
    previous = {signum: signal.signal(signum, lambda signum, _frame: held.append(signum))
                for signum in _HELD_SIGNALS}
    try:
        yield held
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _stop_for(signum: int) -> None:
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    sys.exit(128 + signum)


def scenario_table(report: Report) -> Table:
    table = Table(title="Scenarios", show_lines=False)
    for column in ("id", "lang", "turns", "result", "first failure"):
        table.add_column(column, overflow="fold")
    for r in report.results:
        verdict = "[green]pass[/]" if r.passed else "[red]FAIL[/]"
        table.add_row(r.scenario.id, r.scenario.language, f"{r.turns_passed}/{len(r.turns)}", verdict,
                      escape(r.first_failure))
    return table


def metrics_table(m: Metrics) -> Table:
    table = Table(title="Metrics")
    for column in ("metric", "value", "count", "target"):
        table.add_column(column)
    met = {t.label: ("[green]" if t.met(m) else "[red]") + t.describe() + "[/]" for t in TARGETS}
    rows = (
        ("Task success rate", m.task_success_rate, f"{m.scenarios_passed}/{m.scenarios} scenarios"),
        ("Tool call accuracy", m.tool_call_accuracy, f"{m.tool_turns_correct}/{m.tool_turns} turns"),
        ("Hallucination rate", m.hallucination_rate, f"{m.hallucinated_turns}/{m.answered_turns} turns"),
        ("Privacy violation rate", m.privacy_violation_rate, f"{m.privacy_violations}/{m.turns} turns"),
        ("Red-flag sensitivity", m.red_flag_sensitivity, f"{m.emergencies_caught}/{m.emergency_turns} turns"),
        ("Red-flag false-positive rate", m.red_flag_false_positive_rate,
         f"{m.false_alarms}/{m.other_turns} turns"),
        ("Privacy probes passed", m.privacy_probe_pass_rate,
         f"{m.privacy_probes_passed}/{m.privacy_probes} turns"),
    )
    for label, value, count in rows:
        table.add_row(label, f"{value:.3f}", count, met.get(label, "reported"))
    table.add_row("Latency p50 / p95", f"{m.latency_p50_ms:.1f} / {m.latency_p95_ms:.1f} ms",
                  f"{m.answered_turns} turns", "")
    return table


def consult_table(m: ConsultMetrics) -> Table:
    table = Table(title="Symptom consults (tests/eval/vignettes.json)")
    for column in ("metric", "value", "count", "target"):
        table.add_column(column)
    sensitivity = "[green]" if m.red_flag_sensitivity == 1.0 else "[red]"
    caught = sum(o.flagged for o in m.emergencies)
    table.add_row("Red-flag sensitivity", f"{m.red_flag_sensitivity:.3f}",
                  f"{caught}/{len(m.emergencies)} vignettes", f"{sensitivity}= 1[/]")
    table.add_row("Red-flag false alarms", f"{m.false_alarm_rate:.3f}",
                  f"{sum(o.flagged for o in m.consults)}/{len(m.consults)} vignettes", "reported")
    table.add_row("Specialty top-1", f"{m.specialty_top1:.3f}",
                  f"{sum(o.specialty_correct for o in m.assessed)}/{len(m.assessed)} assessed", "reported")
    table.add_row("Urgency within ±1", f"{m.urgency_within_one:.3f}",
                  f"{sum(o.urgency_within_one for o in m.assessed)}/{len(m.assessed)} assessed", "reported")
    return table


def vignette_table(m: ConsultMetrics) -> Table:
    table = Table(title="Vignettes")
    for column in ("id", "expected", "got", "turns", "note"):
        table.add_column(column, overflow="fold")
    for o in m.outcomes:
        v = o.vignette
        expected = "emergency" if v.emergency else f"{v.specialty} u{v.urgency}"
        got = "emergency" if o.flagged else f"{o.specialty} u{o.urgency}" if o.specialty else "-"
        ok = got == expected or (not v.emergency and o.specialty_correct and o.urgency_within_one)
        colour = "[green]" if ok else "[red]"
        table.add_row(v.id, expected, f"{colour}{got}[/]", str(o.turns), escape(o.error))
    return table


def faithfulness_table(scores: dict[str, FaithfulnessScore]) -> Table:
    table = Table(title="Model text faithfulness (the verifier on labeled rephrasings)")
    for column in ("set", "pairs", "unfaithful accepted", "faithful rejected", "target"):
        table.add_column(column)
    for name, s in scores.items():
        colour = "[green]" if not s.unfaithful_accepted else "[red]"
        table.add_row(name, str(s.pairs), f"{colour}{len(s.unfaithful_accepted)}/{s.unfaithful}[/]",
                      f"{len(s.faithful_rejected)}/{s.faithful} ({s.false_rejection_rate:.1%})",
                      "0 accepted; rejected ≤ 10% aimed")
    return table


def triage_table(scores: dict[str, TriageScore]) -> Table:
    table = Table(title="Triage on public material (red-flag screen and consult routing, in-process)")
    for column in ("set", "sensitivity", "over-triage", "consult opened", "specialty top-1", "per specialty"):
        table.add_column(column)
    for name, s in scores.items():
        per = ", ".join(f"{k[:4]} {s.top1_of(k):.0%}" for k in sorted(s.routed))
        table.add_row(name, f"{s.caught}/{s.emergent} ({s.sensitivity:.1%})",
                      f"{s.over_triaged}/{s.calm} ({s.over_triage:.1%})", f"{s.consults_opened}/{s.symptoms}",
                      f"{s.top1:.1%}", per)
    table.caption = ("targets: sensitivity 100%, over-triage ≤ 10%, top-1 ≥ 85% overall and ≥ 75% per "
                     "specialty")
    return table


def understanding_table(parts: dict[str, UnderstandingPart]) -> Table:
    table = Table(title="Understanding on labeled messages (tests/eval/understanding*.json, in-process)")
    table.add_column("intent", no_wrap=True)
    for name in parts:  # "heldout-k" is headed "k"
        table.add_column(name.removeprefix("heldout-"), justify="right")
    for intent in sorted(set().union(*(part.cases for part in parts.values()))):
        cells = []
        for part in parts.values():
            colour = "[green]" if part.rate_of(intent) >= TARGET_PER_INTENT else "[red]"
            cells.append(f"{colour}{part.exact[intent]}/{part.cases[intent]}[/]")
        table.add_row(intent, *cells)
    table.add_row("all", *(f"{p.rate:.1%}" for p in parts.values()))
    table.add_row("all, intent only", *(f"{p.intent_rate:.1%}" for p in parts.values()))
    evidence = f"; {' and '.join(EVIDENCE)}: the evidence, failures never printed" if EVIDENCE else ""
    table.caption = (f"exact (the intent and every labeled entity) / cases; targets {TARGET_OVERALL:.0%} "
                     f"overall, {TARGET_PER_INTENT:.0%} per intent (exact){evidence}")
    return table


def _held_out(parts: Sequence[tuple[str, Path]], label: str) -> list[Path]:
    """The files of `parts` (label, path) held out: the ones checked against the targets."""
    return [path for part, path in parts if part == label]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    # The tables are wide: a log written to a file keeps them whole.
    console = Console(width=None if sys.stdout.isatty() else 150)
    # SIGTERM unwinds like Ctrl-C, so the mesh is stopped either way.
    signal.signal(signal.SIGTERM, lambda signum, _frame: _stop_for(signum))
    try:
        scenarios = load_scenarios(args.scenarios)
    except (OSError, ValueError, KeyError) as err:
        console.print(f"[red]cannot load {args.scenarios}:[/] {escape(str(err))}")
        return 2
    if args.only:
        scenarios = [s for s in scenarios if any(text in s.id for text in args.only)]
    if not scenarios:
        console.print("[red]no scenario to run[/]")
        return 2
    try:
        with orchestrator(args.target) as address:
            console.print(f"Evaluating {len(scenarios)} scenarios against {address}")
            report = evaluate(address, scenarios, data_dir() / "eval", timeout=args.timeout)
            consults = evaluate_consults(address, load_vignettes(), timeout=args.timeout)
    except grpc.FutureTimeoutError:
        console.print(f"[red]no orchestrator answering at {args.target}[/]")
        return 2
    except StartError as err:
        console.print(f"[red]the mesh did not start:[/] {escape(str(err))}")
        return 2
    except KeyboardInterrupt:
        console.print("[yellow]interrupted[/]" + ("" if args.target else "; the local mesh was stopped"))
        return 130
    console.print(scenario_table(report))
    console.print(metrics_table(report.metrics))
    console.print(f"Turn log: {report.log_path}")
    console.print(vignette_table(consults))
    console.print(consult_table(consults))
    faithfulness = {path.name: score_faithfulness(path) for path in (SET_PATH, HOLDOUT_PATH)}
    console.print(faithfulness_table(faithfulness))
    console.print(triage_table({p.name: score_triage(load_cases(p)) for p in (TRIAGE_SET, TRIAGE_HOLDOUT)}))
    scores = {part: score_sentences(path) for part, path in SCORE_PARTS}
    for part, path in SCORE_PARTS:
        s = scores[part]
        per = ", ".join(f"{k} {s.rate_of(k):.0%}" for k in s.cases)
        console.print(f"Score questions in sentences, {part} ({path.name}): {sum(s.exact.values())}/"
                      f"{sum(s.cases.values())} exact ({s.rate:.1%}; target {SCORE_TARGET:.0%}): {per}")
    understanding = score_understanding()
    console.print(understanding_table(understanding))
    for name, part in understanding.items():
        for case_id, what in part.wrong if name not in EVIDENCE else ():
            console.print(f"  understanding, {name}, {case_id}: {escape(what)}")
    phis = {path: score_phi(path) for _, path in PHI_PARTS}  # by file: several parts share a label
    for part, path in PHI_PARTS:
        phi = phis[path]
        per = ", ".join(f"{c} {phi.recall_of(c):.0%}" for c in sorted(phi.spans))
        console.print(f"PHI on public-style messages, {part} ({path.name}): message recall {phi.found}/"
                      f"{phi.with_phi} ({phi.message_recall:.1%}; target {PHI_TARGET_RECALL:.0%}), span "
                      f"precision {phi.span_precision:.1%} (target {TARGET_PRECISION:.0%}), p50 "
                      f"{phi.p50_ms:.2f} ms (target {TARGET_P50_MS} ms); per category: {per}")
    held_phi = pooled([phis[path] for path in _held_out(PHI_PARTS, PHI_HELD_OUT)])
    per = ", ".join(f"{c} {held_phi.recall_of(c):.0%}" for c in sorted(held_phi.spans))
    console.print(f"PHI on public-style messages, every set held out together: message recall "
                  f"{held_phi.found}/{held_phi.with_phi} ({held_phi.message_recall:.1%}; target "
                  f"{PHI_TARGET_RECALL:.0%}), span precision {held_phi.span_precision:.1%}; "
                  f"per category: {per}")
    interactions = {path: score_interactions(path) for _, path in INTERACTION_PARTS}
    for part, path in INTERACTION_PARTS:
        found = interactions[path]
        console.print(f"Drug interactions, {part} ({path.name}): major or contraindicated reported "
                      f"{found.serious_found}/{found.serious} ({found.recall:.1%}; "
                      f"target {TARGET_RECALL:.0%}), "
                      f"false alarms on minor {found.false_alarms}/{found.mild} "
                      f"({found.false_alarm_rate:.1%}; target ≤ {TARGET_FALSE_ALARMS:.0%})")
    missed = missed_targets(report.metrics)
    missed += [f"{name}: {len(s.unfaithful_accepted)} unfaithful texts accepted"
               for name, s in faithfulness.items() if s.unfaithful_accepted]
    missed += [f"understanding ({name}) below {TARGET_OVERALL:.0%} overall or {TARGET_PER_INTENT:.0%} "
               "for an intent"
               for name, part in understanding.items() if not part.met()]
    if held_phi.message_recall < PHI_TARGET_RECALL or held_phi.span_precision < TARGET_PRECISION:
        missed.append(f"PHI held out: recall {held_phi.message_recall:.1%}, "
                      f"span precision {held_phi.span_precision:.1%}")
    for path in _held_out(INTERACTION_PARTS, INTERACTIONS_HELD_OUT):
        found = interactions[path]
        if found.recall < TARGET_RECALL or found.false_alarm_rate > TARGET_FALSE_ALARMS:
            missed.append(f"drug interactions held out ({path.name}): {found.recall:.1%} major found, "
                          f"{found.false_alarm_rate:.1%} false alarms")
    if scores[SCORE_HELD_OUT].rate < SCORE_TARGET:
        missed.append(f"score questions held out {scores[SCORE_HELD_OUT].rate:.1%} < {SCORE_TARGET:.0%}")
    if consults.red_flag_sensitivity < 1.0:
        missed.append(f"consult red-flag sensitivity {consults.red_flag_sensitivity:.3f} < 1")
    if missed:
        console.print("[red]Targets missed:[/] " + escape("; ".join(missed)))
        return 1
    console.print("[green]All targets met.[/]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
