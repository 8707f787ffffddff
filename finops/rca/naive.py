"""The comparison agent of the benchmark: the leaf with the largest day-over-day increase."""

from __future__ import annotations

import numpy as np

from finops.loaders.table import CostTable
from finops.model import Anomaly, Resource
from finops.rca.cube import build_cube


def naive_diagnose(table: CostTable, anomaly: Anomaly) -> tuple[Resource, ...]:
    cube = build_cube(table, anomaly.account_id, anomaly.date)
    leaves = cube.level(len(cube.levels) - 1)
    t = cube.anomaly_index
    if t == 0:
        return ()
    increase = leaves.values[:, t] - leaves.values[:, t - 1]
    best = int(np.argmax(increase))
    return (Resource(leaves.paths[best][-1], cube.levels[-1]),)
