"""The pattern interpreter: a ``validate.pattern`` tree turned into nested closures that check a
resource as Kyverno's validator walks it (anchors first, in sorted order; the same outcomes,
paths and messages). Anchors are parsed, keys sorted and node types decided once per pattern,
not once per resource; a map whose keys have wildcards is split anew for each resource's keys
(and remembered per key set), and a malformed map raises where a resource reaches it, naming
the resource's path. A pattern checked once (substituted for one resource) is compiled lazily:
a node is made when a resource first reaches it, so the parts the resource never reaches cost
nothing (eager making cost three times a plain walk on such patterns).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ciso.engines.kyverno import budget
from ciso.engines.kyverno.pattern import anchors
from ciso.engines.kyverno.pattern.errors import (
    MAX_DEPTH,
    Mismatch,
    PatternSyntaxError,
    not_a_list,
    not_a_map,
    too_deep,
)
from ciso.engines.kyverno.pattern.plan import (
    Split,
    expand_wildcard_keys,
    has_wildcard_keys,
    show,
    split,
)
from ciso.engines.kyverno.pattern.values import value_matches

#: checks ``resource`` at ``path`` (``depth`` levels down), raising Mismatch or PatternSyntaxError
Check = Callable[[Any, str, int], None]

#: levels made at once when compiling whole; deeper nodes (no real pattern has them; a hostile one
#: may) are made when first reached, so that neither making nor checking runs out of stack
EAGER_LEVELS = 32

#: key sets remembered per wildcard map (one map meets few: the containers' names of a policy's
#: resources); past it the oldest are dropped
_WILDCARD_SPLITS = 64


def compile_pattern(pattern: Any, level: int = 0, lazy: bool = False) -> Check:
    """The check of ``pattern`` met ``level`` levels below the top; ``lazy``: its inner nodes
    are made when first reached (for a pattern checked once)."""
    if level > MAX_DEPTH:
        return _beyond(pattern)
    if isinstance(pattern, dict):
        return _map(pattern, level, lazy)
    if isinstance(pattern, list):
        return _list(pattern, level, lazy)
    return _leaf(pattern)


def _inner(pattern: Any, level: int, lazy: bool) -> Check:
    """An inner node's check: made now, or (lazy, or deeper than EAGER_LEVELS) when a resource
    first reaches it."""
    if (not lazy and level <= EAGER_LEVELS) or not isinstance(pattern, dict | list):
        return compile_pattern(pattern, level, lazy)
    made: list[Check] = []

    def check(resource: Any, path: str, depth: int) -> None:
        if not made:
            made.append(compile_pattern(pattern, level, lazy=True))
        made[0](resource, path, depth)

    return check


def _beyond(pattern: Any) -> Check:
    """Past MAX_DEPTH levels of pattern: made only when a resource gets there (a hostile pattern
    nested thousands deep costs nothing up front), and an error once the resource is that deep."""

    def check(resource: Any, path: str, depth: int) -> None:
        budget.tick()
        if depth > MAX_DEPTH:
            raise too_deep(path)
        compile_pattern(pattern, depth)(resource, path, depth)

    return check


def _leaf(pattern: Any) -> Check:
    def check(resource: Any, path: str, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise too_deep(path)
        if isinstance(resource, list):
            for item in resource:
                if not value_matches(item, pattern):
                    raise Mismatch(
                        path, f"resource value '{item}' does not match '{pattern}' at path {path}"
                    )
        elif not value_matches(resource, pattern):
            raise Mismatch(
                path,
                f"resource value '{show(resource)}' does not match '{pattern}' at path {path}",
            )

    return check


def _map(pattern: dict, level: int, lazy: bool) -> Check:
    if has_wildcard_keys(pattern):
        return _wildcard_map(pattern, level, lazy)
    try:
        parts = split(pattern, "/")
    except PatternSyntaxError:
        return _malformed_map(pattern)
    return _split_map(parts, level, lazy)


def _entered_map(resource: Any, path: str, depth: int) -> None:
    """What every map checks first: the budget, the depth, that the resource is a map."""
    budget.tick()  # one tick per map visited: lists of lists multiply them
    if depth > MAX_DEPTH:
        raise too_deep(path)
    if not isinstance(resource, dict):
        raise not_a_map(path)


def _wildcard_map(pattern: dict, level: int, lazy: bool) -> Check:
    """A map whose keys stand for every resource key they match: split for each key set met."""
    made: dict[tuple[str, ...], Check] = {}

    def check(resource: Any, path: str, depth: int) -> None:
        _entered_map(resource, path, depth)
        expanded = expand_wildcard_keys(resource, pattern)
        keys = tuple(expanded)
        known = made.get(keys)
        if known is None:
            known = _split_map(split(expanded, path), level, lazy)  # a bad key errs at this path
            if len(made) >= _WILDCARD_SPLITS:
                made.pop(next(iter(made)))
            made[keys] = known
        known(resource, path, depth)

    return check


def _malformed_map(pattern: dict) -> Check:
    """A map with an unknown anchor modifier: an error where a resource map reaches it."""

    def check(resource: Any, path: str, depth: int) -> None:
        _entered_map(resource, path, depth)
        split(pattern, path)  # raises PatternSyntaxError naming this path
        raise PatternSyntaxError(f"malformed pattern map at {path}")  # not reached

    return check


def _split_map(parts: Split, level: int, lazy: bool) -> Check:
    anchored = [
        _anchor(anchor, value, level, lazy)
        for _, value, anchor in parts[0]
        if anchor.kind != anchors.ADD  # "+(k)" only means something when mutating
    ]
    plain = [(key, value == "*", _inner(value, level + 1, lazy)) for key, value in parts[1]]

    def check(resource: Any, path: str, depth: int) -> None:
        _entered_map(resource, path, depth)
        if anchored:
            _check_anchors(anchored, resource, path, depth)
        for key, star, check_value in plain:
            if star:
                if resource.get(key) is None:
                    raise Mismatch(path, f"{path}{key} not found")
                continue
            check_value(resource.get(key), f"{path}{key}/", depth + 1)

    return check


def _check_anchors(anchored: list[Check], resource: dict, path: str, depth: int) -> None:
    """Kyverno checks the anchored keys in sorted order; failed conditions (skips) are collected,
    and once a condition of this very map failed, other anchors' failures no longer count."""
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


def _anchor(anchor: anchors.Anchor, value: Any, level: int, lazy: bool) -> Check:
    """One anchored key of a map, as Kyverno's anchor handlers check it."""
    key, kind = anchor.key, anchor.kind
    if kind == anchors.NEGATION:

        def negation(resource: dict, path: str, depth: int) -> None:
            if key in resource:
                here = f"{path}{key}/"
                raise Mismatch(here, f"{here} is not allowed", "negation")

        return negation
    if kind == anchors.EXISTENCE:
        return _existence(key, value, level, lazy)
    check_value = _inner(value, level + 1, lazy)
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


def _existence(key: str, value: Any, level: int, lazy: bool) -> Check:
    """``^(key)``: every element of the pattern list holds for some element of the resource's."""
    elements = [_inner(e, level + 1, lazy) for e in value] if isinstance(value, list) else None

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


def _list(pattern: list, level: int, lazy: bool) -> Check:
    if not pattern:

        def empty(resource: Any, path: str, depth: int) -> None:
            if depth > MAX_DEPTH:
                raise too_deep(path)
            if not isinstance(resource, list):
                raise not_a_list(path)
            raise PatternSyntaxError(f"empty list in pattern at {path}")

        return empty
    first = pattern[0]
    if isinstance(first, dict):
        check_item = _inner(first, level + 1, lazy)

        def each(resource: Any, path: str, depth: int) -> None:
            if depth > MAX_DEPTH:
                raise too_deep(path)
            if not isinstance(resource, list):
                raise not_a_list(path)
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
        check_all = _inner(first, level + 1, lazy)

        def whole(resource: Any, path: str, depth: int) -> None:
            if depth > MAX_DEPTH:
                raise too_deep(path)
            if not isinstance(resource, list):
                raise not_a_list(path)
            check_all(resource, path, depth + 1)

        return whole
    checks = [_inner(element, level + 1, lazy) for element in pattern]

    def positional(resource: Any, path: str, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise too_deep(path)
        if not isinstance(resource, list):
            raise not_a_list(path)
        if len(resource) < len(pattern):
            raise Mismatch(path, f"validate Array failed, array length mismatch at {path}")
        for i, check in enumerate(checks):
            check(resource[i], f"{path}{i}/", depth + 1)

    return positional
