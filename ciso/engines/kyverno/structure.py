"""The shape a policy must have before it is evaluated (Kyverno validates policies on admission
and the CLI refuses ill-formed ones): maps where maps belong, lists where lists belong, one rule
type per rule. A wrong shape is a ``PolicyError`` naming the policy, the rule and the path."""

from __future__ import annotations

from typing import Any

from ciso.engines.kyverno.errors import RuleError
from ciso.engines.kyverno.schema import RULE_TYPES
from itbench.errors import InputError


class PolicyError(InputError):
    """A policy that cannot be evaluated as written."""


def _expect(value: Any, kind: type | tuple[type, ...], what: str, *path: str | int) -> None:
    if not isinstance(value, kind):
        raise RuleError(f"must be {what}, not {type(value).__name__}").at(*path)


def _filter_block(block: Any, name: str) -> None:
    """A match/exclude block: any/all lists of filters, or one filter."""
    _expect(block, dict, "a map", name)
    filters: list[tuple[str | None, int | None, Any]] = [
        (k, i, f) for k in ("any", "all") for i, f in enumerate(_list(block, k, name))
    ]
    for key, i, flt in filters or [(None, None, block)]:
        path: tuple[str | int, ...] = (name,) if key is None or i is None else (name, key, i)
        _expect(flt, dict, "a map", *path)
        resources = flt.get("resources")
        if resources is not None:
            _expect(resources, dict, "a map", *path, "resources")
            for field in ("kinds", "names", "namespaces", "operations"):
                values = resources.get(field)
                if values is not None:
                    _expect(values, list, "a list", *path, "resources", field)
            for field in ("selector", "namespaceSelector", "annotations"):
                if resources.get(field) is not None:
                    _expect(resources[field], dict, "a map", *path, "resources", field)
        for field in ("subjects", "roles", "clusterRoles"):
            if flt.get(field) is not None:
                _expect(flt[field], list, "a list", *path, field)


def _list(block: dict[str, Any], key: str, *path: str | int) -> list[Any]:
    value = block.get(key)
    if value is None:
        return []
    _expect(value, list, "a list", *path, key)
    return value


def _conditions(block: Any, *path: str | int) -> None:
    if block is None or isinstance(block, list):
        return
    _expect(block, dict, "a map with any/all or a list", *path)
    for key in ("any", "all"):
        _list(block, key, *path)


def _foreach(entries: Any, *path: str | int) -> None:
    _expect(entries, list, "a list", *path)
    for i, entry in enumerate(entries):
        _expect(entry, dict, "a map", *path, i)
        _conditions(entry.get("preconditions"), *path, i, "preconditions")
        if entry.get("context") is not None:
            _expect(entry["context"], list, "a list", *path, i, "context")
        if entry.get("foreach") is not None:
            _foreach(entry["foreach"], *path, i, "foreach")


def check_rule(rule: Any) -> None:
    """Raise RuleError (located inside the rule) for a shape the engine cannot evaluate."""
    _expect(rule, dict, "a map")
    _expect(rule.get("name"), str, "a string", "name")
    if rule.get("match") is None:
        raise RuleError("a rule needs a match block").at("match")
    _filter_block(rule["match"], "match")
    if rule.get("exclude") is not None:
        _filter_block(rule["exclude"], "exclude")
    _conditions(rule.get("preconditions"), "preconditions")
    for i, entry in enumerate(_list(rule, "context")):
        _expect(entry, dict, "a map", "context", i)
    types = [t for t in RULE_TYPES if t in rule]
    if len(types) != 1:
        raise RuleError(
            "a rule needs exactly one of validate, mutate, generate or verifyImages"
            + (f" (has {', '.join(types)})" if types else "")
        )
    block = rule[types[0]]
    _expect(block, dict if types[0] != "verifyImages" else (list, dict), "a map", types[0])
    if types[0] == "validate":
        if block.get("deny") is not None:
            _expect(block["deny"], dict, "a map", "validate", "deny")
            _conditions(block["deny"].get("conditions"), "validate", "deny", "conditions")
        if block.get("anyPattern") is not None:
            _expect(block["anyPattern"], list, "a list", "validate", "anyPattern")
        if block.get("foreach") is not None:
            _foreach(block["foreach"], "validate", "foreach")
        if block.get("podSecurity") is not None:
            _expect(block["podSecurity"], dict, "a map", "validate", "podSecurity")
    elif types[0] == "mutate":
        if block.get("patchStrategicMerge") is not None:
            _expect(block["patchStrategicMerge"], dict, "a map", "mutate", "patchStrategicMerge")
        if block.get("foreach") is not None:
            _foreach(block["foreach"], "mutate", "foreach")
    elif types[0] == "generate" and block.get("foreach") is not None:
        _foreach(block["foreach"], "generate", "foreach")


def check_policy(policy: dict[str, Any], name: str, source: str = "") -> None:
    """Raise PolicyError naming the file, policy, rule and path of the first wrong shape."""
    where = f"{source}: " if source else ""
    spec = policy.get("spec")
    if not isinstance(spec, dict) or not isinstance(spec.get("rules"), list):
        raise PolicyError(f"{where}policy {name}: spec.rules must be a list of rules")
    for index, rule in enumerate(spec["rules"]):
        try:
            check_rule(rule)
        except RuleError as exc:
            label = rule.get("name") if isinstance(rule, dict) else None
            at = exc.where()
            raise PolicyError(
                f"{where}policy {name}, rule {label or index}: "
                + (f"{at}: {exc.message}" if at else exc.message)
            ) from None
