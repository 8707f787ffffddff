"""Propagation-chain F1: longest common subsequence over component chains.

Both chains are first mapped to components (a domain-supplied function: for incidents, one app's
Service/Pod/Deployment in one namespace is one component) and consecutive repeats are dropped; the
true positives are the length of the longest common subsequence.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

from itbench.scoring.sets import SetScore, f1_of

T = TypeVar("T")


def contract(chain: Sequence[Hashable]) -> list[Hashable]:
    """Drop consecutive repeats: ``a a b a`` -> ``a b a``."""
    out: list[Hashable] = []
    for item in chain:
        if not out or out[-1] != item:
            out.append(item)
    return out


def lcs_length(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    if not a or not b:
        return 0
    previous = [0] * (len(b) + 1)
    for x in a:
        current = [0]
        for j, y in enumerate(b, start=1):
            current.append(previous[j - 1] + 1 if x == y else max(previous[j], current[j - 1]))
        previous = current
    return previous[-1]


def chain_score(
    predicted: Sequence[T],
    expected: Sequence[T],
    component: Callable[[T], Hashable | None] = lambda x: x,
) -> SetScore:
    """Precision/recall/F1 of the predicted chain against the expected one.

    Items whose component is None (not part of any known component) are dropped before contraction.
    """
    pred = contract([c for c in map(component, predicted) if c is not None])
    true = contract([c for c in map(component, expected) if c is not None])
    tp = lcs_length(pred, true)
    precision = tp / len(pred) if pred else 0.0
    recall = tp / len(true) if true else 0.0
    return SetScore(precision, recall, f1_of(precision, recall), tp, len(pred), len(true))
