"""Deterministic entity matching against a ground truth: groups, filters, aliases, components.

A predicted ``namespace/Kind/name`` matches a GT group when the kinds agree (case-insensitive),
the namespaces agree (a prediction without one, from an old output, matches any) and the name
equals the group's ``name`` or one of its ``filter`` regexes finds it. Filters overlap
(``frontend\\b`` also finds ``frontend-proxy``), so the most specific group wins: an exact name,
then a filter matching the whole name, then one merely finding it; ties go to the filter with the
longest literal prefix. A group in an alias set (taken transitively: the sets chain pod to service
to deployment) that holds a root cause stands for that root cause.

Components (for chains and proximity): one app's Service/Pod/Deployment/ReplicaSet/StatefulSet/
DaemonSet in one namespace is one component; any other object (ConfigMap, chaos object) is its own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from itbench.errors import InputError
from sre.generator.ground_truth import GroundTruth, Group, Propagation
from sre.outputs import EntityRef

WORKLOAD_KINDS = frozenset(
    {"service", "pod", "deployment", "replicaset", "statefulset", "daemonset"}
)
_POD_SUFFIX = re.compile(r"-[a-z0-9]{6,10}-[a-z0-9]{5}$|-[a-z0-9]{5}$|-\d+$")
_RS_SUFFIX = re.compile(r"-[a-z0-9]{6,10}$")
_ID_SUFFIX = re.compile(r"-(?:service|pod|deployment|replicaset|statefulset|daemonset)-\d+$")
_META = re.compile(r"[\\.^$*+?{}\[\]|()]")

#: A component: ("app", namespace, app name) or ("object", namespace, kind, name).
Component = tuple[str, ...]


@dataclass(frozen=True)
class GroupMatch:
    group_id: str
    #: ``name``, ``filter (whole name)`` or ``filter (found in name)``.
    how: str
    #: The GT root cause this group stands for (itself, or a root cause in its alias set).
    root_cause: str | None
    via_alias: bool


def literal_prefix(pattern: str) -> str:
    m = _META.search(pattern)
    return pattern if m is None else pattern[: m.start()]


def app_name(kind: str, name: str) -> str:
    """The app a workload object belongs to: pod and ReplicaSet hash suffixes dropped."""
    kind = kind.lower()
    if kind == "pod":
        return _POD_SUFFIX.sub("", name)
    if kind == "replicaset":
        return _RS_SUFFIX.sub("", name)
    return name


class Matcher:
    """Matches predictions against one ground truth; builds the lookups once per truth."""

    def __init__(self, truth: GroundTruth, source: str = "ground truth") -> None:
        self.truth = truth
        self.groups = {g.id: g for g in truth.groups}
        self._patterns: dict[str, list[re.Pattern[str]]] = {}
        self.repaired_filters: list[str] = []
        for g in truth.groups:
            compiled = []
            for i, f in enumerate(g.filter or []):
                try:
                    compiled.append(re.compile(f))
                    continue
                except re.error as exc:
                    error = exc
                # a public GT writes the glob "*.*" for "anything": a leading glob star read as .*
                try:
                    compiled.append(re.compile(re.sub(r"^\*", ".*", f)))
                    self.repaired_filters.append(
                        f"groups[{g.id}].filter[{i}]: {f!r} read as a glob"
                    )
                except re.error:
                    raise InputError(
                        f"{source}: groups[{g.id}].filter[{i}]: bad regex {f!r}: {error}"
                    ) from error
            self._patterns[g.id] = compiled
        self.root_causes = [g.id for g in truth.groups if g.root_cause]
        self._stands_for = self._alias_closure()

    def _alias_closure(self) -> dict[str, str]:
        parent = {g: g for g in self.groups}

        def find(x: str) -> str:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for alias in self.truth.aliases:
            known = [a for a in alias if a in parent]  # dangling ids exist in the public GTs
            for other in known[1:]:
                parent[find(other)] = find(known[0])
        out = {}
        for rc in self.root_causes:
            out[rc] = rc
        for g in self.groups:
            if g in out:
                continue
            same = [rc for rc in self.root_causes if find(rc) == find(g)]
            if same:
                out[g] = same[0]
        return out

    def match(self, ref: EntityRef) -> GroupMatch | None:
        best: tuple[int, int, str, str] | None = None
        for g in self.truth.groups:
            if ref.kind is not None and g.kind.lower() != ref.kind.lower():
                continue
            if ref.namespace and g.namespace and ref.namespace != g.namespace:
                continue
            rank = self._rank(g, ref.name)
            if rank is None:
                continue
            candidate = (rank[0], rank[1], g.id, rank[2])
            if best is None or candidate[:2] > best[:2]:
                best = candidate
        if best is None:
            return None
        group_id, how = best[2], best[3]
        rc = self._stands_for.get(group_id)
        return GroupMatch(group_id, how, rc, rc is not None and rc != group_id)

    def _rank(self, g: Group, name: str) -> tuple[int, int, str] | None:
        if g.name is not None and g.name == name:
            return (3, len(name), "name")
        best: tuple[int, int, str] | None = None
        for pattern in self._patterns[g.id]:
            if pattern.fullmatch(name):
                rank = (2, len(literal_prefix(pattern.pattern)), "filter (whole name)")
            elif pattern.search(name):
                rank = (1, len(literal_prefix(pattern.pattern)), "filter (found in name)")
            else:
                continue
            if best is None or rank > best:
                best = rank
        return best

    # components -------------------------------------------------------------------------

    def group_component(self, group_id: str) -> Component:
        g = self.groups[group_id]
        ns = g.namespace or ""
        if g.kind.lower() not in WORKLOAD_KINDS:
            return ("object", ns, g.kind.lower(), g.name or group_id)
        if g.name:
            return ("app", ns, app_name(g.kind, g.name))
        for f in g.filter or []:
            prefix = literal_prefix(f).rstrip("-")
            if prefix:
                return ("app", ns, prefix)
        return ("app", ns, _ID_SUFFIX.sub("", group_id))

    @cached_property
    def gt_components(self) -> frozenset[Component]:
        return frozenset(self.group_component(g) for g in self.groups)

    def entity_component(self, ref: EntityRef) -> Component | None:
        """The GT component a predicted entity belongs to, or None when it is in none of them
        (the original judge drops such entities from the model's chain too)."""
        m = self.match(ref)
        if m is not None:
            return self.group_component(m.group_id)
        if ref.kind is None:
            return None
        if ref.kind.lower() in WORKLOAD_KINDS:
            app = app_name(ref.kind, ref.name)
            for c in self.gt_components:
                if (
                    c[0] == "app"
                    and c[2] == app
                    and (not ref.namespace or c[1] in ("", ref.namespace))
                ):
                    return c
        return None

    def gt_path(self) -> list[Component]:
        return ordered_components(
            [(self.group_component(p.source), self.group_component(p.target)) for p in self._props]
        )

    @cached_property
    def _props(self) -> list[Propagation]:
        # a propagation naming an unknown group (a fifth of the public GTs have one) is skipped
        return [
            p
            for p in self.truth.propagations
            if p.source in self.groups and p.target in self.groups
        ]


def ordered_components(
    edges: Sequence[tuple[Component | None, Component | None]],
) -> list[Component]:
    """Components of a propagation list as one path: a topological order of the component graph,
    ties (and cycles) broken by first appearance, so branching chains read source to sink."""
    order: list[Component] = []
    succ: dict[Component, list[Component]] = {}
    indegree: dict[Component, int] = {}
    for a, b in edges:
        for c in (a, b):
            if c is not None and c not in indegree:
                order.append(c)
                indegree[c] = 0
                succ[c] = []
        if a is not None and b is not None and a != b and b not in succ[a]:
            succ[a].append(b)
            indegree[b] += 1
    out: list[Component] = []
    done: set[Component] = set()
    while len(out) < len(order):
        ready = [c for c in order if c not in done and indegree[c] == 0]
        # a cycle leaves nothing ready: take the earliest remaining component
        pick = ready[0] if ready else next(c for c in order if c not in done)
        out.append(pick)
        done.add(pick)
        for n in succ[pick]:
            indegree[n] -= 1
    return out


def component_label(c: Component) -> str:
    return f"{c[1] or '*'}/{c[2]}" if c[0] == "app" else f"{c[1] or '*'}/{c[2]}/{c[3]}"
