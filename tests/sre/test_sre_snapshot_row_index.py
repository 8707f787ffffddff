"""A snapshot TSV written by pandas' ``to_csv(sep="\\t")`` carries the row index as a first column
whose header is empty. It reads as its twin without the index: every row kept, the same values.
Found on an independently written snapshot: DuckDB refused the empty column name, so every
events, objects, logs and traces tool raised on it while the original tools (pandas) answered."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sre.snapshot import SourceKind, open_source
from sre.snapshot.sql import header_columns
from sre.tools import call

LOG_HEADER = ["Timestamp", "TraceId", "SpanId", "SeverityText", "SeverityNumber", "ServiceName",
              "Body", "ResourceAttributes", "LogAttributes"]  # fmt: skip
TRACE_HEADER = ["Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind",
                "ServiceName", "ResourceAttributes", "SpanAttributes", "Duration", "StatusCode",
                "StatusMessage"]  # fmt: skip


def _write(path: Path, header: list[str], rows: list[list[str]], index: bool) -> Path:
    """``rows`` under ``header``; with ``index``, as pandas writes them: an empty-named first
    column holding 0, 1, 2, ..."""
    if index:
        header = ["", *header]
        rows = [[str(n), *row] for n, row in enumerate(rows)]
    path.write_text("\n".join("\t".join(row) for row in [header, *rows]) + "\n")
    return path


def _objects() -> list[list[str]]:
    rows = []
    for minute, replicas in ((0, 3), (6, 0)):
        body = {"apiVersion": "apps/v1", "kind": "Deployment",
                "metadata": {"name": "ledger", "namespace": "bank"}, "spec": {"replicas": replicas}}  # fmt: skip
        rows.append([f"2026-05-02T08:{minute:02d}:00Z", "", "", "", "0", "",
                     json.dumps(body), "{}", "{}"])  # fmt: skip
    return rows


def _events() -> list[list[str]]:
    event = {"object": {"kind": "Event", "type": "Warning", "reason": "FailedCreate",
                        "message": "quota exceeded", "count": 2,
                        "metadata": {"name": "ledger.1", "namespace": "bank"},
                        "involvedObject": {"kind": "ReplicaSet", "name": "ledger-7c9", "namespace": "bank"},
                        "lastTimestamp": "2026-05-02T08:07:00Z"}}  # fmt: skip
    return [["2026-05-02T08:07:00Z", "", "", "", "0", "", json.dumps(event), "{}", "{}"]]


def _logs() -> list[list[str]]:
    return [[f"2026-05-02T08:0{m}:30Z", "", "", "ERROR", "17", "teller",
             "ledger unavailable", "{}", "{}"] for m in range(3)]  # fmt: skip


def _traces() -> list[list[str]]:
    return [["2026-05-02T08:07:10Z", "t1", "s1", "", "GET /balance", "Server", "teller", "{}",
             "{}", "1200000", "Error", "upstream ledger"]]  # fmt: skip


SOURCES = {
    SourceKind.OBJECTS: (LOG_HEADER, _objects, "SELECT CAST(ts AS VARCHAR), kind, name FROM data"),
    SourceKind.EVENTS: (LOG_HEADER, _events, "SELECT CAST(ts AS VARCHAR), reason FROM data"),
    SourceKind.LOGS: (
        LOG_HEADER,
        _logs,
        "SELECT CAST(ts AS VARCHAR), service_name, body FROM data",
    ),
    SourceKind.TRACES: (TRACE_HEADER, _traces, "SELECT trace_id, service_name FROM data"),
}


def test_an_empty_header_field_is_named_as_pandas_names_it(tmp_path: Path):
    path = _write(tmp_path / "logs.tsv", LOG_HEADER, _logs(), index=True)
    assert header_columns(path) == ["Unnamed: 0", *LOG_HEADER]


@pytest.mark.parametrize("kind", sorted(SOURCES), ids=str)
def test_a_source_with_a_row_index_reads_as_the_one_without(
    private_cache: Path, tmp_path: Path, kind: SourceKind
):
    header, rows, query = SOURCES[kind]
    plain_source = open_source(_write(tmp_path / "plain.tsv", header, rows(), False), kind)
    indexed_source = open_source(_write(tmp_path / "indexed.tsv", header, rows(), True), kind)
    plain = sorted(plain_source.query(query))
    assert plain and plain_source.malformed == 0
    assert sorted(indexed_source.query(query)) == plain
    assert indexed_source.malformed == 0, indexed_source.warnings()


def test_get_k8_spec_answers_an_objects_export_with_a_row_index(
    private_cache: Path, tmp_path: Path
):
    path = _write(tmp_path / "k8s_objects_raw.tsv", LOG_HEADER, _objects(), index=True)
    answer = call(
        "get_k8_spec",
        {"k8s_objects_file": str(path), "k8_object_name": "bank/Deployment/ledger"},
    )
    assert (answer["found"], answer["observation_count"]) == (True, 2)
    assert answer["spec"]["spec"] == {"replicas": 0}  # the latest of the two observations
