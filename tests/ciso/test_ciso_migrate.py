"""``kyverno-migrate``: a working policy in one Kyverno dialect in, the same control in the other
out, scored by the same verdict on every resource of the scenario's and hidden generated
environments, strict pass and lint clean."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from ciso.agents.baseline.agent import BaselineAgent
from ciso.evaluation.trial import evaluate_trial
from ciso.scenarios.format import load_scenario_dir
from ciso.scenarios.loader import load_benchmark_scenarios
from ciso.scenarios.public import to_benchmark_scenario
from ciso.validation import Level, Step, validate
from itbench.errors import InputError
from itbench.models import AgentStatus
from itbench.plugins.spec import Task
from itbench.transcript import Transcript
from tests._support.ciso import MIGRATION_CONTROLS
from tests._support.cli import REPO, run_cli

CONTROLS = MIGRATION_CONTROLS
CEL = REPO / "policies" / "kyverno-cel"
CLASSIC = REPO / "policies" / "kyverno"


def _scenario(control: str):
    (scenario,) = load_benchmark_scenarios(f"{control}.kyverno-migrate")
    return scenario


def _trial(tmp_path: Path, scenario, answer: str | None) -> Path:
    """A workspace as the runner leaves it: the source copy, and the agent's answer."""
    trial = tmp_path / "trial"
    trial.mkdir()
    shutil.copyfile(scenario.inputs["source-policy.yaml"], trial / "source-policy.yaml")
    if answer is not None:
        (trial / "kyverno-policy.yaml").write_text(answer)
    return trial


def _privileged_vp(**changes: str) -> str:
    text = (CEL / "cis-k8s-5.2.2-privileged" / "policy.yaml").read_text()
    for old, new in changes.items():
        assert old in text, old
        text = text.replace(old, new)
    return text


@pytest.mark.parametrize("control", CONTROLS)
def test_reference_migration_passes_strict(control: str, tmp_path: Path) -> None:
    scenario = _scenario(control)
    answer = (CEL / control / "policy.yaml").read_text()
    result = evaluate_trial(scenario, _trial(tmp_path, scenario, answer))
    assert result.scores == {
        "itbench_pass": 1,
        "strict_pass": 1,
        "verdict_agreement": 1.0,
        "lint_errors": 0,
    }, result.details.get("failure")
    equivalence = result.details["environments"]["equivalence"]
    # the scenario's two environments and four generated ones, none of them seen by the agent
    assert equivalence["environments"] == 6 and equivalence["disagreements"] == 0
    assert equivalence["resources"] > 30


def test_the_source_handed_back_is_no_answer(tmp_path: Path) -> None:
    scenario = _scenario("cis-k8s-5.2.2-privileged")
    trial = _trial(tmp_path, scenario, None)
    result = evaluate_trial(scenario, trial)
    assert result.scores["strict_pass"] == 0 and result.scores["itbench_pass"] == 0
    assert "besides source-policy.yaml" in result.details["failure"]["reason"]
    # the same ClusterPolicy saved under the answer's name is the wrong dialect
    shutil.copyfile(trial / "source-policy.yaml", trial / "kyverno-policy.yaml")
    result = evaluate_trial(scenario, trial)
    assert result.scores["itbench_pass"] == 0
    assert any("ClusterPolicy ignored" in n for n in result.details["notes"])


def test_a_migration_that_forgets_init_and_ephemeral_containers_disagrees(tmp_path) -> None:
    scenario = _scenario("cis-k8s-5.2.2-privileged")
    narrow = _privileged_vp(
        **{
            "(object.spec.containers + object.spec.?initContainers.orValue([]) + object.spec.?ephemeralContainers.orValue([]))": "object.spec.containers"
        }
    )
    result = evaluate_trial(scenario, _trial(tmp_path, scenario, narrow))
    assert result.scores["itbench_pass"] == 1  # it still catches the plain cases
    assert result.scores["strict_pass"] == 0
    assert 0.8 < result.scores["verdict_agreement"] < 1.0
    lines = result.details["environments"]["equivalence"]["first_disagreements"]
    assert all("fails under the source, passes under the answer" in line for line in lines)
    # hidden generated environments catch what the scenario's own do not show
    assert any(line.startswith("generated-") for line in lines), lines


def test_an_exclusion_lost_to_autogen_is_a_disagreement(tmp_path: Path) -> None:
    """``object.metadata.?namespace`` is rewritten to the pod template's (which has none) in the
    controllers' variants: the system namespaces' controllers are no longer exempt."""
    scenario = _scenario("cis-k8s-5.2.2-privileged")
    # (inside a single-quoted YAML string, where '' is one quote)
    trap = _privileged_vp(**{"request.namespace in": "object.metadata.?namespace.orValue('''') in"})
    result = evaluate_trial(scenario, _trial(tmp_path, scenario, trap))
    assert result.scores["strict_pass"] == 0
    lines = result.details["environments"]["equivalence"]["first_disagreements"]
    assert any("/kube-system/" in line and "passes under the source" in line for line in lines)


def test_lint_errors_fail_strict(tmp_path: Path) -> None:
    scenario = _scenario("cis-k8s-5.2.3-host-pid")
    answer = (CEL / "cis-k8s-5.2.3-host-pid" / "policy.yaml").read_text()
    # a second validation that does not parse as CEL
    broken = answer.replace(
        "  validations:\n",
        "  validations:\n  - expression: object.spec.?hostPID.orValue(false) ==\n"
        "    message: cut short\n",
    )
    result = evaluate_trial(scenario, _trial(tmp_path, scenario, broken))
    assert result.scores["lint_errors"] >= 1
    assert result.scores["strict_pass"] == 0
    errors = " ".join(result.details["environments"]["lint"]["errors"])
    assert "kyverno-policy.yaml" in errors and "KYV0" in errors, errors


def test_the_reverse_direction_from_a_user_scenario(tmp_path: Path) -> None:
    """A user scenario may start from a ValidatingPolicy: the answer is then a ClusterPolicy."""
    directory = tmp_path / "reverse"
    shutil.copytree(
        REPO / "ciso" / "suite" / "kubernetes" / "cis-k8s-5.2.5-host-network", directory
    )
    meta = yaml.safe_load((directory / "scenario.yaml").read_text())
    meta["id"] = "my-host-network"
    meta["classes"] = ["kyverno-migrate"]
    (directory / "scenario.yaml").write_text(yaml.safe_dump(meta))
    shutil.copyfile(
        CEL / "cis-k8s-5.2.5-host-network" / "policy.yaml", directory / "source-policy.yaml"
    )
    (scenario,) = [to_benchmark_scenario(s) for s in load_scenario_dir(directory)]
    assert "ClusterPolicy or Policy (`kyverno.io/v1`)" in scenario.description
    answer = (CLASSIC / "cis-k8s-5.2.5-host-network" / "policy.yaml").read_text()
    result = evaluate_trial(scenario, _trial(tmp_path, scenario, answer))
    assert result.scores["strict_pass"] == 1, result.details.get("failure")
    assert result.details["environments"]["agent"]["target"] == "cluster-policy"


@pytest.mark.parametrize(
    ("source", "message"),
    [
        (None, "classes: 'kyverno-migrate' needs the policy to migrate in source-policy.yaml"),
        (
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n",
            "document 1 (Deployment/web): not a policy of a dialect kyverno-migrate converts",
        ),
        (
            (CLASSIC / "cis-k8s-5.2.5-host-network" / "policy.yaml").read_text()
            + "---\n"
            + (CEL / "cis-k8s-5.2.5-host-network" / "policy.yaml").read_text(),
            "policies of several dialects (cluster-policy, validating-policy); a migration starts from one",
        ),
    ],
)
def test_bad_migration_sources_name_the_file(source, message, tmp_path: Path) -> None:
    directory = tmp_path / "user"
    shutil.copytree(
        REPO / "ciso" / "suite" / "kubernetes" / "cis-k8s-5.2.5-host-network", directory
    )
    meta = yaml.safe_load((directory / "scenario.yaml").read_text())
    meta["id"], meta["classes"] = "not-built-in", ["kyverno-migrate"]
    (directory / "scenario.yaml").write_text(yaml.safe_dump(meta))
    if source is not None:
        (directory / "source-policy.yaml").write_text(source)
    with pytest.raises(InputError) as caught:
        load_scenario_dir(directory)
    assert message in str(caught.value)
    assert str(directory) in str(caught.value)


def test_reflection_finds_the_answer_and_dry_runs_it(tmp_path: Path) -> None:
    scenario = _scenario("cis-k8s-5.2.2-privileged")
    trial = _trial(tmp_path, scenario, None)
    (problem,) = [d for d in validate(scenario.public_view(), trial) if d.is_problem]
    assert problem.step is Step.FILES and "no ValidatingPolicy" in problem.message
    narrow = _privileged_vp(
        **{
            "(object.spec.containers + object.spec.?initContainers.orValue([]) + object.spec.?ephemeralContainers.orValue([]))": "object.spec.containers"
        }
    )
    (trial / "kyverno-policy.yaml").write_text(narrow)
    found = validate(scenario.public_view(), trial)
    errors = [d for d in found if d.step is Step.DRY_RUN and d.level is Level.ERROR]
    assert errors and all("under the source" in d.message for d in errors), found
    (trial / "kyverno-policy.yaml").write_text(
        (CEL / "cis-k8s-5.2.2-privileged" / "policy.yaml").read_text()
    )
    clean = validate(scenario.public_view(), trial)
    assert not [d for d in clean if d.is_problem], clean
    assert any(d.step is Step.DRY_RUN and "same verdict" in d.message for d in clean)


def test_baseline_migrates_by_translating_the_source(tmp_path: Path) -> None:
    """The baseline translates source-policy.yaml (tests/ciso/test_ciso_baseline_migrate.py
    covers it in depth); here: its answer is the other dialect and scores strict."""
    scenario = _scenario("cis-k8s-5.2.2-privileged")
    trial = _trial(tmp_path, scenario, None)
    task = Task(
        scenario=scenario.public_view(),
        prompt=scenario.description,
        workspace=trial,
        time_limit_s=60,
        transcript=Transcript(tmp_path / "transcript.jsonl"),
    )
    result = BaselineAgent().solve(task)
    assert result.status is AgentStatus.OK, result.reason
    assert yaml.safe_load((trial / "kyverno-policy.yaml").read_text())["kind"] == "ValidatingPolicy"
    assert evaluate_trial(scenario, trial).scores["strict_pass"] == 1


def test_oracle_migrates_through_the_cli(tmp_path: Path) -> None:
    out = tmp_path / "run"
    proc = run_cli(
        ["ciso", "run", "--agent", "oracle", "--select", "*5.2.4*.kyverno-migrate",
         "--select", "*5.2.9*.kyverno-migrate", "--output", str(out), "--format", "json",
         "--no-progress"],
        timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    document = json.loads(proc.stdout)
    assert sorted(e["incident_id"] for e in document["raw_results"]) == [
        "cis-k8s-5.2.4-host-ipc.kyverno-migrate",
        "cis-k8s-5.2.9-added-capabilities.kyverno-migrate",
    ]
    for entry in document["raw_results"]:
        assert entry["scores"]["strict_pass"] == 1, entry
        assert entry["scores"]["verdict_agreement"] == 1.0
    # the agent was given the source policy, never the answer
    workspace = out / "cis-k8s-5.2.4-host-ipc.kyverno-migrate" / "1"
    assert (
        (workspace / "source-policy.yaml")
        .read_text()
        .startswith((CLASSIC / "cis-k8s-5.2.4-host-ipc" / "policy.yaml").read_text()[:40])
    )


@pytest.mark.parametrize(("cis_id", "kind"), [("5.1.1", "binding"), ("5.7.4", "placement")])
def test_binding_and_placement_controls_get_generated_environments(cis_id: str, kind: str) -> None:
    """Each kind of control builds its hidden instances with its own builder (as `itbench ciso
    generate` does); a binding or placement control handed to the pod builder failed."""
    from ciso.evaluation.kyverno_migrate import generated_environments

    envs = dict(generated_environments(cis_id, f"test/{kind}", count=1))
    assert sorted(envs) == ["generated-1 compliant", "generated-1 violating"], kind
    assert envs["generated-1 violating"] and envs["generated-1 compliant"], kind
    assert all(isinstance(o, dict) and o.get("kind") for o in envs["generated-1 violating"])
