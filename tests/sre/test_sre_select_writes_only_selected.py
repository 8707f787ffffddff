"""``itbench sre run --select``: a built-in suite is generated into the run directory, and only
the selected scenarios are written there (the whole mitigation suite is some 200 MB), for
``--task mitigate`` and for the diagnosis task's fresh suite alike. Through the real CLI."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from sre.twin.suite import SECRET_FILE, suite_id
from tests._support.cli import run_cli

needs_kubectl = pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is absent")


def _scenario_folders(out: Path) -> list[str]:
    """Every generated scenario folder under the run directory, by name."""
    return sorted(p.name for p in out.rglob("Scenario-*") if p.is_dir())


@needs_kubectl
def test_mitigate_writes_only_the_selected_incident(tmp_path: Path) -> None:
    out = tmp_path / "run"
    # the operator who knows the run directory's secret may pick a fault type's id
    (out / "mitigation-suite").mkdir(parents=True)
    (out / "mitigation-suite" / SECRET_FILE).write_text("12345\n")
    picked = suite_id("feature-flag", 12345)
    proc = run_cli(
        ["sre", "run", "--task", "mitigate", "--agent", "baseline", "--select", picked,
         "--output", str(out)], timeout=300,
    )  # fmt: skip
    assert proc.returncode in (0, 1), proc.stderr
    assert "Traceback" not in proc.stderr
    assert _scenario_folders(out) == [f"Scenario-{picked}"]
    (evaluation,) = [json.loads(p.read_text()) for p in out.glob("*/1/evaluation.json")]
    assert evaluation["scenario_id"] == picked
    assert evaluation["scores"]["mitigation_pass"] == 1.0, evaluation["details"]


def test_diagnose_writes_only_the_selected_incidents(tmp_path: Path) -> None:
    """The fresh suite's ids end in the incident's number (``<tag>-<n>``): ``*-2`` picks one."""
    out = tmp_path / "run"
    proc = run_cli(
        ["sre", "run", "--agent", "baseline", "--select", "*-2", "--output", str(out)],
        timeout=300,
    )
    assert proc.returncode in (0, 1), proc.stderr
    assert "Traceback" not in proc.stderr
    folders = _scenario_folders(out)
    assert len(folders) == 1 and folders[0].endswith("-2"), folders
    assert len(list(out.glob("*/1/evaluation.json"))) == 1


def test_a_selection_matching_no_suite_id_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "run"
    proc = run_cli(
        ["sre", "run", "--task", "mitigate", "--select", "no-such-id", "--output", str(out)],
        timeout=120,
    )
    assert proc.returncode == 2, proc.stderr
    assert "--select 'no-such-id' matches none" in proc.stderr
    assert _scenario_folders(out) == []
