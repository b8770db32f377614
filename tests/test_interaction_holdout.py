"""The drug knowledge base on a held-out list of pairs labeled by public sources (ONC
high-priority list, Beers 2023, FDA labels and safety communications, DDInter): recall of
major or contraindicated pairs and false alarms on minor or no-interaction pairs hold their
measured floors (the README has the numbers)."""

from pathlib import Path

import pytest

from tests.eval.interactions import (
    HOLDOUT2_PATH,
    HOLDOUT3_PATH,
    HOLDOUT4_PATH,
    HOLDOUT5_PATH,
    HOLDOUT6_PATH,
    HOLDOUT7_PATH,
    HOLDOUT8_PATH,
    HOLDOUT9_PATH,
    HOLDOUT10_PATH,
    HOLDOUT11_PATH,
    HOLDOUT12_PATH,
    HOLDOUT13_PATH,
    HOLDOUT14_PATH,
    HOLDOUT15_PATH,
    HOLDOUT16_PATH,
    HOLDOUT_PATH,
    score,
)

MIN_RECALL = 0.97
MAX_FALSE_ALARMS = 0.05


def test_interactions_hold_their_floors():
    result = score(HOLDOUT_PATH)
    assert result.serious >= 150 and result.mild >= 100
    assert result.recall >= MIN_RECALL, result.missed[:20]
    assert result.false_alarm_rate <= MAX_FALSE_ALARMS, result.alarmed[:20]


# Lists tuned on after their first runs, with the recall each reached (first run, then after the round
# that never saw it, then after its own): holdout2 57.0%, 87.0%; holdout3 59.5%, 76.0%, 90.5%; holdout4
# 76.5% / 3.1%, 81.0% / 5.4%, 88.0% / 3.8%; holdout5 84.5% / 3.1%, 85.5%, 91.5% / 3.1%; holdout6 85.5% /
# 1.7%, 87.5%, 90.5% / 1.7%; holdout7 82.5% / 2.0%, 83.5%, 90.5% / 2.0%; holdout8 86.0% / 0 of 130, 89.0%,
# 90.0% / 0; holdout10 (ANSM thesaurus and Liverpool HIV charts) 63.5% / 12.4%, then 80.3% / 12.4% after its
# own round, 82.5% / 12.4% after the pair-rule round: its false alarms are ANSM "take into account" or
# Liverpool "no interaction expected" pairs a US label warns about (README), so its ceiling is its own.
# holdout11 (KEGG, NDF-RT, OSCAR, HIV InSite, drugs.com) 58.7% / 7.6%, 59.2% / 7.6%, then 61.9% / 7.6% after
# its own round: its misses are mostly Japanese package-insert contraindications and its false alarms OSCAR or
# HIV InSite "minor" pairs a label warns about. holdout12 (CredibleMeds "usually avoid", ONC non-interruptive)
# 31.6% (6 of 19) / 7.5% first and after the holdout11 round, then 36.8% (7 of 19) / 7.5% after its own: its
# misses are CredibleMeds' class-wide azole-statin row, its false alarms ACE inhibitor with ARB (the labels:
# avoid dual blockade) and fluoxetine with sotalol (CredibleMeds risk classes). holdout13 (Paxlovid
# monograph and NIH box, Beers Table 5) 76.0% / 0 of 16 first and after the holdout12 round, then 100% / 0
# after its own: its misses were the Paxlovid label's antiarrhythmic and strong-inducer contraindications
# and Beers' corticosteroid-NSAID "avoid". holdout14 (labels' and SmPCs' own contraindications and "no
# relevant interaction" statements) 89.0% / 1 of 51 first and after the holdout13 round, then 100% / 1 of 51
# after its own: its misses were the Kerendia label's strong CYP3A4 inhibitors and Ranexa's moderate inducer
# rifabutin; its false alarm, pregabalin with topiramate, is a pharmacokinetic "none" against topiramate's
# CNS-depressant warning.
TUNED = [(HOLDOUT2_PATH, 0.87, MAX_FALSE_ALARMS), (HOLDOUT3_PATH, 0.90, MAX_FALSE_ALARMS),
         (HOLDOUT4_PATH, 0.88, MAX_FALSE_ALARMS), (HOLDOUT5_PATH, 0.91, MAX_FALSE_ALARMS),
         (HOLDOUT6_PATH, 0.90, MAX_FALSE_ALARMS), (HOLDOUT7_PATH, 0.90, MAX_FALSE_ALARMS),
         (HOLDOUT8_PATH, 0.90, MAX_FALSE_ALARMS), (HOLDOUT10_PATH, 0.82, 0.124),
         (HOLDOUT11_PATH, 0.618, 0.077), (HOLDOUT12_PATH, 0.36, 0.076),
         (HOLDOUT13_PATH, 1.0, MAX_FALSE_ALARMS), (HOLDOUT14_PATH, 1.0, MAX_FALSE_ALARMS)]


@pytest.mark.parametrize(("path", "recall", "false_alarms"), TUNED, ids=[path.stem for path, *_ in TUNED])
def test_the_tuned_lists_hold_their_floors(path: Path, recall: float, false_alarms: float) -> None:
    result = score(path)
    assert result.recall >= recall, result.missed[:20]
    assert result.false_alarm_rate <= false_alarms, result.alarmed[:20]


@pytest.mark.parametrize(("path", "recall"), [(HOLDOUT9_PATH, 0.96), (HOLDOUT15_PATH, 0.96),
                                             (HOLDOUT16_PATH, 0.96)],
                         ids=["interactions_holdout9", "interactions_holdout15", "interactions_holdout16"])
def test_the_held_out_lists_stay_at_their_measured_rates(path: Path, recall: float) -> None:
    # Never tuned on; a fall below is a regression. interactions_holdout9.json (ONC high-priority and
    # drugs.com pairs): 96.1% / 0 of 47 first, after the holdout8 round, the holdout10 to holdout14 rounds.
    # interactions_holdout15.json (29 more drugs' own labels and SmPCs): 96.4% / 0 of 51 first, before and
    # after the holdout14 round. interactions_holdout16.json (35 more drugs' labels): 96.6% / 0 of 53 first.
    result = score(path)
    assert result.recall >= recall, result.missed[:20]
    assert result.false_alarm_rate <= MAX_FALSE_ALARMS, result.alarmed[:20]
