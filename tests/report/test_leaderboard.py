"""`itbench leaderboard`: usage in raw results, ranking, pass@k, Wilson intervals, reliability."""

from __future__ import annotations

import csv
import io
import json
import math
import subprocess
from pathlib import Path

from itbench.models.records import Evaluation, Usage
from itbench.report.leaderboard import wilson_interval
from itbench.scoring.document import ResultsDocument
from itbench.scoring.passk import pass_at_k
from tests._support.cli import run_cli
from tests.report.png_reader import non_white_share, read_png


def _run(
    folder: Path,
    agent: str,
    model: str | None,
    outcomes: dict[str, list[int | None]],
    *,
    domain: str = "toy",
    cost: float = 0.0,
    classes: dict[str, str] | None = None,
) -> Path:
    """A run folder: results.json whose trials score 1/0 (None = errored), built the way the
    runner builds it (Evaluation.raw_result)."""
    raw = []
    for scenario, trials in outcomes.items():
        for n, value in enumerate(trials, start=1):
            usage = Usage(
                prompt_tokens=100, completion_tokens=20, cost_usd=cost, llm_calls=4, tool_calls=9
            )
            evaluation = Evaluation(
                scenario_id=scenario,
                trial_id=str(n),
                scores={} if value is None else {"solved": value},
                error="agent timed out" if value is None else None,
                usage=usage if cost else Usage(),
                duration_s=2.0,
            )
            raw.append(evaluation.raw_result())
    config = {
        "domain": domain,
        "agent": agent,
        "model": model,
        "primary_metric": "solved",
        "pass_at_1_metrics": ["solved"],
        "scenario_classes": classes or {},
    }
    folder.mkdir(parents=True)
    (folder / "results.json").write_bytes(ResultsDocument.build(raw, config).to_json_bytes())
    return folder


def test_raw_results_carry_usage_and_statistics_ignore_it() -> None:
    spent = Evaluation(
        scenario_id="s1",
        trial_id="1",
        scores={"solved": 1},
        usage=Usage(
            prompt_tokens=10, completion_tokens=5, cost_usd=0.25, llm_calls=3, tool_calls=7
        ),
    )
    entry = spent.raw_result()
    assert entry["usage"] == {
        "prompt_tokens": 10,
        "completion_tokens": 5,
        "cost_usd": 0.25,
        "llm_calls": 3,
        "tool_calls": 7,
    }
    # a baseline's entry stays as ITBench writes it
    assert "usage" not in Evaluation(scenario_id="s1", trial_id="1", scores={}).raw_result()
    with_usage = ResultsDocument.build([entry], {})
    without = ResultsDocument.build([{k: v for k, v in entry.items() if k != "usage"}], {})
    assert with_usage.statistics == without.statistics


def test_leaderboard_ranks_runs_by_agent_and_model(tmp_path: Path) -> None:
    strong = _run(
        tmp_path / "out-a",
        "llm",
        "gpt-x",
        {"s1": [1, 1, 1], "s2": [1, 0, 1], "s3": [0, 0, 0]},
        cost=0.5,
        classes={"s1": "easy", "s2": "easy", "s3": "hard"},
    )
    weak = _run(
        tmp_path / "out-b",
        "llm",
        "tiny",
        {"s1": [1, 0, 0], "s2": [0, 0, None], "s3": [0, 0, 0]},
        cost=0.1,
        classes={"s1": "easy", "s2": "easy", "s3": "hard"},
    )
    baseline = _run(
        tmp_path / "out-c", "baseline", None, {"s1": [1, 1, 1], "s2": [1, 1, 1], "s3": [0, 1, 0]}
    )
    result = run_cli(["leaderboard", str(weak), str(baseline), str(strong), "--format", "json"])
    assert result.returncode == 0, result.stderr
    board = json.loads(result.stdout)["domains"]["toy"]
    rows = board["leaderboard"]
    assert [r["run"] for r in rows] == ["baseline", "llm/gpt-x", "llm/tiny"]
    by_run = {r["run"]: r for r in rows}
    gpt = by_run["llm/gpt-x"]
    # per scenario (n, c): (3,3), (3,2), (3,0)
    expected = {
        k: (pass_at_k(3, 3, k) + pass_at_k(3, 2, k) + pass_at_k(3, 0, k)) / 3 for k in (1, 2, 3)
    }
    assert gpt["pass@k"] == {str(k): v for k, v in expected.items()}
    assert math.isclose(gpt["pass@1"], 5 / 9)
    low, high = wilson_interval(5 / 9, 3)  # over 3 scenarios, not 9 trials
    assert math.isclose(gpt["pass@1_interval95_wilson"][0], low)
    assert math.isclose(gpt["pass@1_interval95_wilson"][1], high)
    assert math.isclose(gpt["cost_usd_per_task"], 0.5)
    assert math.isclose(gpt["cost_usd_per_success"], 0.5 * 9 / 5)
    assert gpt["tokens_per_task"] == 120 and gpt["turns_per_task"] == 4
    assert gpt["tool_calls_per_task"] == 9
    assert gpt["wall_s_per_task"] == 2.0 and gpt["usage_reported"] is True
    tiny = by_run["llm/tiny"]
    assert tiny["bad_runs"] == 1 and math.isclose(tiny["pass@1"], 1 / 9)
    base = by_run["baseline"]
    assert base["usage_reported"] is False and base["cost_usd_per_task"] == 0.0
    classes = {(r["run"], r["class"]): r for r in board["by_class"]}
    assert math.isclose(classes[("llm/gpt-x", "easy")]["pass@1"], 5 / 6)
    assert classes[("llm/gpt-x", "hard")]["pass@1"] == 0.0
    reliability = board["reliability"]
    assert reliability["flaky"] == ["s1", "s2", "s3"]
    flaky_in = {s["scenario"]: s["flaky_in"] for s in reliability["scenarios"]}
    assert flaky_in == {"s1": ["llm/tiny"], "s2": ["llm/gpt-x"], "s3": ["baseline"]}
    assert reliability["solved_by_none"] == [] and reliability["solved_by_all"] == []

    table = run_cli(["leaderboard", str(weak), str(baseline), str(strong)])
    assert table.returncode == 0, table.stderr
    baseline_line = next(line for line in table.stdout.splitlines() if line.startswith("1 "))
    assert "baseline" in baseline_line and "0 (no LLM)" in baseline_line
    assert "out-a" not in table.stdout  # runs are named by agent and model, not by folder
    lines = list(
        csv.DictReader(io.StringIO(run_cli(["leaderboard", str(strong), "--format", "csv"]).stdout))
    )
    assert [(line["run"], line["class"]) for line in lines] == [
        ("llm/gpt-x", "all"),
        ("llm/gpt-x", "easy"),
        ("llm/gpt-x", "hard"),
    ]
    markdown = run_cli(["leaderboard", str(strong), "--format", "markdown"]).stdout
    assert "| 1 | llm/gpt-x |" in markdown


def test_no_discrimination_and_unsolved_scenarios(tmp_path: Path) -> None:
    a = _run(tmp_path / "a", "a", None, {"easy": [1, 1], "hard": [0, 0], "mid": [1, 1]})
    b = _run(tmp_path / "b", "b", None, {"easy": [1, 1], "hard": [0, 0], "mid": [0, 0]})
    result = run_cli(["leaderboard", str(a), str(b), "--format", "json"])
    reliability = json.loads(result.stdout)["domains"]["toy"]["reliability"]
    assert reliability["solved_by_all"] == ["easy"]
    assert reliability["solved_by_none"] == ["hard"]
    assert reliability["flaky"] == []


def test_domains_get_a_table_each(tmp_path: Path) -> None:
    a = _run(tmp_path / "a", "a", "m", {"s1": [1]}, domain="alpha")
    b = _run(tmp_path / "b", "b", "m", {"s1": [0]}, domain="beta")
    result = run_cli(["leaderboard", str(a), str(b), "--format", "json"])
    domains = json.loads(result.stdout)["domains"]
    assert [r["run"] for r in domains["alpha"]["leaderboard"]] == ["a/m"]
    assert [r["run"] for r in domains["beta"]["leaderboard"]] == ["b/m"]
    table = run_cli(["leaderboard", str(a), str(b)]).stdout
    assert "alpha: leaderboard" in table and "beta: leaderboard" in table


def test_bad_inputs_are_clear_errors(tmp_path: Path) -> None:
    empty = tmp_path / "not-a-run"
    empty.mkdir()
    (empty / "notes.txt").write_text("not results")
    result = run_cli(["leaderboard", str(empty)])
    assert result.returncode == 2 and result.stdout == ""
    assert f"{empty}: not a run folder (no results.json in it)" in result.stderr
    two = _run(tmp_path / "two", "a", None, {"s1": [1, 0], "s2": [1]})
    result = run_cli(["leaderboard", str(two), "--min-trials", "2"])
    assert result.returncode == 3 and result.stdout == ""
    assert "scenario s2 has 1 trial(s), fewer than --min-trials 2" in result.stderr
    assert run_cli(["leaderboard", str(two)]).returncode == 0
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "results.json").write_text('{"raw_results": [{"trial_id": "1"}]}')
    result = run_cli(["leaderboard", str(broken)])
    assert result.returncode == 3 and "raw_results[0].incident_id is missing" in result.stderr
    nodomain = tmp_path / "nodomain"
    nodomain.mkdir()
    raw = [{"incident_id": "s1", "trial_id": "1", "scores": {"solved": 1}}]
    doc = ResultsDocument.build(raw, {"primary_metric": "solved"})
    (nodomain / "results.json").write_bytes(doc.to_json_bytes())
    result = run_cli(["leaderboard", str(nodomain)])
    assert result.returncode == 3 and "config.domain is missing" in result.stderr


def test_same_agent_and_model_twice_are_told_apart_by_folder(tmp_path: Path) -> None:
    a = _run(tmp_path / "monday", "llm", "m", {"s1": [1]})
    b = _run(tmp_path / "tuesday", "llm", "m", {"s1": [0]})
    rows = json.loads(run_cli(["leaderboard", str(a), str(b), "--format", "json"]).stdout)
    names = [r["run"] for r in rows["domains"]["toy"]["leaderboard"]]
    assert names == ["llm/m (monday)", "llm/m (tuesday)"]


def test_wilson_interval_known_values() -> None:
    # 0 of 10 and 10 of 10 keep a width (the normal interval would collapse to a point)
    low, high = wilson_interval(0.0, 10)
    assert low == 0.0 and math.isclose(high, 0.27753, abs_tol=1e-4)
    low, high = wilson_interval(0.5, 100)
    assert math.isclose(low, 0.40383, abs_tol=1e-4) and math.isclose(high, 0.59617, abs_tol=1e-4)


_PROBE = """<script>
const out = [];
document.querySelectorAll('svg').forEach((svg, s) => {
  svg.querySelectorAll('text').forEach(t => {
    const b = t.getBoundingClientRect();
    out.push({svg: s, cls: t.getAttribute('class'), text: t.textContent,
              box: [b.left, b.top, b.right, b.bottom]});
  });
});
const pre = document.createElement('pre');
pre.id = 'probe';
pre.textContent = JSON.stringify(out);
document.body.appendChild(pre);
</script>"""


def test_html_leaderboard_in_headless_chromium(
    tmp_path: Path, headless_chromium: list[str]
) -> None:
    classes = {f"Scenario-{i}": ("easy" if i % 2 else "hard") for i in range(1, 31)}
    runs = []
    # gpt-x and gpt-x-mini score alike at one cost and land on one point: their labels must not
    plan = [
        ("llm", "gpt-x", 0.5, 3),
        ("llm", "gpt-x-mini", 0.5, 3),
        ("llm", "tiny", 0.1, 2),
        ("baseline", None, 0.0, 1),
    ]
    for r, (agent, model, cost, threshold) in enumerate(plan):
        outcomes = {
            s: [int((i + t) % 4 < threshold) for t in range(3)] for i, s in enumerate(classes)
        }
        runs.append(
            _run(
                tmp_path / f"r{r}", agent, model, outcomes, domain="sre", cost=cost, classes=classes
            )
        )
    page = tmp_path / "board.html"
    refs = Path(__file__).resolve().parents[2] / "docs" / "leaderboard-references.json"
    result = run_cli(
        [
            "leaderboard",
            *map(str, runs),
            "--format",
            "html",
            "--output",
            str(page),
            "--reference",
            str(refs),
        ]
    )
    assert result.returncode == 0, result.stderr
    html = page.read_text()
    assert "<script" not in html and "http://" not in html.replace("http://www.w3.org/2000/svg", "")
    names = ["llm/gpt-x", "llm/gpt-x-mini", "llm/tiny", "baseline"]
    # every run is a point, a set of bars and a heat-map row; both published SRE rows are drawn
    for name in names:
        assert html.count('class="run-point') == 4
        assert f'data-run="{name}"' in html
    assert html.count('class="reference-point"') == 2
    frontier = html.split('class="pareto" points="')[1].split('"')[0].split()
    assert len(frontier) == 3  # baseline, tiny, then one of the two gpt-x runs
    probe = tmp_path / "probe.html"
    probe.write_text(html.replace("</body>", _PROBE + "</body>"))
    dom = subprocess.run(
        [
            *headless_chromium,
            "--virtual-time-budget=5000",
            "--dump-dom",
            probe.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    ).stdout
    start = dom.index('<pre id="probe">') + len('<pre id="probe">')
    texts = json.loads(__import__("html").unescape(dom[start : dom.index("</pre>", start)]))
    labels = {t["text"] for t in texts}
    assert {"cost per task (USD)", "solved (primary)", "pass@1 (95% Wilson)", "scenario"} <= labels
    for name in names:
        assert any(t["text"].startswith(name) and t["cls"] == "point-label" for t in texts), name
        assert any(t["text"] == name and t["cls"] == "run-label" for t in texts), name
    assert any(t["text"] == "paper: Gemma 4 31B (ITBench-AA)" for t in texts)
    by_svg: dict[int, list[dict]] = {}
    for t in texts:
        by_svg.setdefault(t["svg"], []).append(t)
    for items in by_svg.values():
        for i, a in enumerate(items):
            for b in items[i + 1 :]:
                (al, at, ar, ab), (bl, bt, br, bb) = a["box"], b["box"]
                overlap = al < br - 0.5 and bl < ar - 0.5 and at < bb - 0.5 and bt < ab - 0.5
                assert not overlap, (a["text"], a["box"], b["text"], b["box"])
    png = tmp_path / "shot.png"
    subprocess.run(
        [
            *headless_chromium,
            f"--screenshot={png}",
            "--window-size=1000,800",
            page.as_uri(),
        ],
        capture_output=True,
        timeout=120,
        check=False,
    )
    width, height, channels, pixels = read_png(png.read_bytes())
    assert (width, height) == (1000, 800)
    assert 0.03 < non_white_share(width, height, channels, pixels) < 0.9
