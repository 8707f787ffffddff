"""Fixtures of the SRE tool tests: the hand-written incident snapshot and a private index cache."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
INCIDENT = FIXTURES / "incident-checkout"


@pytest.fixture(autouse=True)
def private_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Indexes go to a cache of this test session, never the user's."""
    cache = tmp_path_factory.getbasetemp() / "itbench-cache"
    monkeypatch.setenv("ITBENCH_CACHE_DIR", str(cache))
    return cache


@pytest.fixture
def incident() -> Path:
    return INCIDENT


@pytest.fixture
def sparse_incident(tmp_path: Path) -> Path:
    """The incident with only its alerts and traces: every other source is missing."""
    root = tmp_path / "sparse"
    root.mkdir()
    shutil.copytree(INCIDENT / "alerts", root / "alerts")
    shutil.copy(INCIDENT / "otel_traces_raw.tsv", root / "otel_traces_raw.tsv")
    return root
