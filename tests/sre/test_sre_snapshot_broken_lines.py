"""A log TSV whose bodies are stack traces written through a CSV writer: the quoted body keeps its
line breaks, so one record spans several physical lines. Each such record is read as one row
(its breaks kept), and the symptoms it carries are seen; a malformed row that no quote
splits is still reported, not glued to its neighbour."""

from __future__ import annotations

from pathlib import Path

from sre.agents.baseline import symptoms
from sre.snapshot import SourceKind, open_source

HEADER = "Timestamp\tTraceId\tSpanId\tSeverityText\tSeverityNumber\tServiceName\tBody\tResourceAttributes\tLogAttributes\n"  # noqa: E501  (one TSV header line)
TRACE = '"ledger.QueueError: fetch refused for topic invoices\n   at Queue.Poll(Int32 timeout)\n   at Ledger.Worker.Run()"'  # noqa: E501  (one quoted body with its line breaks)


def _line(minute: int, second: int, level: str, service: str, body: str) -> str:
    number = {"INFO": "9", "ERROR": "17"}[level]
    attrs = '"{""service.name"": ""' + service + '""}"'
    return f"2026-05-04 08:{minute:02d}:{second:02d}.000000000\t\t\t{level}\t{number}\t{service}\t{body}\t{attrs}\t{{}}\n"  # noqa: E501  (one TSV row)


def _logs(path: Path) -> Path:
    rows = []
    for minute in range(20):
        for second in (0, 20, 40):
            rows.append(_line(minute, second, "INFO", "shelf", "listed 12 items"))
            if minute < 10:
                rows.append(_line(minute, second + 5, "INFO", "ledger", "posted invoice batch"))
            else:  # the consumer fails from minute 10, each error a stack trace
                rows.append(_line(minute, second + 5, "ERROR", "ledger", TRACE))
    path.write_text(HEADER + "".join(rows))
    return path


def test_a_stack_trace_in_a_quoted_body_is_one_row(tmp_path):
    src = open_source(_logs(tmp_path / "otel_logs_raw.tsv"), SourceKind.LOGS)
    assert src.malformed == 0, src.warnings()
    assert src.rows == 20 * 3 * 2
    (errors,) = src.query(
        "SELECT count(*) FROM data WHERE service_name = 'ledger' AND severity_text = 'ERROR'"
    )[0]
    assert errors == 10 * 3
    (body,) = src.query("SELECT body FROM data WHERE severity_text = 'ERROR' LIMIT 1")[0]
    # the body as written, its line breaks kept (as the original tools' pandas reader keeps them)
    assert body == TRACE.strip('"')


def test_the_failing_consumer_is_a_symptom(tmp_path):
    logs = _logs(tmp_path / "otel_logs_raw.tsv")
    found = {s.app: s for s in symptoms.find(tmp_path / "no_traces.tsv", logs, [])}
    assert "ledger" in found and found["ledger"].start.minute == 10
    assert "shelf" not in found


def test_a_short_row_no_quote_splits_is_still_reported(tmp_path):
    path = tmp_path / "otel_logs_raw.tsv"
    short = "2026-05-04 08:03:00.000000000\t\t\tINFO\t9\tshelf\n"  # a row cut short
    path.write_text(
        HEADER + _line(3, 0, "INFO", "shelf", "ok") + short + _line(3, 5, "INFO", "shelf", "ok")
    )
    src = open_source(path, SourceKind.LOGS)
    assert src.rows == 2
    assert src.malformed == 1


def test_a_body_quoted_on_one_line_is_left_as_it_is(tmp_path):
    path = tmp_path / "otel_logs_raw.tsv"
    body = '"GET /shelf HTTP/1.1" 200'
    path.write_text(HEADER + _line(1, 0, "INFO", "shelf", body))
    src = open_source(path, SourceKind.LOGS)
    assert src.rows == 1
    # no line break to keep: its quotes are the line's own text, not a CSV quoting
    assert src.query("SELECT body FROM data") == [(body,)]
