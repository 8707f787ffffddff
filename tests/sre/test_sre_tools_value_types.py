"""Values keep the JSON type the original tools give them (measured on independently written
snapshots): an Alertmanager alert's lists (``receivers``, ``status.silencedBy``) stay lists in
alert_analysis' rows (ours printed them as Python reprs), and a histogram bucket's bound
``bucket_le`` is a number in metric_analysis' rows (ours gave the text; ``+Inf`` is null, as the
original's JSON writes infinity)."""

from __future__ import annotations

import json
from pathlib import Path

from sre.tools import call

ALERT = {
    "labels": {"alertname": "CartLatency", "severity": "warning", "service_name": "cart"},
    "annotations": {"summary": "p95 over 1s"},
    "startsAt": "2026-04-02T08:00:00Z", "endsAt": "2026-04-02T08:30:00Z",
    "receivers": [{"name": "oncall"}, {"name": "slack"}],
    "status": {"state": "active", "silencedBy": [], "inhibitedBy": ["f00d"]},
    "fingerprint": "0a1b2c",
}  # fmt: skip


def test_alert_lists_stay_lists(tmp_path: Path):
    (tmp_path / "alerts_at_2026-04-02T08-05-00.000000.json").write_text(json.dumps([ALERT]))
    (row,) = call("alert_analysis", {"base_dir": str(tmp_path)})["data"]
    assert row["receivers"] == [{"name": "oncall"}, {"name": "slack"}]
    assert row["status.silencedBy"] == []
    assert row["status.inhibitedBy"] == ["f00d"]
    assert row["labels.alertname"] == "CartLatency"


def test_a_grouped_alert_count_is_unchanged_by_list_columns(tmp_path: Path):
    (tmp_path / "alerts_at_2026-04-02T08-05-00.000000.json").write_text(json.dumps([ALERT]))
    (tmp_path / "alerts_at_2026-04-02T08-10-00.000000.json").write_text(json.dumps([ALERT]))
    answer = call("alert_analysis", {"base_dir": str(tmp_path), "group_by": "receivers"})
    assert [(r["receivers"], r["count"]) for r in answer["data"]] == [
        ([{"name": "oncall"}, {"name": "slack"}], 2)
    ]


def _buckets(folder: Path) -> Path:
    folder.mkdir()
    rows = ["metric_name\ttimestamp\tvalue\ttags\tbucket_le"]
    for le, count in (("0.1", 4), ("0.5", 9), ("+Inf", 10)):
        rows.append(f'latency_bucket\t2026-04-02 08:00:00\t{count}\t{{"le": "{le}"}}\t{le}')
    (folder / "service_cart.tsv").write_text("\n".join(rows) + "\n")
    return folder


def test_bucket_bounds_are_numbers(tmp_path: Path):
    folder = _buckets(tmp_path / "metrics")
    rows = call(
        "metric_analysis",
        {"base_dir": str(folder), "k8_object_name": "service/cart", "include_buckets": True},
    )
    assert sorted((r["bucket_le"] is None, r["bucket_le"]) for r in rows) == [
        (False, 0.1), (False, 0.5), (True, None)
    ]  # fmt: skip
    json.dumps(rows, allow_nan=False)  # no Infinity in the answer


def test_bucket_quantiles_still_read_the_infinite_bucket(tmp_path: Path):
    folder = _buckets(tmp_path / "metrics")
    (row,) = call(
        "metric_analysis",
        {"base_dir": str(folder), "k8_object_name": "service/cart",
         "metric_names": ["latency_bucket"]},
    )  # fmt: skip
    # 10 observations: the median (rank 5) lies in (0.1, 0.5]: 0.1 + 0.4 * (5 - 4) / (9 - 4)
    assert abs(row["duration_ms"]["p50"] - 0.18) < 1e-9
    assert row["sample_count"] == 10.0


def _empty_columns(folder: Path) -> Path:
    """A metrics file whose header has pod_name and bucket_le, never filled."""
    folder.mkdir()
    rows = ["metric_name\ttimestamp\tvalue\ttags\tpod_name\tbucket_le"]
    rows += [
        f"container_cpu_usage_seconds_total\t2026-04-02 08:0{m}:00\t{m}.5\t{{}}\t\t"
        for m in range(3)
    ]
    (folder / "pod_cart-5d8f7c9b6-q2w3e.tsv").write_text("\n".join(rows) + "\n")
    return folder


def test_columns_a_file_has_but_never_fills_are_answered_as_null(tmp_path: Path):
    folder = _empty_columns(tmp_path / "metrics")
    base = {"base_dir": str(folder), "k8_object_name": "pod/cart-5d8f7c9b6-q2w3e"}
    (series,) = call("metric_analysis", base)
    assert (series["pod_name"], series["bucket_le"]) == (None, None)
    (grouped,) = call("metric_analysis", {**base, "group_by": "deployment", "agg": "max"})
    assert grouped["bucket_le"] is None and grouped["value"] == 2.5
    anomalies = call("get_metric_anomalies", {**base, "k8_object_name": "cart"})
    (point, *_) = anomalies["metrics"][0]["data"]
    assert "bucket_le" in point and point["bucket_le"] is None


def test_a_file_without_those_columns_answers_without_them(tmp_path: Path):
    folder = tmp_path / "metrics"
    folder.mkdir()
    rows = [
        "metric_name\ttimestamp\tvalue\ttags",
        "container_cpu_usage_seconds_total\t2026-04-02 08:00:00\t1\t{}",
    ]
    (folder / "pod_cart-5d8f7c9b6-q2w3e.tsv").write_text("\n".join(rows) + "\n")
    (series,) = call(
        "metric_analysis", {"base_dir": str(folder), "k8_object_name": "pod/cart-5d8f7c9b6-q2w3e"}
    )
    assert "pod_name" not in series and "bucket_le" not in series


def test_anomaly_rows_give_status_codes_and_bucket_bounds_as_numbers(tmp_path: Path):
    """The original reads a metrics file with pandas: a status_code column of codes is numbers
    in get_metric_anomalies' rows too (ours gave the text "503")."""
    folder = tmp_path / "metrics"
    folder.mkdir()
    rows = ["metric_name\ttimestamp\tvalue\ttags\tstatus_code\tbucket_le"]
    for minute, value in enumerate([1, 1, 1, 1, 1, 1, 1, 1, 1, 40]):
        rows.append(f"req_total\t2026-04-02 08:{minute:02d}:00\t{value}\t{{}}\t503\t0.25")
    (folder / "service_till.tsv").write_text("\n".join(rows) + "\n")
    answer = call("get_metric_anomalies", {"base_dir": str(folder), "k8_object_name": "till"})
    points = [p for m in answer["metrics"] for p in m["anomalies"]]
    assert points and all(p["status_code"] == 503 and p["bucket_le"] == 0.25 for p in points)
