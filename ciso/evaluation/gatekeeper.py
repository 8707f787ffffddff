"""A Gatekeeper policy (ConstraintTemplate + its Constraints) run as Gatekeeper's audit would:
every object of an environment the constraint matches is reviewed by the template's Rego, and
fails when ``violation`` is non-empty.

Semantics follow Gatekeeper's documentation: the template's Rego (v0 syntax, as
``templates.gatekeeper.sh/v1`` takes it) reads ``input.review.object`` and ``input.parameters``;
``libs`` are further modules (packages under ``lib.``); a Constraint's kind is the template's
``spec.crd.spec.names.kind``, its ``spec.match`` selects by ``kinds`` (apiGroups/kinds, ``*``
or an empty list any), ``scope`` (``Cluster``, ``Namespaced``, ``*``), ``namespaces`` /
``excludedNamespaces`` and ``name`` (Gatekeeper's wildcard: a ``*`` at the start, the end or
both), ``labelSelector`` and ``namespaceSelector``; cluster-scoped objects pass the namespace
criteria (they have none), a Namespace is matched by its own name and labels. Audit reports the
violations of ``deny``, ``dryrun`` and ``warn`` constraints alike; a ``scoped`` one only when one
of its ``scopedEnforcementActions`` names the audit enforcement point (or ``*``). Objects of kinds
the offline cluster does not serve (a CRD's kind) are reviewed as declared: Gatekeeper matches
them by apiGroup and kind like any other.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ciso.environments.kubernetes import cluster_view
from ciso.scenarios.model import ResourceRef
from ciso.scenarios.objects import registry
from itbench.cluster.selectors import selects
from itbench.errors import InputError

TEMPLATE_GROUP = "templates.gatekeeper.sh/"
CONSTRAINT_GROUP = "constraints.gatekeeper.sh/"
_PACKAGE = re.compile(r"^\s*package\s+([A-Za-z_][\w.]*)", re.MULTILINE)

Manifest = dict[str, Any]


#: Gatekeeper's enforcement actions; audit reports the violations of each of them
ACTIONS = ("deny", "dryrun", "warn", "scoped")
#: the enforcement points a ``scoped`` constraint may name; audit runs at the second (or ``*``)
ENFORCEMENT_POINTS = (
    "validation.gatekeeper.sh",
    "audit.gatekeeper.sh",
    "gator.gatekeeper.sh",
    "vap.k8s.io",
    "*",
)
AUDIT_POINTS = ("audit.gatekeeper.sh", "*")
SCOPES = ("*", "Cluster", "Namespaced")
#: a Gatekeeper wildcard (its CRD's pattern): a ``*`` only at the start and/or the end
_WILDCARD = re.compile(r"^\*?[-:a-z0-9]*\*?$")


@dataclass(frozen=True)
class Constraint:
    name: str
    match: Mapping[str, Any]
    parameters: Mapping[str, Any]
    #: whether Gatekeeper's audit reports its violations (enforcementAction)
    audited: bool = True


@dataclass(frozen=True)
class Template:
    name: str
    #: the kind its constraints have
    kind: str
    package: str
    modules: Mapping[str, str]
    constraints: tuple[Constraint, ...]


class GatekeeperError(InputError):
    """A template whose Rego does not compile or evaluate, naming the template."""


def _field(obj: Mapping[str, Any], dotted: str) -> Any:
    value: Any = obj
    for part in dotted.split("."):
        if isinstance(value, list):
            value = value[int(part)] if part.isdigit() and int(part) < len(value) else None
        elif isinstance(value, Mapping):
            value = value.get(part)
        else:
            return None
    return value


def _name(obj: Mapping[str, Any]) -> str:
    return str((obj.get("metadata") or {}).get("name") or "?")


def parse(path: Path, objects: Sequence[Mapping[str, Any]]) -> list[Template]:
    """The templates of a file with the constraints of each; an InputError naming the file, the
    object and the field when something is missing or mistyped."""
    templates: list[tuple[str, str, str, dict[str, str]]] = []
    constraints: list[Mapping[str, Any]] = []
    for obj in objects:
        api = str(obj.get("apiVersion", ""))
        where = f"{path}: {obj.get('kind')}/{_name(obj)}"
        if api.startswith(TEMPLATE_GROUP) and obj.get("kind") == "ConstraintTemplate":
            kind = _field(obj, "spec.crd.spec.names.kind")
            if not isinstance(kind, str) or not kind:
                raise InputError(f"{where}: spec.crd.spec.names.kind missing (the constraint kind)")
            target = _field(obj, "spec.targets.0")
            if not isinstance(target, Mapping):
                raise InputError(f"{where}: spec.targets[0] missing (the Rego of the template)")
            rego = target.get("rego")
            if not isinstance(rego, str) or not rego.strip():
                raise InputError(f"{where}: spec.targets[0].rego missing or not a string")
            found = _PACKAGE.search(rego)
            if found is None:
                raise InputError(f"{where}: spec.targets[0].rego has no package line")
            modules = {f"{_name(obj)}/template.rego": rego}
            libs = target.get("libs") or []
            if not isinstance(libs, list) or not all(isinstance(lib, str) for lib in libs):
                raise InputError(f"{where}: spec.targets[0].libs is not a list of Rego modules")
            for n, lib in enumerate(libs):
                lib_package = _PACKAGE.search(lib)
                if lib_package is None or not lib_package.group(1).startswith("lib."):
                    raise InputError(
                        f"{where}: spec.targets[0].libs[{n}]: package must start with 'lib.'"
                    )
                modules[f"{_name(obj)}/lib{n}.rego"] = lib
            templates.append((_name(obj), kind, found.group(1), modules))
        elif api.startswith(CONSTRAINT_GROUP):
            constraints.append(obj)
        else:
            raise InputError(
                f"{where}: not a Gatekeeper object (ConstraintTemplate of {TEMPLATE_GROUP}v1 or "
                f"a constraint of {CONSTRAINT_GROUP}v1beta1)"
            )
    if not templates:
        raise InputError(f"{path}: no ConstraintTemplate ({TEMPLATE_GROUP}v1)")
    by_kind: dict[str, list[Constraint]] = {kind: [] for _, kind, _, _ in templates}
    for obj in constraints:
        where = f"{path}: {obj.get('kind')}/{_name(obj)}"
        if obj.get("kind") not in by_kind:
            raise InputError(f"{where}: kind has no ConstraintTemplate in the file")
        match = _field(obj, "spec.match") or {}
        parameters = _field(obj, "spec.parameters") or {}
        if not isinstance(match, Mapping):
            raise InputError(f"{where}: spec.match is not a mapping")
        if not isinstance(parameters, Mapping):
            raise InputError(f"{where}: spec.parameters is not a mapping")
        _check_match(where, match)
        audited = _audited(where, obj.get("spec") or {})
        by_kind[str(obj["kind"])].append(Constraint(_name(obj), match, parameters, audited))
    result = []
    for name, kind, package, modules in templates:
        if not by_kind[kind]:
            raise InputError(f"{path}: ConstraintTemplate/{name}: no {kind} constraint in the file")
        result.append(Template(name, kind, package, modules, tuple(by_kind[kind])))
    return result


def _audited(where: str, spec: Mapping[str, Any]) -> bool:
    """Whether audit reports the constraint's violations: every action does except a ``scoped``
    one whose scopedEnforcementActions leave the audit enforcement point out (Gatekeeper's
    enforcement-points documentation). A value Gatekeeper would refuse is named."""
    action = spec.get("enforcementAction") or "deny"
    if action not in ACTIONS:
        raise InputError(
            f"{where}: spec.enforcementAction: {action!r} is not one of {', '.join(ACTIONS)}"
        )
    if action != "scoped":
        return True  # scopedEnforcementActions is ignored unless the action is scoped
    scoped = spec.get("scopedEnforcementActions")
    if not isinstance(scoped, list) or not scoped:
        raise InputError(
            f"{where}: spec.scopedEnforcementActions: required (a list of {{action, "
            "enforcementPoints}}) when spec.enforcementAction is scoped"
        )
    audited = False
    for n, entry in enumerate(scoped):
        field = f"spec.scopedEnforcementActions[{n}]"
        if not isinstance(entry, Mapping) or entry.get("action") not in ACTIONS[:3]:
            raise InputError(f"{where}: {field}.action: expected one of {', '.join(ACTIONS[:3])}")
        points = entry.get("enforcementPoints")
        if not isinstance(points, list) or not points:
            raise InputError(f"{where}: {field}.enforcementPoints: expected a list of {{name}}")
        for m, point in enumerate(points):
            name = point.get("name") if isinstance(point, Mapping) else None
            if name not in ENFORCEMENT_POINTS:
                raise InputError(
                    f"{where}: {field}.enforcementPoints[{m}].name: {name!r} is not one of "
                    + ", ".join(ENFORCEMENT_POINTS)
                )
            audited = audited or name in AUDIT_POINTS
    return audited


def _check_wildcard(where: str, field: str, pattern: object) -> None:
    if not isinstance(pattern, str) or not _WILDCARD.match(pattern):
        raise InputError(
            f"{where}: {field}: {pattern!r} is not a Gatekeeper wildcard (a name with a '*' "
            "at the start, the end or both, nowhere else)"
        )


def _check_match(where: str, match: Mapping[str, Any]) -> None:
    for n, entry in enumerate(match.get("kinds") or []):
        if not isinstance(entry, Mapping) or not isinstance(entry.get("kinds", []), list):
            raise InputError(f"{where}: spec.match.kinds[{n}] is not {{apiGroups, kinds}}")
    for key in ("namespaces", "excludedNamespaces"):
        patterns = match.get(key) or []
        if not isinstance(patterns, list):
            raise InputError(f"{where}: spec.match.{key} is not a list")
        for n, pattern in enumerate(patterns):
            _check_wildcard(where, f"spec.match.{key}[{n}]", pattern)
    if match.get("name") is not None:
        _check_wildcard(where, "spec.match.name", match["name"])
    if match.get("scope", "*") not in SCOPES:
        raise InputError(
            f"{where}: spec.match.scope: {match['scope']!r} is not one of {', '.join(SCOPES)}"
        )
    for key in ("labelSelector", "namespaceSelector"):
        if not isinstance(match.get(key) or {}, Mapping):
            raise InputError(f"{where}: spec.match.{key} is not a label selector")


def _group(obj: Mapping[str, Any]) -> str:
    api = str(obj.get("apiVersion", ""))
    return api.split("/")[0] if "/" in api else ""


def _kinds_match(entries: Sequence[Mapping[str, Any]], obj: Mapping[str, Any]) -> bool:
    if not entries:
        return True
    group, kind = _group(obj), obj.get("kind")
    for entry in entries:
        # an empty (or absent) list matches any group or kind, as in Gatekeeper's matcher
        groups = entry.get("apiGroups") or ["*"]
        kinds = entry.get("kinds") or ["*"]
        if ("*" in groups or group in groups) and ("*" in kinds or kind in kinds):
            return True
    return False


def wildcard_matches(pattern: str, name: str) -> bool:
    """Gatekeeper's wildcard: ``*x*`` contains, ``*x`` a suffix, ``x*`` a prefix, else equal."""
    if len(pattern) > 1 and pattern.startswith("*") and pattern.endswith("*"):
        return pattern[1:-1] in name
    if pattern.startswith("*"):
        return name.endswith(pattern[1:])
    if pattern.endswith("*"):
        return name.startswith(pattern[:-1])
    return name == pattern


def _name_in(name: str, patterns: Sequence[str]) -> bool:
    return any(wildcard_matches(str(p), name) for p in patterns)


def _scope_matches(scope: str, is_namespace: bool, namespace: str) -> bool:
    # a Namespace is cluster-scoped; a namespaced object carries its namespace
    if scope == "Cluster":
        return is_namespace or not namespace
    if scope == "Namespaced":
        return not is_namespace and bool(namespace)
    return True


def _name_matches(pattern: str | None, meta: Mapping[str, Any]) -> bool:
    if not pattern:
        return True
    if wildcard_matches(pattern, str(meta.get("name") or "")):
        return True
    # an object named by generateName matches a prefix pattern on that prefix
    generated = str(meta.get("generateName") or "")
    return bool(generated) and pattern.endswith("*") and wildcard_matches(pattern, generated)


def matches(
    match: Mapping[str, Any], obj: Mapping[str, Any], namespaces: Mapping[str, Mapping[str, Any]]
) -> bool:
    """Whether a constraint's ``spec.match`` selects the object (``namespaces`` maps a namespace's
    name to its labels)."""
    meta = obj.get("metadata") or {}
    if not _kinds_match(match.get("kinds") or [], obj):
        return False
    if not selects(match.get("labelSelector") or {}, meta.get("labels") or {}):
        return False
    is_namespace = obj.get("kind") == "Namespace" and _group(obj) == ""
    if not _scope_matches(
        str(match.get("scope") or "*"), is_namespace, meta.get("namespace") or ""
    ):
        return False
    if not _name_matches(match.get("name"), meta):
        return False
    namespace = str(meta.get("name") if is_namespace else meta.get("namespace") or "")
    if not namespace:
        return True  # cluster-scoped: the namespace criteria do not apply
    if match.get("namespaces") and not _name_in(namespace, match["namespaces"]):
        return False
    if _name_in(namespace, match.get("excludedNamespaces") or []):
        return False
    labels = (meta.get("labels") or {}) if is_namespace else namespaces.get(namespace, {})
    return selects(match.get("namespaceSelector") or {}, labels)


def _review(obj: Mapping[str, Any]) -> dict[str, Any]:
    meta = obj.get("metadata") or {}
    api = str(obj.get("apiVersion", ""))
    group, _, version = api.rpartition("/")
    return {
        "kind": {"group": group, "version": version, "kind": obj.get("kind")},
        "name": meta.get("name"),
        "namespace": meta.get("namespace", ""),
        "operation": "CREATE",
        "object": obj,
    }


def _ref(obj: Mapping[str, Any]) -> ResourceRef:
    meta = obj.get("metadata") or {}
    return ResourceRef(str(obj.get("kind")), str(meta.get("namespace") or ""), _name(obj))


def served_objects(objects: Sequence[Manifest]) -> list[Manifest]:
    """What audit lists for an environment: what the offline cluster serves for the kinds it
    knows (with the ReplicaSets, Pods and Namespaces it derives), and objects of other kinds (a
    CRD's, the Gateway API's) as declared, since a cluster with their CRDs would serve them."""
    known = registry()
    custom = [
        o
        for o in objects
        if known.by_api_version(str(o.get("apiVersion", "")), str(o.get("kind", ""))) is None
    ]
    served = cluster_view([o for o in objects if all(o is not c for c in custom)])
    return served + [copy.deepcopy(o) for o in custom]


#: Every review of a template in one evaluation (Rego v0, as the template): the indices of the
#: reviews whose ``violation`` is non-empty
_AUDIT = """package itbench_audit

flagged[i] {
  review := input.reviews[i]
  count(data.PACKAGE.violation) > 0 with input as review
}
"""


def violations(templates: Sequence[Template], objects: Sequence[Manifest]) -> set[ResourceRef]:
    """The resources of the environment (as audit lists them) that some audited constraint
    matches and whose review gives a non-empty ``violation``."""
    from ciso.engines.rego import RegoError
    from ciso.evaluation.rego import evaluate_source

    served = served_objects(objects)
    namespaces = {
        _name(o): (o.get("metadata") or {}).get("labels") or {}
        for o in served
        if o.get("kind") == "Namespace"
    }
    failed: set[ResourceRef] = set()
    for template in templates:
        reviews: list[dict[str, Any]] = []
        refs: list[ResourceRef] = []
        for obj in served:
            for constraint in template.constraints:
                if constraint.audited and matches(constraint.match, obj, namespaces):
                    reviews.append(
                        {"review": _review(obj), "parameters": dict(constraint.parameters)}
                    )
                    refs.append(_ref(obj))
        if not reviews:
            continue
        audit = _AUDIT.replace("PACKAGE", template.package)
        modules = {**template.modules, "itbench-audit.rego": audit}
        try:
            result = evaluate_source(
                modules, "data.itbench_audit.flagged", {"reviews": reviews}, v0=True
            )
        except RegoError as exc:
            raise GatekeeperError(
                f"ConstraintTemplate/{template.name}: spec.targets[0].rego: {exc}"
            ) from None
        failed |= {refs[int(i)] for i in (result.value if result.defined else [])}
    return failed
