"""The Kubernetes environments an OPA evaluation runs the agent's collector on: the violating one,
the compliant one, and one leave-one-in environment per listed violating resource."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ciso.environments.kubernetes import leave_one_in_copy
from ciso.scenarios.model import CisoScenario, ResourceRef

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
    """One environment per listed violating resource: the compliant environment with that resource
    put in as the agent saw it (see :func:`~ciso.environments.kubernetes.leave_one_in_sourced`).
    With a single violating resource there is none (the violating run already judges it alone),
    so the run costs what it did when leave-one-in environments were subsets of the violating
    one."""
    refs = scenario.violating_resources
    if len(refs) < 2:
        return []
    return [
        Environment(
            leave_one_in_label(ref),
            leave_one_in_copy(
                scenario.violating, scenario.compliant, refs, ref, scratch / f"env-loi-{index}"
            ),
            False,
            ref,
        )
        for index, ref in enumerate(refs)
    ]
