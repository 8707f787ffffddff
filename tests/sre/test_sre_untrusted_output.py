"""``sre eval`` never reads an answer through a symbolic link (to a file holding the right
diagnosis, to a host file): the trial scores nothing and says why; the trial beside it is scored."""

from __future__ import annotations

import json
from pathlib import Path

from tests._support.cli import run_cli
from tests._support.sre import INFRA_OUTPUT, TRUTH


def test_linked_answer_is_refused_and_the_other_trial_scored(tmp_path: Path):
    elsewhere = tmp_path / "right-answer.json"
    elsewhere.write_text(json.dumps(INFRA_OUTPUT))
    outputs = tmp_path / "outputs" / "7"
    (outputs / "1" / "outputs").mkdir(parents=True)
    (outputs / "2").mkdir(parents=True)
    (outputs / "3").mkdir(parents=True)
    (outputs / "1" / "outputs" / "agent_output.json").symlink_to(elsewhere)
    (outputs / "2" / "agent_output.json").write_text(json.dumps(INFRA_OUTPUT))
    (outputs / "3" / "outputs").symlink_to(tmp_path)  # a link on the way, not the file itself
    (tmp_path / "agent_output.json").write_text(json.dumps(INFRA_OUTPUT))
    (outputs / "4").symlink_to(outputs / "2")  # a whole trial folder elsewhere: not a trial
    gt = tmp_path / "gt.json"
    gt.write_text(json.dumps([TRUTH]))
    proc = run_cli(
        ["sre", "eval", "--outputs", str(tmp_path / "outputs"), "--ground-truth", str(gt),
         "--format", "json"],
        timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    results = {r["trial_id"]: r for r in json.loads(proc.stdout)["raw_results"]}
    assert sorted(results) == ["1", "2", "3"]
    assert f"{outputs / '4'}: a symbolic link, not a folder; skipped" in proc.stderr
    assert results["2"]["scores"]["root_cause_entity"]["calculation_recall"] > 0
    reason = json.dumps(results["1"])
    assert "root_cause_entity" not in results["1"]["scores"], reason
    assert "outputs/agent_output.json is a symbolic link: not read" in reason, reason
    assert "root_cause_entity" not in results["3"]["scores"], results["3"]
    assert "outputs is a symbolic link: not read" in json.dumps(results["3"])
