"""A snapshot TSV written through a CSV writer that quotes every field (header names included,
bodies with doubled quotes) reads as its unquoted twin: every row kept, timestamps and names
without their quotes."""

from __future__ import annotations

import json
from pathlib import Path

from sre.snapshot import SourceKind, open_source

HEADER = ["Timestamp", "TraceId", "SpanId", "SeverityText", "SeverityNumber", "ServiceName",
          "Body", "ResourceAttributes", "LogAttributes"]  # fmt: skip


def _quoted(value: str) -> str:
    return '"' + value.replace('"', '""') + '"'


def _write(path: Path, rows: list[list[str]], quote: bool) -> Path:
    cell = _quoted if quote else (lambda v: v)
    lines = ["\t".join(cell(v) for v in row) for row in [HEADER, *rows]]
    path.write_text("\n".join(lines) + "\n")
    return path


def _objects() -> list[list[str]]:
    rows = []
    for minute, name in ((0, "catalog"), (5, "catalog"), (9, "deny-catalog")):
        kind = "NetworkPolicy" if name.startswith("deny") else "Service"
        body = {"apiVersion": "v1", "kind": kind,
                "metadata": {"name": name, "namespace": "shop", "labels": {"tier": ""}}}  # fmt: skip
        rows.append([f"2026-02-10 11:{minute:02d}:00.000000000", "", "", "", "0", "",
                     json.dumps(body), "{}", "{}"])  # fmt: skip
    return rows


def _logs() -> list[list[str]]:
    return [
        [f"2026-02-10 11:{m:02d}:30.000000000", "", "", "ERROR", "17", "checkout",
         'dial "payment:8080": connection refused', "{}", "{}"]
        for m in range(3)
    ]  # fmt: skip


def _read(path: Path, kind: SourceKind, query: str) -> list[tuple]:
    return sorted(open_source(path, kind).con.cursor().execute(query).fetchall())


def test_a_quoted_objects_export_reads_as_the_unquoted_one(private_cache: Path, tmp_path: Path):
    query = "SELECT CAST(ts AS VARCHAR), kind, name, namespace FROM data"
    plain = _read(_write(tmp_path / "plain.tsv", _objects(), False), SourceKind.OBJECTS, query)
    quoted = _read(_write(tmp_path / "quoted.tsv", _objects(), True), SourceKind.OBJECTS, query)
    assert len(plain) == 3
    assert quoted == plain


def test_a_quoted_logs_export_keeps_service_names_and_bodies(private_cache: Path, tmp_path: Path):
    query = "SELECT CAST(ts AS VARCHAR), service_name, body FROM data"
    plain = _read(_write(tmp_path / "plain.tsv", _logs(), False), SourceKind.LOGS, query)
    quoted = _read(_write(tmp_path / "quoted.tsv", _logs(), True), SourceKind.LOGS, query)
    assert len(plain) == 3 and plain[0][1] == "checkout"
    assert quoted == plain
