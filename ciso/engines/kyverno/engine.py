"""Apply policies to resources: one result per (policy, rule, resource) the rule matches."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ciso.engines.kyverno import conditions
from ciso.engines.kyverno.autogen import autogen_rules
from ciso.engines.kyverno.matching import Facts, rule_applies
from ciso.engines.kyverno.pattern.match import Mismatch, PatternSyntaxError, validate
from ciso.engines.kyverno.variables import VariableError, substitute

PASS, FAIL, SKIP, ERROR = "pass", "fail", "skip", "error"
POLICY_KINDS = ("ClusterPolicy", "Policy")


@dataclass(frozen=True)
class RuleResult:
    policy: str  # "name", or "namespace/name" for a namespaced Policy
    rule: str
    kind: str
    namespace: str
    name: str
    status: str
    message: str
    rule_type: str = "Validation"


@dataclass
class Context:
    """Values a rule's variables may read besides the resource (from a test's values file)."""

    global_values: dict[str, Any] = field(default_factory=dict)
    rule_values: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    resource_values: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    facts: Facts = field(default_factory=Facts)
    #: Objects a ``configMap`` context entry may read (the Kyverno CLI reads them from the test's
    #: resources, as the cluster would).
    config_maps: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)


def policy_id(policy: dict[str, Any]) -> str:
    meta = policy.get("metadata") or {}
    if policy.get("kind") == "Policy" and meta.get("namespace"):
        return f"{meta['namespace']}/{meta['name']}"
    return meta.get("name", "")


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
            image = str(c.get("image", ""))
            registry, _, rest = (
                image.partition("/")
                if "/" in image and ("." in image.split("/")[0] or ":" in image.split("/")[0])
                else ("docker.io", "", image)
            )
            path, _, tag = (
                rest.rpartition(":") if ":" in rest.split("/")[-1] else (rest, "", "latest")
            )
            entries[c.get("name", "")] = {
                "registry": registry,
                "path": path or rest,
                "name": (path or rest).split("/")[-1],
                "tag": tag,
                "reference": image,
            }
        if entries:
            out[group] = entries
    return out


_VARIABLE_FREE: dict[int, tuple[Any, bool]] = {}


def _resolve(pattern: Any, context: dict[str, Any]) -> Any:
    """Substitute variables in a pattern; most patterns have none, so remember which don't."""
    key = id(pattern)
    cached = _VARIABLE_FREE.get(key)
    if cached is None or cached[0] is not pattern:
        import json

        if len(_VARIABLE_FREE) > 10_000:
            _VARIABLE_FREE.clear()
        cached = _VARIABLE_FREE[key] = (pattern, "{{" not in json.dumps(pattern))
    return pattern if cached[1] else substitute(pattern, context)


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


def _context(
    policy: dict[str, Any], rule: dict[str, Any], resource: dict[str, Any], ctx: Context
) -> dict[str, Any]:
    meta = resource.get("metadata") or {}
    data: dict[str, Any] = {
        "request": {
            "object": resource,
            "oldObject": None,
            "operation": ctx.facts.operation,
            "namespace": meta.get("namespace", ""),
            "name": meta.get("name", ""),
            "userInfo": {"username": "", "groups": []},
        },
        # the images variable costs a walk of the spec: only build it for rules that use it
        "images": _images(resource) if _uses_images(rule) else {},
        "serviceAccountName": "",
        "serviceAccountNamespace": "",
    }
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
    values.update(ctx.resource_values.get((policy_id(policy), meta.get("name", "")), {}))
    for entry in rule.get("context") or []:
        name = entry.get("name")
        if not name:
            continue
        if any(key == name or key.startswith(name + ".") for key in values):
            continue  # the test's values provide it (possibly as "name.data.field")
        if "variable" in entry:
            variable = entry["variable"]
            try:
                value = substitute(variable.get("value"), data) if "value" in variable else None
                if "jmesPath" in variable:
                    from ciso.engines.kyverno.variables import evaluate

                    value = evaluate(variable["jmesPath"], data if value is None else value)
            except VariableError:
                value = None
            if value is None and "default" in variable:
                value = variable["default"]
            data[name] = value
        elif "configMap" in entry and isinstance(entry["configMap"], dict):
            ref = substitute(entry["configMap"], data)
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
                (
                    k
                    for k in ("apiCall", "configMap", "imageRegistry", "globalReference")
                    if k in entry
                ),
                "context",
            )
            raise VariableError(
                f"unsupported: context entry {kind} {name!r} without a value in the test's values"
            )
    for key, value in values.items():
        _nested_set(data, key, value)
    return data


def _fail_message(rule: dict[str, Any], context: dict[str, Any], detail: str) -> str:
    raw = (rule.get("validate") or {}).get("message", "")
    try:
        message = substitute(raw, context)
    except VariableError:
        message = raw
    return (
        f"validation error: {message}. rule {rule['name']} failed at path {detail}"
        if detail
        else f"validation error: {message}"
    )


def _validate_pattern(
    rule: dict[str, Any], resource: dict[str, Any], context: dict[str, Any]
) -> tuple[str, str]:
    spec = rule["validate"]
    if "pattern" in spec:
        pattern = _resolve(spec["pattern"], context)
        try:
            validate(resource, pattern)
        except Mismatch as exc:
            if exc.skip:
                return SKIP, f"rule {rule['name']} skipped: {exc.message}"
            return FAIL, _fail_message(rule, context, exc.path)
        return PASS, f"validation rule '{rule['name']}' passed."
    patterns = _resolve(spec["anyPattern"], context)
    failures, skipped = [], 0
    for i, pattern in enumerate(patterns):
        try:
            validate(resource, pattern)
            return PASS, f"validation rule '{rule['name']}' anyPattern[{i}] passed."
        except Mismatch as exc:
            if exc.skip:
                skipped += 1
            failures.append(f"rule {rule['name']}[{i}] failed at path {exc.path}")
    if skipped == len(patterns):
        return SKIP, f"rule {rule['name']} skipped: all patterns skipped"
    return FAIL, _fail_message(rule, context, "") + " " + " ".join(failures)


def _validate_deny(rule: dict[str, Any], context: dict[str, Any]) -> tuple[str, str]:
    deny = rule["validate"]["deny"] or {}
    if conditions.evaluate(deny.get("conditions"), context):
        return FAIL, _fail_message(rule, context, "")
    return PASS, f"validation rule '{rule['name']}' passed."


def _validate_foreach(
    rule: dict[str, Any],
    resource: dict[str, Any],
    context: dict[str, Any],
    entries: list[dict[str, Any]],
) -> tuple[str, str]:
    applied = 0
    for entry in entries:
        items = (
            substitute(
                "{{ " + entry["list"].strip().removeprefix("{{").removesuffix("}}").strip() + " }}",
                context,
            )
            if "list" in entry
            else []
        )
        if items is None:
            continue
        if not isinstance(items, list):
            items = [items]
        for index, element in enumerate(items):
            local = dict(context)
            local["element"] = element
            local["elementIndex"] = index
            local["@"] = element
            if not conditions.evaluate(entry.get("preconditions"), local):
                continue
            applied += 1
            if "foreach" in entry:
                status, message = _validate_foreach(rule, resource, local, entry["foreach"])
            elif "deny" in entry:
                status, message = (
                    (FAIL, _fail_message(rule, local, ""))
                    if conditions.evaluate((entry["deny"] or {}).get("conditions"), local)
                    else (PASS, "")
                )
            elif "pattern" in entry or "anyPattern" in entry:
                scope = entry.get("elementScope", isinstance(element, dict))
                target = element if scope else resource
                status, message = _validate_pattern(
                    {
                        "name": rule["name"],
                        "validate": {
                            **rule["validate"],
                            **{k: entry[k] for k in ("pattern", "anyPattern") if k in entry},
                        },
                    },
                    target,
                    local,
                )
                if status == SKIP:
                    continue
            else:
                raise VariableError(
                    "unsupported: foreach entry without pattern, anyPattern, deny or foreach"
                )
            if status == FAIL:
                return FAIL, message
    if applied == 0:
        return SKIP, f"rule {rule['name']} skipped: no foreach element applies"
    return PASS, f"validation rule '{rule['name']}' passed."


UNSUPPORTED_VALIDATE = ("podSecurity", "cel", "manifests", "assert")


def evaluate_rule(
    policy: dict[str, Any], rule: dict[str, Any], resource: dict[str, Any], ctx: Context
) -> tuple[str, str]:
    for kind in ("mutate", "generate", "verifyImages"):
        if kind in rule:
            return ERROR, f"unsupported: {kind} rules"
    spec = rule.get("validate")
    if not spec:
        return ERROR, "unsupported: rule with no validate block"
    for key in UNSUPPORTED_VALIDATE:
        if key in spec:
            return ERROR, f"unsupported: validate.{key}"
    try:
        if _plain_pattern_rule(rule):
            # no variables anywhere: validate first, build the context only to word a failure
            return _validate_plain(policy, rule, resource, ctx)
        context = _context(policy, rule, resource, ctx)
        if not conditions.evaluate(rule.get("preconditions"), context):
            return SKIP, "preconditions not met"
        if "foreach" in spec:
            return _validate_foreach(rule, resource, context, spec["foreach"])
        if "pattern" in spec or "anyPattern" in spec:
            return _validate_pattern(rule, resource, context)
        if "deny" in spec:
            return _validate_deny(rule, context)
        return ERROR, "a validate rule needs pattern, anyPattern, deny or foreach"
    except (VariableError, conditions.ConditionError, PatternSyntaxError) as exc:
        message = str(exc)
        return ERROR, message if message.startswith("unsupported") else f"rule error: {message}"


def _plain_pattern_rule(rule: dict[str, Any]) -> bool:
    spec = rule["validate"]
    return (
        "pattern" in spec
        and not rule.get("preconditions")
        and not rule.get("context")
        and _resolve(spec["pattern"], {}) is spec["pattern"]
    )


def _validate_plain(
    policy: dict[str, Any], rule: dict[str, Any], resource: dict[str, Any], ctx: Context
) -> tuple[str, str]:
    try:
        validate(resource, rule["validate"]["pattern"])
    except Mismatch as exc:
        if exc.skip:
            return SKIP, f"rule {rule['name']} skipped: {exc.message}"
        return FAIL, _fail_message(rule, _context(policy, rule, resource, ctx), exc.path)
    return PASS, f"validation rule '{rule['name']}' passed."


def _kind_prefilter(rule: dict[str, Any]) -> frozenset[str] | None:
    """The plain kind names a rule's match can accept, or None when a filter is not that simple
    (wildcards, group/version, admission filters): then every resource goes to full matching."""
    block = rule.get("match") or {}
    filters = (
        (block.get("any") or block.get("all"))
        if (block.get("any") or block.get("all"))
        else [block]
    )
    kinds: set[str] = set()
    for flt in filters:
        if not isinstance(flt, dict) or any(
            flt.get(k) for k in ("subjects", "roles", "clusterRoles")
        ):
            return None
        names = (flt.get("resources") or {}).get("kinds") or []
        if not names or any(("*" in k or "?" in k or "/" in k) for k in names):
            return None
        kinds.update(names)
    return frozenset(kinds) if block.get("any") or "resources" in block else None


def all_rules(policy: dict[str, Any]) -> list[dict[str, Any]]:
    own = list((policy.get("spec") or {}).get("rules") or [])
    return own + autogen_rules(policy)


def apply(
    policies: Sequence[dict[str, Any]],
    resources: Iterable[dict[str, Any]],
    ctx: Context | None = None,
) -> list[RuleResult]:
    ctx = ctx or Context()
    results = []
    resources = list(resources)
    for policy in policies:
        if policy.get("kind") not in POLICY_KINDS:
            continue
        rules = [(rule, _kind_prefilter(rule)) for rule in all_rules(policy)]
        policy_ns = (
            (policy.get("metadata") or {}).get("namespace")
            if policy.get("kind") == "Policy"
            else None
        )
        for resource in resources:
            meta = resource.get("metadata") or {}
            if policy_ns and meta.get("namespace", "default") != policy_ns:
                continue
            kind = resource.get("kind", "")
            for rule, kinds in rules:
                if kinds is not None and kind not in kinds:
                    continue  # cheap rejection before full matching
                if not rule_applies(rule, resource, ctx.facts):
                    continue
                status, message = evaluate_rule(policy, rule, resource, ctx)
                results.append(
                    RuleResult(
                        policy_id(policy),
                        rule["name"],
                        resource.get("kind", ""),
                        meta.get("namespace", ""),
                        meta.get("name", ""),
                        status,
                        message,
                    )
                )
    return results
