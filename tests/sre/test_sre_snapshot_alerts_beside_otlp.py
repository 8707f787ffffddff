"""A snapshot whose top level holds OTLP exports (``logs.otlp.json``, ``traces.otlp.json``) beside
its ``alerts/`` folder: the alert tools called with the snapshot folder read the dumps of
``alerts/``. Found on an independently written snapshot: ours read the OTLP files, found no alert
list and answered [] (the original reads them as alerts named "Unknown")."""

from __future__ import annotations

import json
from pathlib import Path

from sre.tools import call

GROUPS = [  # Alertmanager's /api/v2/alerts/groups answer
    {"labels": {}, "receiver": {"name": "default"}, "alerts": [
        {"labels": {"alertname": "PaymentErrors", "severity": "critical", "service_name": "payment",
                    "namespace": "shop"},
         "annotations": {"summary": "payment 5xx"}, "startsAt": "2026-05-01T10:00:00Z",
         "status": {"state": "active"}},
    ]},
]  # fmt: skip


def _snapshot(root: Path, *, otlp: bool) -> Path:
    (root / "alerts").mkdir(parents=True)
    for minute in (1, 6):
        name = f"alerts_at_2026-05-01T10-0{minute}-00.000000.json"
        (root / "alerts" / name).write_text(json.dumps(GROUPS))
    if otlp:
        (root / "logs.otlp.json").write_text(json.dumps({"resourceLogs": []}))
        (root / "traces.otlp.json").write_text(json.dumps({"resourceSpans": []}))
    return root


def _summary(folder: Path) -> list[tuple]:
    rows = call("alert_summary", {"base_dir": str(folder)})
    return [(r["alertname"], r["entity"], r["occurrences"]) for r in rows]


def test_alerts_are_read_from_alerts_beside_otlp_exports(tmp_path: Path):
    snapshot = _snapshot(tmp_path / "with-otlp", otlp=True)
    assert _summary(snapshot) == [("PaymentErrors", "payment", 2)]


def test_the_same_alerts_as_a_snapshot_without_them(tmp_path: Path):
    plain = _snapshot(tmp_path / "plain", otlp=False)
    with_otlp = _snapshot(tmp_path / "with-otlp", otlp=True)
    assert _summary(with_otlp) == _summary(plain) == _summary(plain / "alerts")


def test_alert_analysis_reads_them_too(tmp_path: Path):
    snapshot = _snapshot(tmp_path / "with-otlp", otlp=True)
    answer = call("alert_analysis", {"base_dir": str(snapshot)})
    assert answer["total_count"] == 2
    assert [row["labels.alertname"] for row in answer["data"]] == ["PaymentErrors"] * 2
