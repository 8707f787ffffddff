"""Scenarios are typed to their domain's ground truth: ``Scenario[Truth, Reference]`` and a
session ``DomainRun[Truth, Reference]`` whose evaluator, environment and loaders the type checker
holds to those types, so a domain reads its truth's fields with no isinstance unwrap. Core writes
``Scenario`` bare (both ``Any``). The parameters exist for the checker only: a scenario is built,
pickled (Ray, forked workers) and copied as the one unparametrised class."""

from __future__ import annotations

import pickle
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from itbench.models import Scenario
from tests._support.cli import REPO

PROBE = """
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from itbench.models import Scenario
from itbench.plugins.spec import Domain, DomainRun, SessionSettings


@dataclass(frozen=True)
class Truth:
    total: int


def evaluate(scenario: Scenario[Truth, str], workspace: Path) -> dict[str, float]:
    return {"ok": float(scenario.ground_truth.total)}


def wrong(scenario: Scenario[Truth, str], workspace: Path) -> dict[str, float]:
    return {"ok": float(scenario.ground_truth.sum)}


def other_truth(scenario: Scenario[str, str], workspace: Path) -> dict[str, float]:
    return {}


def open_run(domain: Domain, settings: SessionSettings) -> DomainRun[Truth, str]:
    return DomainRun(domain, settings, evaluate=evaluate)


def open_mismatched(domain: Domain, settings: SessionSettings) -> DomainRun[Truth, str]:
    return DomainRun(domain, settings, evaluate=other_truth)


def core(run: DomainRun, scenario: Scenario) -> object:
    return run.evaluate(scenario, Path(".")) if run.evaluate else None
"""


def _checked(source: str, name: str, tmp_path: Path) -> tuple[list[str], Callable[[str], int], str]:
    """mypy's errors on ``source`` written as ``name``, a line finder for it, and mypy's output."""
    pytest.importorskip("mypy", reason="mypy comes with the test extra (make setup installs it)")
    probe = tmp_path / name
    probe.write_text(source)
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"), str(probe)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    errors = [line for line in result.stdout.splitlines() if name in line]
    lines = source.splitlines()

    def line_of(text: str) -> int:
        return next(i for i, line in enumerate(lines, 1) if text in line)

    return errors, line_of, result.stdout


def test_the_checker_holds_a_session_to_its_ground_truth_type(tmp_path: Path) -> None:
    errors, line_of, output = _checked(PROBE, "typed_probe.py", tmp_path)
    # a field the truth type lacks, and an evaluator typed to another truth: each one error
    assert any(f":{line_of('ground_truth.sum')}:" in e and "attr-defined" in e for e in errors), (
        output
    )
    assert any(f":{line_of('evaluate=other_truth')}:" in e and "arg-type" in e for e in errors), (
        output
    )
    # the typed evaluator, the typed session and core's bare use are clean
    assert len(errors) == 2, output


@dataclass(frozen=True)
class Truth:
    total: int


def test_scenarios_are_one_class_at_run_time() -> None:
    scenario = Scenario(
        id="s", domain="d", title="t", ground_truth=Truth(3), reference="r", **{"class": "c"}
    )
    again = pickle.loads(pickle.dumps(scenario))
    assert type(again) is Scenario and again.ground_truth == Truth(3) and again.reference == "r"
    # ground truth and reference stay out of every dump
    assert "ground_truth" not in scenario.model_dump() and "reference" not in scenario.model_dump()
    replaced = scenario.with_ground_truth("part")
    assert type(replaced) is Scenario and replaced.ground_truth == "part"
    assert replaced.reference == "r" and scenario.ground_truth == Truth(3)


FINOPS_PROBE = """
from __future__ import annotations

from pathlib import Path

from finops.plugin import evaluate, write_reference
from itbench.models import Scenario


def score_other_truth(scenario: Scenario[str, None]) -> object:
    return evaluate(scenario, Path("."))


def replay_other_reference(scenario: Scenario[None, str]) -> None:
    write_reference(scenario, Path("."))


def bare(scenario: Scenario) -> object:
    return evaluate(scenario, Path("."))
"""


def test_the_finops_evaluator_and_references_are_typed_to_finops_truth(tmp_path: Path) -> None:
    """finops reads its truth as its own type (the billing anomaly's root causes or a Kubernetes
    cost scenario's recipe): a scenario carrying another truth or reference is a type error."""
    errors, line_of, output = _checked(FINOPS_PROBE, "finops_probe.py", tmp_path)
    for call in ("evaluate(scenario", "write_reference(scenario"):
        assert any(f":{line_of(call)}:" in e and "arg-type" in e for e in errors), (
            call,
            output,
        )
    assert len(errors) == 2, output  # core's bare Scenario is accepted
