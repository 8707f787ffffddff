"""build_topology: an operational graph from the app architecture and the observed objects."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from itbench import jsonsafe
from itbench.errors import InputError, OutputError
from sre.snapshot import IndexedSource, SourceKind, open_source
from sre.snapshot.layout import require_file
from sre.tools._common import ToolArgs, ToolResult, ToolSpec

DESCRIPTION = (
    "Builds an operational topology graph from the application architecture JSON and the "
    "Kubernetes objects, and writes it to output_file: nodes {id 'Kind/name', kind, name, "
    "namespace} and edges {source, relation, target} with relation contains (Namespace > "
    "Deployment/StatefulSet/DaemonSet > ReplicaSet > Pod, from ownerReferences), is_alias "
    "(a Service and the workload its selector picks), calls (architecture dependencies between "
    "services) and depends_on (a service on infrastructure: caches, queues, databases). Unlike "
    "the original it reads raw OTel object rows (the Body JSON) as well as processed files, so a "
    "raw snapshot does not give an empty topology. Build once per snapshot, then use "
    "topology_analysis."
)

WORKLOADS = {"Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "CronJob"}


class Args(ToolArgs):
    arch_file: str
    k8s_objects_file: str
    output_file: str


class Result(ToolResult):
    output_file: str
    node_count: int
    edge_count: int
    relations: dict[str, int]
    kinds: dict[str, int] = {}

    def answer(self) -> Any:
        """The original's answer: a Markdown summary of what was written."""
        text = f"Topology written to {self.output_file}\n\n"
        text += f"**Nodes:** {self.node_count}\n**Edges:** {self.edge_count}\n\n## Node Types\n"
        for kind, n in sorted(self.kinds.items(), key=lambda kv: -kv[1]):
            text += f"- {kind}: {n}\n"
        text += "\n## Edge Types\n"
        for rel, n in sorted(self.relations.items(), key=lambda kv: -kv[1]):
            text += f"- {rel}: {n}\n"
        return text


class _Graph(BaseModel):
    nodes: dict[str, dict[str, Any]] = {}
    edges: set[tuple[str, str, str]] = set()

    def node(self, kind: str, name: str, namespace: str | None) -> str:
        nid = f"{kind}/{name}"
        self.nodes.setdefault(nid, {"id": nid, "kind": kind, "name": name, "namespace": namespace})
        return nid

    def edge(self, source: str, relation: str, target: str) -> None:
        if source != target:
            self.edges.add((source, relation, target))


class ObjectGraph(_Graph):
    """The graph the objects alone give, with what the call edges are attached by."""

    services: dict[str, dict[str, Any]] = {}
    workloads_by_ns: dict[str | None, list[dict[str, Any]]] = {}

    def service_node(self, name: str) -> str:
        """The node of a service called ``name`` in the architecture or in the traces: the
        Service of that name ('checkout-service' and 'checkout' differ by a suffix), else a
        Service node of its own in the application's namespace."""
        for candidate in (name, name.removesuffix("-service"), name.removesuffix("service")):
            if candidate in self.services:
                return f"Service/{candidate}"
        return self.node("Service", name, next(iter(self.workloads_by_ns), None))

    def document(self) -> dict[str, Any]:
        edges = [{"source": s, "relation": r, "target": t} for s, r, t in sorted(self.edges)]
        return {"nodes": sorted(self.nodes.values(), key=lambda n: n["id"]), "edges": edges}


def object_graph(src: IndexedSource | None) -> ObjectGraph:
    """contains (ownerReferences, namespaces) and is_alias (Service selector) edges from the
    latest observation of every object; an empty graph when there is no objects source."""
    g = ObjectGraph()
    if src is None:
        return g
    latest = (
        src.con.cursor()
        .execute("SELECT arg_max(body, (ts, version)) FROM data GROUP BY namespace, kind, name")
        .fetchall()
    )
    for obj in (json.loads(b) for (b,) in latest):
        kind, meta = obj.get("kind"), obj.get("metadata") or {}
        name, ns = meta.get("name"), meta.get("namespace")
        if not kind or not name:
            continue
        nid = g.node(kind, name, ns)
        if ns:
            g.edge(g.node("Namespace", ns, None), "contains", nid)
        for owner in meta.get("ownerReferences") or []:
            if owner.get("kind") and owner.get("name"):
                g.edge(g.node(owner["kind"], owner["name"], ns), "contains", nid)
        if kind == "Service":
            g.services[name] = obj
        if kind in WORKLOADS - {"ReplicaSet"}:
            g.workloads_by_ns.setdefault(ns, []).append(obj)
    for name, svc in g.services.items():
        selector = (svc.get("spec") or {}).get("selector") or {}
        if not selector:
            continue
        ns = (svc.get("metadata") or {}).get("namespace")
        for w in g.workloads_by_ns.get(ns, []):
            tmpl = (((w.get("spec") or {}).get("template") or {}).get("metadata") or {}).get(
                "labels"
            ) or {}
            if all(tmpl.get(k) == v for k, v in selector.items()):
                g.edge(f"Service/{name}", "is_alias", f"{w['kind']}/{w['metadata']['name']}")
    return g


def run(args: Args) -> Result:
    arch_path = require_file(args.arch_file, "the architecture file")
    try:
        arch = jsonsafe.load_file(arch_path)
    except (OSError, ValueError) as exc:
        raise InputError(f"{arch_path}: not a JSON architecture file ({exc})") from None
    src = open_source(require_file(args.k8s_objects_file, "the objects file"), SourceKind.OBJECTS)
    g = object_graph(src)
    comps = arch.get("components") or {}
    infra = {i.get("name") for i in comps.get("infrastructure") or [] if isinstance(i, dict)}
    for dep in arch.get("dependencies") or []:
        if not isinstance(dep, dict) or not dep.get("source") or not dep.get("target"):
            continue
        relation = "depends_on" if dep["target"] in infra else "calls"
        g.edge(g.service_node(dep["source"]), relation, g.service_node(dep["target"]))
    doc = g.document()
    edges = doc["edges"]
    out = Path(args.output_file)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(doc, indent=1), encoding="utf-8")
    except OSError as exc:
        raise OutputError(f"{out}: cannot write the topology ({exc.strerror})") from None
    relations: dict[str, int] = {}
    for e in edges:
        relations[e["relation"]] = relations.get(e["relation"], 0) + 1
    return Result(
        output_file=str(out), node_count=len(doc["nodes"]), edge_count=len(edges),
        relations=relations, warnings=src.warnings(),
        kinds=dict(Counter(str(n.get("kind", "Unknown")) for n in doc["nodes"])),
    )  # fmt: skip


SPEC = ToolSpec(
    "build_topology", DESCRIPTION, Args, run,
    {"k8s_objects_file": "k8s_objects_raw.tsv", "output_file": "operational_topology.json"},
)  # fmt: skip
