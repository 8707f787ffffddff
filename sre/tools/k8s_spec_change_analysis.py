"""k8s_spec_change_analysis: what changed in each object's spec between observations."""

from __future__ import annotations

from typing import Any

from sre.snapshot import SourceKind, open_source
from sre.snapshot.layout import require_file
from sre.tools._common import (
    EntityRef,
    ToolArgs,
    ToolResult,
    ToolSpec,
    iso,
    match_entities,
    parse_time,
)
from sre.tools._objects import changed_observations, diff, entities, entity_id, normalise

DESCRIPTION = (
    "Finds spec changes of Kubernetes objects across the periodic object snapshots: for each "
    "entity (namespace/Kind/name) the diffs between consecutive observations, ignoring fields "
    "that churn on their own (resourceVersion, managedFields, generation, uid, timestamps, "
    "status, conditions, pod IPs, revision and last-applied annotations). An object first seen "
    "inside the window is reported as created. Unlike the original, every observation is used as "
    "the baseline and the window only selects which changes to report, so a change before a late "
    "window start is compared correctly and a NetworkPolicy created in the window is found; "
    "bodies with empty strings or escaped quotes are read correctly. "
    "k8_object_name: 'namespace/Kind/name', 'Kind/name' or 'name' (substring fallback)."
)


class Args(ToolArgs):
    k8s_objects_file: str
    k8_object_name: str | None = None
    start_time: str | None = None
    end_time: str | None = None
    max_changes_per_diff: int = 20
    include_reference_spec: bool = False
    include_flat_change_items: bool = True
    limit: int = 50
    offset: int = 0
    include_no_change: bool = False


class Result(ToolResult):
    entities: dict[str, dict[str, Any]]
    entities_with_changes: list[str]
    totals: dict[str, int]


def run(args: Args) -> Result:
    src = open_source(require_file(args.k8s_objects_file, "the objects file"), SourceKind.OBJECTS)
    start, end = parse_time(args.start_time, "start_time"), parse_time(args.end_time, "end_time")
    warnings = src.warnings()
    chosen = None
    if args.k8_object_name:
        known = entities(src)
        idx, loose = match_entities(EntityRef.parse(args.k8_object_name), known)
        chosen = [known[i] for i in idx]
        if loose and chosen:
            warnings.append(f"no exact match for {args.k8_object_name!r}; matched by substring")
    observed = changed_observations(src, chosen)
    first_ts = min((obs[0][0] for obs in observed.values()), default=None)
    report: dict[str, dict[str, Any]] = {}
    with_changes: list[str] = []
    total_changes = 0
    for (ns, kind, name), obs in observed.items():
        eid = entity_id(ns, kind, name)
        changes = []
        created_at = obs[0][0]
        # first seen after the snapshot began and inside the window: it was created then
        if first_ts is not None and created_at > first_ts and _in(created_at, start, end):
            changes.append({"timestamp": iso(created_at), "change": "created", "item_count": 0})
        prev = normalise(obs[0][1])
        for ts, body, _ in obs[1:]:
            cur = normalise(body)
            items = diff(prev, cur)
            prev = cur
            if not items or not _in(ts, start, end):
                continue
            entry: dict[str, Any] = {
                "timestamp": iso(ts),
                "change": "modified",
                "item_count": len(items),
            }
            if args.include_flat_change_items:
                entry["items"] = items[: args.max_changes_per_diff]
                entry["truncated"] = len(items) > args.max_changes_per_diff
            changes.append(entry)
        if not changes and not args.include_no_change:
            continue
        info: dict[str, Any] = {
            "namespace": ns, "kind": kind, "name": name,
            "observations": obs[0][2], "first_seen": iso(obs[0][0]),
            "changes_detected": len(changes), "changes": changes,
        }  # fmt: skip
        if args.include_reference_spec:
            info["reference_spec"] = normalise(obs[0][1]).get("spec")
        report[eid] = info
        if changes:
            with_changes.append(eid)
            total_changes += len(changes)
    ids = sorted(report, key=lambda e: (-report[e]["changes_detected"], e))
    page = ids[args.offset : args.offset + args.limit] if args.limit else ids[args.offset :]
    return Result(
        entities={e: report[e] for e in page},
        entities_with_changes=[e for e in ids if e in with_changes],
        totals={
            "entities_seen": len(observed),
            "entities_with_changes": len(with_changes),
            "changes": total_changes,
            "returned": len(page),
        },
        warnings=warnings,
    )


def _in(ts, start, end) -> bool:
    return (start is None or ts >= start) and (end is None or ts <= end)


SPEC = ToolSpec(
    "k8s_spec_change_analysis", DESCRIPTION, Args, run, {"k8s_objects_file": "k8s_objects_raw.tsv"}
)
