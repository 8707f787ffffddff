"""Object observations out of the objects index: entity lookup, the fields a spec diff ignores, and
the diff itself."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sre.snapshot.index import IndexedSource

#: metadata and status churn on every observation; a change there is not a spec change
IGNORED_METADATA = {
    "resourceVersion", "managedFields", "generation", "uid", "selfLink", "creationTimestamp",
}  # fmt: skip
IGNORED_ANYWHERE = {
    "time", "observedGeneration", "containerStatuses", "conditions", "podIP", "podIPs", "hostIP",
    "hostIPs", "startTime",
}  # fmt: skip
IGNORED_ANNOTATIONS = {
    "endpoints.kubernetes.io/last-change-trigger-time",
    "kubectl.kubernetes.io/last-applied-configuration",
    "deployment.kubernetes.io/revision",
}


def entity_id(namespace: str | None, kind: str, name: str) -> str:
    """The original's entity id: namespace/Kind/name, or Kind/name for a cluster-scoped object."""
    return f"{namespace}/{kind}/{name}" if namespace else f"{kind}/{name}"


def normalise(obj: dict[str, Any]) -> dict[str, Any]:
    """The object without the fields that change on their own (status, bookkeeping metadata)."""

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {
                k: strip(v)
                for k, v in value.items()
                if k not in IGNORED_ANYWHERE and not (k.startswith("last") and k.endswith("Time"))
            }
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    out = {k: v for k, v in obj.items() if k != "status"}
    meta = dict(out.get("metadata") or {})
    for key in IGNORED_METADATA:
        meta.pop(key, None)
    if isinstance(meta.get("annotations"), dict):
        ann = {k: v for k, v in meta["annotations"].items() if k not in IGNORED_ANNOTATIONS}
        if ann:
            meta["annotations"] = ann
        else:
            meta.pop("annotations")
    out["metadata"] = meta
    return strip(out)


def diff(old: Any, new: Any, path: str = "") -> list[dict[str, Any]]:
    """Flat change items ``{path, change: added|removed|modified, old, new}``."""
    if isinstance(old, dict) and isinstance(new, dict):
        items = []
        for key in sorted(set(old) | set(new), key=str):
            sub = f"{path}.{key}" if path else str(key)
            if key not in old:
                items.append({"path": sub, "change": "added", "old": None, "new": new[key]})
            elif key not in new:
                items.append({"path": sub, "change": "removed", "old": old[key], "new": None})
            else:
                items.extend(diff(old[key], new[key], sub))
        return items
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        items = []
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            items.extend(diff(a, b, f"{path}[{i}]"))
        return items
    if old != new:
        return [{"path": path, "change": "modified", "old": old, "new": new}]
    return []


def entities(src: IndexedSource) -> list[tuple[str | None, str, str]]:
    """Every (namespace, kind, name) the index holds, by kind, then namespace, then name."""
    return _entities(src, "true")


def readable(src: IndexedSource) -> list[tuple[str | None, str, str]]:
    """The entities the original tools' body reader keeps a row of (``original_reads``), in
    ``entities``' order."""
    return _entities(src, "original_reads")


def _entities(src: IndexedSource, rows: str) -> list[tuple[str | None, str, str]]:
    """The entities of the rows meeting the SQL condition ``rows``, in ``entities``' order."""
    return [
        (ns, kind, name)
        for ns, kind, name in src.con.cursor()
        .execute(f"SELECT DISTINCT namespace, kind, name FROM data WHERE {rows} ORDER BY 2, 1, 3")
        .fetchall()
    ]


#: what an object declares is every top-level field but its status and its metadata (whose labels
#: and annotations count on their own): ``spec`` and ``data``, and the fields kinds hold beside
#: them (a ServiceAccount's ``imagePullSecrets``, a binding's ``subjects``, a webhook
#: configuration's ``webhooks``, a StorageClass's ``parameters``, a PriorityClass's ``value``).
#: A JSON merge patch with nulls removes the two fields, whatever else the kind holds.
DECLARED = """'{"status": null, "metadata": null}'"""


def changed_observations(
    src: IndexedSource, chosen: list[tuple[str | None, str, str]] | None = None
) -> dict[tuple[str | None, str, str], list[tuple[datetime, dict[str, Any], int]]]:
    """Per entity, its observations where the parts a spec diff looks at changed (the first always
    included), with how many observations each stands for. A coarse fingerprint in SQL (every
    top-level field but status and metadata; labels, annotations) drops the repeats before
    any JSON reaches Python."""
    where, params = "", []
    if chosen is not None:
        if not chosen:
            return {}
        where = "WHERE " + " OR ".join(
            "(namespace IS NOT DISTINCT FROM ? AND kind = ? AND name = ?)" for _ in chosen
        )
        params = [v for c in chosen for v in c]
    rows = (
        src.con.cursor()
        .execute(
            f"""
        WITH obs AS (
          SELECT namespace, kind, name, ts, version, body,
            md5(concat_ws('|', json_merge_patch(body, {DECLARED})::VARCHAR,
                json_extract(body, '$.metadata.labels')::VARCHAR,
                json_extract(body, '$.metadata.annotations')::VARCHAR)) AS fp
          FROM data {where}),
        marked AS (
          SELECT *, fp IS DISTINCT FROM lag(fp) OVER w AS changed,
                 count(*) OVER (PARTITION BY namespace, kind, name) AS n
          FROM obs WINDOW w AS (PARTITION BY namespace, kind, name ORDER BY ts, version))
        SELECT namespace, kind, name, ts, body, n FROM marked WHERE changed
        ORDER BY kind, namespace, name, ts, version""",
            params,
        )
        .fetchall()
    )
    out: dict[tuple[str | None, str, str], list] = {}
    for ns, kind, name, ts, body, n in rows:
        out.setdefault((ns, kind, name), []).append((ts, json.loads(body), n))
    return out


def deletions(src: IndexedSource) -> dict[tuple[str | None, str, str], tuple[datetime, dict]]:
    """Per entity, the removal a watch export reports (its first DELETED event: when, and the
    object as it was), from the index's ``deletions`` table."""
    rows = (
        src.con.cursor()
        .execute(
            "SELECT namespace, kind, name, min(ts), arg_min(body, ts) FROM deletions "
            "GROUP BY namespace, kind, name"
        )
        .fetchall()
    )
    return {(ns, kind, name): (ts, json.loads(body)) for ns, kind, name, ts, body in rows}


@dataclass(frozen=True)
class VersionHistory:
    """An entity's ``metadata.resourceVersion`` over its observations in a window: the API server
    bumps it on every write, status-only writes included, which a spec diff cannot see."""

    first_seen: datetime
    last_seen: datetime
    observation_count: int
    #: distinct non-empty versions in order of first observation
    versions: tuple[str, ...]
    #: the first ``metadata.deletionTimestamp`` an observation shows (the object is going away)
    deletion: str | None = None
    #: the first ``metadata.creationTimestamp`` an observation shows (when the object was made)
    creation: str | None = None

    @property
    def changed(self) -> bool:
        return len(self.versions) > 1


def version_histories(
    src: IndexedSource, start: datetime | None, end: datetime | None
) -> dict[tuple[str | None, str, str], VersionHistory]:
    """Per entity, its resourceVersions (and deletion and creation stamps) over the observations
    inside ``[start, end]`` (either bound open), as the original's metadata lifecycle reads them
    after its window filter."""
    rows = (
        src.con.cursor()
        .execute(
            """
        SELECT namespace, kind, name, min(ts), max(ts), count(*),
               list(json_extract_string(body, '$.metadata.resourceVersion') ORDER BY ts),
               first(json_extract_string(body, '$.metadata.deletionTimestamp') ORDER BY ts)
                 FILTER (WHERE coalesce(json_extract_string(body, '$.metadata.deletionTimestamp'),
                                        '') <> ''),
               first(json_extract_string(body, '$.metadata.creationTimestamp') ORDER BY ts)
                 FILTER (WHERE coalesce(json_extract_string(body, '$.metadata.creationTimestamp'),
                                        '') <> '')
        FROM data WHERE (? IS NULL OR ts >= ?) AND (? IS NULL OR ts <= ?)
        GROUP BY namespace, kind, name""",
            [start, start, end, end],
        )
        .fetchall()
    )
    out: dict[tuple[str | None, str, str], VersionHistory] = {}
    for ns, kind, name, first, last, count, versions, deletion, creation in rows:
        distinct = tuple(dict.fromkeys(v for v in versions if v))
        out[(ns, kind, name)] = VersionHistory(first, last, count, distinct, deletion, creation)
    return out
