"""What kind of change a root cause is, from the numbers behind it."""

from __future__ import annotations

from finops.rca.cube import CostCube
from finops.rca.nodes import NodeStats, leaf_ratios

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
