"""``itbench ciso eval`` over a user's run (issue 27): it never replaces the run's results.json,
never scores a user's trials against the built-in suite, and counts every trial once."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests._support.cli import REPO, run_cli

USER_SCENARIO = REPO / "docs" / "examples" / "ciso-scenarios" / "my-scenarios" / "host-net"
BUILTIN = "cis-k8s-5.2.5-host-network"


@pytest.fixture(scope="module")
def user_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("user-run")
    scenarios = root / "mine"
    shutil.copytree(USER_SCENARIO, scenarios / "host-net")
    out = root / "run"
    proc = run_cli(
        ["ciso", "run", "--scenarios", str(scenarios), "--output", str(out), "--no-progress"],
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    return scenarios, out


def test_eval_without_ground_truth_refuses_user_trials_and_keeps_results(
    user_run: tuple[Path, Path],
) -> None:
    _, out = user_run
    before = (out / "results.json").read_bytes()
    proc = run_cli(["ciso", "eval", "--outputs", str(out)])
    assert proc.returncode == 2, proc.stderr
    assert "no ground truth in the built-in suite for 2 scenario folder(s): " \
        "host-net.kyverno, host-net.opa-static" in proc.stderr  # fmt: skip
    assert "--ground-truth" in proc.stderr
    assert (out / "results.json").read_bytes() == before
    assert not (out / "eval-results.json").exists()


def test_eval_writes_beside_the_run_and_never_over_it(
    user_run: tuple[Path, Path], tmp_path: Path
) -> None:
    scenarios, run = user_run
    out = tmp_path / "run"
    shutil.copytree(run, out)
    before = (out / "results.json").read_bytes()
    assert json.loads(before)["config"]["agent"] == "baseline"
    base = ["ciso", "eval", "--outputs", str(out), "--ground-truth", str(scenarios)]
    proc = run_cli([*base, "--format", "json"])
    assert proc.returncode == 0, proc.stderr
    assert f"results: {out / 'eval-results.json'}" in proc.stderr
    assert (out / "results.json").read_bytes() == before
    written = json.loads((out / "eval-results.json").read_text())
    assert written == json.loads(proc.stdout)
    ids = [r["incident_id"] for r in written["raw_results"]]
    assert sorted(ids) == ["host-net.kyverno", "host-net.opa-static"]
    # a second eval does not replace the first one's document unless asked
    again = run_cli(base)
    assert again.returncode == 2
    assert f"{out / 'eval-results.json'} exists" in again.stderr
    assert "--result-file" in again.stderr
    asked = run_cli([*base, "--result-file", str(out / "eval-results.json")])
    assert asked.returncode == 0, asked.stderr


def test_eval_against_the_builtin_suite_counts_each_scenario_once(tmp_path: Path) -> None:
    out = tmp_path / "run"
    ran = run_cli(
        ["ciso", "run", "--scenarios", BUILTIN, "--agent", "oracle", "--output", str(out),
         "--no-progress"],
        timeout=300,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    proc = run_cli(["ciso", "eval", "--outputs", str(out), "--format", "json"], timeout=300)
    assert proc.returncode == 0, proc.stderr
    ids = [r["incident_id"] for r in json.loads(proc.stdout)["raw_results"]]
    assert len(ids) == len(set(ids)), sorted(i for i in set(ids) if ids.count(i) > 1)
    listed = re.search(r"counted as bad runs: (.*)", proc.stderr)
    assert listed is not None, proc.stderr
    missing = listed.group(1).split(", ")
    assert len(missing) == len(set(missing))
    assert f"no output for {len(missing)} scenario(s)" in proc.stderr
    scored = json.loads((out / "results.json").read_text())["raw_results"]
    assert len(ids) == len(missing) + len(scored)  # one trial per class of the scenario run
