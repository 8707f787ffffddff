"""Precision, recall and F1 over sets, and over the first k items of a ranked list.

Conventions (as ITBench's judges apply them): nothing predicted -> precision 0; nothing to find ->
recall 0; F1 is 0 when precision + recall is 0. Duplicated predictions count once.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class SetScore:
    precision: float
    recall: float
    f1: float
    true_positives: int
    predicted: int
    expected: int

    def as_calculation(self) -> dict[str, float]:
        """The score dict shape ITBench results use (``calculation_precision`` ...)."""
        return {
            "calculation_precision": self.precision,
            "calculation_recall": self.recall,
            "calculation_f1": self.f1,
        }


def f1_of(precision: float, recall: float) -> float:
    total = precision + recall
    return 0.0 if total == 0 else 2 * precision * recall / total


def set_score(predicted: Iterable[Hashable], expected: Iterable[Hashable]) -> SetScore:
    pred, true = set(predicted), set(expected)
    tp = len(pred & true)
    precision = tp / len(pred) if pred else 0.0
    recall = tp / len(true) if true else 0.0
    return SetScore(precision, recall, f1_of(precision, recall), tp, len(pred), len(true))


def set_score_at_k(ranked: Sequence[Hashable], expected: Iterable[Hashable], k: int) -> SetScore:
    """The set score of the first ``k`` distinct predictions of a ranked list."""
    if k < 1:
        raise ValueError("k must be at least 1")
    first: list[Hashable] = []
    for item in ranked:
        if item not in first:
            first.append(item)
        if len(first) == k:
            break
    return set_score(first, expected)
