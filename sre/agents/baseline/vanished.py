"""Changes a spec diff cannot see. Objects that disappeared: removed by a watch export's DELETED
event, or seen in the earlier object snapshots and missing from the later ones while the exporter
kept observing their neighbours. A change analysis compares the
observations an object has, so a deleted Service has none to compare; an SRE reads its absence.

Only objects whose removal breaks what uses them count (a Service, a ConfigMap, a Secret, a
workload, ...): pods, replica sets and chaos experiments come and go on their own. And a
ConfigMap or Secret written while its contents stay out of the export (``rewritten``)."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from sre.agents.baseline.evidence import Change, write_time
from sre.snapshot import IndexedSource, SourceKind, open_source
from sre.snapshot.layout import require_file

#: kinds whose disappearance is a fault of the objects that use them
NEEDED_KINDS = (
    "Service",
    "ConfigMap",
    "Secret",
    "Deployment",
    "StatefulSet",
    "DaemonSet",
    "PersistentVolumeClaim",
    "ServiceAccount",
    "HorizontalPodAutoscaler",
    "Ingress",
)


def vanished(objects_file: Path) -> list[Change]:
    """A ``deleted`` change for each object of a needed kind last seen before the last
    observation, when another object of its kind and namespace was observed both when it was
    last seen and, unchanged, after it (a periodic export, not one that writes only what
    changed)."""
    src = open_source(require_file(objects_file, "the objects file"), SourceKind.OBJECTS)
    kinds = ", ".join(f"'{k}'" for k in NEEDED_KINDS)
    rows = src.con.cursor().execute(
        f"""WITH objs AS (
              SELECT namespace, kind, name, max(ts) AS last, arg_max(body, (ts, version)) AS body
              FROM data WHERE kind IN ({kinds}) GROUP BY ALL),
            times AS (SELECT DISTINCT ts FROM data)
            SELECT o.namespace, o.kind, o.name, o.last, o.body,
                   (SELECT min(ts) FROM times WHERE ts > o.last) AS gone
            FROM objs o
            WHERE o.last < (SELECT max(ts) FROM data)
              AND EXISTS (
                SELECT 1 FROM data a, data b
                WHERE a.kind = o.kind AND a.namespace IS NOT DISTINCT FROM o.namespace
                  AND a.name <> o.name AND a.ts = o.last
                  AND b.kind = a.kind AND b.namespace IS NOT DISTINCT FROM a.namespace
                  AND b.name = a.name AND b.ts > o.last AND b.body = a.body)
            ORDER BY o.kind, o.namespace, o.name"""
    )
    found = rows.fetchall()
    dropped = _dropped_together(src, [(ns, kind, name, last) for ns, kind, name, last, *_ in found])
    return [
        _deleted(
            namespace, kind, name, gone, f"no longer observed after {last:%H:%M:%S}", body, last
        )
        for namespace, kind, name, last, body, gone in found
        if (namespace or "", kind, name) not in dropped
    ]


def dropped_by_export(objects_file: Path) -> frozenset[tuple[str, str, str]]:
    """(namespace, kind, name) of the objects ``vanished`` does not read as deleted because the
    export stopped showing most of their kind and namespace at once (``_dropped_together``)."""
    src = open_source(require_file(objects_file, "the objects file"), SourceKind.OBJECTS)
    kinds = ", ".join(f"'{k}'" for k in NEEDED_KINDS)
    rows = src.con.cursor().execute(
        f"""SELECT namespace, kind, name, max(ts) FROM data WHERE kind IN ({kinds})
            GROUP BY ALL HAVING max(ts) < (SELECT max(ts) FROM data)"""
    )
    return _dropped_together(src, rows.fetchall())


def _dropped_together(
    src: IndexedSource, gone: list[tuple[str | None, str, str, datetime]]
) -> frozenset[tuple[str, str, str]]:
    """The objects last seen at one observation together with more than half of the objects of
    their kind and namespace that observation held: a fault deletes one object (a Service, a
    ConfigMap), not most of a namespace's while their workloads keep running, so an export
    that stops showing them at once narrowed what it pulls (a dump scoped to what changed
    after its first round). Reading each as a deletion named a healthy application's Service."""
    by_observation: dict[tuple[str, str, datetime], list[str]] = {}
    for namespace, kind, name, last in gone:
        by_observation.setdefault((namespace or "", kind, last), []).append(name)
    out: set[tuple[str, str, str]] = set()
    for (namespace, kind, last), names in by_observation.items():
        if len(names) < 2:
            continue
        held = src.con.cursor().execute(
            """SELECT count(DISTINCT name) FROM data
               WHERE kind = ? AND coalesce(namespace, '') = ? AND ts = ?""",
            [kind, namespace, last],
        )
        (count,) = held.fetchone() or (0,)
        if 2 * len(names) > count:
            out |= {(namespace, kind, name) for name in names}
    return frozenset(out)


def removed(objects_file: Path) -> list[Change]:
    """A ``deleted`` change for each object of a needed kind whose removal the export reports
    (a watch export's DELETED event), dated by that event: the export saw it go, so no
    neighbour has to vouch for it. The object as it was removed gives the spec."""
    src = open_source(require_file(objects_file, "the objects file"), SourceKind.OBJECTS)
    kinds = ", ".join(f"'{k}'" for k in NEEDED_KINDS)
    rows = src.con.cursor().execute(
        f"""SELECT namespace, kind, name, max(ts), arg_max(body, ts) FROM deletions
            WHERE kind IN ({kinds}) GROUP BY ALL ORDER BY kind, namespace, name"""
    )
    return [
        _deleted(namespace, kind, name, at, f"deleted at {at:%H:%M:%S}", body)
        for namespace, kind, name, at, body in rows.fetchall()
    ]


def _deleted(
    namespace: str | None,
    kind: str,
    name: str,
    time: datetime,
    how: str,
    body: str | None,
    since: datetime | None = None,
) -> Change:
    """The ``deleted`` change of one object: when it went, how the export shows it, its last spec."""
    return Change(
        namespace=namespace or "",
        kind=kind,
        name=name,
        time=time,
        change="deleted",
        paths=(f"{kind} {name} {how}",),
        spec=_spec(body),
        since=since,
    )


def _spec(body: str | None) -> dict:
    try:
        obj = json.loads(body or "")
    except ValueError:  # a body the index could not read as JSON holds no spec
        return {}
    spec = obj.get("spec") if isinstance(obj, dict) else None
    return spec if isinstance(spec, dict) else {}


#: kinds without a status: a new resourceVersion is a write of their contents
CONTENT_KINDS = ("ConfigMap", "Secret")


def rewritten(objects_file: Path) -> list[Change]:
    """A ``modified`` change for each ConfigMap or Secret whose resourceVersion moved between
    two observations while everything the export shows of it stayed the same: an exporter that
    withholds a Secret's data (or a ConfigMap's) still shows that it was written, and when
    (``managedFields``). Only when the export keeps versions: another ConfigMap or Secret
    observed at the same two times kept its resourceVersion (a writer that renumbers every
    object at every observation says nothing by it)."""
    src = open_source(require_file(objects_file, "the objects file"), SourceKind.OBJECTS)
    kinds = ", ".join(f"'{k}'" for k in CONTENT_KINDS)
    rows = src.con.cursor().execute(
        f"""WITH obs AS (
              SELECT namespace, kind, name, ts, version, body,
                json_extract_string(body, '$.metadata.resourceVersion') AS rv,
                md5(concat_ws('|', json_extract(body, '$.data')::VARCHAR,
                    json_extract(body, '$.binaryData')::VARCHAR,
                    json_extract(body, '$.metadata.labels')::VARCHAR,
                    json_extract(body, '$.metadata.annotations')::VARCHAR)) AS fp
              FROM data WHERE kind IN ({kinds})),
            paired AS (
              SELECT *, lag(rv) OVER w AS rv_before, lag(fp) OVER w AS fp_before,
                     lag(ts) OVER w AS ts_before
              FROM obs WINDOW w AS (PARTITION BY namespace, kind, name ORDER BY ts, version))
            SELECT namespace, kind, name, ts, ts_before, body, rv_before, rv FROM paired p
            WHERE rv_before IS NOT NULL AND rv IS NOT NULL AND rv <> rv_before
              AND fp = fp_before
              AND EXISTS (  -- the export keeps versions: another object's stayed put meanwhile
                SELECT 1 FROM paired q WHERE q.ts = p.ts AND q.ts_before = p.ts_before
                  AND q.rv = q.rv_before AND q.name <> p.name)
            ORDER BY kind, namespace, name, ts"""
    )
    out = []
    for namespace, kind, name, ts, before, body, rv_before, rv in rows.fetchall():
        try:
            obj = json.loads(body)
        except (TypeError, ValueError):
            obj = {}
        obj = obj if isinstance(obj, dict) else {}
        out.append(
            Change(
                namespace=namespace or "",
                kind=kind,
                name=name,
                time=write_time(obj, "modified", before, ts) or ts,
                change="modified",
                paths=("metadata.resourceVersion",),
                spec={},
                values=(("metadata.resourceVersion", rv_before, rv),),
            )  # fmt: skip
        )
    return out
