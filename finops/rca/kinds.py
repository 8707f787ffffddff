"""What kind of change a root cause is, from the numbers behind it."""

from __future__ import annotations

from finops.rca.cube import CostCube
from finops.rca.nodes import NodeStats, leaf_ratios
from finops.rca.seasonal import expected_values

PRICE_TOLERANCE = 0.05
QUANTITY_TOLERANCE = 0.10


def classify(cube: CostCube, node: NodeStats, is_leaf: bool) -> tuple[str, str]:
    """(kind, detail sentence). Leaves of ITBench-Lite data can tell price from usage changes."""
    if node.is_new:
        return "new_resource", "no cost before this day"
    if not is_leaf:
        return "cost_spike", ""
    price_ratio, quantity_ratio = leaf_ratios(cube, node)
    if price_ratio is None or quantity_ratio is None:
        return "cost_spike", ""
    detail = f"price x{price_ratio:.2f}, instances x{quantity_ratio:.2f}"
    if abs(price_ratio - 1) > PRICE_TOLERANCE and abs(quantity_ratio - 1) <= QUANTITY_TOLERANCE:
        return "price_change", detail
    if quantity_ratio - 1 > QUANTITY_TOLERANCE:
        return "instance_count_spike", detail
    return "cost_spike", detail


def classify_broad(
    cube: CostCube, node: NodeStats, base: str = "every child changed by the same factor"
) -> tuple[str, str]:
    """A node whose children all changed by one factor (or, as ``base`` says, whose every line
    rose): a price change when the instances under it stayed flat, an instance-count surge when
    they grew, from the leaves' summed quantities."""
    leaves = cube.level(len(cube.levels) - 1)
    if leaves.price is None or leaves.quantity is None or node.expected <= 0:
        return "broad_increase", base
    rows = [i for i, path in enumerate(leaves.paths) if path[: len(node.path)] == node.path]
    t = cube.anomaly_index
    quantity = leaves.quantity[rows].sum(axis=0, keepdims=True)
    quantity_expected = float(expected_values(quantity, t, cube.days)[0])
    if quantity_expected <= 0:
        return "broad_increase", base
    quantity_ratio = float(quantity[0, t]) / quantity_expected
    price_ratio = (node.actual / node.expected) / quantity_ratio
    detail = f"{base}; price x{price_ratio:.2f}, instances x{quantity_ratio:.2f}"
    if abs(quantity_ratio - 1) <= QUANTITY_TOLERANCE and price_ratio - 1 > PRICE_TOLERANCE:
        return "price_change", detail
    if quantity_ratio - 1 > QUANTITY_TOLERANCE:
        return "instance_count_spike", detail
    return "broad_increase", detail
