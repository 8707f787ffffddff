"""Step 1: the files the scenario's class needs exist in the workspace under the names the
evaluator looks for."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ciso.evaluation.answer import find_file, listing
from ciso.evaluation.policies import agent_policies
from ciso.scenarios.model import ScenarioClass
from ciso.validation.diagnostics import Diagnostic, Level, Step

#: Accepted names per role, in the evaluator's preference order.
FETCHER_NAMES = ("fetcher.sh", "script.sh")
PLAYBOOK_NAMES = ("playbook.yml", "playbook.yaml")
POLICY_REGO = ("policy.rego",)
FETCH_SH = ("fetch.sh",)


@dataclass(frozen=True)
class AnswerFiles:
    """The answer files found (absolute paths); empty roles stay None."""

    workspace: Path
    policy_rego: Path | None = None
    collector: Path | None = None
    playbook: Path | None = None
    #: YAML files holding Kyverno policies (kyverno classes).
    kyverno: tuple[Path, ...] = field(default_factory=tuple)

    def present(self) -> list[Path]:
        found = [self.policy_rego, self.collector, self.playbook, *self.kyverno]
        return [p for p in found if p is not None]

    def relative(self, path: Path) -> str:
        try:
            return str(path.relative_to(self.workspace))
        except ValueError:
            return str(path)


def _missing(name: str, workspace: Path) -> Diagnostic:
    return Diagnostic(
        Step.FILES,
        Level.ERROR,
        f"required file {name} is missing; your workspace holds: {listing(workspace)}",
    )


def _migration_files(
    workspace: Path, target_name: str | None
) -> tuple[AnswerFiles, list[Diagnostic]]:
    """kyverno-migrate: the policies of the dialect the task asks for (``target_name``, else the
    one the source migrates to by default)."""
    from ciso.evaluation.kyverno_migrate import (
        answer_policies,
        source_policies,
        workspace_source,
    )
    from itbench.errors import InputError

    source = workspace_source(workspace)
    try:
        target = source_policies(source, target_name)[1]
    except InputError as exc:
        return AnswerFiles(workspace), [Diagnostic(Step.FILES, Level.ERROR, str(exc))]
    policies, files, notes = answer_policies(workspace, target)
    diagnostics = [Diagnostic(Step.FILES, Level.WARNING, note) for note in notes]
    if not policies:
        diagnostics.append(
            Diagnostic(
                Step.FILES,
                Level.ERROR,
                f"no {' or '.join(target.kinds)} ({target.group}v1) in your YAML files besides "
                f"{source.name}; save the migrated policy as kyverno-policy.yaml",
            )
        )
    return AnswerFiles(workspace, kyverno=tuple(workspace / f for f in files)), diagnostics


def required_files(
    scenario_class: ScenarioClass, workspace: Path, migrate_to: str | None = None
) -> tuple[AnswerFiles, list]:
    diagnostics: list[Diagnostic] = []
    if scenario_class is ScenarioClass.KYVERNO_MIGRATE:
        return _migration_files(workspace, migrate_to)
    if scenario_class in (ScenarioClass.KYVERNO, ScenarioClass.KYVERNO_UPDATE):
        found = agent_policies(workspace)
        for problem in found.unreadable:
            diagnostics.append(Diagnostic(Step.FILES, Level.ERROR, f"unreadable YAML: {problem}"))
        files = sorted(
            {workspace / o for o in found.origins if o != "cluster"}, key=lambda p: str(p)
        )
        if not found.policies:
            diagnostics.append(
                Diagnostic(
                    Step.FILES,
                    Level.ERROR,
                    found.describe_absence()
                    + "; save the policy as kyverno-policy.yaml in the working directory",
                )
            )
        return AnswerFiles(workspace, kyverno=tuple(files)), diagnostics

    policy = find_file(workspace, POLICY_REGO)
    if policy is None:
        diagnostics.append(_missing("policy.rego", workspace))
    collector = playbook = None
    if scenario_class is ScenarioClass.KUBECTL_OPA:
        collector = find_file(workspace, FETCHER_NAMES)
        if collector is None:
            diagnostics.append(_missing("fetcher.sh (or script.sh)", workspace))
    elif scenario_class is ScenarioClass.OPA_STATIC:
        collector = find_file(workspace, FETCH_SH)
        if collector is None:
            diagnostics.append(_missing("fetch.sh", workspace))
        elif not collector.read_bytes().startswith(b"#!"):
            diagnostics.append(
                Diagnostic(
                    Step.FILES,
                    Level.ERROR,
                    "fetch.sh has no shebang line: it is run as ./fetch.sh, so start it with "
                    "#!/usr/bin/env bash",
                    file="fetch.sh",
                    line=1,
                )
            )
    elif scenario_class is ScenarioClass.RHEL9_ANSIBLE_OPA:
        playbook = find_file(workspace, PLAYBOOK_NAMES)
        if playbook is None:
            diagnostics.append(_missing("playbook.yml", workspace))
    return AnswerFiles(workspace, policy, collector, playbook), diagnostics
