"""Top-down drill-down by explanatory power.

From the account, descend into every child whose deviation is both *surprising* for that child
(z-score over its own noise) and *material* (a share of the account's deviation). Stop where:
- a child is new (no cost before the day): the new node itself is the root cause (a new application
  is reported as the Application, not as each of its instance families);
- most active children moved together: the parent is the root cause (an application scaled as a
  whole), in the spirit of Squeeze's generalisation;
- a leaf is reached.
A leaf whose unit price moved on the day is significant whatever its noise: prices do not wobble.
A significant node none of whose children is significant is reported only if it carries most of the
account's deviation: small increases spread over many resources (a planned scale-up) are not a
root cause, and the baseline reports no more than it can justify.
"""

from __future__ import annotations

from dataclasses import dataclass

from finops.rca.nodes import NodeStats, Tree


@dataclass(frozen=True)
class Thresholds:
    #: z-score a node's deviation must reach (many nodes are tested: keep it strict).
    z: float = 5.0
    #: Share of the account's deviation a node must explain to be worth reporting.
    min_share: float = 0.1
    #: Share of active children that must move together for the parent to be the cause.
    broad_share: float = 0.75
    #: Largest / smallest growth factor of children that count as one broad change.
    broad_ratio_spread: float = 1.25
    #: Share a spread-out significant node must carry to be reported on its own.
    spread_share: float = 0.5
    #: Materiality is judged against at least this many sigmas of the account's own noise, so that
    #: on a quiet day (tiny total deviation) ordinary wobbles are not material.
    account_sigmas: float = 3.0
    #: Fewest active children for "they moved together" to mean anything.
    broad_min_children: int = 3


DEFAULT_THRESHOLDS = Thresholds()


@dataclass(frozen=True)
class Finding:
    node: NodeStats
    #: "leaf", "new", "broad" or "spread": why the drill-down stopped here.
    reason: str


def drill_down(
    tree: Tree, thresholds: Thresholds = DEFAULT_THRESHOLDS
) -> tuple[list[Finding], float]:
    root = tree.root
    total = root.delta
    scale = max(total, thresholds.account_sigmas * root.sigma)

    def material(node: NodeStats) -> bool:
        return node.delta > 0 and node.delta >= thresholds.min_share * scale

    def significant(node: NodeStats) -> bool:
        return material(node) and node.z >= thresholds.z

    findings: list[Finding] = []
    # Big aggregates are noisy: a service can hide a 100-sigma leaf behind a 3-sigma total. So a
    # node is worth entering when it is material and it, or something below it, is significant.
    worth: dict[tuple[str, ...], bool] = {}

    def promising(node: NodeStats) -> bool:
        if node.path not in worth:
            below = tree.children.get(node.path, ())
            worth[node.path] = material(node) and (
                node.z >= thresholds.z
                or node.price_moved
                or any(promising(k) or (k.is_new and material(k)) for k in below)
            )
        return worth[node.path]

    def visit(node: NodeStats) -> None:
        kids = tree.children.get(node.path, ())
        new = [k for k in kids if k.is_new and material(k)]
        findings.extend(Finding(k, "new") for k in new)
        established = [k for k in kids if not k.is_new]
        sig = [k for k in established if promising(k)]
        active = [k for k in established if k.actual > 0 or k.history > 0]
        # only an application (the parent of leaves) "moves as a whole"; above it, similar growth
        # of aggregates is a coincidence of independent changes
        if kids and tree.is_leaf(kids[0]) and _moved_together(sig, active, thresholds):
            findings.append(Finding(node, "broad"))
            return
        for kid in sig:
            if tree.is_leaf(kid):
                findings.append(Finding(kid, "leaf"))
            else:
                visit(kid)
        if not sig and not new and node.depth > 0 and node.delta >= thresholds.spread_share * scale:
            findings.append(Finding(node, "spread"))

    visit(root)
    return findings, total


def _moved_together(sig: list[NodeStats], active: list[NodeStats], thresholds: Thresholds) -> bool:
    """Most children rose, and by a similar factor: one change to the parent, not several causes."""
    if len(active) < thresholds.broad_min_children or len(sig) < thresholds.broad_share * len(
        active
    ):
        return False
    ratios = [k.actual / k.expected for k in sig if k.expected > 0]
    return len(ratios) == len(sig) and max(ratios) <= thresholds.broad_ratio_spread * min(ratios)
