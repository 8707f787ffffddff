"""How large the snapshot index cache may grow.

Every snapshot a tool or the baseline reads leaves its index databases in the cache, keyed by
the snapshot's path: a generated snapshot in a temporary folder, a measured set, a test's
fixture. Nothing else removes them, and a day of benchmark runs on this machine left 37,000 of
them (30 GB). After each build the databases used least recently (their modification time,
renewed on every use) are removed until the cache is within its budget, and builds a killed
process left behind are removed after an hour. A database another process has open stays
readable (it is only unlinked); one removed before it is opened again is rebuilt.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import time
from pathlib import Path

from itbench.errors import InputError

#: the cache's budget: bytes, or a number with K, M or G (powers of 1024); 0 for no limit
BUDGET_ENV = "ITBENCH_SRE_INDEX_BUDGET"
DEFAULT_BUDGET = 2 * 1024**3
#: a build's leftovers (``*.tmp`` databases, work folders) older than this belong to no live one
ABANDONED_S = 3600.0
#: databases used more recently than this are never removed, whatever the budget: another
#: process may have just built one and not opened it yet (the cache may pass its budget while
#: that many are in use)
IN_USE_S = 600.0

_UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3}


def budget() -> int | None:
    """The budget in bytes from :data:`BUDGET_ENV` (None: no limit); an ``InputError`` naming
    the variable for a value that is not a size."""
    text = os.environ.get(BUDGET_ENV, "").strip()
    if not text:
        return DEFAULT_BUDGET
    found = re.fullmatch(r"(\d+)\s*([KMG]?)i?B?", text, re.IGNORECASE)
    if found is None:
        raise InputError(f"{BUDGET_ENV}={text!r}: not a size (bytes, or a number with K, M or G)")
    size = int(found.group(1)) * _UNITS[found.group(2).upper()]
    return size or None


def used(database: Path) -> None:
    """Mark ``database`` as used now (the budget removes the least recently used first)."""
    # removed meanwhile by another process's prune: it is rebuilt when needed
    with contextlib.suppress(OSError):
        os.utime(database)


def _size(path: Path) -> int:
    """The database's bytes with its write-ahead log's (either may be gone meanwhile)."""
    total = 0
    for part in (path, _wal(path)):
        with contextlib.suppress(FileNotFoundError):
            total += part.stat().st_size
    return total


def _wal(path: Path) -> Path:
    return path.with_name(path.name + ".wal")


def _abandoned(entry: os.DirEntry[str], now: float) -> bool:
    """A build's leftover: a ``*.tmp`` database (or its ``.wal``) or a ``tmp*`` work folder
    untouched for :data:`ABANDONED_S`."""
    name = entry.name
    leftover = name.endswith((".tmp", ".tmp.wal")) or (name.startswith("tmp") and entry.is_dir())
    try:
        return leftover and now - entry.stat(follow_symlinks=False).st_mtime > ABANDONED_S
    except OSError:
        return False


def prune(root: Path, keep: Path) -> list[Path]:
    """Remove abandoned builds from ``root``, then the least recently used databases but
    ``keep`` until the cache is within :func:`budget`; the databases removed."""
    limit = budget()
    now = time.time()
    databases: list[tuple[float, Path]] = []
    with os.scandir(root) as entries:
        for entry in entries:
            if _abandoned(entry, now):
                if entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path, ignore_errors=True)
                else:
                    Path(entry.path).unlink(missing_ok=True)
            elif entry.name.endswith(".duckdb") and entry.is_file(follow_symlinks=False):
                try:
                    databases.append((entry.stat().st_mtime, Path(entry.path)))
                except FileNotFoundError:
                    continue
    if limit is None:
        return []
    total = sum(_size(path) for _, path in databases)
    removed: list[Path] = []
    for mtime, path in sorted(databases):
        if total <= limit:
            break
        if path == keep or now - mtime < IN_USE_S:
            continue
        total -= _size(path)
        path.unlink(missing_ok=True)
        _wal(path).unlink(missing_ok=True)
        removed.append(path)
    return removed
