"""Apply policies to resources: one result per (policy, rule, resource) the rule matches."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ciso.engines.kyverno import conditions, exceptions, generation, mutation
from ciso.engines.kyverno.autogen import autogen_rules
from ciso.engines.kyverno.errors import RuleError
from ciso.engines.kyverno.jmespath.images import image_info
from ciso.engines.kyverno.jmespath.strings import FunctionError
from ciso.engines.kyverno.matching import Facts, rule_applies
from ciso.engines.kyverno.pattern.match import Mismatch, validate
from ciso.engines.kyverno.podsecurity import validate_pod_security
from ciso.engines.kyverno.structure import check_policy
from ciso.engines.kyverno.validation import (
    ERROR,
    FAIL,
    PASS,
    SKIP,
    check_block,
    fail_message,
    resolve,
)
from ciso.engines.kyverno.variables import VariableError, substitute

__all__ = ["ERROR", "FAIL", "PASS", "SKIP", "Context", "RuleResult", "apply", "evaluate_rule"]
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
    #: for a mutate rule, the resource after it (and the policy's earlier mutate rules)
    patched: dict[str, Any] | None = field(default=None, compare=False, repr=False)
    #: for a generate rule, the objects it would create
    generated: tuple[dict[str, Any], ...] | None = field(default=None, compare=False, repr=False)


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
    #: Objects a generate rule may clone (the test's resources, as the cluster would hold them).
    objects: list[dict[str, Any]] = field(default_factory=list)
    #: PolicyExceptions in force.
    exceptions: list[dict[str, Any]] = field(default_factory=list)


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


def _exceptions_for(
    policy: dict[str, Any],
    rule: dict[str, Any],
    resource: dict[str, Any],
    ctx: Context,
    context: dict[str, Any],
    operation: str,
) -> list[dict[str, Any]]:
    if not ctx.exceptions:
        return []
    facts = replace(ctx.facts, operation=operation)
    return exceptions.matching(
        ctx.exceptions, policy_id(policy), rule["name"], resource, facts, context
    )


def operation_for(policy: dict[str, Any], resource: dict[str, Any], ctx: Context) -> str:
    """The admission operation simulated for this resource: ``request.operation`` from the test's
    values (per resource, else global), else the context's default (CREATE)."""
    name = (resource.get("metadata") or {}).get("name", "")
    for values in (ctx.resource_values.get((policy_id(policy), name)), ctx.global_values):
        if values and values.get("request.operation"):
            return str(values["request.operation"]).upper()
    return ctx.facts.operation


def _context(
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
    values = _values(policy, rule, resource, ctx)
    for index, entry in enumerate(rule.get("context") or []):
        try:
            _load_entry(entry, data, values, ctx)
        except RuleError as exc:
            raise exc.at("context", index) from None
    for key, value in values.items():
        _nested_set(data, key, value)
    # the simulated operation wins over the values file: the old-object check of an UPDATE runs
    # as a CREATE although the values say UPDATE
    data["request"]["operation"] = operation
    return data


def _values(
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


def _load_entry(entry: Any, data: dict[str, Any], values: dict[str, Any], ctx: Context) -> None:
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


UNSUPPORTED_VALIDATE = ("cel", "manifests", "assert")


def _enforced(policy: dict[str, Any], rule: dict[str, Any]) -> bool:
    action = (rule.get("validate") or {}).get("failureAction") or (policy.get("spec") or {}).get(
        "validationFailureAction", "Audit"
    )
    return str(action).lower() == "enforce"


def evaluate_rule(
    policy: dict[str, Any],
    rule: dict[str, Any],
    resource: dict[str, Any],
    ctx: Context,
    operation: str = "CREATE",
) -> tuple[str, str] | None:
    """(status, message) of one rule on one resource, or None when Kyverno gives no response
    (a pattern on a DELETE request)."""
    outcome = _evaluate_rule(policy, rule, resource, ctx, operation)
    if (
        outcome is not None
        and outcome[0] == FAIL
        and operation == "UPDATE"
        and _enforced(policy, rule)
        and (rule.get("validate") or {}).get("allowExistingViolations", True)
    ):
        # Enforce on UPDATE lets a violation through when the old object already had it; the CLI's
        # old object is the resource itself, checked as if it were being created.
        facts = replace(ctx.facts, operation="CREATE")
        if rule_applies(rule, resource, facts):
            prior = _evaluate_rule(policy, rule, resource, ctx, "CREATE")
            if prior is not None and prior[0] == FAIL:
                return SKIP, "skipping the rule evaluation as pre-existing violations are allowed"
    return outcome


def _evaluate_rule(
    policy: dict[str, Any],
    rule: dict[str, Any],
    resource: dict[str, Any],
    ctx: Context,
    operation: str,
) -> tuple[str, str] | None:
    if "verifyImages" in rule:
        return ERROR, "unsupported: verifyImages rules"
    spec = rule.get("validate")
    if not spec:
        return ERROR, "unsupported: rule with no validate block"
    for key in UNSUPPORTED_VALIDATE:
        if key in spec:
            return ERROR, f"unsupported: validate.{key}"
    try:
        if operation != "DELETE" and not ctx.exceptions and _plain_pattern_rule(rule):
            # no variables anywhere: validate first, build the context only to word a failure
            return _validate_plain(policy, rule, resource, ctx)
        prepared = _prepare(policy, rule, resource, ctx, operation)
        if prepared is None:
            return SKIP, "preconditions not met"
        context, excepted, load_context = prepared
        if "podSecurity" in spec:
            if operation == "DELETE":
                return None  # Kyverno does not check a deleted pod
            if excepted and exceptions.pod_security_exclusions(excepted) is not None:
                return validate_pod_security(
                    rule,
                    resource,
                    exceptions.pod_security_exclusions(excepted),
                    exceptions.names(excepted),
                )
        if excepted:
            return SKIP, _excepted_message(excepted)
        if "podSecurity" in spec:
            return validate_pod_security(rule, resource)
        try:
            return check_block(
                rule, spec, resource, context, load_context, deleting=operation == "DELETE"
            )
        except RuleError as exc:
            raise exc.at("validate") from None
    except RuleError as exc:
        return ERROR, _error_message(exc)


def _prepare(
    policy: dict[str, Any],
    rule: dict[str, Any],
    resource: dict[str, Any],
    ctx: Context,
    operation: str,
) -> (
    tuple[dict[str, Any], list[dict[str, Any]], Callable[[list[Any], dict[str, Any]], None]] | None
):
    """What every rule type needs before its own work: the variable context, the matching
    PolicyExceptions and a loader for foreach context entries; None when the preconditions do
    not hold."""
    context = _context(policy, rule, resource, ctx, operation)
    try:
        holds = conditions.evaluate(rule.get("preconditions"), context)
    except RuleError as exc:
        raise exc.at("preconditions") from None
    if not holds:
        return None
    excepted = _exceptions_for(policy, rule, resource, ctx, context, operation)
    values = _values(policy, rule, resource, ctx)

    def load_context(entries: list[Any], data: dict[str, Any]) -> None:
        for index, entry in enumerate(entries):
            try:
                _load_entry(entry, data, values, ctx)
            except RuleError as exc:
                raise exc.at(index) from None

    return context, excepted, load_context


def _error_message(exc: RuleError) -> str:
    where = exc.where()
    if exc.message.startswith("unsupported"):
        return f"{exc.message} (at {where})" if where else exc.message
    return f"rule error at {where}: {exc.message}" if where else exc.message


def _excepted_message(excepted: list[dict[str, Any]]) -> str:
    return f"rule is skipped due to policy exception {exceptions.names(excepted)}"


def generate_rule(
    policy: dict[str, Any],
    rule: dict[str, Any],
    resource: dict[str, Any],
    ctx: Context,
    operation: str = "CREATE",
) -> tuple[str, str, tuple[dict[str, Any], ...]]:
    """(status, message, generated objects) of one generate rule on a trigger."""
    try:
        prepared = _prepare(policy, rule, resource, ctx, operation)
        if prepared is None:
            return SKIP, "preconditions not met", ()
        context, excepted, load_context = prepared
        if excepted:
            return SKIP, _excepted_message(excepted), ()
        made = generation.generate(
            rule, context, generation.cluster_lookup(ctx.objects), load_context
        )
        names = ", ".join(f"{g.get('kind')}/{(g.get('metadata') or {}).get('name')}" for g in made)
        return PASS, f"created {names}" if names else "nothing to generate", tuple(made)
    except RuleError as exc:
        return ERROR, _error_message(exc), ()


def mutate_rule(
    policy: dict[str, Any],
    rule: dict[str, Any],
    resource: dict[str, Any],
    ctx: Context,
    operation: str = "CREATE",
) -> tuple[str, str, dict[str, Any]]:
    """(status, message, resource after the rule) of one mutate rule."""
    try:
        prepared = _prepare(policy, rule, resource, ctx, operation)
        if prepared is None:
            return SKIP, "preconditions not met", resource
        context, excepted, load_context = prepared
        if excepted:
            return SKIP, _excepted_message(excepted), resource
        outcome = mutation.mutate(rule, resource, context, load_context)
        return outcome.status, outcome.message, outcome.patched
    except RuleError as exc:
        return ERROR, _error_message(exc), resource


def _plain_pattern_rule(rule: dict[str, Any]) -> bool:
    spec = rule["validate"]
    return (
        "pattern" in spec
        and not rule.get("preconditions")
        and not rule.get("context")
        and resolve(spec["pattern"], {}) is spec["pattern"]
    )


def _validate_plain(
    policy: dict[str, Any], rule: dict[str, Any], resource: dict[str, Any], ctx: Context
) -> tuple[str, str]:
    try:
        validate(resource, rule["validate"]["pattern"])
    except RuleError as exc:
        raise exc.at("validate", "pattern") from None
    except Mismatch as exc:
        if exc.skip:
            return SKIP, f"rule {rule['name']} skipped: {exc.message}"
        return FAIL, fail_message(rule, _context(policy, rule, resource, ctx), exc.path)
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


def _rule_type(rule: dict[str, Any]) -> str:
    if "mutate" in rule:
        return "Mutation"
    if "generate" in rule:
        return "Generation"
    return "Validation"


def _locate(
    message: str, policy: dict[str, Any], rule: dict[str, Any], sources: Mapping[str, str]
) -> str:
    """An error message naming the policy's file, the policy and the rule."""
    pid = policy_id(policy)
    where = f"{sources[pid]}: " if pid in sources else ""
    located = f"{where}policy {pid}, rule {rule['name']}"
    # "unsupported: ..." stays first: runners and readers sort errors by it
    return (
        f"{message} ({located})" if message.startswith("unsupported") else f"{located}: {message}"
    )


def apply(
    policies: Sequence[dict[str, Any]],
    resources: Iterable[dict[str, Any]],
    ctx: Context | None = None,
    sources: Mapping[str, str] | None = None,
) -> list[RuleResult]:
    """Every rule of every policy on every resource it matches. ``sources`` maps a policy id to
    the file it came from, so that a rule error names the file too. A policy of the wrong shape
    raises PolicyError (naming file, policy, rule and path) before anything is evaluated."""
    ctx = ctx or Context()
    sources = sources or {}
    results = []
    resources = list(resources)
    for policy in policies:
        if policy.get("kind") not in POLICY_KINDS:
            continue
        pid = policy_id(policy)
        check_policy(policy, pid, sources.get(pid, ""))
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
            operation = operation_for(policy, resource, ctx)
            facts = (
                ctx.facts
                if operation == ctx.facts.operation
                else replace(ctx.facts, operation=operation)
            )
            # as Kyverno: the policy's mutate rules first, in order, each on the resource as
            # patched so far; then its other rules on the patched resource
            target = resource
            for rule, kinds in sorted(rules, key=lambda pair: "mutate" not in pair[0]):
                if kinds is not None and kind not in kinds:
                    continue  # cheap rejection before full matching
                if not rule_applies(rule, target, facts):
                    continue
                patched, generated = None, None
                if "mutate" in rule:
                    status, message, target = mutate_rule(policy, rule, target, ctx, operation)
                    patched = target
                elif "generate" in rule:
                    status, message, generated = generate_rule(policy, rule, target, ctx, operation)
                else:
                    outcome = evaluate_rule(policy, rule, target, ctx, operation)
                    if outcome is None:
                        continue
                    status, message = outcome
                if status == ERROR:
                    message = _locate(message, policy, rule, sources)
                results.append(
                    RuleResult(
                        policy_id(policy),
                        rule["name"],
                        resource.get("kind", ""),
                        meta.get("namespace", ""),
                        meta.get("name", ""),
                        status,
                        message,
                        _rule_type(rule),
                        patched,
                        generated,
                    )
                )
    return results
