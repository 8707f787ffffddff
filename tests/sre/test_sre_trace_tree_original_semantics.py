"""get_trace_error_tree answers as the original ITBench tool does (issue 28, item 1): every trace
is grouped by its whole service chain (its longest root-to-leaf path), a path's figures are the
spans of its traces whose service is on the chain, and a path is CRITICAL when its error rate
changed by more than half or stays above 50 % after the pivot, even if errors fell. Ours compared
each span's own path across the pivot, so a service still failing at 75 % (down from 100 %) was
not flagged and a side call beside the deeper chain was a path of its own.

The expected answers were checked against the original's code on this same file."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest

from sre.tools import call

PIVOT = datetime(2026, 5, 6, 7, 0, 0)
HEADER = (
    "Timestamp\tTraceId\tSpanId\tParentSpanId\tSpanName\tSpanKind\tServiceName\t"
    "ResourceAttributes\tSpanAttributes\tDuration\tStatusCode\tStatusMessage"
)


def _span(at: datetime, trace: str, span: str, parent: str, service: str, failed: bool) -> str:
    status, message = ("Error", f"{service} gave up") if failed else ("Unset", "")
    return "\t".join(
        [f"{at:%Y-%m-%d %H:%M:%S}.000000000", trace, span, parent, "op", "Server", service,
         "{}", "{}", "2000000", status, message]
    )  # fmt: skip


def _traces(folder: Path) -> Path:
    """Basket traces (web -> basket -> ledger, with a side call web -> banner) failing in all
    four traces before the pivot and in three of four after; search traces that never fail."""
    rows = [HEADER]
    for i in range(8):
        at = PIVOT + timedelta(minutes=-4 + i)
        failed = i < 7  # every trace before the pivot, three of the four after
        t = f"basket{i}"
        rows += [
            _span(at, t, f"{t}-w", "", "web", failed),
            _span(at, t, f"{t}-b", f"{t}-w", "basket", failed),
            _span(at, t, f"{t}-l", f"{t}-b", "ledger", failed),
            _span(at, t, f"{t}-x", f"{t}-w", "banner", False),
        ]
        s = f"search{i}"
        rows += [
            _span(at, s, f"{s}-w", "", "web", False),
            _span(at, s, f"{s}-s", f"{s}-w", "search", False),
        ]
    path = folder / "otel_traces_raw.tsv"
    path.write_text("\n".join(rows) + "\n")
    return path


@pytest.fixture
def answer(tmp_path: Path) -> dict:
    return call(
        "get_trace_error_tree",
        {"trace_file": str(_traces(tmp_path)), "pivot_time": PIVOT.isoformat() + "Z"},
    )


def test_each_trace_counts_once_under_its_whole_chain(answer: dict):
    assert answer["all_paths"] == [
        "web → basket → ledger [0.04/s] (CRITICAL)",
        "web → search [0.03/s]",
    ]


def test_a_path_still_failing_above_half_is_critical_though_errors_fell(answer: dict):
    (critical,) = answer["critical_paths"]
    assert critical["path"] == "web → basket → ledger"
    assert critical["severity"] == "CRITICAL"
    assert [h["error_rate"] for h in critical["hops"]] == ["100% → 75%"] * 3


def test_the_suspect_is_the_first_service_above_half_errors_as_in_the_original(answer: dict):
    (critical,) = answer["critical_paths"]
    assert critical["root_cause_suspect"] == {"service": "web", "reason": "75% error rate"}
    assert critical["sample_errors"] and all("gave up" in m for m in critical["sample_errors"])


def test_the_summary_counts_the_chains_traces_and_their_spans(answer: dict):
    assert answer["summary"]["pre"]["trace_count"] == 16
    assert answer["summary"]["pre"]["span_count"] == 4 * 3 + 4 * 2
    assert answer["summary"]["post"]["error_rate_pct"] == round(100 * 9 / 20, 1)
