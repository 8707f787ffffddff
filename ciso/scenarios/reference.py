"""Reference answers: where the built-in suite keeps them, and writing one into a workspace for
the ``oracle`` agent.

Built-in scenarios keep their answers in the top-level reference packages, one folder per
control keyed by the scenario id (``policies/kyverno/<id>/policy.yaml``,
``policies/kyverno-cel/<id>/policy.yaml`` (a ValidatingPolicy, the built-in migrations' answer
when they target that dialect), ``policies/gatekeeper/<id>/policy.yaml`` (a ConstraintTemplate
and its constraint, a built-in migration's source), ``policies/rego/<id>/{policy.rego,fetcher.sh,
fetch.sh}``, ``playbooks/<id>/{playbook.yml,
policy.rego}``), so ``itbench lint policies/ playbooks/`` checks them all in one step.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from importlib.resources import files
from pathlib import Path

from ciso.scenarios.model import ScenarioClass
from itbench.errors import InputError
from itbench.models import Scenario


def package_dir(package: str) -> Path:
    """A reference package's folder; works from a checkout and from an installed wheel."""
    return Path(str(files(package)))


def _sources(base_id: str, cls: ScenarioClass, target: str | None = None) -> dict[str, Path]:
    """Workspace name -> file in the reference packages, for one built-in scenario id (a
    migration's answer is the control's policy of its ``target`` dialect)."""
    kyverno = package_dir("policies") / "kyverno" / base_id
    kyverno_cel = package_dir("policies") / "kyverno-cel" / base_id
    rego = package_dir("policies") / "rego" / base_id
    playbook = package_dir("playbooks") / base_id
    return {
        ScenarioClass.KYVERNO: {"kyverno-policy.yaml": kyverno / "policy.yaml"},
        ScenarioClass.KYVERNO_UPDATE: {"kyverno-policy.yaml": kyverno / "policy.yaml"},
        # a built-in migration ends in the ValidatingPolicy unless it targets the ClusterPolicy
        ScenarioClass.KYVERNO_MIGRATE: {
            "kyverno-policy.yaml": (kyverno if target == "cluster-policy" else kyverno_cel)
            / "policy.yaml"
        },
        ScenarioClass.KUBECTL_OPA: {
            "fetcher.sh": rego / "fetcher.sh",
            "policy.rego": rego / "policy.rego",
        },
        ScenarioClass.OPA_STATIC: {
            "fetch.sh": rego / "fetch.sh",
            "policy.rego": rego / "policy.rego",
        },
        ScenarioClass.RHEL9_ANSIBLE_OPA: {
            "playbook.yml": playbook / "playbook.yml",
            "policy.rego": playbook / "policy.rego",
        },
    }[cls]


def builtin_solution(
    base_id: str, cls: ScenarioClass, target: str | None = None
) -> dict[str, Path]:
    """The built-in reference answer of a scenario, or {} when a file of it is missing
    (``target``: the dialect a migration's answer is in, by default the ValidatingPolicy)."""
    sources = _sources(base_id, cls, target)
    return sources if all(p.is_file() for p in sources.values()) else {}


#: Where the reference packages keep a control's policy in each dialect a migration starts from.
_SOURCE_FILES = {
    "cluster-policy": ("kyverno", "policy.yaml"),
    "validating-policy": ("kyverno-cel", "policy.yaml"),
    "gatekeeper": ("gatekeeper", "policy.yaml"),
    "rego": ("rego", "policy.rego"),
}


def builtin_source(base_id: str, dialect: str) -> Path | None:
    """The control's reference policy in a migration's source dialect, or None."""
    if dialect not in _SOURCE_FILES:
        return None
    folder, name = _SOURCE_FILES[dialect]
    path = package_dir("policies") / folder / base_id / name
    return path if path.is_file() else None


def control_solution(prefix: str, cis_id: str, cls: ScenarioClass) -> tuple[str, dict[str, Path]]:
    """A built-in answer for the same CIS control (``<prefix>-<cis id>-<slug>``), for bundles
    that ship none; ('', {}) when there is none."""
    roots = {
        ScenarioClass.RHEL9_ANSIBLE_OPA: package_dir("playbooks"),
        ScenarioClass.KYVERNO: package_dir("policies") / "kyverno",
    }
    root = roots.get(cls, package_dir("policies") / "rego")
    if not root.is_dir():
        return "", {}
    for folder in sorted(root.glob(f"{prefix}-{cis_id}-*")):
        solution = builtin_solution(folder.name, cls)
        if solution:
            return folder.name, solution
    return "", {}


def write_reference(scenario: Scenario, workspace: Path) -> None:
    """Copy the scenario's reference answer into the workspace under the names the agent is
    asked to write; scripts stay executable (they are run as ``./fetch.sh``)."""
    reference: Mapping[str, Path] = scenario.reference or {}
    if not reference:
        why = scenario.metadata.get("reference_note") or "none was found"
        raise InputError(f"scenario {scenario.id} has no reference answer: {why}")
    workspace.mkdir(parents=True, exist_ok=True)
    for name, source in reference.items():
        target = workspace / name
        try:
            shutil.copyfile(source, target)
        except OSError as exc:
            raise InputError(f"{source}: cannot copy the reference answer: {exc}") from None
        if name.endswith(".sh") or os.access(source, os.X_OK):
            target.chmod(0o755)
