"""A snapshot TSV that starts with a UTF-8 byte order mark (pandas' ``encoding="utf-8-sig"``,
Excel, PowerShell write one), with LF or CRLF line ends, reads as its twin without the mark.
Found on an independently written snapshot: the mark stayed glued to the first column's name
(``\\ufeffTimestamp``), so that column was unknown, every row lost its time and the events, logs,
traces, objects and metrics tools answered nothing where the original tools (pandas, which drops
the mark) answered the rows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sre.snapshot import SourceKind, open_source
from sre.snapshot.sql import header_columns
from sre.tools import call

BOM = "\ufeff"
# columns in an exporter's own order, one the tools never read among them
LOG_HEADER = ["Timestamp", "ServiceName", "SeverityText", "SeverityNumber", "Body", "TraceId",
              "SpanId", "ScopeVersion", "ResourceAttributes", "LogAttributes"]  # fmt: skip
TRACE_HEADER = ["Timestamp", "ServiceName", "SpanName", "SpanKind", "Duration", "TraceId",
                "SpanId", "ParentSpanId", "ResourceAttributes", "SpanAttributes", "StatusCode",
                "StatusMessage"]  # fmt: skip


def _write(path: Path, header: list[str], rows: list[list[str]], mark: bool, end: str) -> Path:
    text = end.join("\t".join(row) for row in [header, *rows]) + end
    path.write_bytes(((BOM if mark else "") + text).encode("utf-8"))
    return path


def _objects() -> list[list[str]]:
    rows = []
    for minute, image in ((1, "vault:2.1"), (8, "vault:2.2")):
        body = {"apiVersion": "apps/v1", "kind": "Deployment",
                "metadata": {"name": "vault", "namespace": "keys"},
                "spec": {"template": {"spec": {"containers": [{"image": image}]}}}}  # fmt: skip
        rows.append([f"2026-06-11T14:{minute:02d}:00Z", "", "", "0", json.dumps(body), "", "",
                     "", "{}", "{}"])  # fmt: skip
    return rows


def _events() -> list[list[str]]:
    event = {"type": "Warning", "reason": "Unhealthy", "message": "probe failed", "count": 4,
             "metadata": {"name": "vault.2", "namespace": "keys"},
             "involvedObject": {"kind": "Pod", "name": "vault-6d5c8b7f9-k2m4n", "namespace": "keys"},
             "lastTimestamp": "2026-06-11T14:09:00Z"}  # fmt: skip
    return [["2026-06-11T14:09:00Z", "", "", "0", json.dumps(event), "", "", "", "{}", "{}"]]


def _logs() -> list[list[str]]:
    return [[f"2026-06-11T14:0{m}:15Z", "signer", "WARN", "13", "vault sealed", "", "", "1.4",
             "{}", "{}"] for m in range(4)]  # fmt: skip


def _traces() -> list[list[str]]:
    return [["2026-06-11T14:09:05Z", "signer", "POST /sign", "SPAN_KIND_SERVER", "900000", "ta",
             "sa", "", "{}", "{}", "Error", "vault sealed"]]  # fmt: skip


SOURCES = {
    SourceKind.OBJECTS: (LOG_HEADER, _objects, "SELECT CAST(ts AS VARCHAR), kind, name FROM data"),
    SourceKind.EVENTS: (LOG_HEADER, _events, "SELECT CAST(ts AS VARCHAR), reason FROM data"),
    SourceKind.LOGS: (LOG_HEADER, _logs, "SELECT CAST(ts AS VARCHAR), service_name FROM data"),
    SourceKind.TRACES: (TRACE_HEADER, _traces, "SELECT trace_id, service_name FROM data"),
}
ENDS = {"lf": "\n", "crlf": "\r\n"}


@pytest.mark.parametrize("end", sorted(ENDS))
def test_the_mark_is_not_part_of_the_first_column_name(tmp_path: Path, end: str):
    path = _write(tmp_path / "logs.tsv", LOG_HEADER, _logs(), True, ENDS[end])
    assert header_columns(path) == LOG_HEADER


@pytest.mark.parametrize("end", sorted(ENDS))
@pytest.mark.parametrize("kind", sorted(SOURCES), ids=str)
def test_a_source_with_the_mark_reads_as_the_one_without(
    private_cache: Path, tmp_path: Path, kind: SourceKind, end: str
):
    header, rows, query = SOURCES[kind]
    plain = open_source(_write(tmp_path / "plain.tsv", header, rows(), False, "\n"), kind)
    marked = open_source(_write(tmp_path / "marked.tsv", header, rows(), True, ENDS[end]), kind)
    expected = sorted(plain.query(query))
    assert expected and plain.malformed == 0
    assert sorted(marked.query(query)) == expected
    assert marked.malformed == 0, marked.warnings()


def test_event_analysis_answers_a_marked_events_file(private_cache: Path, tmp_path: Path):
    path = _write(tmp_path / "k8s_events_raw.tsv", LOG_HEADER, _events(), True, "\r\n")
    answer = call("event_analysis", {"events_file": str(path)})
    assert [row["reason"] for row in answer["data"]] == ["Unhealthy"]


def test_metric_analysis_answers_a_marked_metrics_file(private_cache: Path, tmp_path: Path):
    folder = tmp_path / "metrics"
    folder.mkdir()
    rows = [["metric_name", "timestamp", "value", "tags"]]
    rows += [["vault_seal_status", f"2026-06-11T14:0{m}:00Z", str(m % 2), "{}"] for m in range(3)]
    _write(folder / "service_vault.tsv", rows[0], rows[1:], True, "\n")
    answer = call(
        "metric_analysis",
        {"base_dir": str(folder), "k8_object_name": "service/vault", "verbosity": "raw"},
    )
    assert [row["value"] for row in answer] == [0.0, 1.0, 0.0]
