"""One module per Rego backend; each offers check, evaluate and (through testing.py) test."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Protocol

from ciso.engines.rego.model import Diagnostic, EvalResult

#: A query that is one term (a reference like ``data.check.result``): its value is wanted.
TERM_QUERY = re.compile(r"^\s*[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*|\[[^\]]+\])*\s*$")


#: OPA's compile checks that a backend may lack, by what they find (each backend's ``not_checked``
#: lists those its ``check`` cannot do; a report says so instead of passing the policy silently).
TYPE_ERRORS = "type errors (built-in argument types)"
UNDEFINED_FUNCTIONS = "undefined functions and references"
RECURSION = "recursive rules"
DEPRECATED_BUILTINS = "deprecated built-ins"
UNSAFE_HEADS = "unsafe variables in rule heads, `else` values and negations"


class Backend(Protocol):
    name: str
    version: str
    #: The compile checks OPA does that this backend's ``check`` does not (empty: all of them).
    not_checked: tuple[str, ...]

    def check(self, modules: Mapping[str, str]) -> list[Diagnostic]: ...

    def evaluate(
        self,
        modules: Mapping[str, str],
        query: str,
        input: Any = None,
        data: Mapping[str, Any] | None = None,
    ) -> EvalResult: ...
