"""get_k8_spec: the latest observed spec of an object."""

from __future__ import annotations

import json
from typing import Any

from sre.snapshot import SourceKind, open_source
from sre.snapshot.layout import require_file
from sre.tools._common import EntityRef, ToolArgs, ToolResult, ToolSpec, iso, match_entities
from sre.tools._objects import entities, entity_id

DESCRIPTION = (
    "Returns the latest observed spec of a Kubernetes object from the object snapshots, grouped by "
    "entity (namespace/Kind/name) when the name is ambiguous. k8_object_name: "
    "'namespace/Kind/name' (preferred), 'Kind/name' or 'name'; a substring match is used only "
    "when nothing matches exactly, and the answer says so (matched_by)."
)


class Args(ToolArgs):
    k8s_objects_file: str
    k8_object_name: str
    return_all_observations: bool = False
    include_metadata: bool = False


class Result(ToolResult):
    query: str
    matched_by: str
    entities: dict[str, dict[str, Any]]


def run(args: Args) -> Result:
    src = open_source(require_file(args.k8s_objects_file, "the objects file"), SourceKind.OBJECTS)
    known = entities(src)
    idx, loose = match_entities(EntityRef.parse(args.k8_object_name), known)
    out: dict[str, dict[str, Any]] = {}
    cur = src.con.cursor()
    for i in idx:
        ns, kind, name = known[i]
        rows = cur.execute(
            "SELECT ts, body FROM data WHERE namespace IS NOT DISTINCT FROM ? AND kind = ? AND name = ? "
            "ORDER BY ts DESC" + ("" if args.return_all_observations else " LIMIT 1"),
            [ns, kind, name],
        ).fetchall()
        views = [_view(json.loads(body), ts, args.include_metadata) for ts, body in rows]
        entry: dict[str, Any] = {"namespace": ns, "kind": kind, "name": name, **views[0]}
        if args.return_all_observations:
            entry["observations"] = views
        out[entity_id(ns, kind, name)] = entry
    warnings = src.warnings()
    if not idx:
        warnings.append(f"no object matches {args.k8_object_name!r}")
    return Result(
        query=args.k8_object_name,
        matched_by="none" if not idx else "substring" if loose else "exact",
        entities=out,
        warnings=warnings,
    )


def _view(obj: dict[str, Any], ts, include_metadata: bool) -> dict[str, Any]:
    view: dict[str, Any] = {"observed_at": iso(ts)}
    for key in ("spec", "data", "rules", "subjects", "roleRef"):
        if key in obj:
            view[key] = obj[key]
    if include_metadata:
        view["metadata"] = obj.get("metadata")
        view["status"] = obj.get("status")
    return view


SPEC = ToolSpec("get_k8_spec", DESCRIPTION, Args, run, {"k8s_objects_file": "k8s_objects_raw.tsv"})
