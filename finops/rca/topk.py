"""A fair simple comparison: the k leaves with the largest day-over-day increases, k read from
the data.

The ``naive`` agent names one leaf, so on a scenario with several root causes it cannot score by
construction. This method uses the same signal (a leaf's cost on the anomaly day minus the day
before) but names as many leaves as the increases themselves single out: sorted from the largest,
it cuts at the largest ratio between one increase and the next (the elbow), looking at the first
:data:`MAX_K` increases. Nothing about the truth, such as how many causes there are, is used.
"""

from __future__ import annotations

import numpy as np

from finops.loaders.table import CostTable
from finops.model import Anomaly, Resource
from finops.rca.cube import build_cube

#: The elbow is looked for among this many largest increases (the generator plants at most 3
#: causes; ITBench-Lite scenarios have 1-3), so a long tail of noise cannot move it.
MAX_K = 10


def elbow_k(increases: np.ndarray) -> int:
    """How many of ``increases`` (positive, sorted from the largest) stand out: the cut after
    which the next increase is smallest relative to the one before it."""
    if len(increases) <= 1:
        return len(increases)
    head = increases[: MAX_K + 1]
    ratios = head[:-1] / np.maximum(head[1:], 1e-12)
    return int(np.argmax(ratios)) + 1


def topk_diagnose(table: CostTable, anomaly: Anomaly) -> tuple[Resource, ...]:
    cube = build_cube(table, anomaly.account_id, anomaly.date)
    leaves = cube.level(len(cube.levels) - 1)
    t = cube.anomaly_index
    if t == 0:
        return ()
    increase = leaves.values[:, t] - leaves.values[:, t - 1]
    order = np.argsort(-increase, kind="stable")
    positive = order[increase[order] > 0]
    chosen = positive[: elbow_k(increase[positive])]
    # two applications may run the same instance family: one resource, named once
    names = dict.fromkeys(leaves.paths[i][-1] for i in chosen)
    return tuple(Resource(name, cube.levels[-1]) for name in names)
