"""Triage on public material (tests/eval/triage_*.json, every case with its named source): the
red-flag screen and the consult routing hold the measured floors. triage_public.json was used
to build the catalogue and the cues (a regression set); triage_holdout.json was written after,
by someone else, and is the evidence the README reports."""

import pytest

from tests.eval.triage import HOLDOUT_PATH, SET_PATH, load_cases, score

# (set, sensitivity, over-triage, top-1 overall, top-1 of the weakest specialty): measured floors
# (the README has the numbers, first run and final).
FLOORS = [(SET_PATH, 0.99, 0.05, 0.84, 0.65), (HOLDOUT_PATH, 1.0, 0.05, 0.84, 0.75)]


@pytest.mark.parametrize(("path", "sensitivity", "over_triage", "top1", "weakest"), FLOORS,
                         ids=["public set", "held-out set"])
def test_triage_holds_its_floors(path, sensitivity, over_triage, top1, weakest):
    cases = load_cases(path)
    assert sum(c["emergent"] for c in cases) >= 100 and {c["lang"] for c in cases} == {"pt", "en"}
    assert all(c["source"] for c in cases)
    result = score(cases)
    assert result.sensitivity >= sensitivity, result.missed
    assert result.over_triage <= over_triage, result.false_alarms
    assert result.top1 >= top1, result.misrouted
    assert min(result.top1_of(s) for s in result.routed) >= weakest
