"""The HTML report's layout: value labels clear of whiskers, labelled axes, a per-class table
for every metric, headings in order."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from itbench.scoring.document import ResultsDocument
from tests._support.cli import run_cli

METRIC_GROUPS = ("correct", "localized", "explained")


def _doc(path: Path, label: str, values: dict[str, list[float]], classes: dict[str, str]) -> Path:
    raw = [
        {
            "incident_id": incident,
            "trial_id": str(n),
            "scores": {g: {"calculation": v, "calculation_f1": v} for g in METRIC_GROUPS},
        }
        for incident, trials in values.items()
        for n, v in enumerate(trials, start=1)
    ]
    config = {
        "run_name": label,
        "agent": label,
        "primary_metric": "correct",
        "scenario_classes": classes,
    }
    path.write_bytes(ResultsDocument.build(raw, config).to_json_bytes())
    return path


class _Svg(HTMLParser):
    """Collects, per chart, the texts with their attributes, whiskers and bars; and headings."""

    def __init__(self) -> None:
        super().__init__()
        self.chart: str | None = None
        self.charts: dict[str, dict[str, list]] = {}
        self.headings: list[tuple[int, str]] = []
        self._text: dict | None = None
        self._heading: int | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "svg":
            self.chart = a["data-metric"]
            self.charts[self.chart] = {"text": [], "whisker": [], "bar": []}
        elif tag == "text" and self.chart:
            self._text = {**a, "content": ""}
            self.charts[self.chart]["text"].append(self._text)
        elif tag == "line" and a.get("class") == "whisker":
            self.charts[self.chart]["whisker"].append(a)
        elif tag == "rect" and a.get("class") == "bar":
            self.charts[self.chart]["bar"].append(a)
        elif re.fullmatch(r"h[1-6]", tag):
            self._heading = int(tag[1])
            self.headings.append((self._heading, ""))

    def handle_endtag(self, tag):
        if tag == "svg":
            self.chart = None
        elif tag == "text":
            self._text = None
        elif re.fullmatch(r"h[1-6]", tag):
            self._heading = None

    def handle_data(self, data):
        if self._text is not None:
            self._text["content"] += data
        if self._heading is not None:
            level, text = self.headings[-1]
            self.headings[-1] = (level, text + data)


@pytest.fixture
def page(tmp_path) -> _Svg:
    classes = {"s1": "easy", "s2": "hard", "s3": "hard"}
    wide = _doc(
        tmp_path / "wide.json",
        "a-run-with-a-long-label",
        {"s1": [1, 0], "s2": [1, 1], "s3": [0, 1]},
        classes,
    )
    narrow = _doc(
        tmp_path / "narrow.json", "narrow", {"s1": [0, 0], "s2": [1, 0], "s3": [1, 1]}, classes
    )
    out = tmp_path / "report.html"
    proc = run_cli(["report", str(wide), str(narrow), "--format", "html", "--output", str(out)])
    assert proc.returncode == 0, proc.stderr
    parser = _Svg()
    parser.feed(out.read_text())
    return parser


def test_value_labels_sit_above_the_whiskers(page):
    checked = 0
    for metric, chart in page.charts.items():
        values = [t for t in chart["text"] if t.get("class") == "value"]
        assert len(values) == len(chart["bar"]) == 2, metric
        for bar, label in zip(chart["bar"], values, strict=True):
            assert label["content"] == f"{float(bar['data-value']):.2f}"
            centre = float(bar["x"]) + float(bar["width"]) / 2
            whisker = next(w for w in chart["whisker"] if abs(float(w["x1"]) - centre) < 0.2)
            top = min(float(whisker["y1"]), float(whisker["y2"]))
            # the label's baseline is above the whisker's top: 10px text never crosses it
            assert float(label["y"]) < top, (metric, label, whisker)
            checked += 1
    assert checked == 2 * len(page.charts)


def test_axes_are_labelled_with_the_runs_and_the_measure(page):
    for metric, chart in page.charts.items():
        x_labels = [t["content"] for t in chart["text"] if t.get("class") == "x-label"]
        # a long label is shortened under its bar; the full one is its tooltip
        assert x_labels == ["a-run-with-a-…a-run-with-a-long-label", "narrownarrow"], metric
        assert [t["content"] for t in chart["text"] if t.get("class") == "y-label"] == [
            "mean ± stderr"
        ]


def test_per_class_section_has_a_table_for_every_metric(page):
    metrics = list(page.charts)
    assert len(metrics) == 6
    after = page.headings[[t for _, t in page.headings].index("Per class") + 1 :]
    per_class = [t for level, t in after if level == 3]
    assert per_class == metrics


def test_heading_levels_never_skip(page):
    levels = [level for level, _ in page.headings]
    assert levels[0] == 1
    assert all(b - a <= 1 for a, b in zip(levels, levels[1:], strict=False)), page.headings
