"""Shared walking of Kyverno policy documents for the KYV rules (not a rule itself)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ciso.engines.kyverno.schema import is_policy
from ciso.lint.model import LintTarget


def policies(target: LintTarget) -> Iterator[tuple[int, dict[str, Any]]]:
    for index, doc in enumerate(target.documents):
        if is_policy(doc):
            yield index, doc


def rules(policy: dict[str, Any]) -> Iterator[tuple[int, dict[str, Any]]]:
    spec = policy.get("spec") or {}
    for i, rule in enumerate(
        spec.get("rules") or [] if isinstance(spec.get("rules"), list) else []
    ):
        if isinstance(rule, dict):
            yield i, rule


def walk_strings(value: Any, path: tuple = ()) -> Iterator[tuple[tuple, str]]:
    stack = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            yield where, item
        elif isinstance(item, dict):
            for k, v in item.items():
                if isinstance(k, str):
                    yield (*where, k), k
                stack.append((v, (*where, k)))
        elif isinstance(item, list):
            stack.extend((v, (*where, i)) for i, v in enumerate(item))


def walk_keys(value: Any, path: tuple = ()) -> Iterator[tuple[tuple, str, Any]]:
    stack = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, dict):
            for k, v in item.items():
                yield (*where, k), str(k), v
                stack.append((v, (*where, k)))
        elif isinstance(item, list):
            stack.extend((v, (*where, i)) for i, v in enumerate(item))
