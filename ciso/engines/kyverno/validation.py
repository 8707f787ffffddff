"""A ``validate`` block, as one Kyverno validator level: deny, pattern/anyPattern or foreach (in that
order when a block has several), each element of a foreach being a validator level of its own.

Outcomes are a ``RuleOutcome`` or None when Kyverno gives no response at all (a pattern on a
DELETE request; a foreach none of whose elements applied).
"""

from __future__ import annotations

import json
from typing import Any

from ciso.engines.kyverno import budget, conditions, foreach
from ciso.engines.kyverno.errors import RuleError
from ciso.engines.kyverno.foreach import ContextLoader
from ciso.engines.kyverno.model import RuleOutcome, RuleStatus
from ciso.engines.kyverno.pattern.check import Mismatch, validate
from ciso.engines.kyverno.variables import UnknownKey, VariableError, substitute

PASS, FAIL, SKIP = RuleStatus.PASS, RuleStatus.FAIL, RuleStatus.SKIP

Outcome = RuleOutcome | None

_VARIABLE_FREE: dict[int, tuple[Any, bool]] = {}


def resolve(pattern: Any, context: dict[str, Any]) -> Any:
    """Substitute variables in a pattern; most patterns have none, so remember which don't."""
    key = id(pattern)
    cached = _VARIABLE_FREE.get(key)
    if cached is None or cached[0] is not pattern:
        if len(_VARIABLE_FREE) > 10_000:  # a long-lived cluster hook must not grow without bound
            _VARIABLE_FREE.clear()
        cached = _VARIABLE_FREE[key] = (pattern, "{{" not in json.dumps(pattern))
    return pattern if cached[1] else substitute(pattern, context)


def fail_message(rule: dict[str, Any], context: dict[str, Any], detail: str) -> str:
    raw = (rule.get("validate") or {}).get("message", "")
    try:
        message = substitute(raw, context)
    except VariableError:
        message = raw  # as Kyverno: a message that cannot be resolved is shown as written
    return (
        f"validation error: {message}. rule {rule['name']} failed at path {detail}"
        if detail
        else f"validation error: {message}"
    )


def check_patterns(
    rule: dict[str, Any], block: dict[str, Any], target: dict[str, Any], context: dict[str, Any]
) -> Outcome:
    """``pattern`` or ``anyPattern`` of ``block`` against ``target``."""
    name = rule["name"]
    if "pattern" in block:
        try:
            pattern = resolve(block["pattern"], context)
            validate(target, pattern)
        except RuleError as exc:
            raise exc.at("pattern") from None
        except Mismatch as exc:
            if exc.skip:
                return RuleOutcome(SKIP, f"rule {name} skipped: {exc.message}")
            return RuleOutcome(FAIL, fail_message(rule, context, exc.path))
        return RuleOutcome(PASS, f"validation rule '{name}' passed.")
    patterns = block["anyPattern"]
    if not isinstance(patterns, list) or not patterns:
        raise RuleError("anyPattern must be a non-empty list of patterns").at("anyPattern")
    failures, skipped = [], 0
    for i, raw in enumerate(patterns):
        try:
            validate(target, resolve(raw, context))
            return RuleOutcome(PASS, f"validation rule '{name}' anyPattern[{i}] passed.")
        except RuleError as exc:
            raise exc.at("anyPattern", i) from None
        except Mismatch as exc:
            if exc.skip:
                skipped += 1
            failures.append(f"rule {name}[{i}] failed at path {exc.path}")
    if skipped == len(patterns):
        return RuleOutcome(SKIP, f"rule {name} skipped: all patterns skipped")
    return RuleOutcome(FAIL, fail_message(rule, context, "") + " " + " ".join(failures))


def check_deny(rule: dict[str, Any], block: dict[str, Any], context: dict[str, Any]) -> Outcome:
    deny = block["deny"] or {}
    try:
        denied = conditions.evaluate(deny.get("conditions"), context)
    except RuleError as exc:
        raise exc.at("deny", "conditions") from None
    if denied:
        return RuleOutcome(FAIL, fail_message(rule, context, ""))
    return RuleOutcome(PASS, f"validation rule '{rule['name']}' passed.")


def check_block(
    rule: dict[str, Any],
    block: dict[str, Any],
    resource: dict[str, Any],
    context: dict[str, Any],
    load_context: ContextLoader,
    *,
    nesting: int = 0,
    element: dict[str, Any] | None = None,
    deleting: bool = False,
) -> Outcome:
    """One validator level once its context and preconditions are in place."""
    if "deny" in block:
        return check_deny(rule, block, context)
    if "pattern" in block or "anyPattern" in block:
        if element is not None:
            return check_patterns(rule, block, element, context)
        if deleting:
            return None  # Kyverno does not check patterns against a deleted resource
        return check_patterns(rule, block, resource, context)
    if "foreach" in block:
        return check_foreach(
            rule, block["foreach"], resource, context, load_context, nesting, deleting
        )
    raise RuleError("a validate block needs pattern, anyPattern, deny or foreach")


def check_foreach(
    rule: dict[str, Any],
    entries: Any,
    resource: dict[str, Any],
    context: dict[str, Any],
    load_context: ContextLoader,
    nesting: int,
    deleting: bool,
) -> Outcome:
    if not isinstance(entries, list):
        raise RuleError("foreach must be a list").at("foreach")
    applied = 0
    list_error: RuleError | None = None
    for i, entry in enumerate(entries):
        try:
            outcome, count = _foreach_entry(
                rule, entry, resource, context, load_context, nesting, deleting
            )
        except _ListError as exc:
            list_error = list_error or exc.error.at("foreach", i, "list")
            continue
        except RuleError as exc:
            raise exc.at("foreach", i) from None
        if outcome is not None and outcome.status != PASS:
            return outcome
        applied += count
    if applied == 0:
        if list_error is not None:
            raise list_error
        return None
    return RuleOutcome(PASS, f"validation rule '{rule['name']}' passed.")


class _ListError(Exception):
    """The ``list`` expression of one foreach entry failed: Kyverno goes on with the next entry
    and reports the error only when no element of any entry applied."""

    def __init__(self, error: RuleError) -> None:
        super().__init__(str(error))
        self.error = error


def _foreach_entry(
    rule: dict[str, Any],
    entry: Any,
    resource: dict[str, Any],
    context: dict[str, Any],
    load_context: ContextLoader,
    nesting: int,
    deleting: bool,
) -> tuple[Outcome, int]:
    try:
        elements = foreach.items(entry, context)
    except UnknownKey:
        return RuleOutcome(PASS, ""), 0  # an absent list is nothing to iterate, as in Kyverno
    except VariableError as exc:
        raise _ListError(exc) from None
    scope = entry.get("elementScope")
    applied = 0
    for index, element in enumerate(elements):
        budget.check()  # nested foreach multiplies the elements: look at the clock each time
        if element is None:
            continue
        local = foreach.element_context(context, element, index, nesting)
        scoped = isinstance(element, dict) if scope is None else bool(scope)
        if scoped and not isinstance(element, dict):
            raise RuleError(
                "elementScope: true needs elements that are maps, got "
                f"{type(element).__name__} at index {index}"
            ).at("elementScope")
        foreach.load_entry_context(entry, local, load_context)
        try:
            holds = conditions.evaluate(entry.get("preconditions"), local)
        except RuleError:
            continue  # Kyverno skips an element whose preconditions cannot be evaluated
        if not holds:
            continue
        outcome = check_block(
            rule,
            entry,
            resource,
            local,
            load_context,
            nesting=nesting + 1,
            element=element if scoped else None,
            deleting=deleting,
        )
        if outcome is None or outcome.status == SKIP:
            continue
        if outcome.status != PASS:
            return outcome, applied
        applied += 1
    return RuleOutcome(PASS, ""), applied
