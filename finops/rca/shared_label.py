"""Several causes in different branches of the tree that carry one label of a lower level.

A bill's hierarchy puts its levels in one order (account, provider, category, service,
application, resource; or service above region), but a change is often made under a label that
sits below where its lines meet in that order: an application's query runs away in the two
services it uses (its query engine and its data-lake bucket), a metrics SDK adds a dimension to
one service in every sub-account and region, one region's spot capacity dries up under three
services of two sub-accounts. The drill-down names what rose in each branch (a resource, the
service's region in each sub-account); the node where they meet in the tree (the provider, the
account) also holds every branch that stayed flat. The label they share (the ``x_Application``
or tag column, the service name, the region), taken across the branches, holds those lines and
only a little more: it is the narrowest thing that holds the rise, and the name a reader acts
on (the team's query, the SDK's metric, the region's capacity).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from finops.loaders.table import NO_LABEL
from finops.rca.nodes import NodeStats, Tree

#: Share of the causes' rise that the label, across the branches, must show as its own: lines of
#: the label that fell on the day (what a move between two of its branches gave up) would leave
#: the label about flat, and then the causes are the lines that grew, not the label. Its other
#: lines rising beside the causes (a sub-account whose share stayed under the drill-down's
#: materiality) only add to it.
SHARED_LABEL_SHARE = 0.8


@dataclass(frozen=True)
class _Label:
    """One level's value, read in every branch below the node where the causes meet."""

    depth: int
    name: str
    path: tuple[str, ...]
    lines: tuple[NodeStats, ...]

    @property
    def baseline(self) -> float:
        return sum(k.baseline for k in self.lines)


def label_they_share(tree: Tree, causes: Sequence[NodeStats]) -> NodeStats | None:
    """The lines of one label that two or more causes share below the node where they meet, as
    one node (path: the node where they meet, ``every <level>`` between it and the label), when
    the label as a whole rose by what they did (``SHARED_LABEL_SHARE``); None otherwise.

    Left as found: one cause (nothing to share); causes of one name (one family in several
    owners is one answer already); causes that share nothing below the node where they meet
    (independent changes there: only the tree's own node could hold them, and the drill-down
    has already weighed it); a label the export left blank (it names nothing a reader can act
    on). Of several shared labels (a category and its service), the one that bills least is the
    narrowest that holds them."""
    if len(causes) < 2 or len({c.path[-1] for c in causes}) < 2:
        return None
    paths = [c.path for c in causes]
    deepest_shared = min(len(p) for p in paths)
    meet = 0
    while meet < deepest_shared and len({p[meet] for p in paths}) == 1:
        meet += 1
    if meet == deepest_shared:
        return None  # one cause holds the others
    shared = [
        depth
        for depth in range(meet + 1, deepest_shared)
        if len({p[depth] for p in paths}) == 1 and paths[0][depth] != NO_LABEL
    ]
    labels = [_label(tree, paths[0], meet, depth) for depth in shared]
    if not labels:
        return None
    label = min(labels, key=lambda k: (k.baseline, -k.depth))
    rise = sum(k.actual - k.baseline for k in label.lines)
    carried = sum(c.actual - c.baseline for c in causes)
    if carried <= 0 or rise < SHARED_LABEL_SHARE * carried:
        return None
    return NodeStats(
        depth=label.depth,
        index=-1,
        path=label.path,
        actual=sum(k.actual for k in label.lines),
        expected=sum(k.expected for k in label.lines),
        sigma=float(np.sqrt(sum(k.sigma**2 for k in label.lines))),
        history=sum(k.history for k in label.lines),
        baseline=label.baseline,
    )


def _label(tree: Tree, path: tuple[str, ...], meet: int, depth: int) -> _Label:
    """The lines below ``path[:meet]`` whose value at ``depth`` is ``path[depth]``, whatever
    their values between (spelt ``every <level>`` there, as the look-back reads them)."""
    levels = tree.cube.levels
    between = tuple(f"every {levels[i]}" for i in range(meet, depth))
    lines = tuple(
        k for k in tree.stats[-1] if k.path[:meet] == path[:meet] and k.path[depth] == path[depth]
    )
    return _Label(depth, path[depth], (*path[:meet], *between, path[depth]), lines)
