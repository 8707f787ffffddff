"""k8s_spec_change_analysis: what changed in each object's spec between observations."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from itbench.errors import ItbenchError
from sre.snapshot import SourceKind, open_source
from sre.snapshot.layout import require_file
from sre.snapshot.sql import header_columns
from sre.tools._common import (
    EntityRef,
    ToolArgs,
    ToolResult,
    ToolSpec,
    match_entities,
    parse_time,
    window_warning,
)
from sre.tools._objects import (
    VersionHistory,
    changed_observations,
    deletions,
    diff,
    entities,
    entity_id,
    normalise,
    version_histories,
)

DESCRIPTION = (
    "Finds spec changes of Kubernetes objects across the periodic object snapshots: for each "
    "entity (namespace/Kind/name) the diffs between consecutive observations, ignoring fields "
    "that churn on their own (resourceVersion, managedFields, generation, uid, timestamps, "
    "status, conditions, pod IPs, revision and last-applied annotations). An object first seen "
    "inside the window is reported as created. Unlike the original, every observation is used as "
    "the baseline and the window only selects which changes to report, so a change before a late "
    "window start is compared correctly and a NetworkPolicy created in the window is found; "
    "bodies with empty strings or escaped quotes are read correctly. As the original, an object "
    "whose metadata.resourceVersion changed over its observations in the window (any write, a "
    "status-only one included) is reported with an entity_modified change (change "
    "'resource_version'), even when its spec did not change; one whose manifest shows a "
    "deletionTimestamp (in the window, or at any time when observed once in it) with a confirmed "
    "entity_removed change (change 'removed'); one a watch export reports DELETED (in the window) "
    "likewise, with source 'k8s_watch' and reason 'DELETED'; "
    "given a window, one whose creationTimestamp lies in it with an entity_added change (change "
    "'added'). "
    "k8_object_name: 'namespace/Kind/name', 'Kind/name' or 'name' (substring fallback)."
)


class Args(ToolArgs):
    k8s_objects_file: str
    k8_object_name: str | None = None
    start_time: str | None = None
    end_time: str | None = None
    max_changes_per_diff: int | None = None
    include_reference_spec: bool = True
    include_flat_change_items: bool = True
    limit: int | None = None
    offset: int = 0
    include_no_change: bool = False
    #: entity (default) or change_count, as the original sorts
    sort_by: Literal["entity", "change_count"] = "entity"
    #: accepted as the original does; ours always baselines on every observation and lets the
    #: window choose which changes to report
    time_basis: str | None = None
    lifecycle_inference: str | None = None
    lifecycle_scope: str | None = None
    removal_grace_period_sec: float | None = None
    removal_min_cycles: int | None = None


class Result(ToolResult):
    body: dict[str, Any]

    def answer(self) -> Any:
        return self.body


#: the changes read from an object's metadata (its creationTimestamp, resourceVersion,
#: deletionTimestamp), as the original reports them: not spec changes, so no flat change items
METADATA_CHANGES = frozenset({"added", "resource_version", "removed"})


def _utc(ts: datetime) -> str:
    return f"{ts}+00:00"


def _item(item: dict[str, Any]) -> dict[str, Any]:
    """A change item with the original's ``type`` (added, removed, changed) beside ours."""
    kind = {"modified": "changed"}.get(item["change"], item["change"])
    return {"path": item["path"], "type": kind, "old": item["old"], "new": item["new"],
            "inferred": False, "source": "spec_diff", "evidence": {}, "change": item["change"]}  # fmt: skip


def _k8s_time(ts: datetime) -> str:
    """The original's Kubernetes-style stamp for its metadata changes (whole seconds, Z)."""
    return ts.strftime("%Y-%m-%dT%H:%M:%SZ")


def _metadata_window(
    timestamp: str | None, from_timestamp: str | None, item: dict[str, Any]
) -> dict[str, Any]:
    """A change window holding one metadata change ``item``, as the original writes them."""
    return {
        "timestamp": timestamp, "from_timestamp": from_timestamp, "changes_truncated": False,
        "change_item_count": 1, "change_item_total": 1, "changes": [item],
        "change": item["change"],
    }  # fmt: skip


def _version_change(history: VersionHistory) -> dict[str, Any]:
    """The original's entity_modified change: the resourceVersion moved between the first and the
    last observation in the window. Not a spec change, so no flat change item (as the original)."""
    item = {
        "path": "metadata.resourceVersion", "type": "entity_modified",
        "old": history.versions[0], "new": history.versions[-1], "inferred": False,
        "source": "k8s_metadata",
        "evidence": {"resourceVersions": list(history.versions),
                     "observation_count": history.observation_count},
        "change": "resource_version",
    }  # fmt: skip
    return _metadata_window(_k8s_time(history.last_seen), _k8s_time(history.first_seen), item)


def _processed_layout(path: str) -> bool:
    """The processed objects layout (object_kind and object_name columns): there the original
    infers lifecycle from observation timing only, and reports no resourceVersion change."""
    header = header_columns(Path(path))
    return "object_kind" in header and "object_name" in header


def _removal(eid: str, deletion: str) -> dict[str, Any]:
    """The original's confirmed entity_removed change: an observation shows a deletionTimestamp,
    dated by it."""
    item = {
        "path": "entity", "type": "entity_removed", "old": eid, "inferred": False,
        "confirmed": True, "source": "k8s_metadata", "reason": "deletionTimestamp",
        "evidence": {"deletionTimestamp": deletion}, "change": "removed",
    }  # fmt: skip
    return _metadata_window(deletion, None, item)


def _watch_removal(eid: str, at: datetime, body: dict[str, Any]) -> dict[str, Any]:
    """A removal a watch export states outright (its DELETED event, kept in the snapshot's
    ``deletions`` table), in the original's confirmed entity_removed shape, dated by the event;
    the original cannot read a watch export, so ``source`` and ``reason`` say where ours read it."""
    stamp = (body.get("metadata") or {}).get("deletionTimestamp")
    item = {
        "path": "entity", "type": "entity_removed", "old": eid, "inferred": False,
        "confirmed": True, "source": "k8s_watch", "reason": "DELETED",
        "evidence": {"deletionTimestamp": stamp, "deleted_at": _k8s_time(at)}, "change": "removed",
    }  # fmt: skip
    return _metadata_window(_k8s_time(at), None, item)


def _creation_in(
    history: VersionHistory, start: datetime | None, end: datetime | None
) -> datetime | None:
    """When the object was made, by its own ``creationTimestamp``, if that falls inside a window
    the call gave (the original's metadata addition needs a bound); a stamp that is not a time
    adds nothing (the original cannot read it either)."""
    if not history.creation or (start is None and end is None):
        return None
    try:
        made = parse_time(history.creation, "creationTimestamp")
    except ItbenchError:
        return None
    return made if made is not None and _in(made, start, end) else None


def _addition(
    eid: str, made: datetime, start: datetime | None, end: datetime | None
) -> dict[str, Any]:
    """The original's entity_added change: the object's creationTimestamp is inside the window,
    dated by it. Not a spec change, so no flat change item (as the original)."""
    item = {
        "path": "entity", "type": "entity_added", "new": eid, "inferred": False,
        "source": "k8s_metadata", "change": "added",
        "evidence": {"creationTimestamp": _k8s_time(made),
                     "investigation_start": _k8s_time(start) if start else None,
                     "investigation_end": _k8s_time(end) if end else None},
    }  # fmt: skip
    return _metadata_window(_k8s_time(made), None, item)


def run(args: Args) -> Result:
    src = open_source(require_file(args.k8s_objects_file, "the objects file"), SourceKind.OBJECTS)
    start, end = parse_time(args.start_time, "start_time"), parse_time(args.end_time, "end_time")
    warnings = src.warnings()
    chosen = None
    if args.k8_object_name:
        known = entities(src)
        idx, loose = match_entities(EntityRef.parse(args.k8_object_name), known, in_entity_id=True)
        chosen = [known[i] for i in idx]
        if loose and chosen:
            warnings.append(f"no exact match for {args.k8_object_name!r}; matched by substring")
        if not chosen:
            warnings.append(f"no object matches {args.k8_object_name!r}")
    observed = changed_observations(src, chosen)
    first_ts = min((obs[0][0] for obs in observed.values()), default=None)
    last_seen = src.con.cursor().execute("SELECT max(ts) FROM data").fetchall()[0][0]
    outside = window_warning("the object snapshots", start, end, first_ts, last_seen)
    if outside:
        warnings.append(outside)
    cap = args.max_changes_per_diff
    raw = not _processed_layout(args.k8s_objects_file)
    histories = version_histories(src, start, end) if raw else {}
    removed = deletions(src)
    for key, (ts, body) in removed.items():
        if key not in observed and (chosen is None or key in chosen):
            observed[key] = [(ts, body, 1)]  # removed before any observation of it was exported
    results: list[dict[str, Any]] = []
    for (ns, kind, name), obs in observed.items():
        eid = entity_id(ns, kind, name)
        windows: list[dict[str, Any]] = []
        created_at = obs[0][0]
        created = first_ts is not None and created_at > first_ts and _in(created_at, start, end)
        if created and first_ts is not None:  # first seen after the snapshots began, in the window
            windows.append(
                {"timestamp": _utc(created_at), "from_timestamp": _utc(first_ts), "changes": [],
                 "changes_truncated": False, "change_item_count": 0, "change_item_total": 0,
                 "change": "created"}
            )  # fmt: skip
        history = histories.get((ns, kind, name))
        made = _creation_in(history, start, end) if history is not None else None
        if made is not None:
            windows.append(_addition(eid, made, start, end))
        if (
            history is not None
            and history.deletion
            and (
                # the original filters an object's changes by the window only when it has two
                # observations in it to diff: one seen once there reports its deletionTimestamp
                # whatever the stamp
                history.observation_count < 2 or _stamp_in(history.deletion, start, end)
            )
        ):
            windows.append(_removal(eid, history.deletion))
        elif (gone := removed.get((ns, kind, name))) is not None and _in(gone[0], start, end):
            windows.append(_watch_removal(eid, *gone))
        if history is not None and history.changed:
            windows.append(_version_change(history))
        prev, prev_ts = normalise(obs[0][1]), obs[0][0]
        for ts, body, _ in obs[1:]:
            cur = normalise(body)
            items = [_item(i) for i in diff(prev, cur)]
            prev, was = cur, prev_ts
            prev_ts = ts
            if not items or not _in(ts, start, end):
                continue
            kept = items[:cap] if cap else items
            windows.append(
                {"timestamp": _utc(ts), "from_timestamp": _utc(was), "changes": kept,
                 "changes_truncated": len(kept) < len(items), "change_item_count": len(kept),
                 "change_item_total": len(items), "change": "modified"}
            )  # fmt: skip
        if not windows and not args.include_no_change:
            continue
        count = obs[0][2]
        last = src.con.cursor().execute(
            "SELECT max(ts) FROM data WHERE namespace IS NOT DISTINCT FROM ? AND kind = ? "
            "AND name = ?", [ns, kind, name],
        ).fetchall()[0][0] or obs[-1][0]  # fmt: skip
        entry: dict[str, Any] = {
            "entity": eid, "kind": kind, "namespace": ns or "", "name": name,
            "time_basis": "observation", "first_timestamp": _utc(created_at),
            "last_timestamp": _utc(last), "observation_count": count,
            "duration_sec": (last - created_at).total_seconds(), "change_count": len(windows),
            "changes": windows,
        }  # fmt: skip
        if args.include_reference_spec:
            entry["reference_spec"] = {"timestamp": _utc(created_at), "spec": normalise(obs[0][1])}
        if args.include_flat_change_items:
            flat = [
                {"timestamp": w["timestamp"], "from_timestamp": w["from_timestamp"], **i}
                for w in windows if w["change"] not in METADATA_CHANGES for i in w["changes"]
            ]  # fmt: skip
            entry["change_items"] = flat
            entry["change_item_count"] = len(flat)
        meta = obs[-1][1].get("metadata") or {}
        entry["lifecycle"] = {
            "inference_mode": "first_observation", "inferred_added": created,
            "inferred_removed": False,
            "metadata_added": made is not None if history is not None else created,
            "metadata_removed": any(
                w["change"] == "removed" for w in windows
            ) or (history is not None and bool(history.deletion)),
            "metadata_modified": history is not None and history.changed,
            "creationTimestamp": meta.get("creationTimestamp"),
            "resourceVersions": list(history.versions) if history else (
                [str(meta["resourceVersion"])] if meta.get("resourceVersion") else []),
        }  # fmt: skip
        results.append(entry)
    if args.sort_by == "change_count":
        results.sort(key=lambda e: (-e["change_count"], e["entity"].lower()))
    else:
        results.sort(key=lambda e: e["entity"].lower())
    total = len(results)
    page = results[args.offset :]
    page = page[: args.limit] if args.limit else page
    items_total = lambda es: sum(w["change_item_total"] for e in es for w in e["changes"])  # noqa: E731 - a one-line total used twice below
    entities_map = {
        e["entity"]: {
            "kind": e["kind"], "namespace": e["namespace"], "name": e["name"],
            "first_timestamp": e["first_timestamp"], "last_timestamp": e["last_timestamp"],
            "observation_count": e["observation_count"], "duration_sec": e["duration_sec"],
            "change_event_count": e["change_count"], "reference_spec": e.get("reference_spec"),
            "lifecycle": e["lifecycle"],
            "changes_detected": {
                f"{w['timestamp']} (from {w['from_timestamp']})#{i}": w
                for i, w in enumerate(e["changes"])
            },
        }
        for e in page
    }  # fmt: skip
    document: dict[str, Any] = {}
    if outside and not results:
        document["error"] = outside  # where the original says "No data after applying time filters"
    document.update({
        "reference_spec_file": args.k8s_objects_file, "input_format": "raw_otel",
        "sort_by": args.sort_by, "total_entities_observed": len(observed),
        "num_entities_with_changes": total, "entities_with_changes_returned": len(page),
        "entity_order": [e["entity"] for e in page],
        "total_change_events": sum(e["change_count"] for e in results),
        "returned_change_events": sum(e["change_count"] for e in page),
        "total_change_item_total": items_total(results),
        "returned_change_item_total": items_total(page),
        "total_entities": total, "returned_count": len(page), "offset": args.offset,
        "limit": args.limit, "entities_with_changes": page, "entities": entities_map,
    })  # fmt: skip
    return Result(body=document, warnings=warnings)


def _stamp_in(stamp: str, start: datetime | None, end: datetime | None) -> bool:
    """Whether a manifest's own time (a deletionTimestamp) falls in the window, as the original
    filters its changes; one that is not a time is kept (the original cannot place it either)."""
    try:
        at = parse_time(stamp, "deletionTimestamp")
    except ItbenchError:
        return True
    return at is None or _in(at, start, end)


def _in(ts, start, end) -> bool:
    return (start is None or ts >= start) and (end is None or ts <= end)


SPEC = ToolSpec(
    "k8s_spec_change_analysis", DESCRIPTION, Args, run, {"k8s_objects_file": "k8s_objects_raw.tsv"}
)
