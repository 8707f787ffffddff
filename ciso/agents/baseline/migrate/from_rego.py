"""Gatekeeper templates with their constraints, and Rego of the kubectl-opa convention, as Kyverno
policies: the Rego's violation as one CEL expression (``rego_cel``), the constraint's ``match``
as the policy's match and match conditions.

Gatekeeper's match, as its audit reads it, and what it becomes:

- ``kinds`` (API groups and kinds, ``*`` for any): the kinds matched (a ClusterPolicy's
  ``group/*/Kind``, a ValidatingPolicy's resource rules);
- ``namespaces``, ``excludedNamespaces`` (with Gatekeeper's leading/trailing ``*``), ``scope``
  and ``name``: CEL match conditions on the object's namespace (a Namespace's own name; a
  cluster-scoped object passes the namespace criteria) and name;
- ``labelSelector``: the object selector; ``namespaceSelector``: the ValidatingPolicy's
  namespace selector, which treats Namespaces and cluster-scoped objects as Gatekeeper does. A
  ClusterPolicy's would not (Kyverno never selects a Namespace by it, and selects other
  cluster-scoped objects on no labels), so it is translated only when every matched kind is a
  namespaced one.

Kyverno's autogen is turned off: the constraint reviews the pod controllers themselves, and the
Rego reads them by their own paths. A Rego source reviews every object the cluster serves, so its
policy matches every kind.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ciso.agents.baseline.migrate import cel_text
from ciso.agents.baseline.migrate.jmespath_cel import NotTranslatable
from ciso.agents.baseline.migrate.kinds import BY_KIND
from ciso.agents.baseline.migrate.rego_cel import Program, Val, violation_cel
from ciso.agents.baseline.migrate.to_cel import AUTOGEN_ANNOTATION
from ciso.engines.rego.backends.regorus_backend import Regorus
from ciso.engines.rego.model import RegoError
from ciso.evaluation.gatekeeper import parse
from itbench.errors import InputError

_NAMESPACE = 'object.metadata.?namespace.orValue("")'
_IS_NAMESPACE = '(object.kind == "Namespace" && object.apiVersion == "v1")'


def _ast(modules: Mapping[str, str], v0: bool, where: str) -> list[dict[str, Any]]:
    """The modules parsed as the Rego engine's regorus backend parses them."""
    try:
        return Regorus(v0=v0).ast(modules)
    except RegoError as exc:
        raise NotTranslatable(f"{where}: the Rego does not parse: {exc}") from None


def _gatekeeper_input(parameters: Mapping[str, Any]) -> Val:
    review = Val(
        fields=(
            ("object", Val(cel="object")),
            ("name", Val(cel="object.metadata.name")),
            ("namespace", Val(cel=_NAMESPACE)),
            ("kind", Val(fields=(("kind", Val(cel="object.kind")),), closed="input.review.kind")),
        ),
        closed="input.review",
    )
    return Val(
        fields=(("review", review), ("parameters", Val(const=dict(parameters)))), closed="input"
    )


def _glob(pattern: str, text: str) -> str:
    """Gatekeeper's wildcard as CEL on ``text``."""
    if len(pattern) > 1 and pattern.startswith("*") and pattern.endswith("*"):
        return f"{text}.contains({cel_text.string(pattern[1:-1])})"
    if pattern.startswith("*"):
        return f"{text}.endsWith({cel_text.string(pattern[1:])})"
    if pattern.endswith("*"):
        return f"{text}.startsWith({cel_text.string(pattern[:-1])})"
    return f"{text} == {cel_text.string(pattern)}"


def _any_glob(patterns: Sequence[Any], text: str) -> str:
    return " || ".join(f"({_glob(str(p), text)})" for p in patterns) or "false"


def _conditions(match: Mapping[str, Any]) -> list[dict[str, str]]:
    namespace = f"({_IS_NAMESPACE} ? object.metadata.name : {_NAMESPACE})"
    out: list[dict[str, str]] = []
    if match.get("namespaces"):
        text = f'{namespace} == "" || {_any_glob(match["namespaces"], namespace)}'
        out.append({"name": "namespaces", "expression": text})
    if match.get("excludedNamespaces"):
        text = f'{namespace} == "" || !({_any_glob(match["excludedNamespaces"], namespace)})'
        out.append({"name": "excluded-namespaces", "expression": text})
    scope = str(match.get("scope") or "*")
    if scope == "Namespaced":
        text = f'!{_IS_NAMESPACE} && {_NAMESPACE} != ""'
        out.append({"name": "namespaced", "expression": text})
    elif scope == "Cluster":
        out.append({"name": "cluster", "expression": f'{_IS_NAMESPACE} || {_NAMESPACE} == ""'})
    if match.get("name"):
        out.append(
            {"name": "name", "expression": _glob(str(match["name"]), "object.metadata.name")}
        )
    return out


def _kinds(match: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(API group or ``*``, kind or ``*``) the constraint matches."""
    entries = match.get("kinds")
    if not entries:
        return [("*", "*")]
    out: list[tuple[str, str]] = []
    for entry in entries:
        groups = entry.get("apiGroups") or ["*"]
        kinds = entry.get("kinds") or ["*"]
        out += [(str(g), str(k)) for g in groups for k in kinds]
    return out


def _check_selector(selector: Any, where: str) -> None:
    for value in (selector or {}).get("matchLabels", {}).values():
        if "*" in str(value) or "?" in str(value):
            raise NotTranslatable(f"{where}: a label value with a wildcard ({value!r})")


def _cluster_policy(
    name: str,
    kinds: list[tuple[str, str]],
    match: Mapping[str, Any],
    violation: str,
    message: str,
) -> dict[str, Any]:
    names = []
    for group, kind in kinds:
        if group == "*" and kind == "*":
            names.append("*")
        elif group == "":
            names.append(kind)
        else:
            names.append(f"{group}/*/{kind}")
    resources: dict[str, Any] = {"kinds": sorted(set(names))}
    if match.get("labelSelector"):
        _check_selector(match["labelSelector"], name)
        resources["selector"] = match["labelSelector"]
    if match.get("namespaceSelector"):
        # cluster-scoped, unknown or any kind: the registry of served kinds says which are which
        if any(k not in BY_KIND or not BY_KIND[k].namespaced for _, k in kinds):
            raise NotTranslatable(
                f"{name}: a namespaceSelector over kinds that may be cluster-scoped (Kyverno's "
                "ClusterPolicy selects those on no labels, Gatekeeper lets them through)"
            )
        resources["namespaceSelector"] = match["namespaceSelector"]
    rule: dict[str, Any] = {
        "name": name[:63],
        "match": {"any": [{"resources": resources}]},
        "validate": {
            "cel": {"expressions": [{"expression": f"!({violation})", "message": message}]}
        },
    }
    conditions = _conditions(match)
    if conditions:
        rule["celPreconditions"] = conditions
    return {
        "apiVersion": "kyverno.io/v1",
        "kind": "ClusterPolicy",
        "metadata": {"name": name, "annotations": {AUTOGEN_ANNOTATION: "none"}},
        "spec": {"validationFailureAction": "Audit", "background": True, "rules": [rule]},
    }


def _validating_policy(
    name: str,
    kinds: list[tuple[str, str]],
    match: Mapping[str, Any],
    violation: str,
    message: str,
) -> dict[str, Any]:
    grouped: dict[tuple[str, str], list[str]] = {}
    for group, kind in kinds:
        if kind == "*":
            grouped.setdefault((group, "*"), []).append("*")
            continue
        known = BY_KIND.get(kind)
        if known is None or group not in (known.group, "*"):
            raise NotTranslatable(f"{name}: the kind {group}/{kind} (no API resource known)")
        grouped.setdefault((known.group, known.version), []).append(known.resource)
    rules = [
        {
            "apiGroups": [group],
            "apiVersions": [version],
            "operations": ["CREATE", "UPDATE"],
            "resources": sorted(set(resources)),
        }
        for (group, version), resources in grouped.items()
    ]
    constraints: dict[str, Any] = {"resourceRules": rules}
    if match.get("labelSelector"):
        constraints["objectSelector"] = match["labelSelector"]
    if match.get("namespaceSelector"):
        constraints["namespaceSelector"] = match["namespaceSelector"]
    spec: dict[str, Any] = {
        "validationActions": ["Audit"],
        "evaluation": {"background": {"enabled": True}},
        "autogen": {"podControllers": {"controllers": []}},
        "matchConstraints": constraints,
        "validations": [{"expression": f"!({violation})", "message": message}],
    }
    conditions = _conditions(match)
    if conditions:
        spec["matchConditions"] = conditions
    return {
        "apiVersion": "policies.kyverno.io/v1",
        "kind": "ValidatingPolicy",
        "metadata": {"name": name},
        "spec": spec,
    }


def _policy(
    target: str, name: str, match: Mapping[str, Any], violation: str, message: str
) -> dict[str, Any]:
    kinds = _kinds(match)
    build = _validating_policy if target == "validating-policy" else _cluster_policy
    return build(name, kinds, match, violation, message)


def from_gatekeeper(
    path: Path, documents: Sequence[Mapping[str, Any]], target: str
) -> list[dict[str, Any]]:
    """One policy per constraint audit reports."""
    try:
        templates = parse(path, documents)
    except InputError as exc:
        raise NotTranslatable(str(exc)) from None
    policies = []
    for template in templates:
        ast = _ast(template.modules, v0=True, where=f"ConstraintTemplate/{template.name}")
        for constraint in template.constraints:
            if not constraint.audited:
                continue  # Gatekeeper's audit reports nothing of it: nor should the answer
            program = Program.from_ast(ast, _gatekeeper_input(constraint.parameters))
            violation = violation_cel(program, template.package, "violation")
            message = f"{template.kind} {constraint.name}: the object violates the constraint"
            policies.append(_policy(target, constraint.name, constraint.match, violation, message))
    if not policies:
        raise NotTranslatable(f"{path}: no constraint Gatekeeper's audit reports")
    return policies


def from_rego(path: Path, text: str, target: str) -> list[dict[str, Any]]:
    """The kubectl-opa convention: the object is the whole input, and it violates the control
    when ``data.check.result`` is false."""
    ast = _ast({path.name: text}, v0=False, where=str(path))
    program = Program.from_ast(ast, Val(cel="object"))
    violation = violation_cel(program, "check", "result", False)
    message = f"{path.name}: data.check.result is false for the object"
    return [_policy(target, "migrated-rego-check", {}, violation, message)]
