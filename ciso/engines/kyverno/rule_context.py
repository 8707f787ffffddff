"""The variables a rule sees: ``request`` (object, oldObject, operation, user), ``images``,
the service account, the test's values, and the rule's own ``context`` entries (``variable``
with Kyverno's default and null rules; ``configMap`` from the test's resources; ``apiCall``,
``imageRegistry`` and ``globalReference`` only from the test's values, offline)."""

from __future__ import annotations

import copy
from typing import Any

from ciso.engines.kyverno.errors import RuleError
from ciso.engines.kyverno.jmespath.images import image_info
from ciso.engines.kyverno.jmespath.strings import FunctionError
from ciso.engines.kyverno.model import Context, policy_id
from ciso.engines.kyverno.variables import VariableError, substitute


def _nested_set(target: dict[str, Any], dotted: str, value: Any) -> None:
    parts = dotted.split(".")
    for part in parts[:-1]:
        target = target.setdefault(part, {})
    target[parts[-1]] = value


def _images(resource: dict[str, Any]) -> dict[str, Any]:
    """The built-in ``images`` variable: containers, initContainers, ephemeralContainers by name."""
    spec = resource.get("spec") or {}
    for path in (("template", "spec"), ("jobTemplate", "spec", "template", "spec")):
        inner = spec
        for key in path:
            inner = (inner or {}).get(key) if isinstance(inner, dict) else None
        if isinstance(inner, dict) and inner.get("containers"):
            spec = inner
            break
    out: dict[str, Any] = {}
    for group in ("containers", "initContainers", "ephemeralContainers"):
        entries = {}
        for c in spec.get(group) or []:
            if not isinstance(c, dict) or not isinstance(c.get("image"), str):
                continue
            try:
                entries[c.get("name", "")] = image_info(c["image"])
            except FunctionError:
                continue  # Kyverno leaves out images it cannot parse
        if entries:
            out[group] = entries
    return out


def _uses_images(rule: dict[str, Any]) -> bool:
    key = id(rule)
    cached = _IMAGES_CACHE.get(key)
    if cached is None or cached[0] is not rule:
        import json

        if len(_IMAGES_CACHE) > 10_000:  # a long-lived cluster hook must not grow without bound
            _IMAGES_CACHE.clear()
        cached = _IMAGES_CACHE[key] = (rule, "images" in json.dumps(rule))
    return cached[1]


_IMAGES_CACHE: dict[int, tuple[dict[str, Any], bool]] = {}


def _service_account(username: str) -> dict[str, str]:
    """Kyverno's serviceAccountName/Namespace variables, from a service account's user name."""
    parts = username.split(":")
    if len(parts) == 4 and parts[:2] == ["system", "serviceaccount"]:
        return {"serviceAccountName": parts[3], "serviceAccountNamespace": parts[2]}
    return {"serviceAccountName": "", "serviceAccountNamespace": ""}


def build(
    policy: dict[str, Any],
    rule: dict[str, Any],
    resource: dict[str, Any],
    ctx: Context,
    operation: str = "CREATE",
) -> dict[str, Any]:
    meta = resource.get("metadata") or {}
    data: dict[str, Any] = {
        "request": {
            "object": resource,
            # As the Kyverno CLI simulates them: an UPDATE's old object is the resource itself, and
            # a DELETE's variables read the old object (Kyverno rewrites request.object to it).
            "oldObject": copy.deepcopy(resource) if operation in ("UPDATE", "DELETE") else None,
            "operation": operation,
            "namespace": meta.get("namespace", ""),
            "name": meta.get("name", ""),
            "userInfo": {
                "username": ctx.facts.user.username,
                "groups": list(ctx.facts.user.groups),
            },
            "roles": list(ctx.facts.user.roles),
            "clusterRoles": list(ctx.facts.user.cluster_roles),
        },
        # the images variable costs a walk of the spec: only build it for rules that use it
        "images": _images(resource) if _uses_images(rule) else {},
        **_service_account(ctx.facts.user.username),
    }
    values = test_values(policy, rule, resource, ctx)
    for index, entry in enumerate(rule.get("context") or []):
        try:
            load_entry(entry, data, values, ctx)
        except RuleError as exc:
            raise exc.at("context", index) from None
    for key, value in values.items():
        _nested_set(data, key, value)
    # the simulated operation wins over the values file: the old-object check of an UPDATE runs
    # as a CREATE although the values say UPDATE
    data["request"]["operation"] = operation
    return data


def test_values(
    policy: dict[str, Any], rule: dict[str, Any], resource: dict[str, Any], ctx: Context
) -> dict[str, Any]:
    """The test's values for this rule and resource: global, then per rule, then per resource."""
    values = {**ctx.global_values}
    values.update(
        ctx.rule_values.get(
            (
                policy_id(policy),
                rule["name"].removeprefix("autogen-cronjob-").removeprefix("autogen-"),
            ),
            {},
        )
    )
    name = (resource.get("metadata") or {}).get("name", "")
    values.update(ctx.resource_values.get((policy_id(policy), name), {}))
    return values


def _variable_entry(name: str, variable: Any, data: dict[str, Any]) -> Any:
    """A ``variable`` context entry as Kyverno loads it: ``jmesPath`` (itself substituted) applied
    to ``value`` or to the whole context; ``default`` when that fails or finds nothing; null is an
    error."""
    from ciso.engines.kyverno.variables import evaluate

    if not isinstance(variable, dict):
        raise VariableError("must be an object with value, jmesPath or default")
    path = ""
    if variable.get("jmesPath"):
        try:
            path = substitute(variable["jmesPath"], data)
        except RuleError as exc:
            raise exc.at("jmesPath") from None
        if not isinstance(path, str):
            raise VariableError("jmesPath must be a string").at("jmesPath")
    try:
        default = substitute(variable["default"], data) if "default" in variable else None
    except RuleError as exc:
        raise exc.at("default") from None
    output = default
    if "value" in variable:
        try:
            value = substitute(variable["value"], data)
        except RuleError as exc:
            raise exc.at("value") from None
        if not path:
            output = value
        else:
            try:
                output = evaluate(path, value)
            except VariableError as exc:
                if default is None:
                    raise exc.at("jmesPath") from None
    elif path:
        try:
            found = evaluate(path, data)
            if found is not None:
                output = found
        except VariableError as exc:
            if default is None:
                raise exc.at("jmesPath") from None
    if output is None:
        raise VariableError(f"context variable {name!r} evaluated to null and has no default")
    return output


def load_entry(entry: Any, data: dict[str, Any], values: dict[str, Any], ctx: Context) -> None:
    """Load one context entry into ``data`` (unless the test's values provide it)."""
    if not isinstance(entry, dict):
        raise VariableError("a context entry must be an object")
    name = entry.get("name")
    if not name:
        raise VariableError("a context entry needs a name").at("name")
    if any(key == name or key.startswith(name + ".") for key in values):
        return  # the test's values provide it (possibly as "name.data.field")
    if "variable" in entry:
        try:
            data[name] = _variable_entry(name, entry["variable"], data)
        except RuleError as exc:
            raise exc.at("variable") from None
    elif "configMap" in entry and isinstance(entry["configMap"], dict):
        try:
            ref = substitute(entry["configMap"], data)
        except RuleError as exc:
            raise exc.at("configMap") from None
        where = (str(ref.get("namespace") or "default"), str(ref.get("name")))
        found = ctx.config_maps.get(where)
        if found is None:
            raise VariableError(
                f"unsupported: context entry configMap {name!r}: ConfigMap {where[0]}/{where[1]} "
                "is neither in the test's values nor among its resources"
            )
        data[name] = found
    else:
        kind = next(
            (k for k in ("apiCall", "configMap", "imageRegistry", "globalReference") if k in entry),
            "context",
        )
        raise VariableError(
            f"unsupported: context entry {kind} {name!r} without a value in the test's values"
        )
