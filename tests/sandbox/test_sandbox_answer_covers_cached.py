"""The answer covers every sandbox lays (``answer_paths``) come from the installed domains,
discovered once per process: discovery reads and parses every plugin's metadata (about 17 ms of
CPU), and a trial starts several sandboxes. The covers stay the same from one sandbox to the next."""

from __future__ import annotations

import pytest

import itbench.plugins.domains
from itbench.sandbox import hosttree


def _count_discoveries(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that grows by one at each discovery of the installed domains."""
    real = itbench.plugins.domains.load_domains
    calls: list[int] = []

    def counted() -> tuple[itbench.plugins.domains.LoadedDomain, ...]:
        calls.append(1)
        return real()

    monkeypatch.setattr(itbench.plugins.domains, "load_domains", counted)
    return calls


def test_the_domains_are_discovered_once_and_the_covers_stay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = _count_discoveries(monkeypatch)
    itbench.plugins.domains._discovered.cache_clear()
    try:
        first = hosttree.answer_paths()
        second = hosttree.answer_paths()
    finally:
        itbench.plugins.domains._discovered.cache_clear()
    assert len(calls) == 1
    assert first == second
    assert first, "the installed domains declare answer packages (policies/, playbooks/)"


def test_the_sandbox_and_the_cluster_share_one_discovery(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a cluster trial asks for both: the agent's sandbox for its covers, the cluster for the
    # domains' resource types
    from itbench.cluster.extensions import domain_extensions

    calls = _count_discoveries(monkeypatch)
    itbench.plugins.domains._discovered.cache_clear()
    hosttree.domains_host_owned.cache_clear()
    try:
        assert hosttree.domains_host_owned(), "the rhel9 host tree owns its paths"
        assert domain_extensions(), "the installed domains extend the cluster"
    finally:
        itbench.plugins.domains._discovered.cache_clear()
        hosttree.domains_host_owned.cache_clear()
    assert len(calls) == 1
