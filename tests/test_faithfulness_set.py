"""The verifier on the labeled faithfulness sets: no unfaithful model text is accepted, and the
share of faithful ones rejected stays under the measured floor (the README has the numbers; a
rejected faithful text only means the deterministic answer goes out)."""

import pytest

from tests.eval.faithfulness import HOLDOUT_PATH, SET_PATH, score


@pytest.mark.parametrize(("path", "max_false_rejections"), [(SET_PATH, 0.30), (HOLDOUT_PATH, 0.55)],
                         ids=["tuning set", "held-out set"])
def test_no_unfaithful_text_is_accepted(path, max_false_rejections):
    result = score(path)
    assert result.unfaithful >= 140 and result.faithful >= 80  # both kinds well represented
    assert result.unfaithful_accepted == []
    assert result.false_rejection_rate <= max_false_rejections, result.faithful_rejected
