"""``validate.cel`` in a ClusterPolicy or Policy: the rule's ``celPreconditions``, then its
``variables``, then each of its ``expressions`` (with ``message``/``messageExpression``), as
Kyverno's CEL validation handler runs them."""

from __future__ import annotations

from typing import Any

from ciso.engines.kyverno.cel import bindings as cel_bindings
from ciso.engines.kyverno.errors import RuleError
from ciso.engines.kyverno.model import RuleOutcome, RuleRequest, RuleStatus


def _params(spec: dict[str, Any], request: RuleRequest) -> Any:
    """The parameter object ``paramKind``/``paramRef`` select, from the test's resources."""
    kind = (spec.get("paramKind") or {}).get("kind")
    ref = spec.get("paramRef") or {}
    if not kind:
        return None
    for candidate in request.ctx.objects:
        meta = candidate.get("metadata") or {}
        if (
            candidate.get("kind") == kind
            and (not ref.get("name") or meta.get("name") == ref["name"])
            and (not ref.get("namespace") or meta.get("namespace") == ref["namespace"])
        ):
            return candidate
    raise RuleError(f"no {kind} parameter object {ref.get('name', '')!r} among the resources").at(
        "validate", "cel", "paramRef"
    )


def preconditions_hold(request: RuleRequest) -> bool:
    conditions = request.rule.get("celPreconditions") or []
    if not conditions:
        return True
    bound = cel_bindings.admission(request.resource, request.ctx, request.operation)
    for index, condition in enumerate(conditions):
        where = ("celPreconditions", index)
        if not isinstance(condition, dict):
            raise RuleError("a celPrecondition needs a name and an expression").at(*where)
        value = cel_bindings.run(str(condition.get("expression", "")), bound, where)
        if not isinstance(value, bool):
            raise RuleError(f"expression must evaluate to a bool, got {value!r}").at(*where)
        if not value:
            return False
    return True


def check(request: RuleRequest) -> RuleOutcome:
    spec = request.rule["validate"]["cel"]
    if not isinstance(spec, dict):
        raise RuleError("must be a map").at("validate", "cel")
    params = _params(spec, request)
    bound = cel_bindings.admission(request.resource, request.ctx, request.operation, params)
    bound = cel_bindings.with_variables(
        bound, spec.get("variables"), ("validate", "cel", "variables")
    )
    for index, entry in enumerate(spec.get("expressions") or []):
        where = ("validate", "cel", "expressions", index)
        if not isinstance(entry, dict) or "expression" not in entry:
            raise RuleError("an entry needs an expression").at(*where)
        source = str(entry["expression"])
        try:
            value = cel_bindings.run(source, bound, (*where, "expression"))
        except RuleError as exc:
            # as a ValidatingAdmissionPolicy with failurePolicy Fail (Kyverno's default): an
            # expression that cannot be evaluated denies the request
            return RuleOutcome(RuleStatus.FAIL, f"{exc.where()}: {exc.message}")
        if value is True:
            continue
        if value is not False:
            return RuleOutcome(
                RuleStatus.FAIL,
                f"{'.'.join(map(str, where))}: expression must evaluate to a bool, got {value!r}",
            )
        return RuleOutcome(RuleStatus.FAIL, _message(entry, source, bound, where))
    return RuleOutcome(RuleStatus.PASS, f"validation rule '{request.rule_name}' passed.")


def _message(entry: dict[str, Any], source: str, bound: dict[str, Any], where: tuple) -> str:
    """``messageExpression`` when it yields a non-empty string (Kubernetes falls back to the
    static message otherwise), then ``message``, then the failed expression."""
    if entry.get("messageExpression"):
        try:
            text = cel_bindings.run(str(entry["messageExpression"]), bound, where)
        except RuleError:
            text = None
        if isinstance(text, str) and text.strip():
            return text
    if entry.get("message"):
        return str(entry["message"]).strip()
    return f"failed expression: {source.strip()}"
