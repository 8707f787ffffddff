"""ITBench-AA's headline: average precision at full recall."""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from itbench.scoring.sets import set_score


def precision_at_full_recall(predicted: Iterable[Hashable], expected: Iterable[Hashable]) -> float:
    """0 if any expected root cause is missed, else the precision of the predictions.

    Averaged over tasks and repeats this is ITBench-AA's "average precision at full recall": an
    agent gains nothing by listing everything (precision falls) or by guessing one (recall fails).
    """
    score = set_score(predicted, expected)
    if score.expected == 0 or score.true_positives < score.expected:
        return 0.0
    return score.precision
