"""A metrics file with columns the tools do not read (the row index pandas' ``to_csv`` writes
as an unnamed first column, an exporter's own column) answers them in every row, as the
original tools do: they hand back every column of the file, typed as pandas types it (whole
numbers as integers, numbers with a gap as numbers, anything else as text). Found on an
independently written snapshot: our rows dropped the ``Unnamed: 0`` index the original's carry."""

from __future__ import annotations

from pathlib import Path

from sre.tools import call

OBJECT = "pod/ledger-7c9d8b6f5-p4q8r"


def _metrics(folder: Path, extra: bool) -> Path:
    """Ten samples of one metric, the last a spike; with ``extra``, a pandas index first, then the exporter's
    ``scrape_pool`` (text) and ``weight`` (a number, one cell empty)."""
    folder.mkdir()
    header = ["metric_name", "timestamp", "value", "tags"]
    rows = [
        ["ledger_queue_depth", f"2026-07-03 10:{m:02d}:00", str(v), '{"pod": "ledger"}']
        for m, v in enumerate((2, 3, 2, 3, 2, 3, 2, 3, 2, 40))
    ]
    if extra:
        header = ["", *header, "scrape_pool", "weight"]
        rows = [[str(n), *row, "kube-pods", "" if n == 1 else "0.5"] for n, row in enumerate(rows)]
    lines = ["\t".join(r) for r in [header, *rows]]
    (folder / "pod_ledger-7c9d8b6f5-p4q8r.tsv").write_text("\n".join(lines) + "\n")
    return folder


def test_raw_rows_carry_the_files_extra_columns_typed(private_cache: Path, tmp_path: Path):
    folder = _metrics(tmp_path / "metrics", extra=True)
    rows = call(
        "metric_analysis", {"base_dir": str(folder), "k8_object_name": OBJECT, "verbosity": "raw"}
    )
    assert [r["Unnamed: 0"] for r in rows] == list(range(10))
    assert [r["scrape_pool"] for r in rows] == ["kube-pods"] * 10
    assert [r["weight"] for r in rows] == [0.5, None, *[0.5] * 8]
    assert [r["value"] for r in rows][-2:] == [2.0, 40.0]


def test_an_aggregate_sums_a_numeric_extra_column(private_cache: Path, tmp_path: Path):
    folder = _metrics(tmp_path / "metrics", extra=True)
    (row,) = call(
        "metric_analysis",
        {"base_dir": str(folder), "k8_object_name": OBJECT, "verbosity": "raw",
         "group_by": "deployment", "agg": "sum"},
    )  # fmt: skip
    assert (row["Unnamed: 0"], row["value"]) == (45, 62.0)
    assert "scrape_pool" not in row  # text is not aggregated


def test_anomaly_points_carry_the_files_extra_columns(private_cache: Path, tmp_path: Path):
    folder = _metrics(tmp_path / "metrics", extra=True)
    answer = call("get_metric_anomalies", {"base_dir": str(folder), "k8_object_name": OBJECT})
    (series,) = answer["metrics"]
    assert [p["Unnamed: 0"] for p in series["data"]] == list(range(10))
    (spike,) = series["anomalies"]
    assert (spike["Unnamed: 0"], spike["scrape_pool"], spike["value"]) == (9, "kube-pods", 40.0)
