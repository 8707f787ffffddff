"""JMESPath evaluation as Kyverno's fork of go-jmespath does it.

The one difference from the reference implementation that changes verdicts: a field that is
absent from an object is not null but "not found". Not found travels up through sub-expressions
and index expressions (``a.b.c`` with no ``a`` is not found, and ``keys(@)`` after it is never
called), every other consumer sees null (projections drop it, ``||`` falls through, functions get
null), and a whole expression that ends not found is an error ("Unknown key ... in path"), which
Kyverno reports as a rule error unless ``||`` or a projection absorbed it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import jmespath
from jmespath import visitor
from jmespath.parser import ParsedResult

from ciso.engines.kyverno import budget

if TYPE_CHECKING:  # the stubs' name for a parsed node ({"type", "value", "children"})
    from jmespath.visitor import _TreeNode


class Missing:
    """The value of an absent field, remembering which key was absent."""

    __slots__ = ("key",)

    def __init__(self, key: str) -> None:
        self.key = key


class KyvernoInterpreter(visitor.TreeInterpreter):
    _method_cache: dict[str, Callable[[_TreeNode, Any], Any]]  # set by Visitor.__init__

    def visit(self, node: _TreeNode, value: Any) -> Any:
        result = self._dispatch(node, value)
        return None if result.__class__ is Missing else result

    def _dispatch(self, node: _TreeNode, value: Any) -> Any:
        budget.tick()  # a projection over a large list visits a node per element
        node_type = node["type"]
        method = self._method_cache.get(node_type)
        if method is None:
            method = getattr(self, f"visit_{node_type}", None) or self.default_visit
            self._method_cache[node_type] = method
        return method(node, value)

    def visit_field(self, node: _TreeNode, value: Any) -> Any:
        if isinstance(value, dict):
            key = node["value"]
            return value[key] if key in value else Missing(key)
        return None

    def visit_subexpression(self, node: _TreeNode, value: Any) -> Any:
        result = value
        for child in node["children"]:
            result = self._dispatch(child, result)
            if result.__class__ is Missing:
                return result
        return result

    visit_index_expression = visit_subexpression

    def evaluate(self, node: _TreeNode, value: Any) -> Any:
        """The whole expression: may return a ``Missing``."""
        return self._dispatch(node, value)


@functools.lru_cache(maxsize=4096)
def compiled(expression: str) -> ParsedResult:
    """Parse once: the same few hundred expressions are evaluated millions of times."""
    return jmespath.compile(expression)
