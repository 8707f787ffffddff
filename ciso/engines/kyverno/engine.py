"""Apply policies to resources: one result per (policy, rule, resource) the rule matches."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ciso.engines.kyverno import conditions, exceptions, generation, mutation, rule_context
from ciso.engines.kyverno.autogen import autogen_rules
from ciso.engines.kyverno.errors import RuleError
from ciso.engines.kyverno.matching import rule_applies
from ciso.engines.kyverno.model import Context, RuleResult, policy_id
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

__all__ = [
    "ERROR",
    "FAIL",
    "PASS",
    "SKIP",
    "Context",
    "RuleResult",
    "apply",
    "evaluate_rule",
    "policy_id",
]
POLICY_KINDS = ("ClusterPolicy", "Policy")


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
    if ctx.operation:
        return ctx.operation
    name = (resource.get("metadata") or {}).get("name", "")
    for values in (ctx.resource_values.get((policy_id(policy), name)), ctx.global_values):
        if values and values.get("request.operation"):
            return str(values["request.operation"]).upper()
    return ctx.facts.operation


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
    context = rule_context.build(policy, rule, resource, ctx, operation)
    try:
        holds = conditions.evaluate(rule.get("preconditions"), context)
    except RuleError as exc:
        raise exc.at("preconditions") from None
    if not holds:
        return None
    excepted = _exceptions_for(policy, rule, resource, ctx, context, operation)
    values = rule_context.test_values(policy, rule, resource, ctx)

    def load_context(entries: list[Any], data: dict[str, Any]) -> None:
        for index, entry in enumerate(entries):
            try:
                rule_context.load_entry(entry, data, values, ctx)
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
        return FAIL, fail_message(rule, rule_context.build(policy, rule, resource, ctx), exc.path)
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
        apply_one = (policy.get("spec") or {}).get("applyRules") == "One"
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
            applied: set[str] = set()  # rule types that already passed or failed (applyRules)
            for rule, kinds in sorted(rules, key=lambda pair: "mutate" not in pair[0]):
                if kinds is not None and kind not in kinds:
                    continue  # cheap rejection before full matching
                if apply_one and _rule_type(rule) in applied:
                    continue  # applyRules: One stops each phase at its first applied rule
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
                if status in (PASS, FAIL):
                    applied.add(_rule_type(rule))
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
