"""Timestamps written as epoch numbers (Prometheus exports milliseconds, OTLP nanoseconds, some
scripts seconds) read as the same moments as their ISO twins, in every source. Found on an
independently written snapshot: every metrics row with a millisecond timestamp was skipped as
malformed, so metric_analysis answered [] where the original tools answer the series."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from sre.snapshot import SourceKind, open_source
from sre.tools import call

#: 2026-03-04 05:06:07.250 UTC in each unit an exporter may write, and as ISO text
MOMENT = datetime(2026, 3, 4, 5, 6, 7, 250000, tzinfo=UTC)
SECONDS = MOMENT.timestamp()
FORMS = {
    "iso": "2026-03-04T05:06:07.250Z",
    "seconds": f"{SECONDS:.3f}",
    "milliseconds": str(int(SECONDS * 1e3)),
    "microseconds": str(int(SECONDS * 1e6)),
    "nanoseconds": str(int(SECONDS * 1e9)),
}


def _metrics(folder: Path, stamp: str) -> Path:
    folder.mkdir(parents=True)
    rows = ["metric_name\ttimestamp\tvalue\ttags"]
    rows += [f"container_memory_working_set_bytes\t{stamp}\t{v}\t{{}}" for v in (10.0, 30.0)]
    (folder / "pod_cart-5d8f7c9b6-q2w3e.tsv").write_text("\n".join(rows) + "\n")
    return folder


@pytest.mark.parametrize("form", sorted(FORMS))
def test_a_metrics_timestamp_in_any_epoch_unit_is_the_same_moment(
    private_cache: Path, tmp_path: Path, form: str
):
    source = open_source(_metrics(tmp_path / "metrics", FORMS[form]), SourceKind.METRICS)
    assert source.malformed == 0, source.warnings()
    (when,) = {row[0] for row in source.query("SELECT ts FROM data")}
    assert when == MOMENT.replace(tzinfo=None)


def test_metric_analysis_answers_a_millisecond_export(private_cache: Path, tmp_path: Path):
    folder = _metrics(tmp_path / "metrics", FORMS["milliseconds"])
    rows = call(
        "metric_analysis",
        {"base_dir": str(folder), "k8_object_name": "pod/cart-5d8f7c9b6-q2w3e",
         "start_time": "2026-03-04T05:00:00Z", "end_time": "2026-03-04T05:10:00Z"},
    )  # fmt: skip
    assert [(r["metric_name"], r["count"], r["mean"]) for r in rows] == [
        ("container_memory_working_set_bytes", 2, 20.0)
    ]
    assert rows[0]["last_timestamp"] == int(SECONDS * 1e3)


@pytest.mark.parametrize("text", ["17", "20260304", "1e12", "-1700000000000"])
def test_a_short_or_odd_number_is_not_taken_for_a_time(
    private_cache: Path, tmp_path: Path, text: str
):
    source = open_source(_metrics(tmp_path / "metrics", text), SourceKind.METRICS)
    assert source.rows == 0
    assert source.malformed == 2
