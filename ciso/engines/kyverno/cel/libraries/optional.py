"""Optional types: ``x.?field`` and ``x[?key]`` (rewritten by ``syntax`` into these two
functions). The evaluator's own optional values carry ``orValue``, ``hasValue``, ``value`` and
``optional.of``/``optional.none``. A selection on an empty optional stays empty; on a map it is
the key's value or empty; on a list, ``[?i]`` is the element or empty."""

from __future__ import annotations

from typing import Any

import cel

from ciso.engines.kyverno.cel.syntax import OPT_INDEX, OPT_SELECT, OR_VALUE


def _unwrap(value: Any) -> tuple[bool, Any]:
    if isinstance(value, cel.OptionalValue):
        return (value.has_value(), value.value() if value.has_value() else None)
    return True, value


def select(value: Any, key: Any) -> Any:
    present, value = _unwrap(value)
    if present and isinstance(value, dict) and key in value:
        return cel.OptionalValue.of(value[key])
    return cel.OptionalValue.none()


def index(value: Any, key: Any) -> Any:
    present, value = _unwrap(value)
    if present and isinstance(value, list) and isinstance(key, int) and not isinstance(key, bool):
        return (
            cel.OptionalValue.of(value[key]) if 0 <= key < len(value) else cel.OptionalValue.none()
        )
    return select(value, key)


def or_value(value: Any, default: Any) -> Any:
    """An optional's value or ``default``; a plain value is its own value (cel-go on dyn)."""
    present, value = _unwrap(value)
    return value if present else default


FUNCTIONS = {OPT_SELECT: select, OPT_INDEX: index, OR_VALUE: or_value}
