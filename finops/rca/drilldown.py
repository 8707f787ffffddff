"""Top-down drill-down by explanatory power.

From the account, descend into every child whose deviation is both *surprising* for that child
(z-score over its own noise) and *material* (a share of the account's deviation). Stop where:
- a child is new (no cost before the day): the new node itself is the root cause (a new application
  is reported as the Application, not as each of its instance families);
- the node's own growth factor, applied to every child, explains each child within its noise, and
  no single child explains the node alone: the node is the root cause, at whatever level it is (an
  application scaled whole, a service's price change, a provider's discount expiring);
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
    #: A child fits its parent's uniform change when its residual is within this many sigmas.
    uniform_z: float = 3.0
    #: Share a spread-out significant node must carry to be reported on its own.
    spread_share: float = 0.5
    #: Materiality is judged against at least this many sigmas of the account's own noise, so that
    #: on a quiet day (tiny total deviation) ordinary wobbles are not material.
    account_sigmas: float = 3.0
    #: Fewest active children for "they moved together" to mean anything.
    broad_min_children: int = 2


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
        # any node below the account can be the cause: a provider's discount expiring on every
        # service, a service's price rising for every application, an application scaled whole
        if (
            node.depth > 0
            and node.z >= thresholds.z
            and material(node)
            and _uniform_change(node, established, thresholds)
        ):
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


def _uniform_change(node: NodeStats, kids: list[NodeStats], thresholds: Thresholds) -> bool:
    """The node is the cause when one number — its own growth factor applied to every child —
    explains what each child did within the child's noise, and no single child does as well.

    A minimum-description choice: the node model has one parameter (its factor), the child models
    one per child named. The node is chosen when its model fits every child (each child's
    residual under "everyone grew by the node's factor" is within ``uniform_z`` of its noise)
    and the one-child model does not (some other child moved beyond its noise too); a lone child
    that explains everything is the finer answer at the same cost, so it wins ties."""
    active = [k for k in kids if k.expected > 0]
    if len(active) < thresholds.broad_min_children:
        return False
    expected = sum(k.expected for k in active)
    factor = sum(k.actual for k in active) / expected
    if factor <= 1:
        return False
    limit = thresholds.uniform_z
    if any(abs(k.actual - k.expected * factor) > limit * k.sigma for k in active):
        return False
    moved = [k for k in active if abs(k.delta) > limit * k.sigma]
    return len(moved) >= 2
