"""Pick a backend: opa CLI -> embedded OPA (opa-golib) -> regorus, unless one is forced.

With ``v0_compatible`` (Rego v0 syntax): the opa CLI in its v0 mode if present; else the modules
are rewritten to v1 (v0.py) and evaluated on embedded real OPA; else regorus in v0 mode, which
deviates from OPA on multi-body rules and ``not f(x, y)`` with an undefined argument.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ciso.engines.rego.backends import Backend, opa_cli, opa_golib, regorus_backend
from ciso.engines.rego.model import Diagnostic, EvalResult, RegoError
from ciso.engines.rego.v0 import Rewrite, rewrite_v0_mapped
from itbench.errors import UsageError

ORDER = ("opa", "opa-golib", "regorus")

#: How to get OPA's compiler where only regorus is installed (see docs/engines/rego.md).
INSTALL_OPA = (
    "pip install --no-deps --ignore-requires-python opa-golib-python-bindings==0.4.4"
    " (Linux x86-64), or put the opa CLI on PATH"
)


def not_checked_message(engine: str, not_checked: tuple[str, ...] | list[str]) -> str:
    """One sentence naming the backend and the checks it did not do, and how to get them."""
    return (
        f"not checked by the {engine} Rego backend: {'; '.join(not_checked)}"
        f" (for OPA's compiler: {INSTALL_OPA})"
    )


def available_engines() -> list[str]:
    checks = {
        "opa": opa_cli.available,
        "opa-golib": opa_golib.available,
        "regorus": regorus_backend.available,
    }
    return [name for name in ORDER if checks[name]()]


class V0Rewriting:
    """A v1 backend fed v0 modules rewritten to v1 syntax."""

    def __init__(self, inner: Backend) -> None:
        self.inner = inner
        self.name = f"{inner.name} (v0 rewritten to v1)"
        self.version = inner.version
        self.not_checked = inner.not_checked

    @staticmethod
    def _rewrite(modules: Mapping[str, str]) -> dict[str, Rewrite]:
        return {path: rewrite_v0_mapped(source) for path, source in modules.items()}

    @staticmethod
    def _in_source(
        rewrites: Mapping[str, Rewrite], diagnostics: list[Diagnostic]
    ) -> list[Diagnostic]:
        """Diagnostics of the rewrite placed in the v0 source (rows are the same, columns not)."""
        return [
            replace(d, column=rewrites[d.file].source_column(d.line, d.column))
            if d.file in rewrites and d.line and d.column
            else d
            for d in diagnostics
        ]

    def check(self, modules: Mapping[str, str]) -> list[Diagnostic]:
        rewrites = self._rewrite(modules)
        diagnostics = self.inner.check({path: r.text for path, r in rewrites.items()})
        return self._in_source(rewrites, diagnostics)

    def evaluate(
        self,
        modules: Mapping[str, str],
        query: str,
        input: Any = None,
        data: Mapping[str, Any] | None = None,
    ) -> EvalResult:
        rewrites = self._rewrite(modules)
        try:
            result = self.inner.evaluate(
                {path: r.text for path, r in rewrites.items()}, query, input, data
            )
        except RegoError as exc:
            raise RegoError(self._in_source(rewrites, exc.diagnostics), self.name) from exc
        return EvalResult(result.value, result.results, self.name, result.version)


def _make(name: str, v0: bool) -> Backend:
    if name == "opa":
        return opa_cli.OpaCli(v0=v0)
    if name == "opa-golib":
        return V0Rewriting(opa_golib.OpaGolib()) if v0 else opa_golib.OpaGolib()
    return regorus_backend.Regorus(v0=v0)


def select_engine(preference: str | None = None, v0_compatible: bool = False) -> Backend:
    engines = available_engines()
    if preference is not None:
        if preference not in ORDER:
            raise UsageError(f"unknown Rego engine {preference!r}; engines: {', '.join(ORDER)}")
        if preference not in engines:
            raise UsageError(
                f"Rego engine {preference!r} is not available here; available: {', '.join(engines) or 'none'}"
            )
        return _make(preference, v0_compatible)
    if not engines:
        raise UsageError(
            "no Rego engine is available: install gordon-to-regorus (or opa-golib-python-bindings, or opa)"
        )
    return _make(engines[0], v0_compatible)
