"""The answer covers every sandbox lays (``answer_paths``) come from the installed domains,
discovered once per process: discovery reads and parses every plugin's metadata (about 17 ms of
CPU), and a trial starts several sandboxes. The covers stay the same from one sandbox to the next."""

from __future__ import annotations

import pytest

import itbench.plugins.domains
from itbench.sandbox import hosttree


def test_the_domains_are_discovered_once_and_the_covers_stay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = itbench.plugins.domains.load_domains
    calls = []

    def counted() -> tuple[itbench.plugins.domains.LoadedDomain, ...]:
        calls.append(1)
        return real()

    monkeypatch.setattr(itbench.plugins.domains, "load_domains", counted)
    hosttree._loaded_domains.cache_clear()
    try:
        first = hosttree.answer_paths()
        second = hosttree.answer_paths()
    finally:
        hosttree._loaded_domains.cache_clear()
    assert len(calls) == 1
    assert first == second
    assert first, "the installed domains declare answer packages (policies/, playbooks/)"
