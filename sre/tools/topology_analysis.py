"""topology_analysis: everything the topology graph says about one entity."""

from __future__ import annotations

from collections import deque
from typing import Any

from pydantic import Field

from itbench import jsonsafe
from itbench.errors import InputError
from sre.snapshot.layout import require_file
from sre.tools._common import ToolArgs, ToolResult, ToolSpec

DESCRIPTION = (
    "Shows every relationship of an entity in the topology written by build_topology: aliases "
    "(the Service and its workload), relationships by type (incoming and outgoing), backing "
    "infrastructure (Namespace > Deployment > ReplicaSet > Pod), callers and callees (through "
    "aliases), and call chains up to the entry points and down to the leaves. entity: a name, "
    "Kind/name, or a substring when nothing matches exactly."
)

MAX_CHAINS = 20


class Args(ToolArgs):
    topology_file: str
    entity: str


class Result(ToolResult):
    entity: str
    matches: list[str]
    aliases: list[str] = []
    relationships_by_type: dict[str, dict[str, list[str]]] = {}
    backing_infrastructure: list[str] = []
    callers: list[str] = []
    callees: list[str] = []
    call_chains_to_root: list[list[str]] = []
    call_chains_to_leaf: list[list[str]] = []
    #: the topology's nodes by id (to name them as the original does)
    nodes: dict[str, dict[str, Any]] = Field(default_factory=dict, exclude=True)
    edges: list[tuple[str, str, str]] = Field(default_factory=list, exclude=True)

    def answer(self) -> Any:
        """The original's answer: names where it names, relations as one-line strings, chains
        as ``a -> b``; ``matches`` is added."""
        if not self.matches:
            known = [i for i, n in self.nodes.items() if n.get("kind") in ("App", "Service", "Pod")]
            return f"Error: Entity '{self.entity}' not found. Some available: {known[:20]}"
        focus = self.matches[0]
        info = self.nodes.get(focus, {})
        group = {focus, *self.aliases, *self.matches}
        label = lambda i: f"{self.nodes.get(i, {}).get('kind', '')}/{self._name(i)}"  # noqa: E731 - a one-line label used in the formatting below
        direct = {
            f"{label(s)} --{r}--> {label(t)}" for s, r, t in self.edges if s in group or t in group
        }
        by_type: dict[str, set[str]] = {}
        for s, r, t in self.edges:
            if s in group:
                by_type.setdefault(f"--{r}-->", set()).add(label(t))
            if t in group:
                by_type.setdefault(f"<--{r}--", set()).add(label(s))
        out: dict[str, Any] = {
            "entity": self._name(focus), "kind": info.get("kind"), "name": info.get("name"),
            "namespace": info.get("namespace"), "aliases": self.aliases,
            "direct_relationships": sorted(direct),
            "relationships_by_type": {k: sorted(v) for k, v in by_type.items()},
        }  # fmt: skip
        if self.backing_infrastructure:
            out["backing_infrastructure"] = self.backing_infrastructure
        out.update(
            callers=sorted({self._name(c) for c in self.callers}),
            callees=sorted({self._name(c) for c in self.callees}),
            call_chains_to_root=sorted({" -> ".join(map(self._name, c)) for c in self.call_chains_to_root}),
            call_chains_to_leaf=sorted({" -> ".join(map(self._name, c)) for c in self.call_chains_to_leaf}),
            matches=self.matches,
        )  # fmt: skip
        return out

    def _name(self, node_id: str) -> str:
        return self.nodes.get(node_id, {}).get("name") or node_id.split("/", 1)[-1]


def load_topology(path) -> dict[str, Any]:
    p = require_file(path, "the topology file (build it with build_topology)")
    try:
        doc = jsonsafe.load_file(p)
    except (OSError, ValueError) as exc:
        raise InputError(f"{p}: not a topology JSON file ({exc})") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("edges"), list):
        raise InputError(f"{p}: edges: missing (expected {{nodes, edges}} from build_topology)")
    return doc


def run(args: Args) -> Result:
    return analyse(load_topology(args.topology_file), args.entity)


def analyse(doc: dict[str, Any], entity: str) -> Result:
    """What the topology document (build_topology's {nodes, edges}) says about ``entity``."""
    ids = [n["id"] for n in doc.get("nodes", []) if isinstance(n, dict) and "id" in n]
    edges = [(e["source"], e["relation"], e["target"]) for e in doc["edges"]]
    want = entity.lower()
    matches = [i for i in ids if i.lower() == want or i.split("/", 1)[-1].lower() == want]
    if not matches:
        matches = [i for i in ids if want in i.lower()]
    if not matches:
        return Result(
            entity=entity, matches=[], warnings=[f"no node matches {entity!r}"],
            nodes={n["id"]: n for n in doc.get("nodes", []) if isinstance(n, dict) and "id" in n},
        )  # fmt: skip
    focus = set(matches)
    alias_of = _neighbours(edges, "is_alias", both=True)
    group = set(focus)
    for m in matches:
        group |= alias_of.get(m, set())
    by_type: dict[str, dict[str, list[str]]] = {}
    for s, r, t in edges:
        if s in group:
            by_type.setdefault(r, {"outgoing": [], "incoming": []})["outgoing"].append(t)
        if t in group:
            by_type.setdefault(r, {"outgoing": [], "incoming": []})["incoming"].append(s)
    calls = [(s, t) for s, r, t in edges if r in ("calls", "depends_on")]
    contains = [(s, t) for s, r, t in edges if r == "contains"]

    def expand(nodes: set[str]) -> set[str]:
        out = set(nodes)
        for n in nodes:
            out |= alias_of.get(n, set())
        return out

    callers = sorted({s for s, t in calls if t in group})
    callees = sorted({t for s, t in calls if s in group})
    infra = sorted(_closure(contains, group, up=True) | _closure(contains, group, up=False))
    return Result(
        entity=entity,
        matches=matches,
        aliases=sorted(group - focus),
        relationships_by_type={
            r: {k: sorted(set(v)) for k, v in d.items()} for r, d in by_type.items()
        },
        backing_infrastructure=infra,
        callers=callers,
        callees=callees,
        call_chains_to_root=_chains(calls, group, expand, up=True),
        call_chains_to_leaf=_chains(calls, group, expand, up=False),
        nodes={n["id"]: n for n in doc.get("nodes", []) if isinstance(n, dict) and "id" in n},
        edges=edges,
    )


def _neighbours(edges, relation: str, both: bool) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for s, r, t in edges:
        if r == relation:
            out.setdefault(s, set()).add(t)
            if both:
                out.setdefault(t, set()).add(s)
    return out


def _closure(pairs, start: set[str], up: bool) -> set[str]:
    seen: set[str] = set()
    queue = deque(start)
    while queue:
        n = queue.popleft()
        for s, t in pairs:
            nxt = s if up and t == n else t if not up and s == n else None
            if nxt and nxt not in seen and nxt not in start:
                seen.add(nxt)
                queue.append(nxt)
    return seen


def _chains(calls, group: set[str], expand, up: bool) -> list[list[str]]:
    """Simple paths through the call graph from the entity to every entry point (up) or leaf."""
    step: dict[str, set[str]] = {}
    for s, t in calls:
        a, b = (t, s) if up else (s, t)
        step.setdefault(a, set()).add(b)
    chains: list[list[str]] = []
    stack = [[n] for n in sorted(group) if n in step]
    while stack and len(chains) < MAX_CHAINS:
        path = stack.pop()
        nxt = [n for n in sorted(step.get(path[-1], ())) if n not in path]
        if not nxt:
            if len(path) > 1:
                chains.append(list(reversed(path)) if up else path)
            continue
        stack.extend(path + [n] for n in reversed(nxt))
    return chains


SPEC = ToolSpec(
    "topology_analysis", DESCRIPTION, Args, run, {"topology_file": "operational_topology.json"}
)
