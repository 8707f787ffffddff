"""`itbench report` in every format, on documents built here and on the real ITBench sample."""

from __future__ import annotations

import json
import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from itbench.scoring.document import ResultsDocument
from tests._support.cli import SHARED, run_cli
from tests.report.png_reader import non_white_share, read_png


def _score(value: float) -> dict:
    return {"correct": {"calculation": value, "calculation_f1": value}}


def _doc(
    path: Path, label: str, values: dict[str, list[float | None]], classes: dict[str, str]
) -> Path:
    raw = []
    for incident, trials in values.items():
        for n, v in enumerate(trials, start=1):
            entry = {"incident_id": incident, "trial_id": str(n)}
            entry.update({"error": "timeout"} if v is None else {"scores": _score(v)})
            raw.append(entry)
    config = {
        "run_name": label,
        "agent": label,
        "primary_metric": "correct",
        "scenario_classes": classes,
        "pass_at_1_metrics": ["correct"],
    }
    path.write_bytes(ResultsDocument.build(raw, config).to_json_bytes())
    return path


@pytest.fixture
def two_runs(tmp_path):
    classes = {"a<1>": "easy", "b": "hard"}
    good = _doc(tmp_path / "good.json", "good", {"a<1>": [1, 1], "b": [1, 0]}, classes)
    bad = _doc(tmp_path / "bad.json", "bad", {"a<1>": [0, 1], "b": [0, None]}, classes)
    return good, bad


def test_table_and_json_compare_runs_side_by_side(two_runs):
    proc = run_cli(["report", *map(str, two_runs)])
    assert proc.returncode == 0, proc.stderr
    assert "correct" in proc.stdout and "good" in proc.stdout and "bad" in proc.stdout
    doc = json.loads(run_cli(["report", *map(str, two_runs), "--format", "json"]).stdout)
    good, bad = doc["runs"]
    # good: a<1> mean 1, b mean .5 -> .75; bad: a<1> .5, b 0 (error excluded) -> .25
    assert good["metrics"]["correct"]["mean"] == 0.75
    assert bad["metrics"]["correct"]["mean"] == 0.25
    assert good["metrics"]["correct"]["pass@1"] == 0.75
    assert bad["bad_runs"] == 1 and good["bad_runs"] == 0
    assert good["classes"] == {
        "easy": {"n_incidents": 1, "means": {"correct": 1.0, "correct_f1": 1.0}},
        "hard": {"n_incidents": 1, "means": {"correct": 0.5, "correct_f1": 0.5}},
    }
    assert doc["metrics"][0] == "correct"


def test_markdown_has_tables_per_metric_and_class(two_runs):
    text = run_cli(["report", *map(str, two_runs), "--format", "markdown"]).stdout
    assert "| metric | good | bad |" in text
    assert "| correct | 0.750 ± 0.250 | 0.250 ± 0.250 |" in text
    assert "| hard | 0.500 (n=1) | 0.000 (n=1) |" in text


def test_junit_has_one_testcase_per_trial_with_reasons(two_runs):
    xml = run_cli(["report", *map(str, two_runs), "--format", "junit"]).stdout
    root = ET.fromstring(xml)
    assert root.tag == "testsuites" and root.get("tests") == "8"
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    assert suites["good"].get("failures") == "1" and suites["good"].get("errors") == "0"
    assert suites["bad"].get("failures") == "2" and suites["bad"].get("errors") == "1"
    cases = {(c.get("classname"), c.get("name")): c for c in suites["bad"].findall("testcase")}
    assert cases[("bad.b", "trial 2")].find("error").get("message") == "timeout"
    assert cases[("bad.a<1>", "trial 1")].find("failure").get("message") == "correct = 0 (< 1)"
    assert cases[("bad.a<1>", "trial 2")].find("failure") is None


class _Collector(HTMLParser):
    def __init__(self):
        super().__init__()
        self.bars: list[dict] = []
        self.charts: list[str] = []
        self.text: list[str] = []
        self.external: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "svg" and "bar-chart" in (a.get("class") or ""):
            self.charts.append(a["data-metric"])
        if tag == "rect" and a.get("class") == "bar":
            self.bars.append({"chart": self.charts[-1], **a})
        if tag in ("script", "link", "img") or (a.get("src") or "").startswith("http"):
            self.external.append(tag)

    def handle_data(self, data):
        self.text.append(data)


def test_html_is_self_contained_with_proportional_bars_and_escaped_text(two_runs, tmp_path):
    out = tmp_path / "report.html"
    proc = run_cli(["report", *map(str, two_runs), "--format", "html", "--output", str(out)])
    assert proc.returncode == 0 and proc.stdout == ""
    html = out.read_text()
    assert "<1>" not in html.replace("&lt;1&gt;", "")  # the scenario id is escaped
    parser = _Collector()
    parser.feed(html)
    assert parser.external == []
    assert parser.charts == ["correct", "correct_f1"]
    correct = [b for b in parser.bars if b["chart"] == "correct"]
    assert [float(b["data-value"]) for b in correct] == [0.75, 0.25]
    heights = [float(b["height"]) for b in correct]
    assert heights[0] == pytest.approx(3 * heights[1], rel=0.02)


def test_html_renders_in_headless_chromium(two_runs, tmp_path, headless_chromium):
    out = tmp_path / "report.html"
    run_cli(["report", *map(str, two_runs), "--format", "html", "--output", str(out)])
    png = tmp_path / "shot.png"
    subprocess.run(
        [
            *headless_chromium,
            f"--screenshot={png}",
            "--window-size=1000,800",
            out.as_uri(),
        ],
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert png.exists(), "chromium wrote no screenshot"
    width, height, channels, pixels = read_png(png.read_bytes())
    assert (width, height) == (1000, 800)
    share = non_white_share(width, height, channels, pixels)
    assert 0.03 < share < 0.9, share


def test_real_itbench_sample_renders():
    sample = (
        SHARED / "corpora" / "itbench" / "sre" / "evaluations_sample" / "evaluation_results.json"
    )
    if not sample.exists():
        pytest.skip(f"../shared is absent: {sample} not found")
    proc = run_cli(["report", str(sample), "--format", "json"])
    assert proc.returncode == 0, proc.stderr
    (run,) = json.loads(proc.stdout)["runs"]
    original = json.loads(sample.read_text())["statistics"]["overall"]
    assert run["metrics"]["propagation_chain"]["mean"] == pytest.approx(
        original["propagation_chain"]["mean"]
    )
    assert run["metrics"]["fault_localization_component_identification"]["pass@1"] == pytest.approx(
        original["fault_localization_component_identification"]["pass@1"]
    )


def test_bad_inputs_exit_3_naming_the_file_and_a_missing_one_is_a_usage_error(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    for path, code in ((broken, 3), (tmp_path / "none.json", 2)):
        proc = run_cli(["report", str(path)])
        assert proc.returncode == code and path.name in proc.stderr
        assert "Traceback" not in proc.stderr
    proc = run_cli(["report", str(broken), "--format", "pdf"])
    assert proc.returncode == 2


def _table_rows(text: str, title: str) -> list[list[str]]:
    """The rows of one titled section of the table (header included), split on 2+ spaces."""
    section = text.split(title + "\n", 1)[1].split("\n\n", 1)[0]
    lines = [line for line in section.splitlines() if not set(line) <= {"-", " "}]
    return [re.split(r"\s{2,}", line.strip()) for line in lines]


def test_table_of_one_run_has_trials_errors_and_metrics_per_scenario(two_runs):
    _, bad = two_runs
    proc = run_cli(["report", str(bad)])
    assert proc.returncode == 0, proc.stderr
    rows = _table_rows(proc.stdout, "per scenario:")
    assert rows == [
        ["scenario", "class", "trials", "errors", "correct", "correct_f1"],
        ["a<1>", "easy", "2", "0", "0.500", "0.500"],
        ["b", "hard", "2", "1", "0.000", "0.000"],
    ]
    overall = _table_rows(proc.stdout, "overall:")
    assert ["correct", "0.250 ± 0.250"] in overall and ["bad runs", "1"] in overall


def test_table_of_several_runs_compares_the_headline_metric_per_scenario(two_runs):
    proc = run_cli(["report", *map(str, two_runs)])
    rows = _table_rows(proc.stdout, "per scenario (correct):")
    assert rows == [
        ["scenario", "class", "good", "bad"],
        ["a<1>", "easy", "1.000", "0.500"],
        ["b", "hard", "0.500", "0.000 (1 err)"],
    ]
    assert _table_rows(proc.stdout, "per class (correct):")[2] == [
        "hard",
        "0.500 (n=1)",
        "0.000 (n=1)",
    ]


def test_run_and_report_draw_the_same_table(tmp_path):
    out = tmp_path / "finops-baseline"
    run = run_cli(
        ["finops", "run", "--scenarios", "Scenario-1,Scenario-2,Scenario-10", "--output", str(out)]
        + ["--no-progress"]
    )
    assert run.returncode == 0, run.stderr
    report = run_cli(["report", str(out / "results.json")])
    assert report.returncode == 0, report.stderr
    assert run.stdout == report.stdout
    rows = _table_rows(run.stdout, "per scenario:")
    # natural order: Scenario-10 after Scenario-2
    assert [r[0] for r in rows[1:]] == ["Scenario-1", "Scenario-2", "Scenario-10"]
    assert rows[0][:5] == ["scenario", "class", "trials", "errors", "root_cause_resource"]
    # the FinOps table names the agent of the run in its overall header
    assert _table_rows(run.stdout, "overall:")[0] == ["metric", "baseline"]
    as_json = run_cli(
        ["finops", "run", "--scenarios", "Scenario-1,Scenario-2,Scenario-10", "--output", str(out)]
        + ["--no-progress", "--format", "json"]
    )
    assert as_json.stdout.encode() == (out / "results.json").read_bytes()
