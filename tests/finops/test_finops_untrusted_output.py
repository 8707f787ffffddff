"""``finops eval`` never reads an answer through a symbolic link or from a special file: a link to
a file holding the right answer scores nothing and says why; the trials beside it are scored."""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests._support.cli import run_cli
from tests.finops.finops_fixtures import base_leaves, write_lite

DAY = 41
ANSWER = {"resource": [{"name": "m5.large", "type": "Instance_Family"}]}


def test_linked_or_special_answer_is_refused_and_the_others_scored(tmp_path: Path):
    leaves = base_leaves()
    leaves[("AWS", "EC2", "ec2-app-b", "m5.large")][1][DAY] *= 4
    folder = write_lite(tmp_path / "scenarios" / "Scenario-1", leaves, DAY)
    (folder / "ground_truth.yaml").write_text(
        "resource:\n  - {name: m5.large, type: Instance_Family}\n"
    )
    elsewhere = tmp_path / "right-answer.json"
    elsewhere.write_text(json.dumps(ANSWER))
    out = tmp_path / "outputs" / "Scenario-1"
    for trial in ("1", "2", "3"):
        (out / trial).mkdir(parents=True)
    (out / "1" / "agent_output.json").symlink_to(elsewhere)
    (out / "2" / "agent_output.json").write_text(json.dumps(ANSWER))
    os.mkfifo(out / "3" / "agent_output.json")  # a reader would block on it forever
    proc = run_cli(
        ["finops", "eval", "--outputs", str(tmp_path / "outputs"),
         "--ground-truth", str(tmp_path / "scenarios"), "--format", "json"],
        timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    results = {r["trial_id"]: r for r in json.loads(proc.stdout)["raw_results"]}
    assert results["2"]["scores"]["root_cause_resource"]["calculation"] == 1.0
    for trial, kind in (("1", "a symbolic link"), ("3", "a named pipe")):
        assert "root_cause_resource" not in results[trial]["scores"], results[trial]
        reason = json.dumps(results[trial])
        assert f"agent_output.json is {kind}: not read" in reason, reason
