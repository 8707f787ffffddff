"""A ``validate.pattern`` tree turned once into nested closures that check a resource exactly as
``match.walk`` does (same order, same outcomes, same paths and messages), without re-reading the
pattern's shape for every resource: the anchors are parsed, the keys sorted and the node types
decided when the closures are made. Maps whose keys have wildcards depend on the resource and,
like malformed maps, are left to ``match.walk``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ciso.engines.kyverno import budget
from ciso.engines.kyverno.pattern import anchors
from ciso.engines.kyverno.pattern.match import (
    MAX_DEPTH,
    Mismatch,
    PatternSyntaxError,
    _show,
    _split,
    _wildcard_keys,
    walk,
)
from ciso.engines.kyverno.pattern.values import value_matches

#: checks ``resource`` at ``path`` (``depth`` levels down), raising Mismatch or
#: PatternSyntaxError as ``match.walk`` would
Check = Callable[[Any, str, int], None]


def compile_pattern(pattern: Any, level: int = 0) -> Check:
    if level > MAX_DEPTH:
        # deeper than any valid pattern: the walk reports it with the resource's path
        return lambda resource, path, depth: walk(resource, pattern, path, depth)
    if isinstance(pattern, dict):
        return _map(pattern, level)
    if isinstance(pattern, list):
        return _list(pattern, level)
    return _leaf(pattern)


def _too_deep(path: str) -> PatternSyntaxError:
    return PatternSyntaxError(f"pattern nested deeper than {MAX_DEPTH} levels at {path}")


def _leaf(pattern: Any) -> Check:
    def check(resource: Any, path: str, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise _too_deep(path)
        if isinstance(resource, list):
            for item in resource:
                if not value_matches(item, pattern):
                    raise Mismatch(
                        path, f"resource value '{item}' does not match '{pattern}' at path {path}"
                    )
        elif not value_matches(resource, pattern):
            raise Mismatch(
                path,
                f"resource value '{_show(resource)}' does not match '{pattern}' at path {path}",
            )

    return check


def _map(pattern: dict, level: int) -> Check:
    try:
        split = None if _wildcard_keys(pattern) else _split(pattern, "/")
    except PatternSyntaxError:
        split = None  # the walk raises it again, naming the path where it is met
    if split is None:
        return lambda resource, path, depth: walk(resource, pattern, path, depth)
    anchored = [
        _anchor(anchor, value, level)
        for _, value, anchor in split[0]
        if anchor.kind != anchors.ADD  # "+(k)" only means something when mutating
    ]
    plain = [(key, value == "*", compile_pattern(value, level + 1)) for key, value in split[1]]

    def check(resource: Any, path: str, depth: int) -> None:
        budget.tick()  # one tick per map visited: lists of lists multiply them
        if depth > MAX_DEPTH:
            raise _too_deep(path)
        if not isinstance(resource, dict):
            raise Mismatch(
                path, f"pattern and resource have different structures at {path}: expected a map"
            )
        if anchored:
            # as match._validate_map: skips are collected, and once a condition of this very
            # map failed, other anchors' failures no longer count
            skips: list[Mismatch] = []
            applied = 0
            for check_anchor in anchored:
                try:
                    check_anchor(resource, path, depth)
                except Mismatch as exc:
                    if exc.skip:
                        skips.append(exc)
                        continue
                    if any(s.direct for s in skips):
                        continue
                    raise
                applied += 1
            if skips and (applied == 0 or any(s.direct for s in skips)):
                raise Mismatch(path, "; ".join(s.message for s in skips), skips[0].kind)
        for key, star, check_value in plain:
            if star:
                if resource.get(key) is None:
                    raise Mismatch(path, f"{path}{key} not found")
                continue
            check_value(resource.get(key), f"{path}{key}/", depth + 1)

    return check


def _anchor(anchor: anchors.Anchor, value: Any, level: int) -> Check:
    """One anchored key of a map, as match._check_anchor checks it."""
    key, kind = anchor.key, anchor.kind
    if kind == anchors.NEGATION:

        def negation(resource: dict, path: str, depth: int) -> None:
            if key in resource:
                here = f"{path}{key}/"
                raise Mismatch(here, f"{here} is not allowed", "negation")

        return negation
    if kind == anchors.EXISTENCE:
        return _existence(key, value, level)
    check_value = compile_pattern(value, level + 1)
    if kind == anchors.EQUALITY:

        def equality(resource: dict, path: str, depth: int) -> None:
            if key in resource:
                check_value(resource[key], f"{path}{key}/", depth + 1)

        return equality
    if kind == anchors.CONDITION:

        def condition(resource: dict, path: str, depth: int) -> None:
            here = f"{path}{key}/"
            if key not in resource:
                raise Mismatch(
                    here, "conditional anchor key doesn't exist in the resource", "condition", True
                )
            try:
                check_value(resource[key], here, depth + 1)
            except Mismatch as exc:
                # any failure under a conditional anchor means "does not apply"
                raise Mismatch(exc.path, exc.message, "condition", True) from None

        return condition
    if kind == anchors.GLOBAL:

        def global_(resource: dict, path: str, depth: int) -> None:
            if key in resource:
                try:
                    check_value(resource[key], f"{path}{key}/", depth + 1)
                except Mismatch as exc:
                    raise Mismatch(exc.path, exc.message, "global", True) from None

        return global_
    return lambda resource, path, depth: None  # no other kind checks anything


def _existence(key: str, value: Any, level: int) -> Check:
    """``^(key)``: every element of the pattern list holds for some element of the resource's."""
    elements = [compile_pattern(e, level + 2) for e in value] if isinstance(value, list) else None

    def existence(resource: dict, path: str, depth: int) -> None:
        if key not in resource:
            return
        here, found = f"{path}{key}/", resource[key]
        if not isinstance(found, list):
            raise Mismatch(
                here,
                "existence anchor ^() can only be used on lists, found "
                f"{type(found).__name__} at {here}",
            )
        if elements is None:
            raise PatternSyntaxError(f"existence anchor at {here} needs a list pattern")
        for element in elements:
            if not any(_holds(element, item, f"{here}{i}/", depth) for i, item in enumerate(found)):
                raise Mismatch(here, f"existence anchor validation failed at path {here}")

    return existence


def _holds(check: Check, resource: Any, path: str, depth: int) -> bool:
    try:
        check(resource, path, depth + 1)
    except Mismatch:
        return False
    return True


def _list(pattern: list, level: int) -> Check:
    if not pattern:

        def empty(resource: Any, path: str, depth: int) -> None:
            if depth > MAX_DEPTH:
                raise _too_deep(path)
            if not isinstance(resource, list):
                raise Mismatch(path, f"validation rule failed at path {path}: expected a list")
            raise PatternSyntaxError(f"empty list in pattern at {path}")

        return empty
    first = pattern[0]
    if isinstance(first, dict):
        check_item = compile_pattern(first, level + 1)

        def each(resource: Any, path: str, depth: int) -> None:
            if depth > MAX_DEPTH:
                raise _too_deep(path)
            if not isinstance(resource, list):
                raise Mismatch(path, f"validation rule failed at path {path}: expected a list")
            applied, skipped = 0, None
            for i, item in enumerate(resource):
                try:
                    check_item(item, f"{path}{i}/", depth + 1)
                except Mismatch as exc:
                    if exc.skip:
                        skipped = exc
                        continue
                    raise
                applied += 1
            if applied == 0 and skipped is not None:
                raise Mismatch(path, skipped.message, "condition")

        return each
    if not isinstance(first, list):
        check_all = compile_pattern(first, level + 1)

        def whole(resource: Any, path: str, depth: int) -> None:
            if depth > MAX_DEPTH:
                raise _too_deep(path)
            if not isinstance(resource, list):
                raise Mismatch(path, f"validation rule failed at path {path}: expected a list")
            check_all(resource, path, depth + 1)

        return whole
    checks = [compile_pattern(element, level + 1) for element in pattern]

    def positional(resource: Any, path: str, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise _too_deep(path)
        if not isinstance(resource, list):
            raise Mismatch(path, f"validation rule failed at path {path}: expected a list")
        if len(resource) < len(pattern):
            raise Mismatch(path, f"validate Array failed, array length mismatch at {path}")
        for i, check in enumerate(checks):
            check(resource[i], f"{path}{i}/", depth + 1)

    return positional
