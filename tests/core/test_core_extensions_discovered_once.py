"""The cluster extensions come from the installed domains, discovered once per process: a
runner's worker asks for them for every cluster trial (the agent's cluster, the fetch driver's
named hooks), and discovery reads every installed distribution's entry points each time."""

from __future__ import annotations

from pathlib import Path

import pytest

import itbench.plugins.domains
from itbench.cluster import extensions


def test_the_hooks_and_the_extensions_share_one_discovery(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    real = itbench.plugins.domains.load_domains
    calls: list[int] = []

    def counted() -> tuple[itbench.plugins.domains.LoadedDomain, ...]:
        calls.append(1)
        return real()

    monkeypatch.setattr(itbench.plugins.domains, "load_domains", counted)
    monkeypatch.syspath_prepend(str(tmp_path))  # an import path no earlier discovery was made on
    hooks = extensions.extension_hooks()
    again = extensions.extension_hooks()
    first = extensions.domain_extensions()
    second = extensions.domain_extensions()
    assert len(calls) == 1
    assert hooks == again
    assert hooks is not None and [name for name, _ in hooks] == [e.name for e in first]
    # the extensions themselves are built afresh on each call: a caller may change its own
    assert all(a is not b for a, b in zip(first, second, strict=True))
    # what discovery reads changed: discovered again
    monkeypatch.setenv("ITBENCH_DISABLE_PLUGIN_AUTOLOAD", "1")
    extensions.extension_hooks()
    assert len(calls) == 2
