"""The one place that knows Kyverno's policy vocabulary: policy kinds and apiVersions, rule types,
validate methods and keys, match/exclude keys, failure actions and condition operators. The
engine and the lint rules import these names from here.

Kyverno applies two different rules to a condition operator, and both are kept here:

- its engine (the condition handlers, which ``kyverno apply``/``test`` use to evaluate) matches
  the name case-insensitively, and also takes the deprecated ``Equal``/``NotEqual``;
- a cluster rejects the policy at ``kubectl apply`` unless the name is spelled exactly: the CRD
  schema's enum does that where the CRD types conditions (foreach preconditions, and every
  condition block in v2beta1), and Kyverno's policy validation webhook does it for v1's untyped
  rule preconditions and deny conditions (since Kyverno 1.12, the CLI runs the same check).

``validate_crd`` reports what a real cluster says about a ClusterPolicy or Policy, in the API
server's words, from the CRD schema extracted in ``crd.py``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from ciso.engines.kyverno import crd

# -- policies -------------------------------------------------------------------------------------

POLICY_KINDS = ("ClusterPolicy", "Policy")
POLICY_GROUP = "kyverno.io"
POLICY_VERSIONS = tuple(crd.POLICY)  # ("v1", "v2beta1")
POLICY_API_VERSIONS = tuple(f"{POLICY_GROUP}/{v}" for v in POLICY_VERSIONS)


def is_policy(doc: Any) -> bool:
    """A kyverno.io ClusterPolicy or Policy (any version of the group)."""
    return (
        isinstance(doc, dict)
        and str(doc.get("apiVersion", "")).startswith(f"{POLICY_GROUP}/")
        and doc.get("kind") in POLICY_KINDS
    )


_V1 = crd.POLICY["v1"]

# the keys a policy author may write, as the v1 CRD declares them
SPEC_KEYS = frozenset(crd.policy_spec("v1").properties)
RULE_KEYS = frozenset(crd.rule("v1").properties)
VALIDATE_KEYS = frozenset(crd.validate_block("v1").properties)
VALIDATE_FOREACH_KEYS = frozenset(crd.validate_foreach().properties)
#: a match/exclude block: any/all, or one filter's fields (v1's legacy form)
MATCH_KEYS = frozenset(crd.match_block("v1").properties)
FILTER_KEYS = frozenset(crd.RESOURCE_FILTER.properties)
RESOURCE_KEYS = frozenset(crd.RESOURCE_DESCRIPTION.properties)
CONDITION_KEYS = frozenset(("key", "operator", "value", "message"))

#: a rule has exactly one of these
RULE_TYPES = ("validate", "mutate", "generate", "verifyImages")
#: what a validate block checks with; it needs at least one
VALIDATION_METHODS = ("pattern", "anyPattern", "deny", "foreach", "podSecurity", "cel", "manifests")
#: validate methods the offline engine does not evaluate (an ``unsupported`` error result)
UNSUPPORTED_VALIDATE = ("manifests", "assert")

VALIDATION_FAILURE_ACTIONS = crd.VALIDATION_FAILURE_ACTIONS
FAILURE_ACTIONS = crd.FAILURE_ACTIONS
APPLY_RULES = crd.APPLY_RULES
ADMISSION_OPERATIONS = crd.ADMISSION_OPERATIONS


def enforces(action: Any) -> bool:
    """``validationFailureAction``/``failureAction``: Kyverno compares them case-insensitively."""
    return str(action).lower() == "enforce"


# -- condition operators ------------------------------------------------------------------------

#: the spellings the CRD's enum takes (v1)
CANONICAL_OPERATORS = crd.CONDITION_OPERATORS_V1
#: deprecated names Kyverno's engine and policy validation still take, and what they mean
DEPRECATED_ALIASES = {"Equal": "Equals", "NotEqual": "NotEquals"}
#: every name Kyverno's policy validation takes, spelled exactly (kyvernov1.ConditionOperators)
ACCEPTED_OPERATORS = (*CANONICAL_OPERATORS, *DEPRECATED_ALIASES)
_BY_LOWER = {name.lower(): DEPRECATED_ALIASES.get(name, name) for name in ACCEPTED_OPERATORS}


def canonical_operator(name: str) -> str | None:
    """The canonical spelling of an operator name as Kyverno's engine reads it (any case, and the
    deprecated aliases); None when the engine does not know it at all."""
    return _BY_LOWER.get(name.lower())


def is_exact_operator(name: str, *, typed: bool = False) -> bool:
    """Spelled as a cluster accepts it: in a condition block the CRD types (``typed``) only the
    canonical names; elsewhere Kyverno's policy validation, which also takes the deprecated
    aliases."""
    return name in (CANONICAL_OPERATORS if typed else ACCEPTED_OPERATORS)


def typed_conditions_at(api_version: str, keys: Sequence[str]) -> bool:
    """Whether the CRD types the condition block at ``keys`` (the string keys from a rule down to
    the condition): a first-level foreach's preconditions, and in v2beta1 also the rule's
    preconditions and deny conditions. Nested foreach entries and foreach deny conditions are
    preserved JSON, checked by Kyverno's webhook instead."""
    blocks = [k for k in keys if k in ("preconditions", "conditions")]
    if not blocks:
        return False
    depth = keys.count("foreach")
    if depth == 0:
        return api_version.rpartition("/")[2] == "v2beta1"
    return depth == 1 and blocks[-1] == "preconditions"


# -- what a cluster says about a policy ---------------------------------------------------------

_WEBHOOK = " (Kyverno's policy validation webhook)"


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if value.is_integer() else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _supported(values: tuple[str, ...]) -> str:
    return ", ".join(f'"{v}"' for v in values)


def _wrong_type(path: str, expected: str, actual: str) -> str:
    # the API server's wording for a type mismatch in a CRD schema
    return (
        f'{path}: Invalid value: "{actual}": {path} in body must be of type {expected}: "{actual}"'
    )


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _check(value: Any, schema: crd.Field, path: str, out: list[str]) -> None:
    if value is None or schema.type == "any":
        return  # nulls are pruned before validation; preserved fields take anything
    if schema.type == "conditions":
        _check_raw_conditions(value, path, out)
        return
    actual = _json_type(value)
    if actual != schema.type:
        out.append(_wrong_type(path, schema.type, actual))
        return
    if schema.type == "string":
        if schema.enum and value not in schema.enum:
            out.append(
                f'{path}: Unsupported value: "{value}": supported values: {_supported(schema.enum)}'
            )
        if schema.max_length is not None and len(value.encode()) > schema.max_length:
            out.append(f"{path}: Too long: may not be more than {schema.max_length} bytes")
    elif schema.type == "object" and not schema.opaque:
        for name in schema.required:
            if value.get(name) is None:
                out.append(f"{_join(path, name)}: Required value")
        for key, item in value.items():
            sub = schema.properties.get(key, schema.values)
            if sub is not None:
                _check(item, sub, _join(path, str(key)), out)
    elif schema.type == "array" and schema.items is not None:
        for index, item in enumerate(value):
            _check(item, schema.items, f"{path}[{index}]", out)


def _check_raw_conditions(value: Any, path: str, out: list[str]) -> None:
    """v1's untyped conditions, as Kyverno's policy validation webhook reads them: a list of
    conditions (the old form) or any/all lists; every condition needs key, operator and value,
    and the operator must be spelled exactly."""
    groups: list[tuple[Any, str]]
    if isinstance(value, list):
        groups = [(value, path)]
    elif isinstance(value, dict):
        groups = [(value.get(q), f"{path}.{q}") for q in ("any", "all") if value.get(q) is not None]
    else:
        out.append(
            f'{path}: Invalid value: "{_json_type(value)}": must be a list of conditions or an '
            f"object with any/all{_WEBHOOK}"
        )
        return
    for conditions, at in groups:
        if not isinstance(conditions, list):
            out.append(_wrong_type(at, "array", _json_type(conditions)) + _WEBHOOK)
            continue
        for index, condition in enumerate(conditions):
            where = f"{at}[{index}]"
            if not isinstance(condition, dict):
                out.append(_wrong_type(where, "object", _json_type(condition)) + _WEBHOOK)
                continue
            for name in ("key", "operator", "value"):
                if condition.get(name) is None:
                    out.append(f"{where}.{name}: Required value{_WEBHOOK}")
            operator = condition.get("operator")
            if operator is not None and not (
                isinstance(operator, str) and is_exact_operator(operator)
            ):
                out.append(
                    f'{where}.operator: Unsupported value: "{operator}": supported values: '
                    f"{_supported(CANONICAL_OPERATORS)}{_WEBHOOK}"
                )


def _schema_for(obj: dict[str, Any]) -> crd.Field:
    version = str(obj.get("apiVersion", "")).rpartition("/")[2]
    return crd.POLICY.get(version, _V1)


def validate_crd(obj: dict[str, Any]) -> list[str]:
    """What a real cluster rejects in a ClusterPolicy or Policy at ``kubectl apply``, one message
    per problem, each starting with the field's JSON path and worded as the API server words
    CRD schema errors (``Required value``, ``Unsupported value: ...: supported values: ...``,
    ``Invalid value: ...: must be of type ...``, ``Too long``). Operator problems in v1's untyped
    condition blocks, which Kyverno's admission webhook rejects, say so. Unknown fields are not
    reported here (see ``unknown_fields``): the API server prunes them unless asked to be strict.
    """
    if not isinstance(obj, dict):
        return [_wrong_type("<root>", "object", _json_type(obj))]
    problems: list[str] = []
    _check(obj, _schema_for(obj), "", problems)
    return problems


def _unknown(value: Any, schema: crd.Field, path: str) -> Iterator[str]:
    if schema.type == "object" and isinstance(value, dict) and not schema.opaque:
        for key, item in value.items():
            sub = schema.properties.get(key, schema.values)
            if sub is None:
                yield _join(path, str(key))
            else:
                yield from _unknown(item, sub, _join(path, str(key)))
    elif schema.type == "array" and isinstance(value, list) and schema.items is not None:
        for index, item in enumerate(value):
            yield from _unknown(item, schema.items, f"{path}[{index}]")


def unknown_fields(obj: dict[str, Any]) -> list[str]:
    """Fields the CRD schema does not declare, as ``kubectl apply`` with strict field validation
    (its default) reports them: ``unknown field "spec.rules[0].validate.patern"``."""
    if not isinstance(obj, dict):
        return []
    return [f'unknown field "{path}"' for path in _unknown(obj, _schema_for(obj), "")]
