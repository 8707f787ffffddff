"""What every ``foreach`` shares (validate, mutate, generate): the ``list`` expression of an
entry, and the variables each element brings (``element``, ``elementIndex`` and their nesting-
numbered forms ``element0``, ``elementIndex0`` …, and ``@``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ciso.engines.kyverno.errors import RuleError
from ciso.engines.kyverno.variables import substitute

#: Loads an entry's own ``context`` entries into a variable context.
ContextLoader = Callable[[list[Any], dict[str, Any]], None]


def items(entry: Any, context: dict[str, Any]) -> list[Any]:
    """The entry's list, evaluated (a single value is a list of one). Raises RuleError for an
    entry without a list expression, and the variable errors of the expression as they are."""
    if not isinstance(entry, dict) or not isinstance(entry.get("list"), str):
        raise RuleError("a foreach entry needs a 'list' expression")
    expression = entry["list"].strip().removeprefix("{{").removesuffix("}}").strip()
    found = substitute("{{ " + expression + " }}", context)
    return found if isinstance(found, list) else [found]


def element_context(
    context: dict[str, Any], element: Any, index: int, nesting: int
) -> dict[str, Any]:
    """A copy of ``context`` with one element's variables."""
    local = dict(context)
    local.update(
        {
            "element": element,
            f"element{nesting}": element,
            "elementIndex": index,
            f"elementIndex{nesting}": index,
            "@": element,
        }
    )
    return local


def load_entry_context(
    entry: dict[str, Any],
    local: dict[str, Any],
    loader: ContextLoader,
) -> None:
    """Load an entry's own ``context`` entries for one element (errors located under
    ``context``)."""
    if not entry.get("context"):
        return
    try:
        loader(entry["context"], local)
    except RuleError as exc:
        raise exc.at("context") from None
