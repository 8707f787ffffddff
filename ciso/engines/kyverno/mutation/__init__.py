"""``mutate`` rules: ``patchStrategicMerge`` (anchors resolved, then merged), ``patchesJson6902``,
and ``foreach`` over a list with either, each element's patch applied to the resource as patched
so far. A rule passes when it changed the resource and is skipped when it did not, as Kyverno
reports mutations."""

from __future__ import annotations

import copy
from typing import Any

import yaml

from ciso.engines.kyverno import conditions, foreach
from ciso.engines.kyverno.errors import RuleError
from ciso.engines.kyverno.foreach import ContextLoader
from ciso.engines.kyverno.model import RuleOutcome, RuleStatus
from ciso.engines.kyverno.mutation.anchors import resolve
from ciso.engines.kyverno.mutation.json_patch import PatchError, apply_patch
from ciso.engines.kyverno.mutation.strategic_merge import merge
from ciso.engines.kyverno.variables import substitute

PASS, SKIP = RuleStatus.PASS, RuleStatus.SKIP
# pass: the resource changed; skip: nothing to change; ``patched`` is always set
MutationOutcome = RuleOutcome


def _patch(block: dict[str, Any], resource: dict[str, Any], context: dict[str, Any]) -> Any:
    """``resource`` after the block's patchStrategicMerge or patchesJson6902."""
    if block.get("patchStrategicMerge") is not None:
        try:
            overlay = substitute(block["patchStrategicMerge"], context)
        except RuleError as exc:
            raise exc.at("patchStrategicMerge") from None
        if not isinstance(overlay, dict):
            raise RuleError("must be a map").at("patchStrategicMerge")
        return merge(resource, resolve(overlay, resource))
    if block.get("patchesJson6902"):
        try:
            text = substitute(block["patchesJson6902"], context)
        except RuleError as exc:
            raise exc.at("patchesJson6902") from None
        try:
            operations = yaml.safe_load(text) if isinstance(text, str) else text
            return apply_patch(resource, operations)
        except (yaml.YAMLError, PatchError) as exc:
            raise RuleError(str(exc).splitlines()[0]).at("patchesJson6902") from None
    raise RuleError("a mutate block needs patchStrategicMerge, patchesJson6902 or foreach")


def _outcome(before: dict[str, Any], after: Any, message: str = "") -> MutationOutcome:
    if after == before:
        return MutationOutcome(SKIP, "no patches applied", before)
    if not isinstance(after, dict):
        raise RuleError("the patch did not leave an object")
    meta = after.get("metadata") or {}
    where = f" in namespace {meta['namespace']}" if meta.get("namespace") else ""
    return MutationOutcome(
        PASS, message or f"mutated {after.get('kind')}/{meta.get('name')}{where}", after
    )


def mutate(
    rule: dict[str, Any],
    resource: dict[str, Any],
    context: dict[str, Any],
    load_context: ContextLoader,
) -> MutationOutcome:
    """One mutate rule on ``resource`` (not modified), its context and preconditions already
    handled by the caller. Raises RuleError, located inside ``mutate``."""
    block = rule.get("mutate")
    if not isinstance(block, dict):
        raise RuleError("must be a map").at("mutate")
    if block.get("targets"):
        # mutating existing objects needs them from a cluster: never patch the trigger instead
        raise RuleError("unsupported: mutate.targets (mutating existing resources)")
    try:
        if block.get("foreach"):
            return _foreach(block["foreach"], resource, context, load_context, 0)
        return _outcome(resource, _patch(block, resource, context))
    except RuleError as exc:
        raise exc.at("mutate") from None


def _foreach(
    entries: Any,
    resource: dict[str, Any],
    context: dict[str, Any],
    load_context: ContextLoader,
    nesting: int,
) -> MutationOutcome:
    if not isinstance(entries, list):
        raise RuleError("must be a list").at("foreach")
    current, applied = resource, 0
    context = dict(context)
    for i, entry in enumerate(entries):
        try:
            outcome = _elements(entry, current, context, load_context, nesting)
        except RuleError as exc:
            raise exc.at("foreach", i) from None
        if outcome.status != SKIP:
            applied += 1
            current = outcome.patched  # type: ignore[assignment]  # a mutation's outcome always carries patched (see MutationOutcome)
            # the next list is read from the resource as patched so far
            context["request"] = {**context["request"], "object": current}
    if applied == 0:
        return MutationOutcome(SKIP, "0 elements processed", resource)
    return MutationOutcome(PASS, f"{applied} elements processed", current)


def _elements(
    entry: Any,
    resource: dict[str, Any],
    context: dict[str, Any],
    load_context: ContextLoader,
    nesting: int,
) -> MutationOutcome:
    try:
        items = foreach.items(entry, context)
    except RuleError as exc:
        raise exc.at("list") from None
    # a strategic merge patch walks the list backwards unless told otherwise, as in Kyverno
    order = entry.get("order")
    reverse = order == "Descending" if order else entry.get("patchStrategicMerge") is not None
    indexed = list(enumerate(items))
    if reverse:
        indexed.reverse()
    patched = copy.deepcopy(resource)
    for index, element in indexed:
        if element is None:
            continue
        local = foreach.element_context(context, element, index, nesting)
        foreach.load_entry_context(entry, local, load_context)
        try:
            if not conditions.evaluate(entry.get("preconditions"), local):
                continue
        except RuleError as exc:
            raise exc.at("preconditions") from None
        if entry.get("foreach"):
            outcome = _foreach(entry["foreach"], patched, local, load_context, nesting + 1)
            if outcome.status == PASS:
                patched = outcome.patched  # type: ignore[assignment]  # a mutation's outcome always carries patched (see MutationOutcome)
        else:
            patched = _patch(entry, patched, local)
    return _outcome(resource, patched, "patched")
