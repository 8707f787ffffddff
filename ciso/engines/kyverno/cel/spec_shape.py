"""The shape every policies.kyverno.io policy that matches admission requests shares: a ``spec``
map, ``matchConstraints`` (without them a policy matches nothing), a non-empty list of its own
entries (validations, mutations, generate) each checked by the kind's own rule, and the optional
lists (variables, matchConditions, ...). The kinds' ``check_structure`` say what is theirs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def problems(
    policy: dict[str, Any],
    entries: str,
    lists: tuple[str, ...],
    entry_problem: Callable[[int, Any], str | None] = lambda index, entry: None,
    match_required: bool = True,
) -> list[str]:
    """What makes the policy unusable, each naming its field: ``entries`` is the spec key of its
    non-empty list, ``entry_problem(index, entry)`` the kind's check of one of them."""
    spec = policy.get("spec")
    if not isinstance(spec, dict):
        return ["spec: must be a map"]
    found: list[str] = []
    if match_required and not isinstance(spec.get("matchConstraints"), dict):
        found.append("spec.matchConstraints: required (a policy without it matches nothing)")
    listed = spec.get(entries)
    if not isinstance(listed, list) or not listed:
        found.append(f"spec.{entries}: must be a non-empty list")
    for index, entry in enumerate(listed if isinstance(listed, list) else []):
        problem = entry_problem(index, entry)
        if problem:
            found.append(problem)
    found += [
        f"spec.{key}: must be a list"
        for key in lists
        if key in spec and not isinstance(spec[key], list)
    ]
    return found
