"""The functions an expression may call, with their argument counts and, where declared, their
argument and result types.

Two sources, so the list cannot drift from what the engine runs: CEL's standard library as the
``cel`` package implements it natively (written out here; ``tests/lint/test_kyv007_types.py``
runs each entry through the package), and every function the engine registers
(``ciso.engines.kyverno.cel.libraries.FUNCTIONS``), whose argument counts and types come from
the Python signatures themselves. Library calls through a namespace (``resource.Get``) are
registered under their rewritten name (``syntax.namespaced``)."""

from __future__ import annotations

import functools
import inspect
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ciso.engines.kyverno.cel.libraries import FUNCTIONS as ENGINE_FUNCTIONS
from ciso.engines.kyverno.cel.syntax import NAMESPACED_CALLS, namespaced
from ciso.lint.cel_types.types import (
    BOOL,
    BYTES,
    DOUBLE,
    DURATION,
    DYN,
    INT,
    STRING,
    TIMESTAMP,
    TYPE,
    UINT,
    CelType,
    list_of,
    map_of,
    optional_of,
)


@dataclass(frozen=True, slots=True)
class Overload:
    #: the argument types, the receiver of a method call first
    params: tuple[CelType, ...]
    result: CelType


@dataclass(frozen=True, slots=True)
class Function:
    name: str
    #: how many arguments it takes, a method's receiver counted as the first
    least: int
    most: float
    #: typed overloads; empty when only the argument count is known (any argument, dyn result)
    overloads: tuple[Overload, ...] = ()
    #: whether it may be called as ``f(x)`` and as ``x.f()``
    global_style: bool = True
    method_style: bool = True

    def arity_text(self) -> str:
        if self.least == self.most:
            return str(self.least)
        if math.isinf(self.most):
            return f"at least {self.least}"
        return f"{self.least} to {int(self.most)}"


def _typed(
    name: str, *overloads: tuple[tuple[CelType, ...], CelType], style: str = "both"
) -> Function:
    counts = [len(params) for params, _ in overloads]
    return Function(
        name,
        min(counts),
        max(counts),
        tuple(Overload(params, result) for params, result in overloads),
        global_style=style in ("both", "global"),
        method_style=style in ("both", "method"),
    )


_ANY = DYN
_TIME_GETTERS = (
    "getFullYear",
    "getMonth",
    "getDayOfYear",
    "getDayOfMonth",
    "getDate",
    "getDayOfWeek",
    "getHours",
    "getMinutes",
    "getSeconds",
    "getMilliseconds",
)
#: CEL's standard library as the ``cel`` package implements it natively
STANDARD: dict[str, Function] = {
    f.name: f
    for f in (
        _typed(
            "size",
            ((STRING,), INT),
            ((BYTES,), INT),
            ((list_of(),), INT),
            ((map_of(),), INT),
        ),
        _typed("contains", ((STRING, STRING), BOOL), style="method"),
        _typed("startsWith", ((STRING, STRING), BOOL), style="method"),
        _typed("endsWith", ((STRING, STRING), BOOL), style="method"),
        _typed("matches", ((STRING, STRING), BOOL), style="method"),
        _typed("int", ((_ANY,), INT), style="global"),
        _typed("uint", ((_ANY,), UINT), style="global"),
        _typed("double", ((_ANY,), DOUBLE), style="global"),
        _typed("string", ((_ANY,), STRING), style="global"),
        _typed("bytes", ((_ANY,), BYTES), style="global"),
        _typed(
            "timestamp",
            ((STRING,), TIMESTAMP),
            ((INT,), TIMESTAMP),
            ((TIMESTAMP,), TIMESTAMP),
            style="global",
        ),
        _typed("duration", ((STRING,), DURATION), ((DURATION,), DURATION), style="global"),
        _typed("dyn", ((_ANY,), DYN), style="global"),
        _typed("type", ((_ANY,), TYPE), style="global"),
        *(
            _typed(
                name,
                ((TIMESTAMP,), INT),
                ((TIMESTAMP, STRING), INT),
                ((DURATION,), INT),
                style="method",
            )
            for name in _TIME_GETTERS
        ),
        # the optional library (Kubernetes enables it; the package implements it natively)
        _typed("optional.of", ((_ANY,), optional_of()), style="global"),
        _typed("optional.ofNonZeroValue", ((_ANY,), optional_of()), style="global"),
        _typed("optional.none", ((), optional_of()), style="global"),
        _typed("hasValue", ((_ANY,), BOOL), style="method"),
        _typed("value", ((_ANY,), DYN), style="method"),
        _typed("or", ((_ANY, _ANY), DYN), style="method"),
        _typed("orValue", ((_ANY, _ANY), DYN), style="method"),
    )
}

#: Python annotations (as strings: the libraries use postponed evaluation) read as CEL types
_ANNOTATIONS: Mapping[str, CelType] = {
    "bool": BOOL,
    "int": INT,
    "str": STRING,
    "float": DOUBLE,
    "list[str]": list_of(STRING),
}


def _annotation(value: Any) -> CelType:
    if isinstance(value, str):
        if value in _ANNOTATIONS:
            return _ANNOTATIONS[value]
        if value.startswith("list["):
            return list_of()
    return DYN


def _from_python(name: str, fn: Callable[..., Any]) -> Function:
    """A library function as its Python definition declares it."""
    original = inspect.unwrap(fn)
    signature = inspect.signature(original)
    params = list(signature.parameters.values())
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    least = sum(1 for p in positional if p.default is p.empty)
    most = math.inf if any(p.kind == p.VAR_POSITIONAL for p in params) else len(positional)
    annotations = getattr(original, "__annotations__", {})
    # a variadic function (math.greatest) declares no fixed list of argument types
    if not annotations or not positional or math.isinf(most):
        return Function(name, least, most)
    types = tuple(_annotation(annotations.get(p.name)) for p in positional)
    result = _annotation(annotations.get("return"))
    # one overload per accepted argument count: optional parameters may be left out
    overloads = tuple(Overload(types[:n], result) for n in range(least, len(positional) + 1))
    return Function(name, least, most, overloads)


@functools.cache
def library() -> Mapping[str, Function]:
    """Every callable name: the standard library, then the engine's libraries (which also
    answer some standard names, e.g. ``string`` for ip and cidr values: the standard entry
    stays, its types are the wider)."""
    functions: dict[str, Function] = dict(STANDARD)
    public = {namespaced(*call.split(".", 1)): call for call in NAMESPACED_CALLS}
    for name, fn in ENGINE_FUNCTIONS.items():
        shown = public.get(name, name)
        if shown.startswith("_") or shown in functions:
            continue  # the evaluator's internal rewrites (``_opt_select``) are not for authors
        functions[shown] = _from_python(shown, fn)
    return functions


#: comprehension macros: name -> the argument counts they take (the variables included)
MACROS: Mapping[str, frozenset[int]] = {
    "all": frozenset((2, 3)),
    "exists": frozenset((2, 3)),
    "exists_one": frozenset((2,)),
    "map": frozenset((2, 3)),
    "filter": frozenset((2,)),
    "sortBy": frozenset((2,)),  # cel-go's lists extension: l.sortBy(e, key)
}
