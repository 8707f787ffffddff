"""The snapshot index cache stays within its budget: the databases used least recently go first,
a build a killed process left behind goes after an hour, and a bad budget is a clear error."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from itbench.errors import InputError
from sre.snapshot import index, index_cache
from sre.snapshot.index import SourceKind, cache_root, open_source

EVENTS = "timestamp\treason\tmessage\n2026-01-01 00:00:00\tStarted\tstarted {n}\n"


def _source(tmp_path: Path, n: int) -> Path:
    path = tmp_path / f"snap-{n}" / "k8s_events.tsv"
    path.parent.mkdir()
    path.write_text(EVENTS.format(n=n))
    return path


def _databases() -> set[str]:
    return {p.name for p in cache_root().glob("*.duckdb")}


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ITBENCH_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv(index_cache.BUDGET_ENV, raising=False)
    return tmp_path


def test_the_least_recently_used_databases_go_first(cache: Path, monkeypatch):
    a, b, c = (_source(cache, n) for n in (1, 2, 3))
    first, second = open_source(a, SourceKind.EVENTS), open_source(b, SourceKind.EVENTS)
    size = first.database.stat().st_size
    # b was used an hour ago, a a minute ago: a budget for two keeps a and the new c
    os.utime(second.database, (time.time() - 3600,) * 2)
    os.utime(first.database, (time.time() - 60,) * 2)
    monkeypatch.setenv(index_cache.BUDGET_ENV, str(2 * size + size // 2))
    third = open_source(c, SourceKind.EVENTS)
    assert _databases() == {first.database.name, third.database.name}
    # a removed database is built again when a process that has not kept it open reads it
    for key in [k for k in index._open if k[0] == second.database]:
        index._open.pop(key).con.close()
    again = open_source(b, SourceKind.EVENTS)
    assert again.database.exists() and again.rows == second.rows


def test_reading_an_indexed_snapshot_marks_it_used(cache: Path):
    source = _source(cache, 1)
    indexed = open_source(source, SourceKind.EVENTS)
    os.utime(indexed.database, (time.time() - 3600,) * 2)
    # another process reads it (this one would answer from the connection it keeps)
    for key in [k for k in index._open if k[0] == indexed.database]:
        index._open.pop(key).con.close()
    assert open_source(source, SourceKind.EVENTS).database == indexed.database
    assert time.time() - indexed.database.stat().st_mtime < 60


def test_no_limit_keeps_everything_and_a_build_left_behind_goes(cache: Path, monkeypatch):
    monkeypatch.setenv(index_cache.BUDGET_ENV, "0")
    root = cache_root()
    root.mkdir(parents=True)
    left = root / "events-x.duckdb.123.456.tmp"
    left.write_bytes(b"half a database")
    fresh = root / "events-y.duckdb.789.1.tmp"  # a build under way in another process
    fresh.write_bytes(b"")
    os.utime(left, (time.time() - 2 * index_cache.ABANDONED_S,) * 2)
    names = [open_source(_source(cache, n), SourceKind.EVENTS).database.name for n in (1, 2, 3)]
    assert _databases() == set(names)
    assert not left.exists() and fresh.exists()


@pytest.mark.parametrize(
    ("text", "size"), [("500M", 500 * 1024**2), ("2G", 2 * 1024**3), ("4096", 4096)]
)
def test_budget_sizes(monkeypatch, text, size):
    monkeypatch.setenv(index_cache.BUDGET_ENV, text)
    assert index_cache.budget() == size


def test_a_budget_that_is_not_a_size_names_the_variable(monkeypatch):
    monkeypatch.setenv(index_cache.BUDGET_ENV, "lots")
    with pytest.raises(InputError, match=index_cache.BUDGET_ENV):
        index_cache.budget()


def test_databases_in_use_in_the_last_minutes_stay_over_the_budget(cache: Path, monkeypatch):
    # another process may have just built one and not opened it yet
    monkeypatch.setenv(index_cache.BUDGET_ENV, "1")
    names = [open_source(_source(cache, n), SourceKind.EVENTS).database.name for n in (1, 2, 3)]
    assert _databases() == set(names)
