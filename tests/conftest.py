"""Fixtures shared by the whole suite: the installed CLI, the toy third-party distribution, the
SRE incident and a session-wide Ray cluster. Helpers that tests import live in ``tests/_support``."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests._support.cli import TOY_DIST, itbench_executable
from tests._support.sre import SRE_INCIDENT


@pytest.fixture
def itbench_bin() -> str:
    return itbench_executable()


@pytest.fixture
def toy_env(tmp_path: Path) -> dict[str, str]:
    """Environment in which the toy distribution is installed (its dist-info is on sys.path)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(TOY_DIST), env.get("PYTHONPATH", "")]))
    env["TOY_SUITE_DIR"] = str(tmp_path / "toy-suite")
    env.pop("ITBENCH_DISABLE_PLUGIN_AUTOLOAD", None)
    return env


@pytest.fixture(autouse=True, scope="session")
def private_record_key(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The runner's record signing key (``itbench.records``) is this session's, never the
    user's: session-wide, so a module's run and a test's ``eval`` sign and check with one key."""
    state = tmp_path_factory.getbasetemp() / "itbench-state"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ITBENCH_STATE_DIR", str(state))
        yield state


# --- SRE tool tests: the hand-written incident snapshot and a private index cache.


@pytest.fixture(autouse=True)
def private_cache(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
) -> Path:
    """SRE snapshot indexes go to a cache of this test session, never the user's."""
    cache = tmp_path_factory.getbasetemp() / "itbench-cache"
    if "sre" in Path(str(request.node.path)).parts:
        monkeypatch.setenv("ITBENCH_CACHE_DIR", str(cache))
    return cache


@pytest.fixture
def incident() -> Path:
    return SRE_INCIDENT


@pytest.fixture
def sparse_incident(tmp_path: Path) -> Path:
    """The incident with only its alerts and traces: every other source is missing."""
    import shutil

    root = tmp_path / "sparse"
    root.mkdir()
    shutil.copytree(SRE_INCIDENT / "alerts", root / "alerts")
    shutil.copy(SRE_INCIDENT / "otel_traces_raw.tsv", root / "otel_traces_raw.tsv")
    return root


# --- One real local Ray cluster for the session, shared by every test marked ``ray``.
@pytest.fixture(scope="session")
def ray_cluster(tmp_path_factory: pytest.TempPathFactory):
    from tests._support.ray_cluster import start_ray_cluster

    yield from start_ray_cluster(tmp_path_factory.mktemp("ray"))
