"""Root-cause proximity: partial credit for naming a component near the true root cause.

Hops are counted along the (contracted) ground-truth propagation path. ``no_fp`` scores an entity
``1 / (1 + hops)``; ``with_fp`` scales hops by the path length, ``1 / (1 + hops / len(path))``.
Precision averages over predicted root causes (off the path: 0); recall over true root causes
(each credited with its nearest prediction on the path; none: 0).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from itbench.scoring.sets import SetScore, f1_of


def _nearest(
    item: Hashable, others: Sequence[Hashable], position: dict[Hashable, int]
) -> int | None:
    if item not in position:
        return None
    hops = [abs(position[item] - position[o]) for o in others if o in position]
    return min(hops) if hops else None


def proximity_score(
    predicted: Sequence[Hashable],
    root_causes: Sequence[Hashable],
    path: Sequence[Hashable],
    with_fp: bool = False,
) -> SetScore:
    position = {c: i for i, c in enumerate(path)}
    scale = len(path) if with_fp and path else 1

    def score(hops: int | None) -> float:
        return 0.0 if hops is None else 1.0 / (1.0 + hops / scale)

    pred, true = list(dict.fromkeys(predicted)), list(dict.fromkeys(root_causes))
    p_scores = [score(_nearest(p, true, position)) for p in pred]
    r_scores = [score(_nearest(t, pred, position)) for t in true]
    precision = sum(p_scores) / len(p_scores) if p_scores else 0.0
    recall = sum(r_scores) / len(r_scores) if r_scores else 0.0
    exact = len(set(pred) & set(true))
    return SetScore(precision, recall, f1_of(precision, recall), exact, len(pred), len(true))
