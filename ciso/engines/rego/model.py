"""What every Rego backend returns: diagnostics, evaluation results (undefined is not false), tests."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from itbench.errors import ItbenchError


class _Undefined:
    """The result of a query with no value: distinct from ``false`` and from ``null``."""

    _instance: _Undefined | None = None

    def __new__(cls) -> _Undefined:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNDEFINED"

    def __bool__(self) -> bool:
        return False


UNDEFINED = _Undefined()


@dataclass(frozen=True)
class Diagnostic:
    file: str
    line: int | None
    column: int | None
    code: str  # rego_parse_error, rego_type_error, rego_compile_error, rego_unsafe_var_error, ...
    message: str

    def __str__(self) -> str:
        where = (
            self.file
            + (f":{self.line}" if self.line else "")
            + (f":{self.column}" if self.column else "")
        )
        return f"{where}: {self.code}: {self.message}"


class RegoError(ItbenchError):
    """A policy that does not parse, compile or evaluate (a finding about the policy, exit 3 on
    ``rego eval``); ``diagnostics`` say where."""

    def __init__(self, diagnostics: list[Diagnostic], engine: str = "") -> None:
        self.diagnostics = diagnostics
        self.engine = engine
        super().__init__("; ".join(str(d) for d in diagnostics) or "Rego error")


@dataclass(frozen=True)
class CheckResult:
    """What ``check`` found, and which backend looked: ``not_checked`` names the compile checks
    of OPA's that this backend could not do (empty for OPA itself), so a clean result from a
    weaker backend is never mistaken for a clean policy."""

    diagnostics: list[Diagnostic]
    engine: str
    version: str
    not_checked: tuple[str, ...] = ()


@dataclass(frozen=True)
class EvalResult:
    """One query's results. ``value`` is the first expression's value of the first result, or
    UNDEFINED; ``results`` keep OPA's full shape (``expressions`` and ``bindings``)."""

    value: Any
    results: list[dict[str, Any]]
    engine: str
    version: str
    #: OPA's compile checks the backend skipped before evaluating (see CheckResult).
    not_checked: tuple[str, ...] = ()

    @property
    def defined(self) -> bool:
        return self.value is not UNDEFINED


@dataclass(frozen=True)
class TestCase:
    package: str
    name: str
    status: str  # pass, fail, error, skip
    duration_ms: float = 0.0
    message: str = ""
    location: str = ""


@dataclass(frozen=True)
class TestRun:
    engine: str
    cases: list[TestCase] = field(default_factory=list)
    #: Line coverage where the backend reports it (embedded OPA): files, covered rows, percentage.
    coverage: dict[str, Any] | None = None
    #: OPA's compile checks the backend skipped before running the tests (see CheckResult).
    not_checked: tuple[str, ...] = ()

    @property
    def failed(self) -> bool:
        return any(c.status in ("fail", "error") for c in self.cases)


_LOCATION = re.compile(
    r"(?P<file>[^\s:]+\.rego):(?P<line>\d+)(?::(?P<col>\d+))?:\s*"
    r"(?P<code>(?:rego|eval)_[a-z_]+):\s*(?P<msg>.*)$"
)

#: Error classes two engines can agree on, whatever their codes and wording (regorus has no codes).
ERROR_CLASSES = ("parse", "unsafe", "recursion", "type", "conflict", "eval", "timeout", "resource")


def error_class(diagnostic: Diagnostic) -> str:
    """What kind of failure a diagnostic reports: parse, unsafe, recursion, type, conflict, eval,
    timeout or resource. Conflicts are one class whether found when compiling (OPA: rego_type_error
    "conflicting rules") or when evaluating (eval_conflict_error)."""
    code, message = diagnostic.code, diagnostic.message.lower()
    if code == "rego_timeout":
        return "timeout"
    if code == "rego_resource_error":
        return "resource"
    if "conflict" in code or "conflict" in message or "multiple outputs" in message:
        return "conflict"
    if code == "rego_parse_error":
        return "parse"
    if code == "rego_unsafe_var_error":
        return "unsafe"
    if code == "rego_recursion_error":
        return "recursion"
    if code in ("rego_type_error", "eval_type_error"):
        return "type"
    return "eval"


def in_source_order(diagnostics: list[Diagnostic], modules: Mapping[str, str]) -> list[Diagnostic]:
    """``diagnostics`` by module (in the caller's order), row and column.

    OPA lists some compile errors in Go map order (the cycle p -> q -> p is reported from p or from
    q at random), so without this the first error shown would change between runs."""
    order = {path: index for index, path in enumerate(modules)}
    return sorted(
        diagnostics, key=lambda d: (order.get(d.file, len(order)), d.line or 0, d.column or 0)
    )


def parse_opa_errors(text: str, default_code: str = "rego_error") -> list[Diagnostic]:
    """OPA's error text (``file.rego:3: rego_parse_error: ...``, several per message) as diagnostics."""
    found = []
    for line in text.splitlines():
        line = line.strip()
        match = _LOCATION.search(line)
        if match is None:
            match = _LOCATION.search(line.split(": ", 1)[-1]) if ": " in line else None
        if match:
            col = match.group("col")
            found.append(
                Diagnostic(
                    match.group("file"),
                    int(match.group("line")),
                    int(col) if col else None,
                    match.group("code"),
                    match.group("msg").strip(),
                )
            )
    if not found and text.strip():
        found.append(Diagnostic("", None, None, default_code, text.strip().splitlines()[0]))
    return found
