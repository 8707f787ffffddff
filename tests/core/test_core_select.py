"""``--select PATTERN`` on every ``run`` (issue 27): globs over the loaded ids, built-in and user
scenarios alike, with did-you-mean over the ids that were loaded."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests._support.cli import REPO, run_cli

USER_SCENARIO = REPO / "docs" / "examples" / "ciso-scenarios" / "my-scenarios" / "host-net"


def _ids(out: Path) -> list[str]:
    return sorted(r["incident_id"] for r in json.loads((out / "results.json").read_text())[
        "raw_results"])  # fmt: skip


def test_one_class_of_a_user_scenario_is_selected(tmp_path: Path) -> None:
    shutil.copytree(USER_SCENARIO, tmp_path / "mine" / "host-net")
    out = tmp_path / "o"
    proc = run_cli(
        ["ciso", "run", "--scenarios", str(tmp_path / "mine"), "--select", "host-net.kyverno",
         "--agent", "baseline", "--output", str(out), "--no-progress"],
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert _ids(out) == ["host-net.kyverno"]


def test_unknown_pattern_suggests_loaded_user_ids_not_builtin_ones(tmp_path: Path) -> None:
    shutil.copytree(USER_SCENARIO, tmp_path / "mine" / "host-net")
    proc = run_cli(
        ["ciso", "run", "--scenarios", str(tmp_path / "mine"), "--select", "host-net.kyvern",
         "--output", str(tmp_path / "o"), "--no-progress"],
    )  # fmt: skip
    assert proc.returncode == 2, proc.stderr
    assert "--select 'host-net.kyvern' matches none of the 2 scenario id(s) loaded" in proc.stderr
    assert "did you mean: host-net.kyverno" in proc.stderr
    assert "cis-k8s" not in proc.stderr
    assert not (tmp_path / "o").exists()


def test_globs_over_builtin_ids_repeatable(toy_env: dict[str, str], tmp_path: Path) -> None:
    toy_env["TOY_SCENARIOS"] = "12"
    out = tmp_path / "o"
    proc = run_cli(
        ["toy", "run", "--select", "add-1?", "--select", "add-3", "--output", str(out),
         "--no-progress"],
        env=toy_env,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert _ids(out) == ["add-10", "add-11", "add-12", "add-3"]


def test_a_base_id_selects_all_its_classes(tmp_path: Path) -> None:
    out = tmp_path / "o"
    proc = run_cli(
        ["ciso", "run", "--select", "cis-k8s-5.2.5-host-network", "--agent", "oracle",
         "--output", str(out), "--no-progress"],
        timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert _ids(out) == [
        "cis-k8s-5.2.5-host-network.kubectl-opa",
        "cis-k8s-5.2.5-host-network.kyverno",
        "cis-k8s-5.2.5-host-network.kyverno-migrate",
        "cis-k8s-5.2.5-host-network.opa-static",
    ]
