"""NTAM, the normalised topology-aware match of ITBench's diagnosis table (paper App. C.6.3).

The paper names the components and leaves their hyper-parameters unpublished; the formulation
below is ours, every hyper-parameter is a constant of this module (stated in docs/sre/judge.md):

- **Topology.** Nodes are components (one app's Service/Deployment/ReplicaSet/Pod is one node, any
  other object is its own, as :mod:`sre.judge.matching` groups them). Typed edges: ``calls``
  (the demo's call graph, :data:`sre.generator.topology.OTEL_DEMO`, which the tests hold equal to
  ITBench's ``architecture.json``) and ``propagates`` (the ground truth's own propagations, which
  tie a ConfigMap or a chaos object to the app it acts on). Inside one node, a prediction of
  another kind than the ground truth's (the Pod for the Deployment) is an ``owns`` step.
- **Distance scoring.** ``s = exp(-DISTANCE_DECAY * d)`` over the cheapest path (edge costs
  :data:`EDGE_COST`, undirected), 0 when unconnected; a predicted node that is not the ground
  truth's is also divided by ``1 + SUBTREE_WEIGHT * ln(subtree)``, its sub-tree being itself and
  everything it depends on (callees; the sources of propagations into it): naming the entry
  point, which depends on everything, says less than naming a leaf.
- **Node importance.** The ground-truth entity at chain position ``i`` (0 = the root cause)
  weighs ``CHAIN_DECAY ** i``; in a chain a match ``k`` positions away from where the ground
  truth has it keeps ``POSITION_DECAY ** k`` (so a chain read root first beats its reverse).
- **Length mismatch.** The weighted match (ground-truth nodes assigned greedily, best pair first,
  each predicted node used once) is multiplied by ``exp(-LENGTH_PENALTY * |n_p - n_g| / n_g)``.

The result lies in 0..1: 1 for the ground truth itself, 0 for an empty prediction.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sre.generator.topology import OTEL_DEMO
from sre.judge.matching import WORKLOAD_KINDS, Component, Matcher, app_name
from sre.outputs import EntityRef, PredictedEntity

#: Cost of one step of each edge type (``owns``: same component, another kind of object).
EDGE_COST = {"owns": 0.5, "calls": 1.0, "propagates": 1.0}
#: ``s = exp(-DISTANCE_DECAY * d)``: one call away keeps 0.61, two 0.37, three 0.22.
DISTANCE_DECAY = 0.5
#: Divisor ``1 + SUBTREE_WEIGHT * ln(subtree size)`` of a near miss (the entry point, ~20: 1.75).
SUBTREE_WEIGHT = 0.25
#: Weight of the ground truth's ``i``-th chain entity: ``CHAIN_DECAY ** i`` (root cause 1).
CHAIN_DECAY = 0.7
#: Kept by a chain match ``k`` positions off its place in the ground truth: ``POSITION_DECAY**k``.
POSITION_DECAY = 0.8
#: ``exp(-LENGTH_PENALTY * |n_pred - n_gt| / n_gt)``: one extra entity on a chain of 5 keeps 0.90.
LENGTH_PENALTY = 0.5

#: A node of the topology: ("app", name) or ("object", kind, name); namespaces are left out
#: because old outputs and some ground truths have none (everything is the demo's).
Node = tuple[str, ...]


def node_of(component: Component) -> Node:
    return ("app", component[2]) if component[0] == "app" else ("object", *component[2:])


@dataclass(frozen=True)
class Topology:
    """Typed edges between nodes; ``depends`` points from a node to what it depends on."""

    edges: tuple[tuple[Node, Node, str], ...]

    @classmethod
    def of(cls, propagations: Sequence[tuple[Node, Node]] = ()) -> Topology:
        """The demo's call graph plus propagation edges (``(source, target)``: target affected)."""
        edges: list[tuple[Node, Node, str]] = [
            (("app", c.source), ("app", c.target), "calls") for c in OTEL_DEMO.calls
        ]
        # a propagation runs effect-wise: the target depends on the source
        edges += [(t, s, "propagates") for s, t in propagations if s != t]
        return cls(tuple(edges))

    def distances(self, start: Node) -> dict[Node, float]:
        return _dijkstra(self.edges, start)

    def subtree(self, node: Node) -> int:
        return _subtree(self.edges, node)


@lru_cache(maxsize=256)
def _dijkstra(edges: tuple[tuple[Node, Node, str], ...], start: Node) -> dict[Node, float]:
    adj: dict[Node, list[tuple[Node, float]]] = {}
    for a, b, kind in edges:
        adj.setdefault(a, []).append((b, EDGE_COST[kind]))
        adj.setdefault(b, []).append((a, EDGE_COST[kind]))
    dist = {start: 0.0}
    heap = [(0.0, start)]
    while heap:
        d, n = heapq.heappop(heap)
        if d > dist.get(n, math.inf):
            continue
        for m, cost in adj.get(n, ()):
            if d + cost < dist.get(m, math.inf):
                dist[m] = d + cost
                heapq.heappush(heap, (d + cost, m))
    return dist


@lru_cache(maxsize=256)
def _subtree(edges: tuple[tuple[Node, Node, str], ...], node: Node) -> int:
    seen = {node}
    frontier = [node]
    while frontier:
        n = frontier.pop()
        for a, b, _ in edges:
            if a == n and b not in seen:
                seen.add(b)
                frontier.append(b)
    return len(seen)


@dataclass(frozen=True)
class Item:
    """One entity to compare: its node, position in its list, and (for entities) its kind."""

    node: Node
    position: int
    kind: str | None = None


def similarity(topology: Topology, pred: Item, gt: Item, positional: bool) -> float:
    if pred.node == gt.node:
        d = 0.0
        if pred.kind and gt.kind and pred.kind.lower() != gt.kind.lower():
            d = EDGE_COST["owns"]
    else:
        d = topology.distances(gt.node).get(pred.node, math.inf)
    if math.isinf(d):
        return 0.0
    s = math.exp(-DISTANCE_DECAY * d)
    if pred.node != gt.node:
        s /= 1 + SUBTREE_WEIGHT * math.log(topology.subtree(pred.node))
    if positional:
        s *= POSITION_DECAY ** abs(pred.position - gt.position)
    return s


def ntam(
    topology: Topology, predicted: Sequence[Item], truth: Sequence[Item], positional: bool
) -> dict[str, Any]:
    """The score of ``predicted`` against ``truth`` (both in order, the root cause first)."""
    if not truth or not predicted:
        return {"calculation": 0.0 if truth else None, "matches": []}
    weights = [CHAIN_DECAY**g.position for g in truth]
    pairs = sorted(
        (
            (similarity(topology, p, g, positional) * weights[j], i, j)
            for i, p in enumerate(predicted)
            for j, g in enumerate(truth)
        ),
        key=lambda x: (-x[0], x[1], x[2]),
    )
    used_p: set[int] = set()
    used_g: set[int] = set()
    matches = []
    total = 0.0
    for score, i, j in pairs:
        if score <= 0 or i in used_p or j in used_g:
            continue
        used_p.add(i)
        used_g.add(j)
        total += score
        matches.append((i, j, score / weights[j]))
    raw = total / sum(weights)
    penalty = math.exp(-LENGTH_PENALTY * abs(len(predicted) - len(truth)) / len(truth))
    return {
        "calculation": round(raw * penalty, 6),
        "matches": matches,
        "length_penalty": round(penalty, 6),
    }


# --- the judge's two scores --------------------------------------------------------------


def _own_component(ref: EntityRef) -> Component:
    kind = (ref.kind or "").lower()
    if kind in WORKLOAD_KINDS or not kind:
        return ("app", ref.namespace or "", app_name(kind, ref.name))
    return ("object", ref.namespace or "", kind, ref.name)


def _topology(matcher: Matcher) -> Topology:
    props = [
        (node_of(matcher.group_component(p.source)), node_of(matcher.group_component(p.target)))
        for p in matcher._props
    ]
    return Topology.of(props)


def _label(node: Node) -> str:
    return "/".join(node[1:])


def fault_localisation(matcher: Matcher, predicted: Sequence[PredictedEntity]) -> dict[str, Any]:
    """NTAM over root-cause entities only (all at position 0 of the chain)."""
    topology = _topology(matcher)
    truth = [
        Item(node_of(matcher.group_component(rc)), 0, matcher.groups[rc].kind)
        for rc in matcher.root_causes
    ]
    items = []
    for e in predicted:
        m = matcher.match(e.ref)
        if m is not None and m.root_cause is not None:
            # the matcher already credits it (alias, filter): the root cause's own node and kind
            g = matcher.groups[m.root_cause]
            items.append(Item(node_of(matcher.group_component(m.root_cause)), 0, g.kind))
            continue
        comp = matcher.entity_component(e.ref) or _own_component(e.ref)
        items.append(Item(node_of(comp), 0, e.ref.kind))
    out = ntam(topology, items, truth, positional=False)
    return _details(out, items, truth)


def propagation_chain(
    matcher: Matcher, gt_path: Sequence[Component], path: Sequence[Component]
) -> dict[str, Any]:
    """NTAM over every entity of the chain, in order (the root cause first)."""
    topology = _topology(matcher)
    truth = [Item(node_of(c), i) for i, c in enumerate(gt_path)]
    if not truth:
        roots = dict.fromkeys(node_of(matcher.group_component(r)) for r in matcher.root_causes)
        truth = [Item(n, 0) for n in roots]
    items = [Item(node_of(c), i) for i, c in enumerate(path)]
    out = ntam(topology, items, truth, positional=True)
    return _details(out, items, truth)


def _details(out: dict[str, Any], items: Sequence[Item], truth: Sequence[Item]) -> dict[str, Any]:
    return {
        "calculation": out["calculation"],
        "details": {
            "gt": [_label(g.node) for g in truth],
            "predicted": [_label(p.node) for p in items],
            "matches": [
                {
                    "predicted": _label(items[i].node),
                    "gt": _label(truth[j].node),
                    "score": round(s, 6),
                }
                for i, j, s in out["matches"]
            ],
            "length_penalty": out.get("length_penalty"),
        },
    }


__all__ = [
    "CHAIN_DECAY",
    "DISTANCE_DECAY",
    "EDGE_COST",
    "LENGTH_PENALTY",
    "POSITION_DECAY",
    "SUBTREE_WEIGHT",
    "Item",
    "Topology",
    "fault_localisation",
    "ntam",
    "propagation_chain",
]
