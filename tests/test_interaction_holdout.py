"""The drug knowledge base on a held-out list of pairs labeled by public sources (ONC
high-priority list, Beers 2023, FDA labels and safety communications, DDInter): recall of
major or contraindicated pairs and false alarms on minor or no-interaction pairs hold their
measured floors (the README has the numbers)."""

from tests.eval.interactions import HOLDOUT_PATH, score

MIN_RECALL = 0.97
MAX_FALSE_ALARMS = 0.05


def test_interactions_hold_their_floors():
    result = score(HOLDOUT_PATH)
    assert result.serious >= 150 and result.mild >= 100
    assert result.recall >= MIN_RECALL, result.missed[:20]
    assert result.false_alarm_rate <= MAX_FALSE_ALARMS, result.alarmed[:20]
