"""A hostile policy shape cannot run `itbench kyverno apply` for hours (issue 26, gap 1): one
policy gets a time budget per resource (``--budget``); past it its rules on that resource are
``error`` results naming the policy, the rule and the resource, and every other result is kept.

Each policy below ran for minutes to hours on a 6,000-element list before (``foreach`` nested
four deep is 10^15 element evaluations; a JMESPath projection doubled twelve times is 24 million
elements; 5,000 conditions each filtering the list, 30 million steps): now each is an error within
the budget, and the same policy on a one-element list passes."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import yaml

from tests._support.cli import run_cli

KINDS = {"any": [{"resources": {"kinds": ["ConfigMap"]}}]}
NEVER = {"key": "{{ element }}", "operator": "Equals", "value": "never"}
LABELLED = {"message": "needs label", "pattern": {"metadata": {"labels": {"app": "?*"}}}}


def _nested_foreach(levels: int) -> dict:
    block: dict = {"list": "request.object.data.items", "deny": {"conditions": {"any": [NEVER]}}}
    for _ in range(levels - 1):
        block = {"list": "request.object.data.items", "foreach": [block]}
    return {"foreach": [block]}


def _doubling_projection(times: int) -> dict:
    expression = "request.object.data.items" + "[].[@, @][]" * times
    condition = {"key": f"{{{{ length({expression}) }}}}", "operator": "Equals", "value": 0}
    return {"message": "m", "deny": {"conditions": {"any": [condition]}}}


def _many_preconditions(count: int) -> dict:
    condition = {
        "key": "{{ length(request.object.data.items[?@ != `-1`]) }}",
        "operator": "Equals",
        "value": -1,
    }
    return {"message": "m", "deny": {"conditions": {"any": [condition] * count}}}


HOSTILE = {
    "nested-foreach": _nested_foreach(4),
    "jmespath-doubling": _doubling_projection(12),
    "preconditions": _many_preconditions(5_000),
}


def _write(tmp_path: Path, name: str, validate: dict) -> tuple[Path, Path]:
    rules = [
        {"name": "hostile", "match": KINDS, "validate": validate},
        {"name": "plain", "match": KINDS, "validate": LABELLED},
    ]
    policy = {
        "apiVersion": "kyverno.io/v1",
        "kind": "ClusterPolicy",
        "metadata": {"name": name},
        "spec": {"background": True, "rules": rules},
    }
    big = {"items": [str(i) for i in range(6000)]}
    # the small one first: a policy that spent its budget on one resource gets none on the
    # next ones of the same call
    resources = [
        {
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": {"name": "small", "labels": {"app": "x"}},
            "data": {"items": ["1"]},
        },
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "big"}, "data": big},
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "after"}, "data": big},
    ]
    policy_file, resource_file = tmp_path / "policy.yaml", tmp_path / "resources.yaml"
    policy_file.write_text(json.dumps(policy))  # JSON is YAML, with no aliases for shared parts
    resource_file.write_text(yaml.safe_dump_all(resources))
    return policy_file, resource_file


@pytest.mark.parametrize("shape", sorted(HOSTILE))
def test_a_hostile_policy_errors_within_its_budget(tmp_path: Path, shape: str):
    policy, resources = _write(tmp_path, shape, HOSTILE[shape])
    started = time.monotonic()
    proc = run_cli(
        ["kyverno", "apply", str(policy), "--resource", str(resources), "--format", "json",
         "--budget", "2"],
        timeout=120,
    )  # fmt: skip
    seconds = time.monotonic() - started
    assert proc.returncode == 1, proc.stderr  # an error result is a finding (exit 1), not a crash
    assert seconds < 30, seconds
    results = {(r["policy"], r["rule"], r["kind"], r["name"]): r for r in json.loads(proc.stdout)}
    hostile = results[(shape, "hostile", "ConfigMap", "big")]
    assert hostile["status"] == "error", hostile
    message = hostile["message"]
    assert "exceeded its budget of 2 s" in message, message
    assert f"policy {shape}, rule hostile" in message and str(policy) in message, message
    # the small resource is evaluated in full: its results are kept
    assert results[(shape, "hostile", "ConfigMap", "small")]["status"] == "pass"
    assert results[(shape, "plain", "ConfigMap", "small")]["status"] == "pass"
    # spent on "big", the policy errors at once on "after": one budget per call, not per resource
    after = results[(shape, "hostile", "ConfigMap", "after")]
    assert after["status"] == "error" and "exceeded its budget" in after["message"], after
    assert seconds < 2 * 2 + 15, seconds


def test_a_budget_set_for_one_call_is_restored_after_it(tmp_path: Path):
    """`kyverno apply --budget` and the evaluator's scan set the budget for their own call; run
    in a long-lived process (the API server, a test session) they leave it as they found it."""
    from click.testing import CliRunner

    from ciso.engines.kyverno import budget
    from ciso.evaluation.kyverno_engines import SCAN_BUDGET_S, _our_scan
    from itbench.cli.main import cli

    before = budget.SECONDS
    assert before != SCAN_BUDGET_S  # else the check below could not tell
    policy, resources = _write(tmp_path, "plain-only", LABELLED)
    result = CliRunner().invoke(
        cli, ["kyverno", "apply", str(policy), "--resource", str(resources), "--budget", "0.3"]
    )
    assert result.exit_code in (0, 1), result.output
    assert before == budget.SECONDS
    _our_scan([json.loads(policy.read_text())], [])
    assert before == budget.SECONDS
    with budget.limited(0.2):
        assert budget.SECONDS == 0.2
    assert before == budget.SECONDS
