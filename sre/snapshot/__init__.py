"""Reading ITBench-Lite v0.2 snapshot directories: where each file is, and a columnar index of each
large file (DuckDB) built once and reused until the file changes."""

from __future__ import annotations

from sre.snapshot.index import IndexedSource, SourceKind, open_source
from sre.snapshot.layout import SnapshotFileMissing, SnapshotLayout

__all__ = ["IndexedSource", "SnapshotFileMissing", "SnapshotLayout", "SourceKind", "open_source"]
