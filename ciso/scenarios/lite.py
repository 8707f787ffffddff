"""ITBench-Lite ``opa-static`` scenario directories, read unchanged: ``problem.md`` (the task),
``static-resources/`` (violating), ``static-resources-compliant/`` and
``ground-truth/{fetch.sh, policy.rego}``."""

from __future__ import annotations

import re
from pathlib import Path

from ciso.scenarios.format import SAFE_ID, read_text
from ciso.scenarios.model import CisoScenario, Platform, ScenarioClass
from itbench.errors import InputError

PROBLEM_FILE = "problem.md"
VIOLATING_DIR = "static-resources"
COMPLIANT_DIR = "static-resources-compliant"
_CIS_ID = re.compile(r"cis-(\d+(?:\.\d+)+)")


def is_lite(directory: Path) -> bool:
    return (directory / PROBLEM_FILE).is_file() and (directory / VIOLATING_DIR).is_dir()


def load_lite(directory: Path) -> list[CisoScenario]:
    base_id = directory.name
    if not SAFE_ID.match(base_id):
        raise InputError(f"{directory}: the directory name is not usable as a scenario id")
    problem = read_text(directory / PROBLEM_FILE).strip()
    if not problem:
        raise InputError(f"{directory / PROBLEM_FILE}: the problem text is empty")
    compliant = directory / COMPLIANT_DIR
    truth = directory / "ground-truth"
    solution = {name: truth / name for name in ("fetch.sh", "policy.rego")}
    metadata: dict[str, str] = {}
    if not compliant.is_dir():
        metadata["compliant_note"] = (
            f"no {COMPLIANT_DIR}/: every criterion scores 0, as ITBench-Lite's evaluator does"
        )
    found = _CIS_ID.search(base_id)
    return [
        CisoScenario(
            id=f"{base_id}.{ScenarioClass.OPA_STATIC.value}",
            base_id=base_id,
            scenario_class=ScenarioClass.OPA_STATIC,
            platform=Platform.KUBERNETES,
            requirement=problem,
            violating=directory / VIOLATING_DIR,
            compliant=compliant if compliant.is_dir() else None,
            cis_id=found.group(1) if found else None,
            solution=solution if all(p.is_file() for p in solution.values()) else {},
            source=directory,
            origin="itbench-lite",
            metadata=metadata,
        )
    ]
