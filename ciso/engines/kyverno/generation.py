"""``generate`` rules: the resources a trigger would create, from ``data`` (variables
substituted), ``clone`` (a copy of a source object) or ``cloneList`` (every object of the listed
kinds in a namespace, optionally by label selector), and ``foreach`` over a list with either.

Offline there is no cluster to write to: the generated objects are returned (the test runner
compares them with a test's ``generatedResource``; ``synchronize`` has nothing to keep in sync)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from ciso.engines.kyverno import conditions, foreach
from ciso.engines.kyverno.errors import RuleError
from ciso.engines.kyverno.foreach import ContextLoader
from ciso.engines.kyverno.matching import kind_matches, selector_matches
from ciso.engines.kyverno.variables import substitute

#: Finds objects of the offline "cluster" (the test's resources): (kind spec, namespace) -> list
Lookup = Callable[[str, str], list[dict[str, Any]]]
# server-managed metadata a clone does not carry over
_SERVER_FIELDS = (
    "uid",
    "resourceVersion",
    "creationTimestamp",
    "generation",
    "managedFields",
    "ownerReferences",
    "selfLink",
)


def _from_data(spec: dict[str, Any]) -> dict[str, Any]:
    data = spec["data"]
    if not isinstance(data, dict):
        raise RuleError("must be a map").at("data")
    generated = copy.deepcopy(data)
    generated["apiVersion"] = spec.get("apiVersion", "")
    generated["kind"] = spec.get("kind", "")
    raw_meta = generated.get("metadata")
    meta = raw_meta if isinstance(raw_meta, dict) else {}
    meta["name"] = spec.get("name", "")
    if spec.get("namespace"):
        meta["namespace"] = spec["namespace"]
    generated["metadata"] = meta
    return generated


def _cloned(source: dict[str, Any], name: str, namespace: str | None) -> dict[str, Any]:
    copy_ = copy.deepcopy(source)
    meta = {k: v for k, v in (copy_.get("metadata") or {}).items() if k not in _SERVER_FIELDS}
    meta["name"] = name
    if namespace:
        meta["namespace"] = namespace
    else:
        meta.pop("namespace", None)
    copy_["metadata"] = meta
    copy_.pop("status", None)
    return copy_


def _from_clone(spec: dict[str, Any], lookup: Lookup) -> dict[str, Any]:
    clone = spec["clone"]
    if not isinstance(clone, dict) or not clone.get("name"):
        raise RuleError("needs the source's name (and namespace)").at("clone")
    kind = spec.get("kind")
    if not isinstance(kind, str) or not kind:
        raise RuleError("a clone needs the kind of its source").at("kind")
    namespace = str(clone.get("namespace") or "")
    found = [
        o for o in lookup(kind, namespace) if (o.get("metadata") or {}).get("name") == clone["name"]
    ]
    if not found:
        raise RuleError(
            f"source {kind} {namespace + '/' if namespace else ''}{clone['name']} not found "
            "among the test's resources"
        ).at("clone")
    return _cloned(found[0], spec.get("name") or clone["name"], spec.get("namespace"))


def _from_clone_list(spec: dict[str, Any], lookup: Lookup) -> list[dict[str, Any]]:
    listing = spec["cloneList"]
    if not isinstance(listing, dict) or not listing.get("kinds"):
        raise RuleError("needs kinds").at("cloneList")
    out = []
    for kind in listing["kinds"]:
        for source in lookup(str(kind), str(listing.get("namespace") or "")):
            labels = (source.get("metadata") or {}).get("labels") or {}
            if listing.get("selector") and not selector_matches(listing["selector"], labels):
                continue
            out.append(
                _cloned(
                    source, (source.get("metadata") or {}).get("name", ""), spec.get("namespace")
                )
            )
    return out


def _one(spec: dict[str, Any], context: dict[str, Any], lookup: Lookup) -> list[dict[str, Any]]:
    resolved = substitute({k: v for k, v in spec.items() if k != "foreach"}, context)
    given = [resolved.get("data") is not None, bool(resolved.get("clone")), "cloneList" in resolved]
    if sum(given) > 1:
        raise RuleError("only one of data, clone, cloneList and foreach can be specified")
    if resolved.get("clone"):
        return [_from_clone(resolved, lookup)]
    if resolved.get("cloneList"):
        return _from_clone_list(resolved, lookup)
    # Neither data nor a source: Kyverno admits the rule and creates the target with nothing but
    # its identity (its absent data is a typed nil that marshals to an empty object)
    return [_from_data({**resolved, "data": resolved.get("data") or {}})]


def generate(
    rule: dict[str, Any], context: dict[str, Any], lookup: Lookup, load_context: ContextLoader
) -> list[dict[str, Any]]:
    """The objects the rule generates for the trigger in ``context``; raises RuleError located
    inside ``generate``."""
    spec = rule.get("generate")
    if not isinstance(spec, dict):
        raise RuleError("must be a map").at("generate")
    try:
        if not spec.get("foreach"):
            return _one(spec, context, lookup)
        generated: list[dict[str, Any]] = []
        for i, entry in enumerate(spec["foreach"]):
            try:
                generated += _foreach_entry(spec, entry, context, lookup, load_context)
            except RuleError as exc:
                raise exc.at("foreach", i) from None
        return generated
    except RuleError as exc:
        raise exc.at("generate") from None


def _foreach_entry(
    spec: dict[str, Any],
    entry: Any,
    context: dict[str, Any],
    lookup: Lookup,
    load_context: ContextLoader,
) -> list[dict[str, Any]]:
    out = []
    for index, element in enumerate(foreach.items(entry, context)):
        if element is None:
            continue
        local = foreach.element_context(context, element, index, 0)
        foreach.load_entry_context(entry, local, load_context)
        if not conditions.evaluate(entry.get("preconditions"), local):
            continue
        body = {**{k: v for k, v in spec.items() if k != "foreach"}, **entry}
        body = {k: v for k, v in body.items() if k not in ("list", "context", "preconditions")}
        out += _one(body, local, lookup)
    return out


def cluster_lookup(objects: list[dict[str, Any]]) -> Lookup:
    """A lookup over a list of objects (a test's resources)."""

    def lookup(kind: str, namespace: str) -> list[dict[str, Any]]:
        return [
            o
            for o in objects
            if kind_matches(kind, o)
            and (not namespace or (o.get("metadata") or {}).get("namespace", "") == namespace)
        ]

    return lookup


def without_generate_labels(resource: dict[str, Any]) -> dict[str, Any]:
    """As the Kyverno CLI compares generated objects: Kyverno's own generate labels do not
    count, and both sides carry ``app.kubernetes.io/managed-by: kyverno``."""
    meta = dict(resource.get("metadata") or {})
    labels = {
        k: v
        for k, v in (meta.get("labels") or {}).items()
        if not k.startswith("generate.kyverno.io/")
    }
    labels["app.kubernetes.io/managed-by"] = "kyverno"
    meta["labels"] = labels
    return {**resource, "metadata": meta}
