"""Shared pieces of the CISO evaluation tests (`tests._support.ciso`): the fixture scenarios as the loader would hand them
over (a CisoScenario inside an itbench Scenario) and trial directories made from the hand-written
agent outputs in fixtures/agents/<class>/<case>/. No tests here."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import yaml

from ciso.scenarios.model import (
    CLASS_PLATFORM,
    CisoScenario,
    ResourceRef,
    ScenarioClass,
    UpdateSpec,
)
from itbench.models import AgentResult, Scenario
from itbench.plugins.spec import Task
from itbench.transcript import Transcript
from tests._support.sandbox import needs_sandbox as needs_sandbox  # re-exported for the CISO tests

FIXTURES = Path(__file__).resolve().parents[1] / "ciso" / "fixtures"
SCENARIOS = FIXTURES / "scenarios"
AGENTS = FIXTURES / "agents"
K8S = SCENARIOS / "k8s-host-network"
RHEL9 = SCENARIOS / "rhel9-x11"
UPDATE = SCENARIOS / "update-registry"


def _meta(directory: Path) -> dict:
    return yaml.safe_load((directory / "scenario.yaml").read_text())


def ciso_scenario(directory: Path, scenario_class: ScenarioClass) -> CisoScenario:
    """Our directory format -> the CisoScenario of one class (what the loader will produce)."""
    meta = _meta(directory)
    return CisoScenario(
        id=f"{meta['id']}.{scenario_class.value}",
        base_id=meta["id"],
        scenario_class=scenario_class,
        platform=CLASS_PLATFORM[scenario_class],
        requirement=meta["requirement"],
        violating=directory / "violating",
        compliant=directory / "compliant",
        violating_resources=tuple(ResourceRef.parse(r) for r in meta["violating_resources"]),
        cis_id=meta.get("cis_id"),
        source=directory,
    )


def update_scenario(directory: Path = UPDATE) -> CisoScenario:
    """The kyverno-update fixture in ITBench's bundle layout."""
    config = yaml.safe_load((directory / "eval_config.yaml").read_text())
    return CisoScenario(
        id="fixture-update-registry.kyverno-update",
        base_id="fixture-update-registry",
        scenario_class=ScenarioClass.KYVERNO_UPDATE,
        platform=CLASS_PLATFORM[ScenarioClass.KYVERNO_UPDATE],
        requirement="edit the deployed policies",
        violating=directory / "manifests" / "application.yaml",
        compliant=directory / "compliant",
        update=UpdateSpec(
            existing_policies=(directory / "manifests" / "existing-policy.yaml",),
            check_violations=tuple(config["check_violations"]),
            unchanged_policies=tuple(c["policy_name"] for c in config["check_unchanged_policies"]),
        ),
        source=directory,
    )


def benchmark_scenario(truth: CisoScenario) -> Scenario:
    return Scenario(
        id=truth.id,
        domain="ciso",
        **{"class": truth.scenario_class.value},
        title=truth.requirement,
        ground_truth=truth,
    )


def trial_dir(tmp_path: Path, scenario_class: str, case: str) -> Path:
    """A copy of one hand-written agent output as a trial directory."""
    target = tmp_path / "trial"
    shutil.copytree(AGENTS / scenario_class / case, target)
    for keep in target.rglob(".keep"):
        keep.unlink()
    return target


def kubectl_missing() -> str | None:
    try:
        subprocess.run(["kubectl", "version", "--client"], capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"kubectl is not usable here: {exc}"
    return None


#: the controls with a kyverno-migrate class: a reference in both Kyverno dialects
MIGRATION_CONTROLS = (
    "cis-k8s-5.2.2-privileged",
    "cis-k8s-5.2.3-host-pid",
    "cis-k8s-5.2.4-host-ipc",
    "cis-k8s-5.2.5-host-network",
    "cis-k8s-5.2.6-allow-privilege-escalation",
    "cis-k8s-5.2.8-net-raw",
    "cis-k8s-5.2.9-added-capabilities",
    "cis-k8s-5.2.12-host-path",
    "cis-k8s-5.2.13-host-ports",
)


def baseline_solves(scenario, workspace: Path) -> AgentResult:  # type: ignore[no-untyped-def]  # a CisoScenario or its benchmark view
    """The ``baseline`` agent run on ``scenario`` in ``workspace`` (already holding its inputs),
    as the runner gives it the task."""
    from ciso.agents.baseline.agent import BaselineAgent

    task = Task(
        scenario=scenario.public_view(),
        prompt=scenario.description,
        workspace=workspace,
        time_limit_s=60,
        transcript=Transcript(workspace / "transcript.jsonl"),
    )
    return BaselineAgent().solve(task)
