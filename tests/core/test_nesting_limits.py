"""A document nested 100,000 deep (``[[[[…]]]]``) is refused with its file and depth named, and
an evaluation keeps every other trial: before, Python's json raised RecursionError, which ended
`finops eval`, `sre eval` and `rego eval -d` with no result at all."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from itbench import jsonsafe
from tests._support.cli import finops_outputs_to_evaluate, run_cli
from tests._support.sre import INFRA_OUTPUT, TRUTH

DEEP = 100_000


def _deep_list(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_finops_eval_records_the_deep_output_and_scores_the_others(tmp_path: Path) -> None:
    scenarios, out = finops_outputs_to_evaluate(tmp_path)
    deep = out / "Scenario-2" / "1" / "agent_output.json"
    deep.write_text(_deep_list(DEEP))
    proc = run_cli(
        [
            "finops",
            "eval",
            "--outputs",
            str(out),
            "--ground-truth",
            str(scenarios),
            "--format",
            "json",
        ]
    )
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    by_id = {r["incident_id"]: r for r in json.loads(proc.stdout)["raw_results"]}
    assert set(by_id) == {"Scenario-1", "Scenario-2", "Scenario-3"}
    assert f"{deep}: JSON nested {DEEP} levels deep" in by_id["Scenario-2"]["error"]
    assert by_id["Scenario-2"]["scores"] == {}
    for kept in ("Scenario-1", "Scenario-3"):
        assert by_id[kept].get("error") is None
        assert "root_cause_resource" in by_id[kept]["scores"]


def test_sre_eval_records_the_deep_output_and_scores_the_others(tmp_path: Path) -> None:
    outputs = tmp_path / "outputs"
    for trial, text in (("1", json.dumps(INFRA_OUTPUT)), ("2", _deep_list(DEEP))):
        folder = outputs / "7" / trial / "outputs"
        folder.mkdir(parents=True)
        (folder / "agent_output.json").write_text(text)
    truth = tmp_path / "gt.json"
    truth.write_text(json.dumps([TRUTH]))
    args = ["sre", "eval", "--outputs", str(outputs), "--ground-truth", str(truth)]
    proc = run_cli([*args, "--format", "json"])
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    good, bad = json.loads(proc.stdout)["raw_results"]
    assert good.get("error") is None and "root_cause_entity" in good["scores"]
    deep = outputs / "7" / "2" / "outputs" / "agent_output.json"
    assert f"{deep}: JSON nested {DEEP} levels deep" in bad["error"]
    assert bad["scores"] == {}


@pytest.mark.parametrize(
    ("name", "text", "words"),
    [
        ("deep.json", '{"items": ' + _deep_list(DEEP) + "}", f"JSON nested {DEEP + 1} levels deep"),
        ("deep.yaml", "items: " + _deep_list(999), "nested more than 512 levels deep"),
    ],
)
def test_rego_eval_names_the_deep_data_file(tmp_path: Path, name: str, text: str, words: str):
    (tmp_path / "p.rego").write_text("package check\nresult := count(data.items)\n")
    (tmp_path / name).write_text(text)
    data = ["-d", str(tmp_path / "p.rego"), "-d", str(tmp_path / name)]
    proc = run_cli(["rego", "eval", *data, "data.check.result"])
    assert proc.returncode == 3
    assert "Traceback" not in proc.stderr
    assert str(tmp_path / name) in proc.stderr and words in proc.stderr


def test_a_document_at_the_limit_is_read(tmp_path: Path) -> None:
    (tmp_path / "p.rego").write_text("package check\nresult := count(data.items)\n")
    (tmp_path / "d.json").write_text('{"items": ' + _deep_list(jsonsafe.MAX_DEPTH - 2) + "}")
    data = ["-d", str(tmp_path / "p.rego"), "-d", str(tmp_path / "d.json")]
    proc = run_cli(["rego", "eval", *data, "data.check.result", "--format", "json"])
    assert proc.returncode == 0, proc.stderr


def test_brackets_inside_strings_do_not_count() -> None:
    inside = json.dumps({"s": "[" * 5000 + '\\"{' * 3000})
    assert jsonsafe.loads(inside, "x")["s"].startswith("[[[")
    assert jsonsafe.depth_over(inside.encode(), 10) == 0
    with pytest.raises(jsonsafe.TooDeep, match=r"^src: JSON nested 20 levels deep"):
        jsonsafe.loads(_deep_list(20), "src", limit=10)
    with pytest.raises(ValueError):  # the readers that catch ValueError catch it too
        jsonsafe.check(_deep_list(20).encode(), "src", limit=19)
