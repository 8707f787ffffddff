"""Mutating existing resources: a mutate rule with ``targets``. The trigger (the resource the rule
matched) is left as it is; each target is found, and the rule's patch is applied to it.

As Kyverno's mutate-existing handler: each ``targets`` entry (``apiVersion``, ``kind``, ``name`` and
``namespace`` with wildcards, ``selector``; variables substituted from the trigger's context)
selects objects of the offline cluster (a Test's ``targetResources`` and its resources); a
namespaced Policy finds them in its own namespace only. Per target, ``target`` is bound to it,
the entry's ``context`` loaded and its ``preconditions`` checked (false: ``skip``), then the
``patchStrategicMerge``, ``patchesJson6902`` or ``foreach`` is applied to it. Each target gives its
own response (``pass`` with the patched target, ``skip`` when nothing changed, ``error``); a rule
that finds no target gives none."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from ciso.engines.kyverno import conditions
from ciso.engines.kyverno.errors import RuleError
from ciso.engines.kyverno.foreach import ContextLoader
from ciso.engines.kyverno.matching import selector_matches
from ciso.engines.kyverno.model import RuleOutcome, RuleStatus
from ciso.engines.kyverno.variables import substitute
from ciso.engines.kyverno.wildcard import match as wildcard_match

#: one mutate block on one resource with its context: the rule's patch
Mutator = Callable[[dict[str, Any], dict[str, Any], dict[str, Any]], RuleOutcome]


def selected(
    spec: dict[str, Any], objects: list[dict[str, Any]], policy_namespace: str | None
) -> list[dict[str, Any]]:
    """The objects a (substituted) ``targets`` entry selects, each once."""
    api_version = str(spec.get("apiVersion") or "")
    kind = str(spec.get("kind") or "")
    name = str(spec.get("name") or "")
    namespace = policy_namespace or str(spec.get("namespace") or "")
    selector = spec.get("selector") if isinstance(spec.get("selector"), dict) else None
    found: list[dict[str, Any]] = []
    seen: set[tuple[str, str, str, str]] = set()
    for obj in objects:
        meta = obj.get("metadata") or {}
        key = (
            str(obj.get("apiVersion", "")),
            str(obj.get("kind", "")),
            str(meta.get("namespace") or ""),
            str(meta.get("name") or ""),
        )
        if key in seen or key[1] != kind or (api_version and key[0] != api_version):
            continue
        if namespace and not wildcard_match(namespace, key[2]):
            continue
        if name and not wildcard_match(name, key[3]):
            continue
        if selector is not None and not selector_matches(selector, meta.get("labels") or {}):
            continue
        seen.add(key)
        found.append(obj)
    return found


def mutate_targets(
    block: dict[str, Any],
    context: dict[str, Any],
    load_context: ContextLoader,
    objects: list[dict[str, Any]],
    policy_namespace: str | None,
    mutator: Mutator,
) -> list[tuple[dict[str, Any], RuleOutcome]]:
    """(target, its response) for every target of the rule's ``targets``; RuleError located
    inside ``mutate.targets`` for an entry that cannot be resolved."""
    patch = {k: v for k, v in block.items() if k not in ("targets", "mutateExistingOnPolicyUpdate")}
    responses: list[tuple[dict[str, Any], RuleOutcome]] = []
    entries = block.get("targets")
    if not isinstance(entries, list):
        raise RuleError("must be a list").at("targets")
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict) or not entry.get("kind"):
            raise RuleError("a target needs a kind").at("targets", index)
        try:
            spec = substitute(
                {k: v for k, v in entry.items() if k not in ("context", "preconditions")}, context
            )
        except RuleError as exc:
            raise exc.at("targets", index) from None
        for target in selected(spec, objects, policy_namespace):
            responses.append((target, _one(entry, target, context, load_context, patch, mutator)))
    return responses


def _one(
    entry: dict[str, Any],
    target: dict[str, Any],
    context: dict[str, Any],
    load_context: ContextLoader,
    patch: dict[str, Any],
    mutator: Mutator,
) -> RuleOutcome:
    local = {**context, "target": copy.deepcopy(target)}
    try:
        if entry.get("context"):
            load_context(entry["context"], local)
        if not conditions.evaluate(entry.get("preconditions"), local):
            return RuleOutcome(RuleStatus.SKIP, "preconditions not met", patched=target)
        return mutator(patch, target, local)
    except RuleError as exc:
        return RuleOutcome(RuleStatus.ERROR, str(exc), patched=target)
