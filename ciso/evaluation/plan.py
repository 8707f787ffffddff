"""The Kubernetes environments an OPA evaluation runs the agent's collector on: the violating one,
the compliant one, and one leave-one-in environment per listed violating resource."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ciso.environments.kubernetes import filtered_copy, leave_one_in_removals
from ciso.scenarios.model import CisoScenario, ResourceRef
from itbench.cluster import load_manifests

VIOLATING = "violating"
COMPLIANT = "compliant"


@dataclass(frozen=True)
class Environment:
    label: str
    source: Path
    #: The ``data.check.result`` a correct policy gives here.
    expected: bool
    #: For a leave-one-in environment, the violating resource left in.
    kept: ResourceRef | None = None


def leave_one_in_label(ref: ResourceRef) -> str:
    return f"leave-one-in {ref}"


def leave_one_in_environments(scenario: CisoScenario, scratch: Path) -> list[Environment]:
    """One environment per listed violating resource, holding it and none of the others (nor what
    lived in a removed namespace). With a single violating resource the violating environment
    already is its leave-one-in environment: no second run."""
    refs = scenario.violating_resources
    if len(refs) < 2:
        return []
    objects = load_manifests(scenario.violating)
    return [
        Environment(
            leave_one_in_label(ref),
            filtered_copy(
                scenario.violating,
                scratch / f"env-loi-{index}",
                drop=leave_one_in_removals(objects, refs, ref),
            ),
            False,
            ref,
        )
        for index, ref in enumerate(refs)
    ]
