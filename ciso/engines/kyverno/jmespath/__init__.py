"""Kyverno's JMESPath dialect: the go-jmespath fork's "not found" rule (see ``interpreter``) and
Kyverno's custom functions, one module per family, on top of the standard functions."""

from __future__ import annotations

from typing import Any

import jmespath
from jmespath import functions
from jmespath.exceptions import JMESPathError

from ciso.engines.kyverno.jmespath.arithmetic import ArithmeticFunctions
from ciso.engines.kyverno.jmespath.encoding import EncodingFunctions
from ciso.engines.kyverno.jmespath.images import ImageFunctions
from ciso.engines.kyverno.jmespath.interpreter import KyvernoInterpreter, Missing, compiled
from ciso.engines.kyverno.jmespath.objects import ObjectFunctions
from ciso.engines.kyverno.jmespath.semver import SemverFunctions
from ciso.engines.kyverno.jmespath.strings import FunctionError, StringFunctions
from ciso.engines.kyverno.jmespath.times import TimeFunctions


class KyvernoFunctions(
    StringFunctions,
    ArithmeticFunctions,
    TimeFunctions,
    EncodingFunctions,
    ObjectFunctions,
    ImageFunctions,
    SemverFunctions,
    functions.Functions,
):
    """Every function a Kyverno policy may call (the mixins above are plain classes: jmespath's
    registry collects ``_func_`` methods from the whole class hierarchy)."""


class NotFound(JMESPathError):
    """The expression ended at an absent key (go-jmespath's NotFoundError)."""

    def __init__(self, key: str) -> None:
        super().__init__(f'Unknown key "{key}" in path')
        self.key = key


_INTERPRETER = KyvernoInterpreter(jmespath.Options(custom_functions=KyvernoFunctions()))


def search(expression: str, data: Any) -> Any:
    """Evaluate ``expression``; raises ``NotFound`` when it ends at an absent key."""
    result = _INTERPRETER.evaluate(compiled(expression).parsed, data)
    if result.__class__ is Missing:
        raise NotFound(result.key)
    return result


def compile_check(expression: str) -> None:
    """Raise jmespath's error for an invalid expression (used by lint and by policy loading)."""
    compiled(expression)


__all__ = ["FunctionError", "KyvernoFunctions", "NotFound", "compile_check", "search"]
