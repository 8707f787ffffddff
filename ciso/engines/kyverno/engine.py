"""Apply policies to resources: one result per (policy, rule, resource) the rule matches."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from ciso.engines.kyverno import (
    budget,
    conditions,
    exceptions,
    generation,
    mutation,
    outcome_memo,
    rule_context,
)
from ciso.engines.kyverno.autogen import autogen_rules
from ciso.engines.kyverno.cel import dpol as cel_dpol
from ciso.engines.kyverno.cel import gpol as cel_gpol
from ciso.engines.kyverno.cel import ivpol as cel_ivpol
from ciso.engines.kyverno.cel import mpol as cel_mpol
from ciso.engines.kyverno.cel import mutating_admission as cel_map
from ciso.engines.kyverno.cel import validate as cel_validate
from ciso.engines.kyverno.cel import vap as cel_vap
from ciso.engines.kyverno.cel import vpol as cel_vpol
from ciso.engines.kyverno.errors import RuleError
from ciso.engines.kyverno.matching import rule_applies
from ciso.engines.kyverno.model import (
    Context,
    RuleOutcome,
    RuleRequest,
    RuleResult,
    RuleStatus,
    policy_id,
)
from ciso.engines.kyverno.mutation import existing as mutate_existing
from ciso.engines.kyverno.pattern.check import Mismatch, validate
from ciso.engines.kyverno.podsecurity import validate_pod_security
from ciso.engines.kyverno.schema import POLICY_KINDS, UNSUPPORTED_VALIDATE, enforces
from ciso.engines.kyverno.structure import check_policy
from ciso.engines.kyverno.validation import check_block, fail_message, resolve

__all__ = [
    "ERROR",
    "FAIL",
    "PASS",
    "SKIP",
    "Context",
    "RuleOutcome",
    "RuleRequest",
    "RuleResult",
    "RuleStatus",
    "ROW_FIELDS",
    "apply",
    "apply_rows",
    "evaluate",
    "policy_id",
]
PASS, FAIL, SKIP, ERROR = RuleStatus.PASS, RuleStatus.FAIL, RuleStatus.SKIP, RuleStatus.ERROR
ContextLoader = Callable[[list[Any], dict[str, Any]], None]


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


def _enforced(request: RuleRequest) -> bool:
    action = (request.rule.get("validate") or {}).get("failureAction") or (
        request.policy.get("spec") or {}
    ).get("validationFailureAction", "Audit")
    return enforces(action)


@dataclass(frozen=True, slots=True)
class _Prepared:
    """What every rule type needs before its own work: the variable context, the matching
    PolicyExceptions and a loader for foreach context entries."""

    context: dict[str, Any]
    excepted: list[dict[str, Any]]
    load_context: ContextLoader


def _prepare(request: RuleRequest) -> _Prepared | None:
    """None when the rule's preconditions do not hold."""
    policy, rule, resource, ctx = request.policy, request.rule, request.resource, request.ctx
    context = rule_context.build(policy, rule, resource, ctx, request.operation)
    try:
        holds = conditions.evaluate(rule.get("preconditions"), context)
    except RuleError as exc:
        raise exc.at("preconditions") from None
    if not holds:
        return None
    excepted = (
        exceptions.matching(
            ctx.exceptions, request.policy_id, request.rule_name, resource, request.facts(), context
        )
        if ctx.exceptions
        else []
    )
    values = rule_context.test_values(policy, rule, resource, ctx)

    def load_context(entries: list[Any], data: dict[str, Any]) -> None:
        for index, entry in enumerate(entries):
            try:
                rule_context.load_entry(entry, data, values, ctx)
            except RuleError as exc:
                raise exc.at(index) from None

    return _Prepared(context, excepted, load_context)


NOT_MET = RuleOutcome(SKIP, "preconditions not met")


def _excepted(excepted: list[dict[str, Any]]) -> RuleOutcome:
    return RuleOutcome(
        SKIP, f"rule is skipped due to policy exception {exceptions.names(excepted)}"
    )


# -- one handler per rule type ------------------------------------------------------------------


def _validate(request: RuleRequest) -> RuleOutcome | None:
    """A validate rule, or None when Kyverno gives no response (a pattern on a DELETE)."""
    outcome = _validate_once(request)
    if (
        outcome is not None
        and outcome.status == FAIL
        and request.operation == "UPDATE"
        and _enforced(request)
        and (request.rule.get("validate") or {}).get("allowExistingViolations", True)
    ):
        # Enforce on UPDATE lets a violation through when the old object already had it; the CLI's
        # old object is the resource itself, checked as if it were being created.
        prior_request = request.with_operation("CREATE")
        if rule_applies(request.rule, request.resource, prior_request.facts()):
            try:
                prior = _validate_once(prior_request)
            except RuleError:
                prior = None  # the old object could not be checked: the failure stands
            if prior is not None and prior.status == FAIL:
                return RuleOutcome(
                    SKIP, "skipping the rule evaluation as pre-existing violations are allowed"
                )
    return outcome


def _validate_once(request: RuleRequest) -> RuleOutcome | None:
    rule, resource = request.rule, request.resource
    spec = rule.get("validate")
    if not spec:
        return RuleOutcome(ERROR, "unsupported: rule with no validate block")
    for key in UNSUPPORTED_VALIDATE:
        if key in spec:
            return RuleOutcome(ERROR, f"unsupported: validate.{key}")
    if "cel" in spec:
        return _validate_cel(request)
    if not request.deleting and not request.ctx.exceptions and _plain_pattern_rule(rule):
        # no variables anywhere: validate first, build the context only to word a failure
        return _validate_plain(request)
    prepared = _prepare(request)
    if prepared is None:
        return NOT_MET
    excepted = prepared.excepted
    if "podSecurity" in spec:
        if request.deleting:
            return None  # Kyverno does not check a deleted pod
        exclusions = exceptions.pod_security_exclusions(excepted) if excepted else None
        if exclusions is not None:
            return validate_pod_security(rule, resource, exclusions, exceptions.names(excepted))
    if excepted:
        return _excepted(excepted)
    if "podSecurity" in spec:
        return validate_pod_security(rule, resource)
    try:
        return check_block(
            rule,
            spec,
            resource,
            prepared.context,
            prepared.load_context,
            deleting=request.deleting,
        )
    except RuleError as exc:
        raise exc.at("validate") from None


def _validate_cel(request: RuleRequest) -> RuleOutcome:
    """A ``validate.cel`` rule: its celPreconditions, then (like every rule) its JMESPath
    preconditions and PolicyExceptions, then its expressions."""
    if not cel_validate.preconditions_hold(request):
        return RuleOutcome(SKIP, "cel preconditions not met")
    prepared = _prepare(request)
    if prepared is None:
        return NOT_MET
    if prepared.excepted:
        return _excepted(prepared.excepted)
    return cel_validate.check(request)


def _generate(request: RuleRequest) -> RuleOutcome:
    """A generate rule on its trigger: the objects it would create."""
    prepared = _prepare(request)
    if prepared is None:
        return NOT_MET
    if prepared.excepted:
        return _excepted(prepared.excepted)
    sources = request.ctx.clone_sources.get((policy_id(request.policy), request.rule.get("name")))  # type: ignore[arg-type]  # a rule without a name (None) finds no source
    made = generation.generate(
        request.rule,
        prepared.context,
        generation.cluster_lookup([*request.ctx.objects, *(sources or ())]),
        prepared.load_context,
    )
    names = ", ".join(f"{g.get('kind')}/{(g.get('metadata') or {}).get('name')}" for g in made)
    return RuleOutcome(
        PASS, f"created {names}" if names else "nothing to generate", generated=tuple(made)
    )


def _mutate(request: RuleRequest) -> RuleOutcome:
    """A mutate rule: the resource after it (unchanged when skipped)."""
    prepared = _prepare(request)
    if prepared is None:
        return RuleOutcome(SKIP, NOT_MET.message, patched=request.resource)
    if prepared.excepted:
        return RuleOutcome(SKIP, _excepted(prepared.excepted).message, patched=request.resource)
    block = request.rule.get("mutate")
    if isinstance(block, dict) and block.get("targets"):
        return _mutate_existing(request, block, prepared)
    return mutation.mutate(request.rule, request.resource, prepared.context, prepared.load_context)


def _mutate_existing(
    request: RuleRequest, block: dict[str, Any], prepared: _Prepared
) -> RuleOutcome:
    """A mutate rule with ``targets``: the trigger unchanged, a response per target."""

    def patch(patch_block: dict[str, Any], target: dict[str, Any], local: dict[str, Any]):
        return mutation.mutate({"mutate": patch_block}, target, local, prepared.load_context)

    policy = request.policy
    namespace = (
        (policy.get("metadata") or {}).get("namespace") if policy.get("kind") == "Policy" else None
    )
    try:
        responses = mutate_existing.mutate_targets(
            block,
            prepared.context,
            prepared.load_context,
            [*request.ctx.targets, *request.ctx.objects],
            namespace,
            patch,
        )
    except RuleError as exc:
        raise exc.at("mutate") from None
    return RuleOutcome(PASS, "", patched=request.resource, targets=tuple(responses))


def _verify_images(request: RuleRequest) -> RuleOutcome:
    return RuleOutcome(ERROR, "unsupported: verifyImages rules")


Handler = Callable[[RuleRequest], RuleOutcome | None]
#: one handler per rule type, and the rule type Kyverno's responses name
HANDLERS: dict[str, tuple[Handler, str]] = {
    "mutate": (_mutate, "Mutation"),
    "generate": (_generate, "Generation"),
    "verifyImages": (_verify_images, "Validation"),
    "validate": (_validate, "Validation"),
}


def _rule_type(rule: dict[str, Any]) -> str:
    """The HANDLERS key of a rule (structure.check_rule made sure it has exactly one)."""
    if "mutate" in rule:
        return "mutate"
    if "generate" in rule:
        return "generate"
    return "verifyImages" if "verifyImages" in rule else "validate"


_STATUS_TEXT = {status: status.value for status in RuleStatus}


def evaluate(request: RuleRequest, rule_type: str | None = None) -> RuleOutcome | None:
    """One rule on one resource by its type's handler (``rule_type``: its HANDLERS key, when the
    caller knows it); a RuleError becomes an ``error`` outcome (a mutate rule's keeps the
    resource as it was). None: Kyverno gives no response."""
    handler, _ = HANDLERS[rule_type or _rule_type(request.rule)]
    try:
        return handler(request)
    except RuleError as exc:
        patched = request.resource if "mutate" in request.rule else None
        return RuleOutcome(ERROR, _error_message(exc), patched=patched)


def _error_message(exc: RuleError) -> str:
    where = exc.where()
    if exc.message.startswith("unsupported"):
        return f"{exc.message} (at {where})" if where else exc.message
    return f"rule error at {where}: {exc.message}" if where else exc.message


def _plain_pattern_rule(rule: dict[str, Any]) -> bool:
    spec = rule["validate"]
    return (
        "pattern" in spec
        and not rule.get("preconditions")
        and not rule.get("context")
        and resolve(spec["pattern"], {}) is spec["pattern"]
    )


def _plain_validate_rule(rule: dict[str, Any]) -> bool:
    """A validate rule that ``_validate_once`` sends to ``_validate_plain`` whenever the request
    is not a DELETE and no PolicyException is in force."""
    spec = rule.get("validate")
    try:
        return (
            bool(spec)
            and isinstance(spec, dict)
            and not any(key in spec for key in UNSUPPORTED_VALIDATE)
            and "cel" not in spec
            and _plain_pattern_rule(rule)
        )
    except RuleError:
        return False  # a pattern whose variables fail: the handlers report it per resource


def _evaluate_plain(request: RuleRequest) -> RuleOutcome:
    """``evaluate`` of a plain validate rule (``_plain_validate_rule``) on a request that is
    neither a DELETE nor an UPDATE (whose failures may be excused by the old object) with no
    PolicyException in force: the same outcome without the dispatch through the handlers."""
    try:
        return _validate_plain(request)
    except RuleError as exc:
        return RuleOutcome(ERROR, _error_message(exc))


def _validate_plain(request: RuleRequest) -> RuleOutcome:
    policy, rule, resource, ctx = request.policy, request.rule, request.resource, request.ctx
    try:
        validate(resource, rule["validate"]["pattern"])
    except RuleError as exc:
        raise exc.at("validate", "pattern") from None
    except Mismatch as exc:
        if exc.skip:
            return RuleOutcome(SKIP, f"rule {rule['name']} skipped: {exc.message}")
        context = rule_context.build(policy, rule, resource, ctx)
        return RuleOutcome(FAIL, fail_message(rule, context, exc.path))
    return RuleOutcome(PASS, f"validation rule '{rule['name']}' passed.")


def _evaluate(
    policy: dict[str, Any],
    rule: dict[str, Any],
    target: dict[str, Any],
    ctx: Context,
    operation: str,
    type_key: str,
    plain: bool,
) -> RuleOutcome | None:
    """One rule on one resource: a plain validate rule straight (``_evaluate_plain``, when the
    caller made sure it may), any other through its type's handler."""
    request = RuleRequest(policy, rule, target, ctx, operation)
    budget.enter()
    try:
        budget.check()  # a rule after the one that spent the policy's budget errors at once
        return _evaluate_plain(request) if plain else evaluate(request, type_key)
    except budget.BudgetExceeded as exc:
        patched = target if "mutate" in rule else None
        return RuleOutcome(ERROR, str(exc), patched=patched)
    finally:
        budget.leave()


def _kind_prefilter(rule: dict[str, Any]) -> frozenset[str] | None:
    """The plain kind names a rule's match can accept, or None when a filter is not that simple
    (wildcards, group/version, admission filters): then every resource goes to full matching."""
    block = rule.get("match") or {}
    listed = block.get("any") or block.get("all")
    filters: list[Any] = listed if listed else [block]
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


#: the keys of a match filter, and of its ``resources``, that a kind prefilter decides alone
_KINDS_ONLY_FILTER, _KINDS_ONLY_RESOURCES = frozenset({"resources"}), frozenset({"kinds"})
_EXCLUDE_FILTERS = ("any", "all", "resources", "subjects", "roles", "clusterRoles")


def _prefilter_decides(rule: dict[str, Any], kinds: frozenset[str] | None) -> bool:
    """Whether a resource whose kind passed the rule's kind prefilter is sure to match the rule:
    its match names plain kinds and nothing else (no names, namespaces, selectors, operations or
    users, no ``all`` of several filters) and it has no exclude filter. Then full matching is
    skipped: the same plain kind comparison would be made again."""
    if kinds is None:
        return False
    block = rule.get("match") or {}
    filters = block["any"] if block.get("any") else [block] if "resources" in block else None
    if filters is None or (
        block.keys() - {"any"} if block.get("any") else block.keys() - {"resources"}
    ):
        return False
    for flt in filters:
        if flt.keys() - _KINDS_ONLY_FILTER or not isinstance(flt.get("resources"), dict):
            return False
        if flt["resources"].keys() - _KINDS_ONLY_RESOURCES:
            return False
    exclude = rule.get("exclude")
    return not (exclude and any(exclude.get(k) for k in _EXCLUDE_FILTERS))


def _fixed_operation(ctx: Context) -> str | None:
    """The operation every resource gets when nothing in the test's values can vary it per
    resource (see ``operation_for``); None when it must be looked up per resource."""
    if ctx.operation:
        return ctx.operation
    if ctx.resource_values or (ctx.global_values or {}).get("request.operation"):
        return None
    return ctx.facts.operation


def all_rules(policy: dict[str, Any]) -> list[dict[str, Any]]:
    own = list((policy.get("spec") or {}).get("rules") or [])
    return own + autogen_rules(policy)


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


#: The CEL policy kinds (policies.kyverno.io's, and Kubernetes' ValidatingAdmissionPolicy), each
#: evaluated by its module into ruleless responses: (module, the response's rule type or None for
#: the default, outcome fields the response carries, whether the response's rule is named after
#: the policy as Kyverno names a ValidatingAdmissionPolicy's).
_CEL_POLICIES: tuple[tuple[Any, str | None, tuple[str, ...], bool], ...] = (
    (cel_vpol, None, (), False),
    (cel_mpol, "Mutation", ("patched",), False),  # a pass carrying the patched resource
    (cel_gpol, "Generation", ("generated",), False),  # a pass carrying the objects it would create
    (cel_dpol, "Deletion", (), True),  # pass: the resource would be deleted
    (cel_ivpol, "ImageVerify", (), True),
    (cel_vap, None, (), True),
    (cel_map, "Mutation", ("patched",), True),  # a pass carrying the patched resource
)
#: The CEL policy kinds: each answers with ruleless responses (one per matched policy).
CEL_POLICY_KINDS: tuple[str, ...] = tuple(
    kind for module, *_ in _CEL_POLICIES for kind in module.KINDS
)
#: Every policy kind ``apply`` evaluates (others in its input are ignored).
EVALUATED_POLICY_KINDS: tuple[str, ...] = POLICY_KINDS + CEL_POLICY_KINDS


def _apply_cel_policy(
    policy: dict[str, Any],
    resources: list[dict[str, Any]],
    ctx: Context,
    make: Callable[..., Any],
    module: Any,
    rule_type: str | None,
    carries: tuple[str, ...],
    named_after_policy: bool,
) -> list[Any]:
    """One ruleless response per matched (variant of the) policy and resource."""
    pid = policy_id(policy)
    rule = pid if named_after_policy else module.RULE_NAME
    response_type = rule_type or "Validation"
    patches, generates = "patched" in carries, "generated" in carries
    results = []
    for resource in resources:
        for outcome in module.outcomes(policy, resource, ctx, operation_for(policy, resource, ctx)):
            # a response about an existing object (a mutateExisting target) names that object
            about = getattr(outcome, "subject", None) or resource
            results.append(
                _result_row(
                    make,
                    pid,
                    rule,
                    about.get("kind", ""),
                    about.get("metadata") or {},
                    outcome.status,
                    outcome.message,
                    response_type,
                    outcome.patched if patches else None,
                    outcome.generated if generates else None,
                )
            )
    return results


def _result_row(
    make: Callable[..., Any],
    pid: str,
    rule_name: str,
    kind: str,
    meta: Mapping[str, Any],
    status: RuleStatus,
    message: str,
    rule_type: str,
    patched: dict[str, Any] | None,
    generated: tuple[dict[str, Any], ...] | None,
) -> Any:
    """The one place a response becomes a result (a RuleResult, or its fields as a tuple when
    ``make`` is ``_row``), about the object of ``kind`` whose metadata is ``meta``."""
    return make(
        pid,
        rule_name,
        kind,
        meta.get("namespace", ""),
        meta.get("name", ""),
        _STATUS_TEXT[status],
        message,
        rule_type,
        patched,
        generated,
    )


#: The fields of a RuleResult, in order: what ``apply_rows`` gives per result.
ROW_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(RuleResult))
Row = tuple[Any, ...]


def apply(
    policies: Sequence[dict[str, Any]],
    resources: Iterable[dict[str, Any]],
    ctx: Context | None = None,
    sources: Mapping[str, str] | None = None,
) -> list[RuleResult]:
    """Every rule of every policy on every resource it matches. ``sources`` maps a policy id to
    the file it came from, so that a rule error names the file too. A policy of the wrong shape
    raises PolicyError (naming file, policy, rule and path) before anything is evaluated."""
    return _apply(policies, resources, ctx, sources, RuleResult)


def apply_rows(
    policies: Sequence[dict[str, Any]],
    resources: Iterable[dict[str, Any]],
    ctx: Context | None = None,
    sources: Mapping[str, str] | None = None,
) -> list[Row]:
    """As ``apply``, each result a plain tuple of the RuleResult's fields (``ROW_FIELDS``): a
    caller that only prints millions of results is spared building a frozen dataclass for each
    (about 2 us apiece, more than a remembered rule outcome costs)."""
    return _apply(policies, resources, ctx, sources, _row)


def _row(*values: Any) -> Row:
    return values


def _rules_of(policy: dict[str, Any], mutating: bool) -> dict[str, Any] | None:
    """``policy`` with only its mutate rules (or only its others); None when that leaves none."""
    rules = (policy.get("spec") or {}).get("rules")
    if not isinstance(rules, list):
        return None
    kept = [r for r in rules if isinstance(r, dict) and ("mutate" in r) == mutating]
    if not kept:
        return None
    return {**policy, "spec": {**policy["spec"], "rules": kept}}


def _apply(
    policies: Sequence[dict[str, Any]],
    resources: Iterable[dict[str, Any]],
    ctx: Context | None,
    sources: Mapping[str, str] | None,
    make: Callable[..., Any],
) -> list[Any]:
    ctx = ctx or Context()
    if not ctx.policy_documents:
        ctx = replace(ctx, policy_documents=list(policies))
    classic = [p for p in policies if p.get("kind") in POLICY_KINDS]
    mutating = [m for m in (_rules_of(p, True) for p in classic) if m is not None]
    if not mutating or len(policies) < 2:
        return _apply_policies(policies, resources, ctx, sources, make)
    # As the Kyverno CLI runs several policies on a resource: first every policy's mutate rules in
    # order, each policy on the resource as the ones before it patched it; then the other rules
    # (and the CEL policies) on the resource as mutated
    mutated: list[dict[str, Any]] = []
    results = _apply_policies(mutating, resources, ctx, sources, make, chain=mutated)
    others = [p if p.get("kind") not in POLICY_KINDS else _rules_of(p, False) for p in policies]
    kept = [p for p in others if p is not None]
    return results + _apply_policies(kept, mutated, ctx, sources, make)


@dataclass(frozen=True, slots=True)
class _Run:
    """What one ``_apply_policies`` call holds fixed for every policy and resource."""

    ctx: Context
    sources: Mapping[str, str]
    make: Callable[..., Any]
    #: the operation of every resource, when nothing can vary it per resource
    fixed_operation: str | None
    #: whether the test's values can rewrite what a policy sees per resource
    valued: bool


@dataclass(frozen=True, slots=True)
class _PlannedRule:
    """A rule of a policy with what is known of it before any resource is seen."""

    rule: dict[str, Any]
    #: the plain kinds its match accepts (None: full matching decides)
    kinds: frozenset[str] | None
    #: its HANDLERS key, and the rule type its responses name
    type_key: str
    rule_type: str
    #: a resource of one of ``kinds`` is sure to match (full matching is skipped)
    decided: bool
    #: a plain validate rule (``_plain_validate_rule``)
    plain: bool
    #: its outcome memo when the run fixes it up front (``known``), else looked up per resource
    memo: outcome_memo.Memo | None
    known: bool


@dataclass(frozen=True, slots=True)
class _PlannedPolicy:
    policy: dict[str, Any]
    pid: str
    #: mutate rules first, in order (a stable sort), then the others
    rules: tuple[_PlannedRule, ...]
    #: ``applyRules: One``
    apply_one: bool
    #: a namespaced Policy's namespace (it sees only that namespace's resources)
    namespace: str | None


def _plan(policy: dict[str, Any], run: _Run) -> _PlannedPolicy:
    """A classic policy checked for shape and its rules planned (a PolicyError when malformed)."""
    ctx = run.ctx
    pid = policy_id(policy)
    check_policy(policy, pid, run.sources.get(pid, ""))
    # with one operation for every resource, each validate rule's memo is known up front
    operation = run.fixed_operation
    known = bool(
        operation
        and operation not in ("DELETE", "UPDATE")
        and not ctx.exceptions
        and not run.valued
    )
    planned = []
    for rule in all_rules(policy):
        kinds, type_key = _kind_prefilter(rule), _rule_type(rule)
        memo = (
            outcome_memo.memo_for(rule, ctx.facts, operation)
            if known and operation and type_key == "validate"
            else None
        )
        planned.append(
            _PlannedRule(
                rule,
                kinds,
                type_key,
                HANDLERS[type_key][1],
                _prefilter_decides(rule, kinds),
                type_key == "validate" and _plain_validate_rule(rule),
                memo,
                known,
            )
        )
    planned.sort(key=lambda entry: entry.type_key != "mutate")
    namespace = (
        (policy.get("metadata") or {}).get("namespace") if policy.get("kind") == "Policy" else None
    )
    return _PlannedPolicy(
        policy,
        pid,
        tuple(planned),
        (policy.get("spec") or {}).get("applyRules") == "One",
        namespace,
    )


def _admits(
    planned: _PlannedRule, kind: str, target: dict[str, Any], unpatched: bool, facts: Any
) -> bool:
    """The prefilters: the rule's match and exclude blocks accept the resource (as patched so
    far; ``unpatched``: no mutation changed it, so the kind prefilter's verdict still holds)."""
    if planned.kinds is not None and kind not in planned.kinds:
        return False  # cheap rejection before full matching
    # a mutation may have changed the kind: then match the patched resource in full
    return (planned.decided and unpatched) or rule_applies(planned.rule, target, facts)


def _apply_policies(
    policies: Sequence[dict[str, Any]],
    resources: Iterable[dict[str, Any]],
    ctx: Context,
    sources: Mapping[str, str] | None,
    make: Callable[..., Any],
    chain: list[dict[str, Any]] | None = None,
) -> list[Any]:
    """Every rule of ``policies`` on ``resources``. With ``chain`` (a list to fill), each policy
    sees the resources as the policies before it patched them, and ``chain`` receives the
    resources as the last one left them."""
    run = _Run(
        ctx,
        sources or {},
        make,
        _fixed_operation(ctx),
        bool(ctx.global_values or ctx.rule_values or ctx.resource_values),
    )
    results: list[Any] = []
    resources = list(resources)
    # each resource's kind and metadata, and what it looks like along the field chains that
    # memoised rules read: found once per resource for all policies
    entries: list[tuple[dict[str, Any], Any, Any, dict[Any, Any]]] = [
        (r, r.get("kind", ""), r.get("metadata") or {}, {}) for r in resources
    ]
    spent: set[str] = set()  # policies that used up their budget on a resource (budget.py)
    for policy in policies:
        cel = next((c for c in _CEL_POLICIES if policy.get("kind") in c[0].KINDS), None)
        if cel is not None:
            results += _apply_cel_policy(policy, resources, ctx, make, *cel)
            continue
        if policy.get("kind") not in POLICY_KINDS:
            continue
        plan = _plan(policy, run)
        for position, (resource, kind, meta, views) in enumerate(entries):
            if plan.namespace and meta.get("namespace", "default") != plan.namespace:
                continue
            # this policy's time on this resource (budget.SECONDS); none once it spent one
            budget.start(0.0 if plan.pid in spent else None)
            target = _apply_rules(plan, run, resource, kind, meta, views, results)
            if budget.spent():
                spent.add(plan.pid)
            if chain is not None and target is not resource:
                # the next policy sees the resource as this one patched it
                entries[position] = (target, kind, meta, {})
    budget.stop()
    if chain is not None:
        chain.extend(entry[0] for entry in entries)
    return results


def _apply_rules(
    plan: _PlannedPolicy,
    run: _Run,
    resource: dict[str, Any],
    kind: str,
    meta: Mapping[str, Any],
    views: dict[Any, Any],
    results: list[Any],
) -> dict[str, Any]:
    """One policy's rules on one resource, their results added to ``results``; the resource as
    the policy's mutate rules left it. As Kyverno: the mutate rules first, in order, each on the
    resource as patched so far; then the other rules on the patched resource."""
    ctx, policy = run.ctx, plan.policy
    if run.valued:
        # a test's request.object values rewrite the resource the policy sees
        resource = rule_context.with_object_values(resource, policy, ctx)
    operation = run.fixed_operation or operation_for(policy, resource, ctx)
    facts = (
        ctx.facts if operation == ctx.facts.operation else replace(ctx.facts, operation=operation)
    )
    # plain pattern rules skip the handlers' dispatch when nothing they check applies
    direct = not ctx.exceptions and operation not in ("DELETE", "UPDATE")
    # validate outcomes are remembered by what the rule reads of the resource when nothing else
    # can vary per resource (outcome_memo's docstring has the argument)
    memoise = direct and not run.valued
    applied: set[str] | None = set() if plan.apply_one else None
    target = resource
    for planned in plan.rules:
        if applied is not None and planned.rule_type in applied:
            continue  # applyRules: One stops each phase at its first applied rule
        unpatched = target is resource
        if not _admits(planned, kind, target, unpatched, facts):
            continue
        memo = (
            (
                planned.memo
                if planned.known
                else outcome_memo.memo_for(planned.rule, ctx.facts, operation)
            )
            if memoise and unpatched and planned.type_key == "validate"
            else None
        )
        if memo is not None and memo.active:
            outcome = memo.outcome(
                resource,
                views,
                _evaluate,
                policy,
                planned.rule,
                target,
                ctx,
                operation,
                planned.type_key,
                planned.plain,
            )
        else:
            outcome = _evaluate(
                policy,
                planned.rule,
                target,
                ctx,
                operation,
                planned.type_key,
                planned.plain and direct,
            )
        if outcome is None:
            continue
        if outcome.targets is not None:  # mutate existing: the targets' responses
            for about, answer in outcome.targets:
                results.append(
                    _result_row(
                        run.make,
                        plan.pid,
                        planned.rule["name"],
                        about.get("kind", ""),
                        about.get("metadata") or {},
                        answer.status,
                        _message(answer, plan, planned, run),
                        planned.rule_type,
                        answer.patched,
                        None,
                    )
                )
            continue
        if outcome.patched is not None:
            target = outcome.patched
        if applied is not None and outcome.status in (PASS, FAIL):
            applied.add(planned.rule_type)
        results.append(
            _result_row(
                run.make,
                plan.pid,
                planned.rule["name"],
                resource.get("kind", ""),
                meta,
                outcome.status,
                outcome.message
                if outcome.status != ERROR
                else _message(outcome, plan, planned, run),
                planned.rule_type,
                outcome.patched,
                outcome.generated,
            )
        )
    return target


def _message(outcome: RuleOutcome, plan: _PlannedPolicy, planned: _PlannedRule, run: _Run) -> str:
    """A classic rule's response message; an error's names the policy's file, policy and rule."""
    if outcome.status == ERROR:
        return _locate(outcome.message, plan.policy, planned.rule, run.sources)
    return outcome.message
