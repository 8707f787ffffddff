"""kubectl-opa and opa-static: hand-written agent outputs run for real (bubblewrap sandbox, the
offline cluster inside it, kubectl, the Rego engine) and score exactly what they should."""

from __future__ import annotations

from pathlib import Path

import pytest

from ciso.evaluation import kubectl_opa, opa_static
from ciso.evaluation.trial import evaluate_trial
from ciso.scenarios.model import ScenarioClass
from tests._support.ciso import (
    K8S,
    benchmark_scenario,
    ciso_scenario,
    kubectl_missing,
    needs_sandbox,
    trial_dir,
)

pytestmark = [
    needs_sandbox,
    pytest.mark.skipif(kubectl_missing() is not None, reason=str(kubectl_missing())),
]

KUBECTL = benchmark_scenario(ciso_scenario(K8S, ScenarioClass.KUBECTL_OPA))
STATIC = benchmark_scenario(ciso_scenario(K8S, ScenarioClass.OPA_STATIC))
ALL_DETECTED = {
    "violating": "false",
    "compliant": "true",
    "leave-one-in Deployment/paa/web-hostnet": "false",
    "leave-one-in CronJob/paa/backup-hostnet": "false",
}


def results(details: dict) -> dict[str, str]:
    return {k: v.get("result", v.get("problem")) for k, v in details["environments"].items()}


# -- kubectl-opa ---------------------------------------------------------------------------------
@pytest.mark.parametrize("case", ["correct", "script-sh"])
def test_kubectl_opa_correct_answer(tmp_path: Path, case: str) -> None:
    result = evaluate_trial(KUBECTL, trial_dir(tmp_path, "kubectl-opa", case))
    assert result.scores == {"itbench_pass": 1, "strict_pass": 1, "resource_recall": 1.0}
    assert results(result.details) == ALL_DETECTED
    assert "failure" not in result.details
    assert result.details["engines"]["rego"]


def test_kubectl_opa_too_broad_fails_on_the_compliant_cluster(tmp_path: Path) -> None:
    result = evaluate_trial(KUBECTL, trial_dir(tmp_path, "kubectl-opa", "too-broad"))
    assert result.scores == {"itbench_pass": 1, "strict_pass": 0, "resource_recall": 1.0}
    assert results(result.details)["compliant"] == "false"
    assert result.details["failure"]["step"] == "rego (compliant)"
    assert "expected true" in result.details["failure"]["reason"]


def test_kubectl_opa_pods_only_misses_the_cronjob(tmp_path: Path) -> None:
    result = evaluate_trial(KUBECTL, trial_dir(tmp_path, "kubectl-opa", "misses-tricky"))
    assert result.scores == {"itbench_pass": 1, "strict_pass": 0, "resource_recall": 0.5}
    assert results(result.details) == {
        **ALL_DETECTED,
        "leave-one-in CronJob/paa/backup-hostnet": "true",
    }
    assert result.details["failure"]["step"] == "rego (leave-one-in CronJob/paa/backup-hostnet)"


def test_kubectl_opa_syntax_error_is_the_reason(tmp_path: Path) -> None:
    result = evaluate_trial(KUBECTL, trial_dir(tmp_path, "kubectl-opa", "syntax-error"))
    assert result.scores == {"itbench_pass": 0, "strict_pass": 0, "resource_recall": 0.0}
    failure = result.details["failure"]
    assert failure["step"] == "rego (violating)"
    assert failure["reason"] == "policy.rego does not evaluate"
    assert "rego_parse_error" in failure["output"]


@pytest.mark.parametrize(
    ("case", "missing"),
    [
        ("empty", "missing fetcher.sh (or script.sh) and policy.rego; the agent left: nothing"),
        (
            "wrong-file-name",
            "missing fetcher.sh (or script.sh); the agent left: collect.sh, policy.rego",
        ),
    ],
)
def test_kubectl_opa_missing_files(tmp_path: Path, case: str, missing: str) -> None:
    result = evaluate_trial(KUBECTL, trial_dir(tmp_path, "kubectl-opa", case))
    assert result.scores == {"itbench_pass": 0, "strict_pass": 0, "resource_recall": 0.0}
    assert result.details["failure"] == {"step": "files", "reason": missing}


def test_kubectl_opa_hanging_fetcher_is_cut_off(tmp_path: Path) -> None:
    import time

    started = time.monotonic()
    result = kubectl_opa.evaluate(
        KUBECTL.ground_truth, trial_dir(tmp_path, "kubectl-opa", "hanging-fetcher"), timeout_s=2
    )
    # one limit, not one per environment: later environments are not run after a hang
    assert time.monotonic() - started < 15
    assert result.scores == {"itbench_pass": 0, "strict_pass": 0, "resource_recall": 0.0}
    assert result.details["failure"]["step"] == "fetcher (violating)"
    assert result.details["failure"]["reason"] == "did not finish within 2 s"


def test_kubectl_opa_fetcher_writing_outside_its_directory_fails(tmp_path: Path) -> None:
    trial = trial_dir(tmp_path, "kubectl-opa", "writes-outside")
    result = evaluate_trial(KUBECTL, trial)
    assert result.scores["itbench_pass"] == 0
    failure = result.details["failure"]
    assert failure["step"] == "fetcher (violating)"
    # the parent it wrote to is scratch space of the evaluation, never the agent's workspace
    assert failure["reason"] == "no collected_data.json was written in the working directory"
    assert not (tmp_path / "collected_data.json").exists()
    assert not (trial / "collected_data.json").exists()


def test_kubectl_opa_outputs_subfolder_is_read(tmp_path: Path) -> None:
    """ITBench-Lite's layout: <trial>/outputs/<files>."""
    trial = tmp_path / "t"
    (trial / "outputs").mkdir(parents=True)
    for f in (K8S / "solution").glob("fetcher.sh"):
        (trial / "outputs" / f.name).write_bytes(f.read_bytes())
    (trial / "outputs" / "policy.rego").write_bytes((K8S / "solution" / "policy.rego").read_bytes())
    result = evaluate_trial(KUBECTL, trial)
    assert result.scores["strict_pass"] == 1


# -- opa-static ----------------------------------------------------------------------------------
CRITERIA = (
    "required_files_exist",
    "fetch_generates_data",
    "violation_detection",
    "compliance_validation",
)


def static_scores(criteria: tuple[int, int, int, int], itbench: int, strict: int, recall: float):
    return {
        **dict(zip(CRITERIA, criteria, strict=True)),
        "itbench_pass": itbench,
        "strict_pass": strict,
        "resource_recall": recall,
    }


def test_opa_static_correct_answer(tmp_path: Path) -> None:
    result = evaluate_trial(STATIC, trial_dir(tmp_path, "opa-static", "correct"))
    assert result.scores == static_scores((1, 1, 1, 1), 1, 1, 1.0)
    assert results(result.details) == ALL_DETECTED


def test_opa_static_absolute_workspace_paths_are_rewritten(tmp_path: Path) -> None:
    trial = trial_dir(tmp_path, "opa-static", "absolute-paths")
    fetch = trial / "fetch.sh"
    fetch.write_text(fetch.read_text().replace("@WORKSPACE@", str(trial)))
    result = evaluate_trial(STATIC, trial)
    assert result.scores == static_scores((1, 1, 1, 1), 1, 1, 1.0)


def test_opa_static_without_shebang_cannot_run(tmp_path: Path) -> None:
    result = evaluate_trial(STATIC, trial_dir(tmp_path, "opa-static", "no-shebang"))
    assert result.scores == static_scores((1, 0, 0, 0), 0, 0, 0.0)
    assert "shebang" in result.details["failure"]["reason"]


def test_opa_static_too_broad_fails_compliance_validation(tmp_path: Path) -> None:
    result = evaluate_trial(STATIC, trial_dir(tmp_path, "opa-static", "too-broad"))
    assert result.scores == static_scores((1, 1, 1, 0), 0, 0, 1.0)
    assert result.details["failure"]["step"] == "rego (compliant)"


def test_opa_static_missing_the_cronjob_fails_strict_only(tmp_path: Path) -> None:
    result = evaluate_trial(STATIC, trial_dir(tmp_path, "opa-static", "misses-tricky"))
    assert result.scores == static_scores((1, 1, 1, 1), 1, 0, 0.5)
    assert results(result.details)["leave-one-in CronJob/paa/backup-hostnet"] == "true"


def test_opa_static_failing_fetch_stops_the_criteria(tmp_path: Path) -> None:
    result = evaluate_trial(STATIC, trial_dir(tmp_path, "opa-static", "fetch-fails"))
    assert result.scores == static_scores((1, 0, 0, 0), 0, 0, 0.0)
    assert result.details["failure"]["reason"] == "fetch.sh exited with code 3"
    assert "cannot read the manifests" in result.details["failure"]["output"]


def test_opa_static_empty_workspace(tmp_path: Path) -> None:
    result = evaluate_trial(STATIC, trial_dir(tmp_path, "opa-static", "empty"))
    assert result.scores == static_scores((0, 0, 0, 0), 0, 0, 0.0)
    assert result.details["failure"]["step"] == "files"


def test_opa_static_hanging_fetch(tmp_path: Path) -> None:
    trial = trial_dir(tmp_path, "opa-static", "correct")
    (trial / "fetch.sh").write_text("#!/usr/bin/env bash\nsleep 600\n")
    result = opa_static.evaluate(STATIC.ground_truth, trial, timeout_s=2)
    assert result.scores == static_scores((1, 0, 0, 0), 0, 0, 0.0)
    assert result.details["failure"]["reason"] == "fetch.sh did not finish within 2 s"


def test_opa_static_fetches_every_environment_in_one_sandbox(tmp_path: Path, monkeypatch) -> None:
    """The violating, compliant and leave-one-in environments run one after another in one
    sandbox (one sandbox start per trial, not one per environment); each run finds nothing an
    earlier one left in the sandbox's /tmp or beside its working directory, and the verdicts are
    those of the answer run alone."""
    from ciso.evaluation import fetch as fetch_module

    sandboxes: list[list[str]] = []
    real = fetch_module.run_sandboxed

    def counted(argv, **kwargs):
        sandboxes.append(list(argv))
        return real(argv, **kwargs)

    monkeypatch.setattr(fetch_module, "run_sandboxed", counted)
    trial = trial_dir(tmp_path, "opa-static", "correct")
    fetch = trial / "fetch.sh"
    shebang, _, rest = fetch.read_text().partition("\n")
    leftover_check = (
        "if [ -e /tmp/earlier-run ] || ls ../*/ 2>/dev/null | grep -q mark; then echo leftover >&2; exit 9; fi\n"
        "touch /tmp/earlier-run mark-$$\n"
    )
    fetch.write_text(f"{shebang}\n{leftover_check}{rest}")
    result = evaluate_trial(STATIC, trial)
    assert result.scores == static_scores((1, 1, 1, 1), 1, 1, 1.0)
    assert results(result.details) == ALL_DETECTED
    assert len(sandboxes) == 1, sandboxes


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("correct", "data.check.result is false"),
        ("too-broad", "data.check.result is false"),
        ("fetch-fails", "exited with code 3"),
    ],
)
def test_the_dry_run_runs_fetch_sh_on_the_workspaces_static_resources(
    tmp_path: Path, case: str, expected: str
) -> None:
    """Reflection on an opa-static answer: ``fetch.sh`` runs in the sandbox over the
    workspace's own ``static-resources/`` (the violating environment the agent was given) and the
    policy is judged on what it collected, or the fetch's failure is reported."""
    import shutil

    from ciso.validation import Step
    from ciso.validation.dry_run import dry_run
    from ciso.validation.files import AnswerFiles

    workspace = trial_dir(tmp_path, "opa-static", case)
    shutil.copytree(K8S / "violating", workspace / "static-resources")
    files = AnswerFiles(
        workspace, policy_rego=workspace / "policy.rego", collector=workspace / "fetch.sh"
    )
    found = dry_run(ScenarioClass.OPA_STATIC, files)
    assert any(d.step is Step.DRY_RUN and expected in d.message for d in found), found


def test_opa_static_fetch_whose_shebang_names_no_interpreter(tmp_path: Path) -> None:
    # executed directly, as ITBench-Lite does: the run fails as a shell reports it (127)
    trial = trial_dir(tmp_path, "opa-static", "correct")
    (trial / "fetch.sh").write_text("#!/no/such/interpreter\necho never\n")
    result = opa_static.evaluate(STATIC.ground_truth, trial)
    assert result.scores == static_scores((1, 0, 0, 0), 0, 0, 0.0)
    assert result.details["failure"]["reason"] == "fetch.sh exited with code 127"
    assert "/no/such/interpreter" not in result.details["failure"]["reason"]
