"""One module per Rego backend; each offers check, evaluate and (through testing.py) test."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Protocol

from ciso.engines.rego.model import Diagnostic, EvalResult

#: A query that is one term (a reference like ``data.check.result``): its value is wanted.
TERM_QUERY = re.compile(r"^\s*[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*|\[[^\]]+\])*\s*$")


class Backend(Protocol):
    name: str
    version: str

    def check(self, modules: Mapping[str, str]) -> list[Diagnostic]: ...

    def evaluate(
        self,
        modules: Mapping[str, str],
        query: str,
        input: Any = None,
        data: Mapping[str, Any] | None = None,
    ) -> EvalResult: ...
