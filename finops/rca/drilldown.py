"""Top-down drill-down by explanatory power.

From the account, descend into every child whose deviation is both *surprising* for that child
(z-score over its own noise) and *material* (a share of the account's deviation). Stop where:
- a child is new (no cost before the day): the new node itself is the root cause (a new application
  is reported as the Application, not as each of its instance families);
- the node's own growth factor, applied to every child, describes the children more cheaply than
  naming any set of them (a minimum-description choice, :func:`_uniform_change`), and that same
  factor describes every leaf under it more cheaply than naming leaves (:func:`_leaves_agree`:
  independent spikes in each child make the children rise alike, never the leaves): the node is
  the root cause, at whatever level it is (an application scaled whole, a service's price change,
  a provider's discount expiring);
- every line whose unit price rose under a provider belongs to one application, in several of
  its services, and the other applications kept their prices: that application, across its
  services (:func:`_one_application_repriced`); the same when every line that rose beyond its
  noise is of one application, in several services, and every line of it rose
  (:func:`_one_application_grown`);
- every credit under a node ended, in several of its children, and nothing else moved: the
  node (a provider's credit agreement ending; :func:`_credits_ended`);
- a leaf is reached.
A node does not change as a whole when every line whose price rose under it is of one family
and other families beside it kept their prices (:func:`_one_family_repriced`): that family is
found below it.
A leaf whose unit price moved on the day is significant whatever its noise: prices do not wobble.
A node that changed as a whole is entered even below the z threshold: its children and leaves
moved together, which one noisy aggregate z-score cannot show.
A significant node none of whose children is significant is reported only if it carries most of the
account's deviation: small increases spread over many resources (a planned scale-up) are not a
root cause, and the baseline reports no more than it can justify.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from finops.loaders.table import NO_LABEL
from finops.rca.nodes import NodeStats, Tree
from finops.rca.shared_label import label_they_share


@dataclass(frozen=True)
class Thresholds:
    #: z-score a node's deviation must reach (many nodes are tested: keep it strict).
    z: float = 5.0
    #: Share of the account's deviation a node must explain to be worth reporting.
    min_share: float = 0.1
    #: What naming one more node costs in the minimum-description choice between a parent and
    #: its children, in squared sigmas of the children's noise (3 sigma).
    parameter_cost: float = 9.0
    #: Every child with 5% or more of its parent's cost must rise at least this much (z) for the
    #: parent's uniform change to be considered.
    broad_child_z: float = 1.5
    #: ... unless the common factor describes it within this many sigmas (it moved less than its
    #: siblings, but not so much less that it plainly did not take part).
    broad_child_misfit: float = 2.0
    #: Error of a child's weekday-median baseline, in units of the child's noise.
    baseline_error: float = 1.0
    #: A node whose children changed uniformly must itself deviate this much to be a cause.
    broad_z: float = 3.0
    #: Share a spread-out significant node must carry to be reported on its own.
    spread_share: float = 0.5
    #: Materiality is judged against at least this many sigmas of the account's own noise, so that
    #: on a quiet day (tiny total deviation) ordinary wobbles are not material.
    account_sigmas: float = 3.0
    #: Fewest active children for "they moved together" to mean anything.
    broad_min_children: int = 2
    #: No line's growth factor is known better than this (relative): quantised instance counts,
    #: static databases and tier boundaries give flat histories whose measured noise is ~0, and
    #: against ~0 noise any two factors differ "infinitely" (a 15% price rise seen as 15.0% on a
    #: database and 16.4% on noisy compute must still be one change).
    factor_floor: float = 0.03
    #: How far this account's growth factor of a node may be from the one the node showed in
    #: other accounts that changed the same way on the day, as a share of that change.
    corroboration_tolerance: float = 0.35
    #: A line's unit price moved on the day when it changed by more than this (prices are set,
    #: not measured: a cent of rounding is not a change).
    price_list_min_rise: float = 0.01


DEFAULT_THRESHOLDS = Thresholds()


@dataclass(frozen=True)
class Finding:
    node: NodeStats
    #: "leaf", "new", "broad", "spread", "beyond", "across" (one application repriced in every
    #: service), "grown" (one application grown in every service), "every line" (every line of
    #: the node rose, the rest beside it did not) or "credits" (every credit under the node
    #: ended) or "families" (several families across every application of the service): why
    #: the drill-down stopped here; "one factor" (several causes below it rose by about one
    #: factor); "shared" (several causes in different branches share one label of a lower
    #: level: that label across the branches).
    reason: str


def drill_down(
    tree: Tree,
    thresholds: Thresholds = DEFAULT_THRESHOLDS,
    corroborated: Callable[[], Mapping[tuple[str, ...], float]] | None = None,
) -> tuple[list[Finding], float]:
    """``corroborated``: paths below the account (provider, service, ...) that changed as a whole
    on the same day in other accounts of the same bill, with their growth factor there; called
    only when a node could use it (drilling other accounts down costs their cubes)."""
    known: list[Mapping[tuple[str, ...], float]] = []

    def elsewhere() -> Mapping[tuple[str, ...], float]:
        if not known:
            known.append(corroborated() if corroborated is not None else {})
        return known[0]

    root = tree.root
    total = root.delta
    scale = max(total, thresholds.account_sigmas * root.sigma)

    def material(node: NodeStats) -> bool:
        return node.delta > 0 and node.delta >= thresholds.min_share * scale

    def significant(node: NodeStats) -> bool:
        return material(node) and node.z >= thresholds.z

    findings: list[Finding] = []
    whole: dict[tuple[str, ...], bool] = {}

    def changed_whole(node: NodeStats) -> bool:
        """Any node below the account can be the cause: a provider's discount expiring on every
        service, a service's price rising for every application, an application scaled whole."""
        if node.path not in whole:
            kids = [k for k in tree.children.get(node.path, ()) if not k.is_new]
            leaves = tree.leaves_under(node)
            whole[node.path] = (
                node.depth > 0
                and (
                    (
                        (
                            node.z >= thresholds.broad_z
                            or _together(kids, thresholds) >= thresholds.z
                        )
                        and material(node)
                        and _uniform_change(node, kids, thresholds)
                        and (tree.is_leaf(kids[0]) or _leaves_agree(leaves, thresholds))
                        and not _price_split(leaves, thresholds)
                    )
                    or (
                        material(node)
                        and _seen_elsewhere(node, kids, leaves, elsewhere, thresholds)
                        and not _price_split(leaves, thresholds)
                    )
                    or (
                        (material(node) or _price_added(leaves) >= thresholds.min_share * scale)
                        and _price_list_moved(node, leaves, thresholds)
                    )
                )
                and not _one_family_repriced(leaves, thresholds)
            )
        return whole[node.path]

    # Big aggregates are noisy: a service can hide a 100-sigma leaf behind a 3-sigma total. So a
    # node is worth entering when it is material and it, or something below it, is significant,
    # or it changed as a whole (a 4-sigma service whose every application rose alike is a cause
    # of its own, however quiet each application is).
    worth: dict[tuple[str, ...], bool] = {}

    # One instance family repriced in every application is one resource: its lines are material
    # together, however small each application's share of the account's increase is.
    repriced: dict[str, float] = {}
    for leaf in tree.stats[-1]:
        if leaf.price_moved and leaf.delta > 0:
            added = max(leaf.price_added, leaf.delta)
            repriced[leaf.path[-1]] = repriced.get(leaf.path[-1], 0.0) + added

    def material_here(node: NodeStats) -> bool:
        if tree.is_leaf(node) and node.price_moved and node.delta > 0:
            return repriced[node.path[-1]] >= thresholds.min_share * scale
        return material(node)

    # A new price is certain where usage is noise: the nodes above a material repriced line are
    # entered even when a usage dip elsewhere in them on the same day hides their rise.
    above_repriced = {
        leaf.path[:size]
        for leaf in tree.stats[-1]
        if leaf.price_moved and leaf.delta > 0 and material_here(leaf)
        for size in range(1, len(leaf.path))
    }

    def promising(node: NodeStats) -> bool:
        if node.path not in worth:
            below = tree.children.get(node.path, ())
            worth[node.path] = (
                material_here(node)
                and (
                    node.z >= thresholds.z
                    or node.price_moved
                    or changed_whole(node)
                    or any(promising(k) or (k.is_new and material(k)) for k in below)
                )
            ) or node.path in above_repriced
        return worth[node.path]

    def visit(node: NodeStats) -> None:
        if _credits_ended(tree, node, thresholds) and material(node):
            findings.append(Finding(node, "credits"))
            return
        across = _one_application_repriced(tree, node, thresholds)
        if across is not None and max(across.delta, _price_added(_lines_of(tree, across))) >= (
            thresholds.min_share * scale
        ):
            findings.append(Finding(across, "across"))
            return
        grown = _one_application_grown(tree, node, thresholds)
        if grown is not None and grown.delta >= thresholds.min_share * scale:
            findings.append(Finding(grown, "grown"))
            return
        whole_child = _one_child_grown(tree, node, thresholds, significant)
        # a child that changed as a whole is found below with what rose beyond its change
        if whole_child is not None and material(whole_child) and not changed_whole(whole_child):
            findings.append(Finding(whole_child, "every line"))
            return
        rollout = _new_lines_rolled_out(tree, node, thresholds)
        if (
            rollout
            and material(node)
            and sum(k.delta for k in rollout) >= thresholds.min_share * scale
        ):
            findings.append(Finding(node, "new lines"))
            return
        kids = tree.children.get(node.path, ())
        new = [k for k in kids if k.is_new and material(k)]
        # a move's new lines carry the node's rise: it is not spread over the node either
        moved = bool(new) and _moved_from_given_up_lines(
            tree, new, thresholds.min_share * scale, thresholds.z
        )
        if moved:
            new = []
        findings.extend(Finding(k, "new") for k in new)
        established = [k for k in kids if not k.is_new]
        sig = [k for k in established if promising(k)]
        family = _one_family_grown(tree.leaves_under(node), thresholds) if node.depth > 0 else []
        if family and changed_whole(node):
            findings.extend(Finding(leaf, "family grown") for leaf in family)
            return
        if changed_whole(node):
            findings.append(Finding(node, "broad"))
            findings.extend(
                Finding(leaf, "beyond")
                for leaf in _beyond_price(tree.leaves_under(node), thresholds)
                if leaf.actual - leaf.baseline - leaf.price_added >= thresholds.min_share * scale
            )
            return
        for kid in sig:
            if tree.is_leaf(kid):
                findings.append(Finding(kid, "leaf"))
            elif not changed_whole(kid) and _moved_as_one(tree, kid, thresholds):
                # a node that changed whole is named below with what rose beyond its change
                findings.append(Finding(kid, "as one"))
            else:
                visit(kid)
        if (
            not sig
            and not new
            and not moved
            and node.depth > 0
            and node.delta >= thresholds.spread_share * scale
        ):
            findings.append(Finding(node, "spread"))

    visit(root)
    findings = [_named(tree, f) for f in findings]
    service = _families_across_its_applications(tree, findings)
    if service is not None:
        return [Finding(service, "families")], total
    plan = _family_is_the_service(tree, findings)
    if plan is not None:
        return [Finding(plan, "families")], total
    switched = _switched_together(tree, findings)
    if switched is not None:
        return [Finding(switched, "switched")], total
    # a label several causes share below where they meet (one application's lines in two
    # services, one region under three services) is narrower than any node of the tree above
    # them, so it is looked for before that node
    shared = label_they_share(tree, [f.node for f in findings])
    if shared is not None:
        return [Finding(shared, "shared")], total
    common = _one_factor_where_they_meet(tree, findings, thresholds)
    if common is not None:
        return [Finding(common, "one factor")], total
    return findings, total


def _named(tree: Tree, finding: Finding) -> Finding:
    """The finding under a name that says what changed. An answer names a resource without a
    path, so:

    * a line the export left unnamed at its level (no ``ResourceId``: a scanner's or a query
      engine's usage billed to the account) names no resource of its own; what holds it, the
      service, is the smallest thing a reader can act on;
    * a node that is all of its parent (its only child with a cost) and whose name is not its
      own in the account (a region below a service that bills in that region only, where the
      region's name also covers every other service there) says less than its parent, which
      holds exactly the same lines under a name of their own."""
    node = finding.node
    if node.index < 0 or node.depth < 2:
        return finding  # the account's providers, or a node across services: named as found
    parent_path = node.path[:-1]
    unnamed = node.path[-1] == NO_LABEL
    only_child = not tree.is_leaf(node) and all(
        k.path == node.path or (k.actual <= 0 and k.baseline <= 0)
        for k in tree.children.get(parent_path, ())
    )
    if not (unnamed or (only_child and not _name_is_its_own(tree, node))):
        return finding
    return _named(tree, Finding(tree.node_at(parent_path), finding.reason))


#: How much a node must have grown, as a share of its usual cost, for "every child of it rose"
#: to be one change of it (:func:`_moved_as_one`). Independent causes that happen to fall in
#: every child of a provider or region are each a few sigmas of the account's noise, a small
#: share of the node; a stack applied to a region, a cloud's environment brought up or projects
#: linked to a provider add a large share of what the node bills.
AS_ONE_GROWTH = 0.5


def _moved_as_one(tree: Tree, node: NodeStats, thresholds: Thresholds) -> bool:
    """The node (a provider, a region, a service) changed as one when every child of it that
    carries a real share took part in its rise (``broad_child_z``, or started; the node itself
    is significant), the lines that rose beyond their noise belong to two
    or more owners one level below its children (several services or applications, not one
    application's rise that happens to fill the node) and to most of the owners under it (a
    few applications that rose beside flat ones in each service are independent causes, as a
    generator's hard scenarios plant them), the node grew by ``AS_ONE_GROWTH`` of its
    usual cost or more, and its siblings kept their life or fell (cost that moved to it from
    them is its rise too). Naming the node is one name where its children's causes are several,
    and the only one that says what they share; the growth factors may differ child by child
    (a staging stack's databases and instances are new, its functions were already there), so
    no common factor is asked for, as :func:`_uniform_change` would."""
    if node.depth < 1 or tree.is_leaf(node) or node.baseline <= 0:
        return False
    if node.actual < (1 + AS_ONE_GROWTH) * node.baseline or node.z < thresholds.z:
        return False
    # children with a real share of it (a few cents of a child say nothing either way); two
    # or more, or the node says no more than its one big child
    kids = [
        k
        for k in tree.children.get(node.path, ())
        if max(k.actual, k.baseline) >= 0.05 * node.actual
    ]
    if len(kids) < thresholds.broad_min_children:
        return False
    for kid in kids:
        if not (kid.is_new or _surprise(kid, thresholds) >= thresholds.broad_child_z):
            return False  # a child that did not take part: the risers are causes of their own
    owner = node.depth + 2
    if owner >= len(tree.cube.levels) - 1:
        # owners that are single lines: lines that rose are causes of their own, unless the
        # node's own children are those lines and every one of them stood out
        return owner == len(tree.cube.levels) and _every_line_stood_out(
            tree, node, kids, thresholds
        )
    rose = [
        k
        for k in tree.leaves_under(node)
        if k.is_new or (k.delta > 0 and _surprise(k, thresholds) >= thresholds.z)
    ]
    # most owners under it took part: independent causes in a few applications of several
    # services (each beside flat siblings) are causes of their own
    risers = {k.path[owner] for k in rose}
    owners = {k.path[owner] for k in tree.leaves_under(node) if k.actual > 0 or k.baseline > 0}
    if len(risers) < thresholds.broad_min_children or 2 * len(risers) <= len(owners):
        return False
    siblings = _lines_beside(tree, node, node.path[:-1])
    return bool(siblings) and _kept_their_life(siblings, thresholds)


def _every_line_stood_out(
    tree: Tree, node: NodeStats, kids: list[NodeStats], thresholds: Thresholds
) -> bool:
    """The node's children are single lines (an application's instance families, a service's
    resources in one region): it changed as one when every one of them with a real share stood
    out on its own (``z``, or started), each by its own factor (a batch run over one
    application's GPU and memory-optimised fleets, twelve and eight times their size), and the
    lines beside it kept their life. Two lines of the same owner standing far out on the same
    day are one change of the owner, and its name is one where theirs are two (a family's name
    may also cover other applications). Where one of them stayed within its noise, the lines
    that rose are causes of their own."""
    for kid in kids:
        if not (kid.is_new or (kid.delta > 0 and _surprise(kid, thresholds) >= thresholds.z)):
            return False
    # the small lines took part too: a price rise on one fleet and a new fleet beside two
    # small ones that kept their life are two causes in the application, not its change
    for line in tree.children.get(node.path, ()):
        if (
            line.baseline > 0
            and not line.is_new
            and _rise(line, thresholds) < thresholds.broad_child_z
        ):
            return False
    siblings = _lines_beside(tree, node, node.path[:-1])
    return bool(siblings) and _kept_their_life(siblings, thresholds)


def _switched_together(tree: Tree, findings: list[Finding]) -> NodeStats | None:
    """The node holding a switch of several owners' lines made at once (two applications' fleets
    moved from one machine type to another that costs more): the lines found are all new, the
    lines that stopped on the day are of exactly the same owners (the nodes above the lines), and
    those owners are more than one. One change made across them, named where they meet (their
    service), not the new machine type of each."""
    if not findings or any(f.reason != "new" or not tree.is_leaf(f.node) for f in findings):
        return None
    stopped = [k for k in tree.stats[-1] if not k.is_new and k.baseline > 0 and k.actual <= 0]
    owners = {f.node.path[:-1] for f in findings}
    if len(owners) < 2 or owners != {k.path[:-1] for k in stopped}:
        return None
    meet = len(next(iter(owners)))
    while meet > 1 and len({o[:meet] for o in owners}) > 1:
        meet -= 1
    if meet <= 1:
        return None  # they meet only at the account: no one node made the switch
    return tree.node_at(next(iter(owners))[:meet])


#: How far apart the rises (growth factor less one) of several causes may be, the largest over
#: the smallest, for them to be one change of the node where they meet. Causes that happen on
#: the same day by chance rise by what each of their own sizes makes of an unrelated amount; one
#: change (a licence benefit lost, an autoscaling target halved, a bot storm on one region's
#: stack) moves every line it reaches by about the same factor.
ONE_FACTOR_SPREAD = 1.35
#: Share of the meeting node's rise those causes must carry: the node is named for what they
#: share, not for rises of its other children beside them.
ONE_FACTOR_SHARE = 0.8


def _one_factor_where_they_meet(
    tree: Tree, findings: list[Finding], thresholds: Thresholds
) -> NodeStats | None:
    """The node below the account where several causes found in two or more of its children
    meet, when they rose by about one factor (``ONE_FACTOR_SPREAD``) and carry most of its rise,
    and the node itself stands out (``broad_z``).
    A change made once above them (a provider's licence terms, a region's shared autoscaling
    values, one region's stack hit by the same traffic) reaches the services, categories or
    resources it touches alike, and the drill-down, which weighs one factor against naming the
    children only across all of a node's children, splits it wherever other children of the
    node stayed flat (storage that never carried the licence, a database the autoscaler does
    not drive). One name, the node's, says what the causes share; the other children keeping
    their level does not refute it, unless one of them runs a line of the same name as a line
    that rose (the same family kept its price there). New lines have no factor and are left as
    found; so are causes that share a name (one family or SKU in several owners is one answer
    already)."""
    nodes = [f.node for f in findings]
    if any(n.index < 0 for n in nodes):
        return None  # a cause found across a level (one application in every service) already
    if len({n.path[-1] for n in nodes}) < 2 or len({n.path[-1] for n in nodes}) < len(nodes):
        # one name found in several owners (a family repriced in every application) is one
        # answer already, and names that repeat are that answer beside others
        return None
    if any(n.is_new or n.baseline <= 0 or n.actual <= n.baseline for n in nodes):
        return None
    rises = [n.actual / n.baseline - 1 for n in nodes]
    if max(rises) > ONE_FACTOR_SPREAD * min(rises):
        return None
    paths = [n.path for n in nodes]
    meet = min(len(p) for p in paths)
    while meet > 1 and len({p[:meet] for p in paths}) > 1:
        meet -= 1
    if meet <= 1 or any(len(p) == meet for p in paths):
        return None  # they meet only at the account, or one cause holds the others
    node = tree.node_at(paths[0][:meet])
    # a line of the same name (family, SKU) elsewhere in the node that kept its level says the
    # change did not reach the node's kind of line as such: it was the causes' own (the
    # applications deployed in one region repriced, their twins elsewhere not)
    inside = [leaf for n in nodes for leaf in tree.leaves_under(n)]
    found = {id(leaf) for leaf in inside}
    risen = {leaf.path[-1] for leaf in inside if leaf.actual > leaf.baseline}
    if any(
        leaf.path[-1] in risen and id(leaf) not in found and leaf.actual <= leaf.baseline
        for leaf in tree.leaves_under(node)
    ):
        return None
    rise = node.actual - node.baseline
    carried = sum(n.actual - n.baseline for n in nodes)
    if rise <= 0 or carried < ONE_FACTOR_SHARE * rise or node.z < thresholds.broad_z:
        return None  # the node itself must stand out for one change of it to be the answer
    return node


def _lines_of_one_service(findings: list[Finding]) -> tuple[list[NodeStats], int] | None:
    """(the lines found, the depth of the node above their applications) when there are several,
    every one a leaf, all under that one node (the service); None otherwise."""
    if len(findings) < 2 or any(f.reason != "leaf" for f in findings):
        return None
    lines = [f.node for f in findings]
    depth = len(lines[0].path) - 3  # the node above the applications
    if depth < 1 or len({k.path[: depth + 1] for k in lines}) != 1:
        return None
    return lines, depth


def _families_across_its_applications(tree: Tree, findings: list[Finding]) -> NodeStats | None:
    """The service when the lines found are of several families in several applications, all
    of one service, and every application of it is among them: one change of the service (a
    gateway release that bills every application's input tokens in full, whatever model each
    uses), not several causes that happen to share it. Lines that fell beside them (the cache
    reads the same release stopped) name nothing of their own."""
    found = _lines_of_one_service(findings)
    if found is None:
        return None
    lines, depth = found
    if len({k.path[-1] for k in lines}) < 2 or len({k.path[-2] for k in lines}) < 2:
        return None
    # none repriced: a new price is a family's (a family repriced everywhere and a fleet tripled
    # beside it are two causes)
    if any(k.price_moved for k in lines):
        return None
    service = tree.node_at(lines[0].path[: depth + 1])
    running = {k.path[-2] for k in tree.leaves_under(service) if k.baseline > 0}
    return service if running <= {k.path[-2] for k in lines} else None


def _family_is_the_service(tree: Tree, findings: list[Finding]) -> NodeStats | None:
    """The service when the lines found are one family in several of its applications and are
    every line the service bills (a security plan per server, switched on in every
    subscription): the family and the service name the same lines, and the service is the name
    the change was made under (a plan enabled on the service, not a machine type). A family
    beside other families of the service that kept their life stays the family."""
    found = _lines_of_one_service(findings)
    if found is None:
        return None
    lines, depth = found
    if len({k.path[-1] for k in lines}) != 1 or len({k.path[-2] for k in lines}) < 2:
        return None
    service = tree.node_at(lines[0].path[: depth + 1])
    paths = {k.path for k in lines}
    rest = [
        k
        for k in tree.leaves_under(service)
        if k.path not in paths and (k.baseline > 0 or k.actual > 0)
    ]
    return None if rest else service


def _moved_from_given_up_lines(tree: Tree, new: list[NodeStats], material: float, z: float) -> bool:
    """The new nodes are a move, not a cost: lines of the account that billed on this weekday
    stopped on the day or fell beyond their noise, and what the new nodes cost is within a
    material amount of what those lines gave up, or a tenth more (a Kafka cluster migrated from
    virtual machines to a managed service, its old lines ending as the new ones start; a
    commitment that starts, its fixed amortised line new while the on-demand usage it covers
    falls). A new cost beside nothing that stopped or fell, or far above what did (a switch that
    doubles the bill), stays a cause."""
    given_up = sum(_given_up(k, z) for k in tree.stats[-1] if not k.is_new and k.baseline > 0)
    # every new line of the account against every line that gave cost up: a move of two
    # applications' fleets is not two moves each paid for by both applications' old lines
    arrived = sum(k.actual for k in tree.stats[-1] if k.is_new)
    return given_up > 0 and max(arrived, sum(k.actual for k in new)) - given_up < max(
        material, _MOVE_TOLERANCE * given_up
    )


def _given_up(line: NodeStats, z: float) -> float:
    """What a line billed less on the day than on its usual weekday: all of it when it stopped,
    the fall when that is beyond its noise (a noisy dip gives nothing up)."""
    if line.actual <= 0:
        return line.baseline
    if line.sigma > 0 and line.rise <= -z:
        return line.baseline - line.actual
    return 0.0


#: A move's new lines cost what the old ones did, give or take a new price list: a tenth more is
#: still the same workload moved (a managed service's rates are not the virtual machines').
_MOVE_TOLERANCE = 0.1


def _uniform_change(node: NodeStats, kids: list[NodeStats], thresholds: Thresholds) -> bool:
    """The node is the cause when one number — its own growth factor applied to every child —
    describes what the children did more cheaply than naming any set of children.

    A minimum-description choice over the children's deviations in units of their noise
    (z-scores): the node model costs one parameter (its factor) plus the squared residuals of
    every child under "everyone grew by the node's factor"; naming k children costs k parameters
    plus the squared z-scores of the children left unnamed. A parameter costs
    ``parameter_cost`` (a deviation must earn about 3 sigma to be worth naming). Ties go to the
    children, the finer answer."""
    active = _priced(kids)
    if len(active) < thresholds.broad_min_children:
        return False
    # a uniform change shows in every child that carries a real share of the node: one that did
    # not move at all says the movers are independent causes, however few children there are.
    # "Did not move" is "stayed low and is far from the common factor too": a noisy child whose
    # usage dipped on the day of a price rise rose less than its siblings, yet by about the factor
    total = sum(k.baseline for k in active)
    factor = sum(k.actual for k in active) / sum(k.baseline for k in active)
    for k in active:
        if k.baseline < 0.05 * total or k.rise >= thresholds.broad_child_z:
            continue
        sigma = _noise(k, thresholds)
        if abs(k.actual - k.baseline * factor) / (sigma * factor) > thresholds.broad_child_misfit:
            return False
    return _factor_wins(active, thresholds)


def _leaves_agree(leaves: list[NodeStats], thresholds: Thresholds) -> bool:
    """The same description-length choice, made again over every leaf under the node.

    A change to a whole service or provider (a price list, a discount) moves every leaf under it
    by the same factor. Independent causes in a few of its children can make the children rise
    alike (each child carries one spike, or a new resource) while their leaves do not: one leaf
    many sigmas out, its siblings flat. Those are the causes, found further down.

    The factor is the growth of everything under the node, new leaves included: a new resource's
    cost is part of the node's increase that no factor on the old leaves explains."""
    active = _priced(leaves)
    if len(active) < thresholds.broad_min_children:
        return False
    counted = [k for k in leaves if not k.untouched_fixed_amount and k.baseline >= 0]
    baseline = sum(k.baseline for k in counted)
    if baseline <= 0:
        return False
    return _factor_wins(active, thresholds, sum(k.actual for k in counted) / baseline)


def _seen_elsewhere(
    node: NodeStats,
    kids: list[NodeStats],
    leaves: list[NodeStats],
    corroborated: Callable[[], Mapping[tuple[str, ...], float]],
    thresholds: Thresholds,
) -> bool:
    """A provider that raised its prices did so in every account: when the same provider (or
    service) changed as a whole in other accounts of the bill on the same day, most of what it
    bills here moved by about the same factor (the cost-weighted median of its lines' factors)
    and its children's rises together are surprising (3σ), one account's noisy fleets are no
    reason to split it into leaves. The parsimonious answer is the node. One line's spike under
    a provider leaves the median of its lines at ~1 and is not mistaken for it."""
    if node.depth == 0 or node.delta <= 0 or _together(kids, thresholds) < thresholds.broad_z:
        return False
    # every line with a cost, fixed amounts too: a static database is priced by the hour and a
    # price list moves it; one that stayed put says the provider's prices did not move here
    priced = sorted((k.actual / k.baseline, k.baseline) for k in leaves if k.baseline > 0)
    if not priced:
        return False
    half, seen, here = sum(w for _, w in priced) / 2, 0.0, priced[-1][0]
    for factor, weight in priced:
        seen += weight
        if seen >= half:
            here = factor
            break
    if here - 1 <= thresholds.factor_floor:
        return False  # most of it did not rise: no need to look at the other accounts
    elsewhere = corroborated().get(node.path[1:])
    if elsewhere is None:
        return False
    return abs(here - elsewhere) <= max(
        thresholds.factor_floor, thresholds.corroboration_tolerance * (elsewhere - 1)
    )


def _price_list_moved(node: NodeStats, leaves: list[NodeStats], thresholds: Thresholds) -> bool:
    """Every price-bearing line under the node has a higher unit price on the day: the
    provider's (or the service's) price list moved. One price list explains every line however
    many there are, where naming lines costs one each; the rises may differ (a provider prices
    each service on its own). A price-bearing line that kept its price is allowed only as a
    reservation's exception (its own family rose elsewhere in the same service) and only while
    the exceptions are few (:func:`_exceptions`). Unit prices
    carry no usage noise, so this holds however a small fleet's count moved on the same day (one
    instance more in a fleet of six is 17% of its cost, and reads as a cause of its own against
    the few-percent noise its weeks at one count measure).

    Price-bearing: a line with a price that held before the day, except a fixed amount that
    stayed put (a reserved instance or a commitment keeps its rate through a new list price;
    a static database whose price rose is counted). The smallest node that covers the moved
    lines is the answer: a node whose moved lines all sit in one of its children is that child
    (a compute price rise beside databases that kept their price is the service, not the
    provider); the drill-down is top-down, so it finds that child next."""
    priced = [
        k
        for k in leaves
        if k.price_factor is not None and not k.is_new and not k.untouched_fixed_amount
    ]
    if len(priced) < thresholds.broad_min_children:
        return False
    factors = sorted(k.price_factor for k in priced if k.price_factor is not None)
    if factors[len(factors) // 2] - 1 <= thresholds.factor_floor:
        return False
    # a kept line is a contract's exception (a reservation covering that fleet) only where its
    # own family's price rose elsewhere in the same service: the list price did move for it
    rose = [k for k in priced if (k.price_factor or 1.0) - 1 > thresholds.price_list_min_rise]
    kept = [k for k in priced if (k.price_factor or 1.0) - 1 <= thresholds.price_list_min_rise]
    repriced = {_family_in_service(k) for k in rose}
    if any(_family_in_service(k) not in repriced for k in kept) or not _exceptions(
        len(kept), len(rose)
    ):
        return False
    children = {k.path[: node.depth + 2] for k in leaves if not k.is_new}
    moved_children = {k.path[: node.depth + 2] for k in rose}
    return len(children) == 1 or len(moved_children) >= 2


#: Depth of the service level (account, provider, service): a reservation or a contract price
#: covers a family within one service (EC2's c6g.4xlarge, not EKS nodes of the same type).
_SERVICE_DEPTH = 2


def _family_in_service(leaf: NodeStats) -> tuple[str, ...]:
    return (*leaf.path[: _SERVICE_DEPTH + 1], leaf.path[-1])


def _one_family_repriced(leaves: list[NodeStats], thresholds: Thresholds) -> bool:
    """Every line under the node whose unit price rose is of one instance family, and lines of
    other families beside it kept theirs: the family's price changed, not the node's price list.

    A price list moves every family it covers; one that moved a single family is that family's
    price (ITBench names a family without a path, wherever it runs). Unlike :func:`_price_split`
    a kept line of another family counts even when it is a fixed amount: a static database or
    cache of another class keeps its price through the family's change, and a reservation only
    explains kept lines of the family it reserves. No line of another family may have risen
    where its price cannot be read (a price the export rounds away, a blend over tiers) unless
    it plainly kept its level: that line may have been repriced too."""
    known = [k for k in leaves if k.price_factor is not None and not k.is_new and k.baseline > 0]
    rose = [k for k in known if (k.price_factor or 1.0) - 1 > thresholds.price_list_min_rise]
    families = {k.path[-1] for k in rose}
    if len(families) != 1:
        return False
    family = next(iter(families))
    kept_other = [
        k
        for k in known
        if k.path[-1] != family and (k.price_factor or 1.0) - 1 <= thresholds.price_list_min_rise
    ]
    # a line whose price blends over tiers or coverage cannot show its price; one whose cost
    # stayed near its usual level, plainly away from where the family's new price would have put
    # it, kept its price all the same (internet egress beside a repriced cross-AZ transfer SKU)
    factor = float(np.median([k.price_factor or 1.0 for k in rose]))
    unread = [
        k
        for k in leaves
        if k.path[-1] != family and k.price_factor is None and not k.is_new and k.baseline > 0
    ]
    kept_unread = [
        k for k in unread if not k.untouched_fixed_amount and _kept_its_level(k, factor, thresholds)
    ]
    kept_paths = {k.path for k in kept_unread}
    unread_rise = any(
        k.rise >= thresholds.broad_child_z for k in unread if k.path not in kept_paths
    )
    return bool(kept_other or kept_unread) and not unread_rise


def _one_family_grown(leaves: list[NodeStats], thresholds: Thresholds) -> list[NodeStats]:
    """The lines of one instance family, when every line under the node that rose beyond its
    noise is of that family, in two or more places, every line of the family rose and lines of
    other families beside it kept their level: the family's usage grew (NAT data processing when
    traffic leaves a gateway endpoint, custom metrics when a tag multiplies them), not the node.
    The family is named as ITBench names it, without a path, wherever it runs; the node around
    it (a service that holds the family and its flat gateway hours, or nothing else) is the
    coarser name for the same lines. Empty otherwise. A new price is read by the price rules."""
    lived = [k for k in leaves if not k.is_new and k.baseline > 0 and not k.untouched_fixed_amount]
    if any((k.price_factor or 1.0) - 1 > thresholds.price_list_min_rise for k in lived):
        return []
    rose = [k for k in lived if _rise(k, thresholds) >= thresholds.z]
    families = {k.path[-1] for k in rose}
    if len(families) != 1 or len(rose) < thresholds.broad_min_children:
        return []
    family = next(iter(families))
    mine = [k for k in lived if k.path[-1] == family]
    if any(_rise(k, thresholds) < thresholds.broad_child_z for k in mine):
        return []
    others = [k for k in lived if k.path[-1] != family]
    if any(_rise(k, thresholds) >= thresholds.broad_child_z for k in others):
        return []
    return mine


def _new_lines_rolled_out(tree: Tree, node: NodeStats, thresholds: Thresholds) -> list[NodeStats]:
    """The new lines under an established node when they are one rollout of it: lines new to
    the bill, each of an application the account already runs, in two or more of its children, of two or more families, one family at least in
    several children (the same new SKUs switched on across applications: a security service's
    protection plans), beside the node's own lines that kept their life. One name, the node,
    where its new families or applications would be several; new lines of one family are that
    family, named once wherever it runs. Empty otherwise."""
    if node.depth < 1 or node.is_new or tree.is_leaf(node):
        return []
    leaves = tree.leaves_under(node)
    # an application new to the account is a cause of its own (reported as the Application);
    # a rollout adds lines to applications the account already runs elsewhere
    owner = len(leaves[0].path) - 2 if leaves else 0
    known = {k.path[owner] for k in tree.stats[-1] if not k.is_new and k.baseline > 0}
    new = [k for k in leaves if k.is_new and k.actual > 0]
    if any(k.path[owner] not in known for k in new):
        return []
    places = {k.path[: node.depth + 2] for k in new}
    families: dict[str, set[tuple[str, ...]]] = {}
    for k in new:
        families.setdefault(k.path[-1], set()).add(k.path[: node.depth + 2])
    if len(places) < thresholds.broad_min_children or len(families) < thresholds.broad_min_children:
        return []
    if max(len(p) for p in families.values()) < thresholds.broad_min_children:
        return []
    established = [k for k in leaves if not k.is_new and k.baseline > 0]
    if not established or not _kept_their_life(established, thresholds):
        return []
    return new


def _kept_its_level(leaf: NodeStats, factor: float, thresholds: Thresholds) -> bool:
    """The line stayed nearer its usual level than where a change by ``factor`` would have put
    it, and plainly away from the latter (as :func:`_uniform_change` judges a child that did not
    take part): a usage wobble of a few percent beside a 50% new price is no share of it."""
    if leaf.actual - leaf.baseline >= leaf.baseline * factor - leaf.actual:
        return False
    spread = np.sqrt(1 + thresholds.baseline_error**2)
    sigma = _noise(leaf, thresholds) * factor * spread
    return abs(leaf.actual - leaf.baseline * factor) / sigma > thresholds.broad_child_misfit


def _one_application_repriced(
    tree: Tree, node: NodeStats, thresholds: Thresholds
) -> NodeStats | None:
    """Every line under a provider whose unit price rose belongs to one application, in two or
    more of its services, every price-bearing line of that application rose, and lines of other
    applications beside it kept their price: the application was moved to other prices (off an
    enterprise agreement, into a region of its own), not the provider's or a service's price
    list. ITBench names an application without a path, wherever it runs: it is the one resource
    that holds every moved line. Returns a node for it across the services (path
    ``provider / every <service level> / application``), None when the rule does not hold.

    The name is read two levels below ``node`` (below its children), never at the leaves: a
    family repriced in several applications is found by the drill-down and merged by name."""
    level = node.depth + 2
    if node.depth < 1 or level >= len(tree.cube.levels) - 1:
        return None
    leaves = [k for k in tree.leaves_under(node) if not k.is_new and k.baseline > 0]
    bearing = [k for k in leaves if k.price_factor is not None and not k.untouched_fixed_amount]
    rose = [k for k in bearing if (k.price_factor or 1.0) - 1 > thresholds.price_list_min_rise]
    name = _one_application(rose, level, thresholds)
    if name is None:
        return None
    own = [k for k in bearing if k.path[level] == name]
    others = [k for k in leaves if k.path[level] != name]
    if len(own) != len(rose) or not others:
        return None
    if any(k.price_factor is None and k.rise >= thresholds.broad_child_z for k in others):
        return None  # another application rose where its price cannot be read
    return _application_across(tree, node, name)


def _one_application_grown(tree: Tree, node: NodeStats, thresholds: Thresholds) -> NodeStats | None:
    """Every line under a provider that rose beyond its noise on the day belongs to one
    application, in two or more of its services, and every line of that application rose with
    them (each by its own factor: an exchange onboarded, a cache purged, a DR copy started),
    while the other applications beside it kept their usual life: the application grew, not a
    family or a service. ITBench names an application without a path, wherever it runs: it is
    the smallest resource holding every moved line, where naming each line costs one name per
    line. A line of it that stayed put (a static database beside grown fleets) says the moved
    lines are causes of their own. Returns a node for it across the services, as
    :func:`_one_application_repriced` does, or None."""
    level = node.depth + 2
    if node.depth < 1 or level >= len(tree.cube.levels) - 1:
        return None
    leaves = [k for k in tree.leaves_under(node) if not k.is_new and k.baseline > 0]
    lived = [k for k in leaves if not k.untouched_fixed_amount]
    # moved: beyond its noise over both the weekday median and the expectation that knows the
    # month's habits (a batch that triples on every 1st is no rise on a 1st)
    moved = [
        k for k in lived if min(_rise(k, thresholds), _surprise(k, thresholds)) >= thresholds.z
    ]
    name = _one_application(moved, level, thresholds)
    if name is None:
        return None
    own = [k for k in lived if k.path[level] == name]
    others = [k for k in leaves if k.path[level] != name]
    if not others:
        return None
    if any(_rise(k, thresholds) < thresholds.broad_child_z for k in own):
        return None  # a line of it kept its life: the moved lines are causes of their own
    # the others kept theirs: no new price among them, and their rises together are noise (a
    # price list that moved every application shows in the others taken together, however few
    # of their lines stand out alone)
    if not _kept_their_life(others, thresholds):
        return None
    return _application_across(tree, node, name)


def _kept_their_life(lines: list[NodeStats], thresholds: Thresholds) -> bool:
    """No new price among the lines, and their rises together are noise (a price list that
    moved every one of them shows in them taken together, however few stand out alone)."""
    if any((k.price_factor or 1.0) - 1 > thresholds.price_list_min_rise for k in lines):
        return False
    floored = [_noise(k, thresholds) for k in lines]
    together = sum(k.actual - k.baseline for k in lines) / float(
        np.sqrt(sum(s**2 for s in floored))
    )
    return together < thresholds.broad_z


def _one_child_grown(
    tree: Tree,
    node: NodeStats,
    thresholds: Thresholds,
    significant: Callable[[NodeStats], bool],
) -> NodeStats | None:
    """A child of ``node`` every line of which moved beyond its noise, each by its own factor (a
    provider's new prices on usage lines of several services, blended over coverage and tiers;
    a debug log level reaching every application's log ingestion and metrics; a lifecycle
    policy moving data from one storage class back to another, whose storage falls while the
    other class and its reads rise), the child's total rising, in two or more
    of its own children and families, while the rest of ``node`` kept its usual life: the
    child is the smallest resource holding every moved line, one name where its families or
    lines would be several. Lines that keep their amount through any change (fees, amortised
    commitments) are no lines that stayed put.

    Only a child beside other lines (a provider beside another provider of the account, a
    service beside others): an account's only provider adds nothing to what its lines say, and
    an application holding all of them there is the finer answer
    (:func:`_one_application_grown`). Only a child whose name is its own in the account: ITBench
    names a resource without a path, and an application's lines in one service are not all of
    it. What stands out on its own under the child (``significant``: the drill-down names
    causes there anyway) must lie in several of its children and families; this rule only
    chooses how to name it."""
    if tree.is_leaf(node):
        return None
    for child in tree.children.get(node.path, ()):
        if tree.is_leaf(child) or child.is_new or child.delta <= 0:
            continue
        lines = [k for k in tree.leaves_under(child) if not k.is_new and k.baseline > 0]
        lived = [k for k in lines if not k.untouched_fixed_amount]
        # what stands out alone (the drill-down would name it) lies in several of its children
        # and families: one spiking line beside siblings that wobbled up is that line's cause
        moved = [k for k in lived if significant(k)]
        if len({k.path[: child.depth + 2] for k in moved}) < thresholds.broad_min_children:
            continue
        # ... and families: what stands out on its own, material or not (a CDN's transfer,
        # material in two sites, and its requests, far beyond their noise in every site but
        # small), lies in several families
        stood_out = moved + [k for k in lived if abs(_surprise(k, thresholds)) >= thresholds.z]
        if len({k.path[-1] for k in stood_out}) < thresholds.broad_min_children:
            continue
        # a line that fell beyond its noise moved too: cost that passes from one storage class
        # (SKU) of the child to another is one change of the child, not a cause per class
        if any(abs(_rise(k, thresholds)) < thresholds.broad_child_z for k in lived):
            continue
        others = _lines_beside(tree, child, node.path)
        if not others or not _kept_their_life(others, thresholds):
            continue
        if not _name_is_its_own(tree, child):
            continue
        return child
    return None


def _name_is_its_own(tree: Tree, node: NodeStats) -> bool:
    """No other node of the node's level carries its name in the account. ITBench names a
    resource without a path: a region's name below one service also covers every other service
    billing there, and an application's lines in one service are not all of it."""
    return sum(k.path[-1] == node.path[-1] for k in tree.stats[node.depth]) == 1


def _lines_beside(tree: Tree, node: NodeStats, within: tuple[str, ...]) -> list[NodeStats]:
    """The lines under the node at ``within`` (an ancestor's path) but not under ``node`` that
    billed before the day: what kept its usual life, or did not, beside the node's change."""
    inside, size = len(within), len(node.path)
    return [
        k
        for k in tree.stats[-1]
        if k.path[:inside] == within
        and k.path[:size] != node.path
        and not k.is_new
        and k.baseline > 0
    ]


def _one_application(lines: list[NodeStats], level: int, thresholds: Thresholds) -> str | None:
    """The application (the path element at ``level``) every one of ``lines`` belongs to, when
    they lie in at least ``broad_min_children`` of the node's services; None otherwise."""
    names = {k.path[level] for k in lines}
    if len(names) != 1:
        return None
    if len({k.path[: level + 1] for k in lines}) < thresholds.broad_min_children:
        return None
    return next(iter(names))


#: Share of a credit's usual amount left on the day below which it ended.
_CREDIT_LEFT = 0.5


def _credits_ended(tree: Tree, node: NodeStats, thresholds: Thresholds) -> bool:
    """Every credit under the node (a fixed negative amount: promotional, sponsorship) ended on
    the day, in two or more of its children, and nothing else under it moved beyond its noise:
    the provider's credit agreement ended, one change to what the provider bills, not a family
    of lines (a credit is billed per service, under whatever name the provider gives it). A
    credit that still runs beside them says the ended ones are causes of their own."""
    if node.depth < 1 or tree.is_leaf(node):
        return False
    leaves = [k for k in tree.leaves_under(node) if not k.is_new]
    credits = [k for k in leaves if k.fixed and k.baseline < 0]
    ended = [k for k in credits if k.actual > _CREDIT_LEFT * k.baseline]
    if not credits or len(ended) != len(credits):
        return False
    if len({k.path[: node.depth + 2] for k in ended}) < thresholds.broad_min_children:
        return False
    rest = [k for k in leaves if k.baseline > 0 and not k.untouched_fixed_amount]
    return all(min(_rise(k, thresholds), _surprise(k, thresholds)) < thresholds.z for k in rest)


def _noise(node: NodeStats, thresholds: Thresholds) -> float:
    """A node's noise, floored at ``factor_floor`` of its weekday median: a static line's
    measured noise is ~0, and any change of it would otherwise be infinitely surprising."""
    return max(node.sigma, thresholds.factor_floor * node.baseline)


def _rise(leaf: NodeStats, thresholds: Thresholds) -> float:
    """A line's rise over its weekday median in units of its floored noise."""
    return (leaf.actual - leaf.baseline) / _noise(leaf, thresholds)


def _surprise(leaf: NodeStats, thresholds: Thresholds) -> float:
    """:attr:`NodeStats.z` with the floored noise: the deviation from the expectation that knows
    weekly and monthly habits."""
    return leaf.delta / _noise(leaf, thresholds)


def _application_across(tree: Tree, node: NodeStats, name: str) -> NodeStats:
    """The lines of application ``name`` in every service under ``node`` as one node (path
    ``provider / every <service level> / application``)."""
    level = node.depth + 2
    lines = [k for k in tree.leaves_under(node) if k.path[level] == name]
    return NodeStats(
        depth=level,
        index=-1,
        path=(*node.path, f"every {tree.cube.levels[node.depth + 1]}", name),
        actual=sum(k.actual for k in lines),
        expected=sum(k.expected for k in lines),
        sigma=float(np.sqrt(sum(k.sigma**2 for k in lines))),
        history=sum(k.history for k in lines),
        baseline=sum(k.baseline for k in lines),
    )


def _lines_of(tree: Tree, across: NodeStats) -> list[NodeStats]:
    """The leaves an application node across services stands for."""
    top, name = across.path[:-2], across.path[-1]
    return [k for k in tree.stats[-1] if k.path[: len(top)] == top and k.path[across.depth] == name]


def _price_added(leaves: list[NodeStats]) -> float:
    """What new prices added to the lines' usual cost on the day: a region repriced on a day
    of lower usage there still added its rise times its usual cost."""
    return sum(k.price_added for k in leaves)


def _price_split(leaves: list[NodeStats], thresholds: Thresholds) -> bool:
    """Some price-bearing lines under the node rose on the day and an on-demand line beside
    them kept its price: a price list that moved for the whole node would have moved that line
    too, so the node did not change as a whole (one instance family repriced in every
    application makes each application, and so the service, rise by one share).

    On-demand: billed by usage (its cost moved over its history) at a price that held and that
    the export prints finely enough to show a change. A fixed amount (a reserved instance, a
    commitment's fee, a credit) keeps its price through any list-price change, so its kept price
    is no evidence. Kept lines must carry a real share of the node's price-bearing cost (a line
    of a few cents says little about a price list) and be more than the price list's exceptions
    (:func:`_exceptions`: spot capacity or one application on a private contract beside many
    lines that rose is the node's change with its exceptions)."""
    known = [k for k in leaves if k.price_factor is not None and not k.is_new and k.baseline > 0]
    rose = [k for k in known if (k.price_factor or 1.0) - 1 > thresholds.price_list_min_rise]
    kept = [
        k
        for k in known
        if not k.fixed and (k.price_factor or 1.0) - 1 <= thresholds.price_list_min_rise
    ]
    if not rose or not kept:
        return False
    bearing = sum(k.baseline for k in rose) + sum(k.baseline for k in kept)
    return sum(k.baseline for k in kept) >= 0.05 * bearing and not _exceptions(len(kept), len(rose))


def _exceptions(kept: int, rose: int) -> bool:
    """Lines that kept their price beside a price list that moved are its exceptions when naming
    the node and each of them is shorter than naming every line that rose (a description-length
    choice, one name each): a provider's or service's new list price leaves a few lines on a
    contract (a reservation billed as usage, spot capacity, a private-pricing agreement), and an
    analyst names the price list with its exceptions. As many kept lines as moved ones say the
    moved lines are the causes."""
    return 1 + kept < rose


def _beyond_price(leaves: list[NodeStats], thresholds: Thresholds) -> list[NodeStats]:
    """Lines under a node that changed as a whole which rose far more than their own new price
    explains: a fleet that tripled on the day its service was repriced is a cause of its own
    beside the price list. Only lines whose price moved: under a node scaled whole (an
    application running more of everything) every line's rise is the node's own change."""
    out = []
    spread = np.sqrt(1 + thresholds.baseline_error**2)
    for k in leaves:
        if k.price_factor is None or k.is_new or k.baseline <= 0:
            continue
        if k.price_factor - 1 <= thresholds.price_list_min_rise:
            continue  # its price held: the node's change was not a price change for it
        explained = k.baseline + k.price_added
        sigma = _noise(k, thresholds) * k.price_factor * spread
        if (k.actual - explained) / sigma >= thresholds.z:
            out.append(k)
    return out


def _together(kids: list[NodeStats], thresholds: Thresholds) -> float:
    """The rise of the priced children taken together (their z-scores combined as independent
    evidence). A provider's 15% price rise is 3 sigma of its noisy total but 6 or more of its
    services' rises put together: the total mixes a quiet static database with noisy compute and
    hides what every one of them shows."""
    squared = [_surprise(k, thresholds) ** 2 for k in _priced(kids) if k.delta > 0]
    return float(np.sqrt(sum(squared)))


def _priced(nodes: list[NodeStats]) -> list[NodeStats]:
    """The nodes a price or usage change can move: positive cost, not a fixed amount that stayed
    put (fees, commitments, credits; a commitment that ended falls to zero, its lines rise)."""
    return [k for k in nodes if k.expected > 0 and k.baseline > 0 and not k.untouched_fixed_amount]


def _factor_wins(
    active: list[NodeStats], thresholds: Thresholds, factor: float | None = None
) -> bool:
    """One growth factor for all of ``active`` against naming the most deviating of them."""
    # factors from the plain weekday median: the closest-of-baselines expectation leans towards
    # each child's own value and would make siblings' factors differ when they do not
    if factor is None:
        factor = sum(k.actual for k in active) / sum(k.baseline for k in active)
    if factor <= 1:
        return False
    penalty = thresholds.parameter_cost
    # noise is multiplicative: after a change by ``factor`` a child's noise is ``factor`` times
    # and the weekday median is itself an estimate (a median of four noisy weeks): its error
    # adds to the day's noise, ``baseline_error`` of it
    spread = np.sqrt(1 + thresholds.baseline_error**2)
    sigma = [_noise(k, thresholds) for k in active]
    residual = sum(
        ((k.actual - k.baseline * factor) / (s * factor * spread)) ** 2
        for k, s in zip(active, sigma, strict=True)
    )
    squared = sorted(((k.delta / s) ** 2 for k, s in zip(active, sigma, strict=True)), reverse=True)
    # what the factor explains must be as surprising as one node at the z threshold: a thin,
    # planned scale-up of a few percent everywhere is not a cause however uniform it is
    if sum(squared) - residual < thresholds.z**2:
        return False
    node_cost = penalty + residual
    # naming the k most deviating children: the others' squared z-scores stay unexplained
    best_children = min(penalty * n + sum(squared[n:]) for n in range(1, len(squared) + 1))
    return node_cost < best_children
