"""get_context_contract: one entity's whole context, from every source the snapshot has."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import Field

from itbench.errors import InputError, ItbenchError
from sre.snapshot.layout import SnapshotLayout
from sre.tools import (
    alert_summary,
    event_analysis,
    get_k8_spec,
    get_metric_anomalies,
    get_trace_error_tree,
    k8s_spec_change_analysis,
    log_analysis,
    topology_analysis,
)
from sre.tools._common import EntityRef, ToolArgs, ToolResult, ToolSpec
from sre.tools._derived_topology import derive_topology

#: a spec longer than this (as JSON text) also comes as the original's spec_preview
SPEC_PREVIEW_CHARS = 2000
#: the suffixes the original strips from a name to try again ("cart-service" -> "cart")
SERVICE_SUFFIXES = ("-service", "_service", "-svc", "_svc")

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
    #: per context (the entity on page 1, its dependencies after): each source's answer, in the
    #: original tool's shape
    contexts: list[dict[str, Any]]
    missing_sources: list[str]
    source_errors: dict[str, str]
    #: the original's answer (the head of it: entity, files, pagination ...)
    body: dict[str, Any] = Field(default_factory=dict, exclude=True)

    def answer(self) -> Any:
        return self.body


def _files(layout: SnapshotLayout, topology: Path | None) -> dict[str, str | None]:
    def found(path: Path) -> str | None:
        return str(path) if path.exists() else None

    return {
        "events_file": found(layout.events), "objects_file": found(layout.objects),
        "traces_file": found(layout.traces), "logs_file": found(layout.logs),
        "alerts_dir": found(layout.alerts), "metrics_dir": found(layout.metrics),
        "topology_file": found(topology) if topology else None,
    }  # fmt: skip


def run(args: Args) -> Result:
    layout = SnapshotLayout(Path(args.snapshot_dir))
    missing: list[str] = []
    errors: dict[str, str] = {}
    topology = Path(args.topology_file) if args.topology_file else layout.topology
    ref = EntityRef.parse(args.k8_object)
    entity = ref.name
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
    per_page = max(args.deps_per_page, 1)
    pages = 1 + -(-len(dependencies) // per_page)
    body: dict[str, Any] = {
        "entity": args.k8_object,
        "identifier_format": "namespace/kind/name" if ref.namespace else "kind/name" if ref.kind else "name",
        "kind": ref.kind, "namespace": ref.namespace,
        "name": f"{ref.namespace}/{ref.name}" if ref.namespace else ref.name,
        "page": args.page, "snapshot_dir": args.snapshot_dir,
        "time_window": {"start": args.start_time, "end": args.end_time},
        "files_found": _files(layout, topology),
        "pagination": {"current_page": args.page, "total_pages": pages,
                       "total_dependencies": len(dependencies), "deps_per_page": args.deps_per_page,
                       "all_pages": args.page == 0},
    }  # fmt: skip
    ambiguity = get_k8_spec.ambiguity(ref, args.k8_object)
    if ambiguity:
        body["identifier_warning"] = ambiguity
    contexts: list[dict[str, Any]] = []
    notes: list[str] = []
    if args.page <= 1:
        main = _context(args.k8_object, layout, args, missing, errors, notes)
        contexts.append(main)
        body["context_type"] = "main_entity"
        body.update({k: v for k, v in main.items() if k != "entity"})
        body["dependencies"] = dependencies
        targets = dependencies if args.page == 0 else []
        if targets:
            body["context_type"] = "all"
    else:
        body["context_type"] = "dependencies"
        first = (args.page - 2) * per_page
        targets = dependencies[first : first + per_page]
        if not targets:
            body["message"] = f"No dependencies on page {args.page}. Total pages: {pages}"
        else:
            # the original reads dependencies only from a topology file: where ours has more
            # (derived ones, or a longer list) its page is the empty one, answered by 'message'
            body["message"] = (
                f"Dependencies {first + 1}-{first + len(targets)} of {len(dependencies)} on page "
                f"{args.page}. Total pages: {pages}"
            )
            body["dependencies_on_page"] = targets
    if targets:
        body["dependency_context"] = {}
        for dep in targets:
            ctx = _context(dep.split("/", 1)[-1], layout, args, missing, errors, notes)
            contexts.append(ctx)
            body["dependency_context"][dep] = ctx
    body.update(
        topology_source=topology_source, missing_sources=sorted(set(missing)),
        source_errors=errors,
    )  # fmt: skip
    return Result(
        entity=args.k8_object, page=args.page, total_pages=pages, dependencies=dependencies,
        topology_source=topology_source, contexts=contexts, missing_sources=sorted(set(missing)),
        source_errors=errors, warnings=topology_warnings + list(dict.fromkeys(notes)), body=body,
    )  # fmt: skip


def _context(
    target: str,
    layout: SnapshotLayout,
    args: Args,
    missing: list[str],
    errors: dict[str, str],
    notes: list[str],
) -> dict[str, Any]:
    """One entity's context under the original's keys: events, alerts, trace_errors,
    metric_anomalies, log_patterns, k8s_spec, spec_changes (each source's own answer)."""
    ref = EntityRef.parse(target)
    name = ref.name
    out: dict[str, Any] = {"entity": target}

    def source(key: str, path: Path, call) -> None:
        if not path.exists():
            missing.append(str(path))
            return
        try:
            got = call(str(path))
        except ItbenchError as exc:
            errors[key] = str(exc)
            out[f"{key}_error"] = str(exc)
            return
        if isinstance(got, ToolResult):  # a tool's own answer, its warnings kept
            notes.extend(f"{key}: {w}" for w in got.warnings)
            got = got.answer()
        out[key] = got

    def events(p: str) -> dict[str, Any]:
        by = (
            {"deployment": name}
            if not ref.kind or ref.kind in ("Deployment", "Service", "App")
            else {"object_name": name}
        )
        result = event_analysis.run(event_analysis.Args(
            events_file=p, filters=by, start_time=args.start_time, end_time=args.end_time,
        ))  # fmt: skip
        notes.extend(f"events: {w}" for w in result.warnings)
        table = result.answer()
        return {"count": table["total_count"], "items": table, "truncated": False}

    def alerts(p: str) -> dict[str, Any]:
        every = alert_summary.run(
            alert_summary.Args(
                base_dir=p, start_time=args.start_time, end_time=args.end_time, limit=0
            )
        ).answer()
        related = [a for a in every if name.lower() in str(a["entity"]).lower()]
        return {"total_alerts": len(every), "related_to_entity": len(related),
                "items": related[:10], "truncated": len(related) > 10}  # fmt: skip

    def spec(p: str) -> dict[str, Any]:
        got = get_k8_spec.run(get_k8_spec.Args(k8s_objects_file=p, k8_object_name=target)).answer()
        if not got.get("found"):
            raise InputError(got.get("error", "Resource not found"))
        if "entities" in got:  # ambiguous: the first entity, as the original's latest view
            eid, first = next(iter(got["entities"].items()))
            got = {**first, "entity_id": eid, "timestamp": first["last_timestamp"],
                   "spec": first["latest_spec"]}  # fmt: skip
        keys = ("entity_id", "kind", "namespace", "name", "timestamp", "observation_count", "spec")
        out = {k: got.get(k) for k in keys}
        text = json.dumps(out["spec"] or {})
        if len(text) > SPEC_PREVIEW_CHARS:
            # the original answers a long spec as spec_truncated + spec_preview instead of spec;
            # ours keeps the whole spec and adds the original's two keys, so either client reads it
            out.update(spec_truncated=True, spec_preview=text[:SPEC_PREVIEW_CHARS] + "...")
        return out

    def traces(p: str) -> dict[str, Any]:
        # the original tries the name, then the name without a service suffix, and finds only
        # a service on a whole trace's chain; when none is, it answers its "no trace data"
        # keys, which ours adds to what it found under its own (span paths, looser names)
        variants = _name_variants(name)
        results = [
            get_trace_error_tree.run(get_trace_error_tree.Args(
                trace_file=p, service_name=v, pivot_time=args.start_time))
            for v in variants
        ]  # fmt: skip
        exact = [r for r in results if r.original_finds_service]
        chosen = (exact or results)[0]
        notes.extend(f"trace_errors: {w}" for w in chosen.warnings)
        got = chosen.answer()
        if exact:
            return got
        message = "No trace data found for entity"
        if got["paths"] or got["all_paths"]:
            message += (
                " as a service with spans of its own on a trace's chain (the original's lookup); "
                "the paths through it ours finds are under all_paths and paths"
            )
        return {"message": message, "variants_tried": variants, **got}

    source("events", layout.events, events)
    source("alerts", layout.alerts, alerts)
    source("trace_errors", layout.traces, traces)
    source(
        "metric_anomalies", layout.metrics,
        lambda p: get_metric_anomalies.run(get_metric_anomalies.Args(
            k8_object_name=name, base_dir=p, start_time=args.start_time, end_time=args.end_time, raw_content=False,
        )),
    )  # fmt: skip
    source(
        "log_patterns", layout.logs,
        lambda p: log_analysis.run(log_analysis.Args(
            logs_file=p, k8_object=target, start_time=args.start_time, end_time=args.end_time, max_patterns=10,
        )),
    )  # fmt: skip
    source("k8s_spec", layout.objects, spec)
    source(
        "spec_changes", layout.objects,
        lambda p: k8s_spec_change_analysis.run(k8s_spec_change_analysis.Args(
            k8s_objects_file=p, k8_object_name=target, start_time=args.start_time,
            end_time=args.end_time)),
    )  # fmt: skip
    return _as_the_original_when_empty(out)


def _name_variants(name: str) -> list[str]:
    """The names the original looks a service up under: the name lowercased, then without a
    service suffix ("cart-service" -> "cart")."""
    base = name.lower()
    return [base] + [base[: -len(s)] for s in SERVICE_SUFFIXES if base.endswith(s)]


def _as_the_original_when_empty(out: dict[str, Any]) -> dict[str, Any]:
    """A source that holds nothing on the entity, in the original's words: no metric anomalies
    key, a log_patterns message."""
    if isinstance(out.get("metric_anomalies"), str):  # "No metric files found for ..."
        del out["metric_anomalies"]
    logs = out.get("log_patterns")
    if isinstance(logs, dict) and not (logs.get("total_logs") or logs.get("total_count")):
        out["log_patterns"] = {
            "total_logs": 0,
            "message": "No logs found for entity in time window",
        }
    return out


SPEC = ToolSpec("get_context_contract", DESCRIPTION, Args, run, {"snapshot_dir": "."})
