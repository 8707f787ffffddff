"""``kyverno-migrate``: a working policy in one dialect in (a Kyverno ClusterPolicy or
ValidatingPolicy, a Gatekeeper ConstraintTemplate with its constraint, a Rego policy), the same
control in a Kyverno dialect out, scored by the same verdict on every resource of the scenario's
and hidden generated environments, strict pass and lint clean."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from ciso.evaluation.trial import evaluate_trial
from ciso.scenarios.format import load_scenario_dir
from ciso.scenarios.loader import load_benchmark_scenarios
from ciso.scenarios.public import to_benchmark_scenario
from ciso.validation import Level, Step, validate
from itbench.errors import InputError
from itbench.models import AgentStatus
from tests._support.ciso import MIGRATION_CONTROLS, baseline_solves
from tests._support.cli import REPO, run_cli

CONTROLS = MIGRATION_CONTROLS
CEL = REPO / "policies" / "kyverno-cel"
CLASSIC = REPO / "policies" / "kyverno"


def _scenario(control: str):
    (scenario,) = load_benchmark_scenarios(f"{control}.kyverno-migrate")
    return scenario


def _trial(tmp_path: Path, scenario, answer: str | None, name: str = "trial") -> Path:
    """A workspace as the runner leaves it: the source copy, and the agent's answer."""
    trial = tmp_path / name
    trial.mkdir()
    for workspace_name, source in scenario.inputs.items():
        shutil.copyfile(source, trial / workspace_name)
    if answer is not None:
        (trial / "kyverno-policy.yaml").write_text(answer)
    return trial


def _privileged_vp(**changes: str) -> str:
    text = (CEL / "cis-k8s-5.2.2-privileged" / "policy.yaml").read_text()
    for old, new in changes.items():
        assert old in text, old
        text = text.replace(old, new)
    return text


#: The built-in suite rotates the source dialect over the nine controls (one trial each):
#: control -> (source dialect, the workspace file it is given in, the answer's dialect)
ROTATION = {
    "cis-k8s-5.2.2-privileged": ("cluster-policy", "source-policy.yaml", "validating-policy"),
    "cis-k8s-5.2.3-host-pid": ("gatekeeper", "source-policy.yaml", "cluster-policy"),
    "cis-k8s-5.2.4-host-ipc": ("rego", "source-policy.rego", "cluster-policy"),
    "cis-k8s-5.2.5-host-network": ("cluster-policy", "source-policy.yaml", "validating-policy"),
    "cis-k8s-5.2.6-allow-privilege-escalation": (
        "gatekeeper",
        "source-policy.yaml",
        "validating-policy",
    ),
    "cis-k8s-5.2.8-net-raw": ("rego", "source-policy.rego", "cluster-policy"),
    "cis-k8s-5.2.9-added-capabilities": (
        "cluster-policy",
        "source-policy.yaml",
        "validating-policy",
    ),
    "cis-k8s-5.2.12-host-path": ("gatekeeper", "source-policy.yaml", "cluster-policy"),
    "cis-k8s-5.2.13-host-ports": ("rego", "source-policy.rego", "cluster-policy"),
}
SOURCE_FOLDER = {
    "cluster-policy": ("kyverno", "policy.yaml"),
    "gatekeeper": ("gatekeeper", "policy.yaml"),
    "rego": ("rego", "policy.rego"),
}


@pytest.mark.parametrize("control", CONTROLS)
def test_the_suite_rotates_the_source_dialect(control: str) -> None:
    scenario = _scenario(control)
    dialect, name, target = ROTATION[control]
    folder, file = SOURCE_FOLDER[dialect]
    assert dict(scenario.inputs) == {name: REPO / "policies" / folder / control / file}
    answer = (CEL if target == "validating-policy" else CLASSIC) / control / "policy.yaml"
    assert dict(scenario.reference) == {"kyverno-policy.yaml": answer}
    assert scenario.metadata["migrate_to"] == target
    # the task names the source file, its engine and the dialect asked for
    assert f"`{name}` is in the current working directory" in scenario.description
    engine = {"cluster-policy": "Kyverno", "gatekeeper": "OPA Gatekeeper", "rego": "OPA Rego"}
    assert f"migrate a working {engine[dialect]} policy" in scenario.description
    kinds = "ValidatingPolicy or" if target == "validating-policy" else "ClusterPolicy or"
    assert f"Write the same control as a {kinds}" in scenario.description


@pytest.mark.parametrize("control", CONTROLS)
def test_reference_migration_passes_strict(control: str, tmp_path: Path) -> None:
    scenario = _scenario(control)
    answer = scenario.reference["kyverno-policy.yaml"].read_text()
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
    scenario = _scenario("cis-k8s-5.2.5-host-network")
    answer = (CEL / "cis-k8s-5.2.5-host-network" / "policy.yaml").read_text()
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
    result = baseline_solves(scenario, trial)
    assert result.status is AgentStatus.OK, result.reason
    assert yaml.safe_load((trial / "kyverno-policy.yaml").read_text())["kind"] == "ValidatingPolicy"
    assert evaluate_trial(scenario, trial).scores["strict_pass"] == 1


# the suite's other source dialects: the baseline translates them too
# (tests/ciso/test_ciso_baseline_migrate_rego.py covers it in depth)
@pytest.mark.parametrize("control", ["cis-k8s-5.2.3-host-pid", "cis-k8s-5.2.4-host-ipc"])
def test_baseline_translates_gatekeeper_and_rego_sources(control: str, tmp_path: Path) -> None:
    scenario = _scenario(control)
    trial = _trial(tmp_path, scenario, None)
    result = baseline_solves(scenario, trial)
    assert result.status is AgentStatus.OK, result.reason
    assert yaml.safe_load((trial / "kyverno-policy.yaml").read_text())["kind"] == "ClusterPolicy"
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
        assert entry["scores"].get("strict_pass") == 1, (entry, proc.stderr[-3000:])
        assert entry["scores"]["verdict_agreement"] == 1.0
    # the agent was given the source policy (a Rego one for 5.2.4), never the answer
    workspace = out / "cis-k8s-5.2.4-host-ipc.kyverno-migrate" / "1"
    rego = REPO / "policies" / "rego" / "cis-k8s-5.2.4-host-ipc" / "policy.rego"
    assert (workspace / "source-policy.rego").read_text() == rego.read_text()
    assert not (workspace / "source-policy.yaml").exists()
    workspace = out / "cis-k8s-5.2.9-added-capabilities.kyverno-migrate" / "1"
    classic = CLASSIC / "cis-k8s-5.2.9-added-capabilities" / "policy.yaml"
    assert (workspace / "source-policy.yaml").read_text() == classic.read_text()


@pytest.mark.parametrize(("cis_id", "kind"), [("5.1.1", "binding"), ("5.7.4", "placement")])
def test_binding_and_placement_controls_get_generated_environments(cis_id: str, kind: str) -> None:
    """Each kind of control builds its hidden instances with its own builder (as `itbench ciso
    generate` does); a binding or placement control handed to the pod builder failed."""
    from ciso.evaluation.kyverno_migrate import generated_environments

    envs = dict(generated_environments(cis_id, f"test/{kind}", count=1))
    assert sorted(envs) == ["generated-1 compliant", "generated-1 violating"], kind
    assert envs["generated-1 violating"] and envs["generated-1 compliant"], kind
    assert all(isinstance(o, dict) and o.get("kind") for o in envs["generated-1 violating"])


def _edited(path: Path, old: str, new: str) -> str:
    text = path.read_text()
    assert old in text, (path, old)
    return text.replace(old, new)


SYSTEM = "namespaces: [kube-system, kube-public, kube-node-lease]"


@pytest.mark.parametrize(
    ("control", "answer", "caught_by"),
    [
        # Gatekeeper -> ClusterPolicy: autogen turned off leaves the controllers the
        # constraint's kinds review
        (
            "cis-k8s-5.2.3-host-pid",
            lambda: _edited(
                CLASSIC / "cis-k8s-5.2.3-host-pid" / "policy.yaml",
                "  annotations:\n",
                "  annotations:\n    pod-policies.kyverno.io/autogen-controllers: none\n",
            ),
            "fails under the source, passes under the answer",
        ),
        # Gatekeeper -> ValidatingPolicy: the lib's init and ephemeral containers forgotten
        (
            "cis-k8s-5.2.6-allow-privilege-escalation",
            lambda: _edited(
                CEL / "cis-k8s-5.2.6-allow-privilege-escalation" / "policy.yaml",
                "(object.spec.containers + object.spec.?initContainers.orValue([]) + "
                "object.spec.?ephemeralContainers.orValue([]))",
                "object.spec.containers",
            ),
            "fails under the source, passes under the answer",
        ),
        # Rego -> ClusterPolicy: the Rego's system-namespace exemption dropped
        (
            "cis-k8s-5.2.4-host-ipc",
            lambda: _edited(
                CLASSIC / "cis-k8s-5.2.4-host-ipc" / "policy.yaml", SYSTEM, "namespaces: [x]"
            ),
            "passes under the source, fails under the answer",
        ),
        # Rego -> ClusterPolicy: capability names compared as written, not upper-cased
        (
            "cis-k8s-5.2.8-net-raw",
            lambda: _edited(
                CLASSIC / "cis-k8s-5.2.8-net-raw" / "policy.yaml",
                "to_upper(@) == 'NET_RAW' || to_upper(@) == 'ALL'",
                "@ == 'NET_RAW' || @ == 'ALL'",
            ),
            "passes under the source, fails under the answer",
        ),
    ],
    ids=["gatekeeper-autogen", "gatekeeper-vp-containers", "rego-exemption", "rego-case"],
)
def test_naive_migrations_of_gatekeeper_and_rego_sources_fail_strict(
    control: str, answer, caught_by: str, tmp_path: Path
) -> None:
    scenario = _scenario(control)
    result = evaluate_trial(scenario, _trial(tmp_path, scenario, answer()))
    assert result.scores["strict_pass"] == 0, control
    assert result.scores["verdict_agreement"] < 1.0
    lines = result.details["environments"]["equivalence"]["first_disagreements"]
    assert lines and any(caught_by in line for line in lines), lines
    assert result.details["environments"]["agent"]["source"] == ROTATION[control][0]


def test_a_rego_source_answered_in_the_wrong_dialect_scores_nothing(tmp_path: Path) -> None:
    """5.2.4 asks for a ClusterPolicy: its ValidatingPolicy twin is ignored with a note."""
    scenario = _scenario("cis-k8s-5.2.4-host-ipc")
    answer = (CEL / "cis-k8s-5.2.4-host-ipc" / "policy.yaml").read_text()
    result = evaluate_trial(scenario, _trial(tmp_path, scenario, answer))
    assert result.scores["itbench_pass"] == 0
    assert "besides source-policy.rego" in result.details["failure"]["reason"]
    assert any("ValidatingPolicy ignored" in n for n in result.details["notes"])


def _user_dir(tmp_path: Path, meta_changes: dict, files: dict[str, str]) -> Path:
    directory = tmp_path / "user"
    shutil.copytree(REPO / "ciso" / "suite" / "kubernetes" / "cis-k8s-5.2.4-host-ipc", directory)
    meta = yaml.safe_load((directory / "scenario.yaml").read_text())
    meta.pop("migrate_from", None)
    meta.update({"id": "my-host-ipc", "classes": ["kyverno-migrate"], **meta_changes})
    (directory / "scenario.yaml").write_text(yaml.safe_dump(meta))
    for name, text in files.items():
        (directory / name).write_text(text)
    return directory


REGO_4 = (REPO / "policies" / "rego" / "cis-k8s-5.2.4-host-ipc" / "policy.rego").read_text()


def test_a_rego_source_of_a_user_scenario_to_a_validating_policy(tmp_path: Path) -> None:
    directory = _user_dir(
        tmp_path, {"migrate_to": "validating-policy"}, {"source-policy.rego": REGO_4}
    )
    (scenario,) = [to_benchmark_scenario(s) for s in load_scenario_dir(directory)]
    assert dict(scenario.inputs) == {"source-policy.rego": directory / "source-policy.rego"}
    assert "OPA Rego" in scenario.description
    answer = (CEL / "cis-k8s-5.2.4-host-ipc" / "policy.yaml").read_text()
    result = evaluate_trial(scenario, _trial(tmp_path, scenario, answer))
    assert result.scores["strict_pass"] == 1, result.details.get("failure")
    agent = result.details["environments"]["agent"]
    assert (agent["source"], agent["target"]) == ("rego", "validating-policy")


@pytest.mark.parametrize(
    ("meta", "files", "message"),
    [
        (
            {},
            {"source-policy.rego": REGO_4.replace("package check", "package hostipc")},
            "source-policy.rego: package hostipc: the verdict is read at data.check.result",
        ),
        (
            {},
            {"source-policy.rego": "# nothing\n"},
            "source-policy.rego: no package line",
        ),
        (
            {},
            {
                "source-policy.rego": REGO_4,
                "source-policy.yaml": (
                    CLASSIC / "cis-k8s-5.2.4-host-ipc" / "policy.yaml"
                ).read_text(),
            },
            "both source-policy.yaml and source-policy.rego: a migration starts from one policy",
        ),
        (
            {"migrate_to": "cluster-policy"},
            {
                "source-policy.yaml": (
                    CLASSIC / "cis-k8s-5.2.4-host-ipc" / "policy.yaml"
                ).read_text()
            },
            "migrate_to: a cluster-policy source migrates to validating-policy, not 'cluster-policy'",
        ),
        (
            {"migrate_to": "gatekeeper"},
            {"source-policy.rego": REGO_4},
            "migrate_to: a rego source migrates to cluster-policy or validating-policy, not 'gatekeeper'",
        ),
        (
            {"migrate_from": "gatekeeper"},
            {"source-policy.rego": REGO_4},
            "migrate_from: 'gatekeeper', but source-policy.rego is a rego",
        ),
        ({"migrate_from": "cue"}, {}, "migrate_from: 'cue' is not one of cluster-policy"),
        # a user id has no built-in policy of that dialect
        ({"migrate_from": "rego"}, {}, "(no built-in rego source for my-host-ipc)"),
    ],
)
def test_bad_rego_and_dialect_choices_name_the_file_and_field(
    meta: dict, files: dict[str, str], message: str, tmp_path: Path
) -> None:
    directory = _user_dir(tmp_path, meta, files)
    with pytest.raises(InputError) as caught:
        load_scenario_dir(directory)
    assert message in str(caught.value)
    assert str(directory) in str(caught.value)


def test_a_rego_source_that_does_not_compile_is_named_when_evaluating(tmp_path: Path) -> None:
    broken = REGO_4.replace("result := false if {", "result := false if {{", 1)
    directory = _user_dir(tmp_path, {}, {"source-policy.rego": broken})
    (scenario,) = [to_benchmark_scenario(s) for s in load_scenario_dir(directory)]
    answer = (CLASSIC / "cis-k8s-5.2.4-host-ipc" / "policy.yaml").read_text()
    with pytest.raises(InputError) as caught:
        evaluate_trial(scenario, _trial(tmp_path, scenario, answer))
    assert "source-policy.rego" in str(caught.value)


def test_reflection_reads_a_rego_source_and_the_target_asked_for(tmp_path: Path) -> None:
    scenario = _scenario("cis-k8s-5.2.8-net-raw")
    trial = _trial(tmp_path, scenario, None)
    (problem,) = [d for d in validate(scenario.public_view(), trial) if d.is_problem]
    assert "no ClusterPolicy or Policy" in problem.message, problem
    assert "besides source-policy.rego" in problem.message
    naive = _edited(
        CLASSIC / "cis-k8s-5.2.8-net-raw" / "policy.yaml",
        "to_upper(@) == 'NET_RAW' || to_upper(@) == 'ALL'",
        "@ == 'NET_RAW' || @ == 'ALL'",
    )
    (trial / "kyverno-policy.yaml").write_text(naive)
    found = validate(scenario.public_view(), trial)
    errors = [d for d in found if d.step is Step.DRY_RUN and d.level is Level.ERROR]
    assert errors and all("under the source" in d.message for d in errors), found
    (trial / "kyverno-policy.yaml").write_text(
        (CLASSIC / "cis-k8s-5.2.8-net-raw" / "policy.yaml").read_text()
    )
    clean = validate(scenario.public_view(), trial)
    assert not [d for d in clean if d.is_problem], clean
    assert any("same verdict as source-policy.rego" in d.message for d in clean)


def test_generated_instances_draw_the_source_dialect_and_score_like_the_suite(
    tmp_path: Path,
) -> None:
    """`itbench ciso generate` gives each migration instance a source of a dialect drawn per
    instance (ClusterPolicy, Gatekeeper or Rego) and the answer of the dialect it asks for; the
    reference passes strictly, an answer without the system-namespace exemption does not."""
    from ciso.generator import generate

    controls = ",".join(c.split("-")[2] for c in CONTROLS)
    by_dialect: dict[str, list[Path]] = {}
    for seed in (1, 2, 3):
        for generated in generate(seed, tmp_path / f"seed-{seed}", [controls]):
            (migration,) = [
                s
                for s in load_scenario_dir(generated.directory)
                if s.scenario_class.value == "kyverno-migrate"
            ]
            source = migration.migration_source
            dialect = "rego" if source.suffix == ".rego" else source.read_text()
            if dialect != "rego":
                dialect = "gatekeeper" if "ConstraintTemplate" in dialect else "cluster-policy"
            by_dialect.setdefault(dialect, []).append(generated.directory)
            target = yaml.safe_load((generated.directory / "scenario.yaml").read_text())
            answer = generated.directory / "solution" / "kyverno-migrate" / "kyverno-policy.yaml"
            kind = {
                "cluster-policy": "kind: ClusterPolicy",
                "validating-policy": "kind: ValidatingPolicy",
            }
            assert kind[target["migrate_to"]] in answer.read_text(), generated.directory
    assert sorted(by_dialect) == ["cluster-policy", "gatekeeper", "rego"], by_dialect
    for dialect, directories in sorted(by_dialect.items()):
        directory = directories[0]
        (scenario,) = [
            to_benchmark_scenario(s)
            for s in load_scenario_dir(directory)
            if s.scenario_class.value == "kyverno-migrate"
        ]
        reference = scenario.reference["kyverno-policy.yaml"].read_text()
        naive = reference.replace("[kube-system, kube-public, kube-node-lease]", "[x]").replace(
            "''kube-system'', ''kube-public'', ''kube-node-lease''", "''x''"
        )
        assert naive != reference
        for label, answer, strict in (("reference", reference, 1), ("naive", naive, 0)):
            trial = _trial(tmp_path, scenario, answer, f"{dialect}-{label}")
            result = evaluate_trial(scenario, trial)
            assert result.scores["strict_pass"] == strict, (dialect, label, directory)
            assert result.details["environments"]["agent"]["source"] == dialect


_FORKED = """
import os, sys
from pathlib import Path
import yaml
from ciso.evaluation import gatekeeper, rego_source
from ciso.evaluation.kyverno_migrate import generated_environments

objects = generated_environments("5.2.4", "fork-test", 1)[0][1]
rego = Path(sys.argv[1]).read_text()
gk_path = Path(sys.argv[2])
templates = gatekeeper.parse(gk_path, list(yaml.safe_load_all(gk_path.read_text())))

def verdicts():
    return rego_source.violations(rego, objects), gatekeeper.violations(templates, objects)

first = verdicts()
pid = os.fork()  # as the runner forks a trial worker after evaluating in its own process
if pid == 0:
    os._exit(0 if verdicts() == first and all(first) else 1)
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status))
"""


def test_sources_evaluated_before_a_fork_do_not_hang_the_forked_process() -> None:
    """Rego and Gatekeeper sources run on the Rego worker pool, not in the caller: an embedded
    Go engine loaded into a process that then forks (the runner forking trial workers, tests
    running the CLI in-process) hung the child."""
    import os
    import signal
    import subprocess
    import sys

    rego = REPO / "policies" / "rego" / "cis-k8s-5.2.4-host-ipc" / "policy.rego"
    gk = REPO / "policies" / "gatekeeper" / "cis-k8s-5.2.4-host-ipc" / "policy.yaml"
    # its own process group: a hung forked child is killed with it, not left behind
    proc = subprocess.Popen(
        [sys.executable, "-c", _FORKED, str(rego), str(gk)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
        start_new_session=True,
    )
    try:
        _, stderr = proc.communicate(timeout=180)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail("the forked process hung evaluating the sources")
    assert proc.returncode == 0, stderr[-2000:]
