"""get_context_contract: one entity's whole context, from every source the snapshot has."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from itbench.errors import ItbenchError
from sre.snapshot.layout import SnapshotLayout
from sre.tools import (
    alert_summary,
    event_analysis,
    get_k8_spec,
    get_metric_anomalies,
    get_trace_error_tree,
    log_analysis,
    topology_analysis,
)
from sre.tools._common import EntityRef, ToolArgs, ToolResult, ToolSpec
from sre.tools._derived_topology import derive_topology

DESCRIPTION = (
    "Gathers the context of one K8s entity from every source in the snapshot directory in one "
    "call: its latest spec, its events, the alerts on it, its metric anomalies, the trace paths "
    "through it and its log patterns. Page 1 is the entity; pages 2.. are its dependencies from "
    "the topology (deps_per_page each). Files are found by glob (*events*.tsv, *objects*.tsv, "
    "*traces*.tsv, *logs*.tsv, alerts/, metrics/, *topology*.json). Unlike the original, a "
    "snapshot without a topology file still has dependencies: the topology is derived as "
    "build_topology does (ownership and Service aliases from the objects) with the calls observed "
    "in the traces, and topology_source says which. A missing or unreadable source is named in "
    "missing_sources / source_errors and the rest still answer."
)


class Args(ToolArgs):
    k8_object: str
    snapshot_dir: str
    topology_file: str | None = None
    start_time: str | None = None
    end_time: str | None = None
    page: int = 1
    deps_per_page: int = 3


class Result(ToolResult):
    entity: str
    page: int
    total_pages: int
    dependencies: list[str]
    #: the topology file read, or "derived from ..." the snapshot files it was derived from
    topology_source: str | None = None
    contexts: list[dict[str, Any]]
    missing_sources: list[str]
    source_errors: dict[str, str]


def run(args: Args) -> Result:
    layout = SnapshotLayout(Path(args.snapshot_dir))
    missing: list[str] = []
    errors: dict[str, str] = {}
    topology = Path(args.topology_file) if args.topology_file else layout.topology
    entity = EntityRef.parse(args.k8_object).name
    dependencies: list[str] = []
    topology_source: str | None = None
    topology_warnings: list[str] = []
    try:
        if topology.is_file():
            doc = topology_analysis.load_topology(topology)
            topology_source = str(topology)
        else:
            # no topology file: derive one, as build_topology would, from what the snapshot has
            derived_from = [p for p in (layout.objects, layout.traces) if p.is_file()]
            if args.topology_file or not derived_from:
                missing.append(str(topology))
            doc, topology_warnings = derive_topology(layout.objects, layout.traces)
            if derived_from:
                topology_source = "derived from " + ", ".join(p.name for p in derived_from)
        dependencies = topology_analysis.analyse(doc, entity).callees
    except ItbenchError as exc:
        errors["topology"] = str(exc)
    pages = 1 + -(-len(dependencies) // max(args.deps_per_page, 1))
    if args.page <= 1:
        targets = [args.k8_object]
    else:
        first = (args.page - 2) * args.deps_per_page
        targets = [d.split("/", 1)[-1] for d in dependencies[first : first + args.deps_per_page]]
    contexts = [_context(t, layout, args, missing, errors) for t in targets]
    return Result(
        entity=args.k8_object, page=args.page, total_pages=pages, dependencies=dependencies,
        topology_source=topology_source, contexts=contexts, missing_sources=sorted(set(missing)),
        source_errors=errors, warnings=topology_warnings,
    )  # fmt: skip


def _context(
    target: str, layout: SnapshotLayout, args: Args, missing: list[str], errors: dict[str, str]
) -> dict[str, Any]:
    ref = EntityRef.parse(target)
    name = ref.name
    out: dict[str, Any] = {"entity": target}

    def source(key: str, path: Path, call) -> None:
        if not path.exists():
            missing.append(str(path))
            return
        try:
            out[key] = call(str(path)).model_dump(by_alias=True, exclude={"warnings"})
        except ItbenchError as exc:
            errors[key] = str(exc)

    source(
        "spec",
        layout.objects,
        lambda p: get_k8_spec.run(get_k8_spec.Args(k8s_objects_file=p, k8_object_name=target)),
    )
    source(
        "events", layout.events,
        lambda p: event_analysis.run(event_analysis.Args(
            events_file=p, filters={"deployment": name} if not ref.kind or ref.kind in ("Deployment", "Service") else {"object_name": name},
            agg="list", group_by=["event_kind", "reason"], start_time=args.start_time, end_time=args.end_time, limit=20,
        )),
    )  # fmt: skip

    def alerts(p: str):
        summary = alert_summary.run(
            alert_summary.Args(
                base_dir=p, start_time=args.start_time, end_time=args.end_time, limit=0
            )
        )
        summary.alerts = [a for a in summary.alerts if name.lower() in a.entity.lower()]
        return summary

    source("alerts", layout.alerts, alerts)
    source(
        "metric_anomalies", layout.metrics,
        lambda p: get_metric_anomalies.run(get_metric_anomalies.Args(
            k8_object_name=name, base_dir=p, start_time=args.start_time, end_time=args.end_time, raw_content=False,
        )),
    )  # fmt: skip
    source(
        "traces",
        layout.traces,
        lambda p: get_trace_error_tree.run(
            get_trace_error_tree.Args(trace_file=p, service_name=name)
        ),
    )
    source(
        "logs", layout.logs,
        lambda p: log_analysis.run(log_analysis.Args(
            logs_file=p, k8_object=target, start_time=args.start_time, end_time=args.end_time, max_patterns=10,
        )),
    )  # fmt: skip
    return out


SPEC = ToolSpec("get_context_contract", DESCRIPTION, Args, run, {"snapshot_dir": "."})
