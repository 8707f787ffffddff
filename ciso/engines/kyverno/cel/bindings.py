"""The variables Kyverno binds for a CEL expression: ``object``, ``oldObject``, ``request``,
``namespaceObject``, ``params`` and ``variables`` (the rule's or policy's named expressions,
evaluated in order, each seeing the ones before it)."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from ciso.engines.kyverno.cel import limits
from ciso.engines.kyverno.cel.program import CelError, context_for, evaluate
from ciso.engines.kyverno.errors import RuleError
from ciso.engines.kyverno.model import Context


def _namespace_object(resource: dict[str, Any], ctx: Context) -> dict[str, Any] | None:
    """The resource's Namespace as the test's values file (``namespaces``) or resources declare
    it (a cluster would hold it); null for cluster-scoped resources, as in Kubernetes."""
    namespace = (resource.get("metadata") or {}).get("namespace")
    if not namespace:
        return None
    for candidate in [*(ctx.cel_context.get("namespaces") or ()), *ctx.objects]:
        if (
            candidate.get("kind") == "Namespace"
            and (candidate.get("metadata") or {}).get("name") == namespace
        ):
            return candidate
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": namespace}}


def admission(
    resource: dict[str, Any], ctx: Context, operation: str, params: Any = None
) -> dict[str, Any]:
    """The bindings before ``variables``, as the Kyverno CLI simulates an admission request: on
    CREATE there is no old object, on UPDATE the old object is the resource itself, on DELETE
    ``object`` is null and the resource is the old object."""
    meta = resource.get("metadata") or {}
    deleting = operation == "DELETE"
    old = copy.deepcopy(resource) if operation in ("UPDATE", "DELETE") else None
    obj = None if deleting else resource
    api_version = str(resource.get("apiVersion", ""))
    group, _, version = api_version.rpartition("/")
    kind = {"group": group, "version": version, "kind": resource.get("kind", "")}
    request = {
        "operation": operation,
        "name": meta.get("name", ""),
        "namespace": meta.get("namespace", ""),
        "kind": kind,
        "resource": kind,
        "userInfo": {
            "username": ctx.facts.user.username,
            "groups": list(ctx.facts.user.groups),
        },
        "object": obj,
        "oldObject": old,
        "dryRun": False,
    }
    return {
        "object": obj,
        "oldObject": old,
        "request": request,
        "namespaceObject": _namespace_object(resource, ctx),
        "params": params,
    }


def with_variables(
    bindings: dict[str, Any], variables: Sequence[Any] | None, where: Sequence[Any]
) -> dict[str, Any]:
    """``bindings`` plus ``variables``. A variable that fails to evaluate is left out, so that
    only an expression that reads it fails (Kubernetes evaluates variables lazily); the error
    names the variable."""
    values: dict[str, Any] = {}
    failures: dict[str, str] = {}
    bound = {**_visible(bindings), "variables": values}
    largest = limits.largest_binding(_visible(bindings))
    # one conversion of the bindings; each variable then sees the ones before it by replacing
    # only ``variables`` in the evaluator's context
    context = context_for(bound) if variables else None
    for index, variable in enumerate(variables or []):
        if not isinstance(variable, dict) or not variable.get("name"):
            raise RuleError("a variable needs a name and an expression").at(*where, index)
        assert context is not None  # made above whenever there are variables
        context.add_variable("variables", dict(values))
        try:
            values[variable["name"]] = evaluate(
                str(variable.get("expression", "")), bound, largest=largest, context=context
            )
        except CelError as exc:
            failures[variable["name"]] = str(exc)
    bound["_failed_variables"] = failures
    if context is not None:
        # the expressions that follow see every variable: hand them this context (``run``
        # checks the signature, so nothing stale can be used)
        context.add_variable("variables", dict(values))
        largest = max(largest, limits.largest_collection(values))
        bound[_CACHED] = (_signature(_visible(bound)), context, largest)
    return bound


#: where ``run`` keeps the evaluator's context of a bindings dict, with what it was built from
_CACHED = "_cel_context"


def _visible(bindings: dict[str, Any]) -> dict[str, Any]:
    """The bindings an expression sees (private keys, which start with '_', left out)."""
    return {k: v for k, v in bindings.items() if not k.startswith("_")}


def _signature(visible: dict[str, Any]) -> tuple:
    return tuple(
        (name, id(value), len(value) if isinstance(value, dict) else -1)
        for name, value in visible.items()
    )


def _context(bindings: dict[str, Any], visible: dict[str, Any]) -> tuple[Any, int]:
    """The evaluator's context and the largest collection for ``visible``, built once per
    bindings dict and reused by every expression evaluated over it. Rebuilt when a binding was
    replaced (a copy with another ``object``, a namespaceObject set later) or the variables
    grew: the signature holds each value's identity (and a dict's size)."""
    signature = _signature(visible)
    cached = bindings.get(_CACHED)
    if cached is None or cached[0] != signature:
        cached = (signature, context_for(visible), limits.largest_binding(visible))
        bindings[_CACHED] = cached
    return cached[1], cached[2]


def run(source: str, bindings: dict[str, Any], where: Sequence[Any]) -> Any:
    """Evaluate ``source``; a RuleError at ``where`` naming the failure (and the failed variable
    it read, if any)."""
    failures = bindings.get("_failed_variables") or {}
    visible = _visible(bindings)
    context, largest = _context(bindings, visible)
    try:
        return evaluate(source, visible, largest=largest, context=context)
    except CelError as exc:
        read = [name for name in failures if f"variables.{name}" in source]
        if read:
            name = read[0]
            raise RuleError(f"variable {name!r} failed: {failures[name]}").at(*where) from None
        raise RuleError(f"CEL expression {source.strip()!r} failed: {exc}").at(*where) from None


def all_hold(
    entries: Sequence[Any] | None, bound: dict[str, Any], field: str, what: str
) -> tuple[bool, list[RuleError]]:
    """Boolean expressions (``spec.<field>[i].expression``) in order, as Kyverno evaluates match
    conditions and conditions: (False, …) at the first false one, even after one that failed;
    else (True, the failures met, each a RuleError naming its field)."""
    errors: list[RuleError] = []
    for index, entry in enumerate(entries or []):
        where = ("spec", field, index, "expression")
        if not isinstance(entry, dict) or "expression" not in entry:
            errors.append(RuleError(f"{what} needs a name and an expression").at(*where[:-1]))
            continue
        try:
            value = run(str(entry["expression"]), bound, where)
        except RuleError as exc:
            errors.append(exc)
            continue
        if not isinstance(value, bool):
            errors.append(RuleError(f"expected a bool, got {value!r}").at(*where))
            continue
        if not value:
            return False, []
    return True, errors


def first_failing(
    validations: Sequence[Any] | None, bound: dict[str, Any], *, bool_only: bool = True
) -> tuple[int, dict[str, Any]] | None:
    """(index, entry) of the first of ``spec.validations`` that is not true, or None. A value
    that is not a bool is a RuleError with ``bool_only`` (Kyverno's policies), a failure without
    it (Kubernetes' validator denies whatever is not true)."""
    for index, entry in enumerate(validations or []):
        where = ("spec", "validations", index, "expression")
        if not isinstance(entry, dict) or "expression" not in entry:
            raise RuleError("a validation needs an expression").at(*where[:-1])
        value = run(str(entry["expression"]), bound, where)
        if value is True:
            continue
        if value is not False and bool_only:
            raise RuleError(f"expression must evaluate to a bool, got {value!r}").at(*where)
        return index, entry
    return None
