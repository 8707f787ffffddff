"""get_k8_spec: the latest observed spec of an object."""

from __future__ import annotations

import json
from typing import Any

from sre.snapshot import SourceKind, open_source
from sre.snapshot.index import IndexedSource
from sre.snapshot.layout import require_file
from sre.tools._common import EntityRef, ToolArgs, ToolResult, ToolSpec, match_entities
from sre.tools._objects import entities, entity_id, readable

DESCRIPTION = (
    "Returns the latest observed object (its whole manifest, under 'spec') of a Kubernetes "
    "object from the object snapshots; when the name is ambiguous, one entry per entity "
    "(namespace/Kind/name) under 'entities'. k8_object_name: 'namespace/Kind/name' (preferred), "
    "'Kind/name' or 'name'; a substring match is used only when nothing matches exactly "
    "(matched_by says which). return_all_observations lists every observation; "
    "include_metadata=false drops metadata."
)


class Args(ToolArgs):
    k8s_objects_file: str
    k8_object_name: str
    return_all_observations: bool = False
    include_metadata: bool = True


class Result(ToolResult):
    body: dict[str, Any]

    def answer(self) -> Any:
        return self.body


def _format(ref: EntityRef) -> str:
    if ref.namespace is not None:
        return "namespace/kind/name"
    return "kind/name" if ref.kind is not None else "name"


def ambiguity(ref: EntityRef, text: str) -> str | None:
    if ref.namespace is not None:
        return None
    if ref.kind is not None:
        return (
            f"Format 'kind/name' is ambiguous - '{text}' may exist in multiple namespaces. "
            "Consider using 'namespace/kind/name' format for precision."
        )
    return (
        f"Format 'name' is highly ambiguous - '{text}' may exist across multiple kinds and "
        "namespaces. Consider using 'namespace/kind/name' format for precision."
    )


def run(args: Args) -> Result:
    src = open_source(require_file(args.k8s_objects_file, "the objects file"), SourceKind.OBJECTS)
    known = entities(src)
    ref = EntityRef.parse(args.k8_object_name)
    idx, loose = match_entities(ref, known, in_entity_id=True)
    warnings = src.warnings()
    if not idx:
        kinds = sorted({k for _, k, _ in known})[:20]
        sample = [entity_id(*e) for e in known[:10]]
        message = (
            f"No objects matching '{args.k8_object_name}' found. Available kinds: {kinds}. "
            f"Sample entities: {sample}"
        )
        warnings.append(message)
        return Result(
            body={"error": message, "k8s_objects_file": args.k8s_objects_file,
                  "k8_object_name": args.k8_object_name, "found": False, "spec": None},
            warnings=warnings,
        )  # fmt: skip
    if loose:
        warnings.append(f"no exact match for {args.k8_object_name!r}; matched by substring")
    chosen = [known[i] for i in idx]
    one = chosen[0] if len(chosen) == 1 else None
    several = chosen if len(chosen) > 1 else []
    # the original skips the rows its body reader cannot parse: when what it keeps matches one
    # object where ours matches several, or the reverse, its answer has the other shape; ours
    # then carries both, the original's and its own
    theirs = _original_match(ref, readable(src))
    if theirs and (len(theirs) > 1) != (len(chosen) > 1):
        one = one or theirs[0]
        several = list(dict.fromkeys(chosen + theirs))
        warnings.append(
            f"{len(theirs)} object(s) match {args.k8_object_name!r} in the rows the original "
            f"tools read, {len(chosen)} in every row (they skip a body stored as a JSON string "
            "or holding an empty string): the answer has both the one-object and the "
            "several-objects keys"
        )
    if not theirs:
        warnings.append(
            f"no object matching {args.k8_object_name!r} is in the rows the original tools read "
            "(they skip a body stored as a JSON string or holding an empty string): the answer "
            "also has the original's not-found key 'spec' (the latest manifest of one object, "
            "null for several)"
        )
    per_entity = _observations(src, [e for e in [one, *several] if e is not None], args)
    out: dict[str, Any] = {
        "k8s_objects_file": args.k8s_objects_file,
        "k8_object_name": args.k8_object_name,
        "identifier_format": _format(ref),
        "input_format": "raw_otel",
        "found": True,
        "matched_by": "substring" if loose else "exact",
    }
    note = ambiguity(ref, args.k8_object_name)
    if note:
        out["warning"] = note
    if several:
        ids = [entity_id(*e) for e in several]
        out["matched_entities"] = sorted(ids)
        out["matched_entity_count"] = len(ids)
        out["entity_count"] = len(ids)
        out["total_observation_count"] = sum(len(per_entity[i]) for i in ids)
        out["entities"] = {}
        for eid in ids:
            obs = per_entity[eid]
            entry = {
                "kind": obs[-1]["kind"], "namespace": obs[-1]["namespace"],
                "name": obs[-1]["name"], "observation_count": len(obs),
                "first_timestamp": obs[0]["timestamp"], "last_timestamp": obs[-1]["timestamp"],
                "latest_spec": obs[-1]["spec"],
            }  # fmt: skip
            if args.return_all_observations:
                entry["all_observations"] = obs
            out["entities"][eid] = entry
    if one is not None:
        obs = per_entity[entity_id(*one)]
        out["observation_count"] = len(obs)
        if args.return_all_observations:
            out.update(first_timestamp=obs[0]["timestamp"], last_timestamp=obs[-1]["timestamp"],
                       observations=obs)  # fmt: skip
        else:
            latest = obs[-1]
            out.update(timestamp=latest["timestamp"], entity_id=latest["entity_id"],
                       kind=latest["kind"], namespace=latest["namespace"], name=latest["name"],
                       spec=latest["spec"])  # fmt: skip
    if not theirs:
        # the original answers this call as not found, {found: false, spec: null}: its client
        # reads 'spec' whatever the answer's shape, so the key is there in ours too
        out.setdefault("spec", per_entity[entity_id(*one)][-1]["spec"] if one else None)
    return Result(body=out, warnings=warnings)


def _observations(
    src: IndexedSource, chosen: list[tuple[str | None, str, str]], args: Args
) -> dict[str, list[dict[str, Any]]]:
    """Every observation of each chosen entity, oldest first, keyed by entity id."""
    cur = src.con.cursor()
    out: dict[str, list[dict[str, Any]]] = {}
    for ns, kind, name in chosen:
        rows = cur.execute(
            "SELECT ts, body FROM data WHERE namespace IS NOT DISTINCT FROM ? AND kind = ? "
            "AND name = ? ORDER BY ts, version",
            [ns, kind, name],
        ).fetchall()
        eid = entity_id(ns, kind, name)
        out[eid] = [
            {"timestamp": f"{ts}+00:00", "entity_id": eid, "kind": kind, "namespace": ns or "",
             "name": name, "spec": _object(json.loads(body), args.include_metadata)}
            for ts, body in rows
        ]  # fmt: skip
    return out


def _original_match(
    ref: EntityRef, candidates: list[tuple[str | None, str, str]]
) -> list[tuple[str | None, str, str]]:
    """The original's lookup: the exact object(s), else every one whose entity id holds the
    name (its only fallback)."""
    exact = [c for c in candidates if ref.exact(*c)]
    if exact:
        return exact
    term = ref.name.lower()
    return [c for c in candidates if term in entity_id(*c).lower()]


def _object(obj: dict[str, Any], include_metadata: bool) -> dict[str, Any]:
    return obj if include_metadata else {k: v for k, v in obj.items() if k != "metadata"}


SPEC = ToolSpec("get_k8_spec", DESCRIPTION, Args, run, {"k8s_objects_file": "k8s_objects_raw.tsv"})
