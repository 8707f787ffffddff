"""A columnar index of one snapshot source, built once with DuckDB and reused.

Real snapshots reach gigabytes. Each large source (the events, objects, logs and traces TSVs, and the
``metrics/`` folder as one source) is streamed once through DuckDB's parallel CSV reader into a DuckDB
database under the itbench cache: bodies normalised (double-encoded JSON and CSV-doubled quotes
undone), the fields every tool needs extracted into typed columns, timestamps parsed. Queries then
scan compressed columns instead of re-parsing text. The index is keyed by the source's absolute path
and rebuilt when its size or modification time changes. Rows the reader rejects (wrong field count)
or whose body or timestamp does not parse are counted, skipped and reported by line.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

import duckdb

from itbench.errors import InputError
from sre.snapshot import foreign, index_cache, sql

#: bump when the indexed schema changes, so old caches are rebuilt rather than misread
INDEX_VERSION = "27"
#: DuckDB's memory while building an index (it spills beyond it); queries keep the default
BUILD_MEMORY_LIMIT = os.environ.get("ITBENCH_SRE_INDEX_MEMORY", "384MB")
#: how many malformed rows are described one by one (the rest are counted)
MAX_PROBLEMS = 20

_lock = threading.Lock()


class SourceKind(StrEnum):
    EVENTS = "events"
    OBJECTS = "objects"
    LOGS = "logs"
    TRACES = "traces"
    METRICS = "metrics"


@dataclass(frozen=True)
class IndexedSource:
    """An indexed source: a read-only DuckDB connection whose table ``data`` holds its rows."""

    source: Path
    kind: SourceKind
    database: Path
    rows: int
    malformed: int
    problems: tuple[str, ...]
    con: duckdb.DuckDBPyConnection

    def warnings(self) -> list[str]:
        if not self.malformed:
            return []
        head = f"{self.source}: {self.malformed} malformed row(s) skipped"
        return [head, *self.problems]

    def query(self, statement: str, params: list | None = None) -> list[tuple]:
        return self.con.execute(statement, params or []).fetchall()


def cache_root() -> Path:
    if os.environ.get("ITBENCH_CACHE_DIR"):
        base = Path(os.environ["ITBENCH_CACHE_DIR"])
    elif os.environ.get("XDG_CACHE_HOME"):
        base = Path(os.environ["XDG_CACHE_HOME"]) / "itbench"
    else:
        base = Path.home() / ".cache" / "itbench"
    return base / "sre" / "index"


def _fingerprint(source: Path, kind: SourceKind) -> str:
    files = sorted(source.glob("*.tsv")) if kind is SourceKind.METRICS else [source]
    parts = [INDEX_VERSION, kind.value]
    for f in files:
        st = f.stat()
        parts.append(f"{f.name}:{st.st_size}:{st.st_mtime_ns}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _database_path(source: Path, kind: SourceKind) -> Path:
    key = hashlib.sha256(f"{source.resolve()}|{kind.value}".encode()).hexdigest()[:24]
    root = cache_root()
    try:
        root.mkdir(parents=True, exist_ok=True)
        writable = os.access(root, os.W_OK)
    except OSError:
        writable = False
    if not writable:
        # inside the agent sandbox the itbench cache is hidden behind a read-only mount
        root = Path(tempfile.gettempdir()) / f"itbench-sre-index-{os.getuid()}"
        root.mkdir(parents=True, exist_ok=True)
    return root / f"{kind.value}-{key}.duckdb"


_open: dict[tuple[Path, str], IndexedSource] = {}


def open_source(source: str | Path, kind: SourceKind) -> IndexedSource:
    """The index of ``source``, built first when it is missing or stale."""
    source = Path(source)
    fingerprint = _fingerprint(source, kind)
    database = _database_path(source, kind)
    with _lock:
        cached = _open.get((database, fingerprint))
        if cached is not None:
            return cached
        # DuckDB shares one instance per open path inside a process: a stale connection to this
        # database would keep serving the old file after the rebuild renames over it
        for key in [k for k in _open if k[0] == database]:
            _open.pop(key).con.close()
        if _stored_fingerprint(database) != fingerprint:
            build_index(source, kind, database, fingerprint)
            # the cache stays within its budget (index_cache: nothing else removes a database)
            with contextlib.suppress(OSError):
                index_cache.prune(database.parent, keep=database)
        else:
            index_cache.used(database)
        con = duckdb.connect(str(database), read_only=True)
        rows, malformed = con.execute(
            "SELECT (SELECT count(*) FROM data), (SELECT count(*) FROM problems)"
        ).fetchall()[0]
        problems = tuple(
            f"{source}/{p}" if kind is SourceKind.METRICS else f"{source.parent / p}"
            for (p,) in con.execute(
                f"SELECT message FROM problems ORDER BY file, line LIMIT {MAX_PROBLEMS}"
            ).fetchall()
        )
        indexed = IndexedSource(source, kind, database, rows, malformed, problems, con)
        _open[(database, fingerprint)] = indexed
        return indexed


def _stored_fingerprint(database: Path) -> str | None:
    if not database.exists():
        return None
    try:
        with duckdb.connect(str(database), read_only=True) as con:
            row = con.execute("SELECT value FROM meta WHERE key = 'fingerprint'").fetchone()
    except duckdb.Error:
        return None  # a half-written or foreign file: rebuild it
    return row[0] if row else None


def build_index(source: Path, kind: SourceKind, database: Path, fingerprint: str) -> None:
    """Stream ``source`` into a fresh database written beside ``database`` and renamed over it,
    so a reader never sees a half-built index."""
    database.parent.mkdir(parents=True, exist_ok=True)
    tmp = database.with_name(f"{database.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.unlink(missing_ok=True)
    try:
        if kind is SourceKind.METRICS:
            _load(tmp, database, lambda con: sql.load_metrics(con, sorted(source.glob("*.tsv"))))
        else:
            # other exporters' shapes (OTLP, Jaeger, JSON lines, gzip, plain text) are read as the
            # TSV they are equivalent to
            with tempfile.TemporaryDirectory(dir=database.parent) as work:
                tsv = foreign.canonical(source, kind.value, Path(work)).path
                split = _load(tmp, database, lambda con: sql.load_table(con, tsv, kind.value))
                # rows cut by a quoted cell's line break: read the cells as a CSV reader does
                if split and (quoted := foreign.requoted(tsv, Path(work))) is not None:
                    tmp.unlink()
                    _load(tmp, database, lambda con: sql.load_table(con, quoted, kind.value))
        with duckdb.connect(str(tmp)) as con:
            con.execute("CREATE TABLE meta (key VARCHAR, value VARCHAR)")
            con.execute("INSERT INTO meta VALUES ('fingerprint', ?)", [fingerprint])
            con.execute("CHECKPOINT")
        os.replace(tmp, database)
    except duckdb.Error as exc:
        tmp.unlink(missing_ok=True)
        raise InputError(f"{source}: cannot be read as a {kind.value} table: {exc}") from None
    finally:
        Path(f"{tmp}.wal").unlink(missing_ok=True)


def _load(tmp: Path, database: Path, load: Callable[[duckdb.DuckDBPyConnection], None]) -> int:
    """Run ``load`` on a fresh database at ``tmp``; how many rows it rejected for their number
    of fields."""
    with duckdb.connect(str(tmp)) as con:
        # row order is restored where it matters (traces sorted by time; every tool orders)
        con.execute("SET preserve_insertion_order = false")
        # gigabyte sources spill to disk rather than grow the process past the memory target
        con.execute(f"SET memory_limit = '{BUILD_MEMORY_LIMIT}'")
        con.execute(f"SET temp_directory = '{database.parent / 'spill'}'")
        sql.create_macros(con)
        load(con)
        return sql.split_rows(con)
