"""Step 4: a dry run on the violating environment, through what the agent itself has.

- cluster classes: a snapshot of the trial's live cluster, read with kubectl through the
  workspace's ``kubeconfig.yaml`` (the objects the agent can list, minus what the cluster derives
  and the policies/reports), served to the fetcher by a sandboxed offline cluster exactly as the
  evaluator does, or scanned with the agent's Kyverno policies;
- ``opa-static``: ``fetch.sh`` over the workspace's ``static-resources/``;
- ``rhel9-ansible-opa``: the playbook against the agent's private copy of the violating host tree.

It reports what the answer does there (the collector ran, what ``data.check.result`` is, which
resources the policy reports ``fail`` for), never the compliant environment and never which
resources are the violating ones.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

from ciso.environments import HOST_TREE_DIR, KUBECONFIG_FILE
from ciso.evaluation.fetch import Collection
from ciso.scenarios.model import ScenarioClass
from ciso.validation.diagnostics import Diagnostic, Level, Step
from ciso.validation.files import AnswerFiles
from itbench.cluster.kubeconfig import checked_kubeconfig
from itbench.errors import InputError
from itbench.fsutil import atomic_write_text, copy_agent_tree, read_agent_text, real_directory
from itbench.sandbox.kubectl import run_confined_kubectl

KUBECTL_TIMEOUT_S = 30.0
FETCH_TIMEOUT_S = 60.0
PLAYBOOK_TIMEOUT_S = 120.0
#: Metadata the cluster assigns; a snapshot drops it so a fresh cluster can load the objects.
#: Where the dry run leaves the collected data for the agent to read.
DRY_RUN_DATA = Path(".itbench") / "dry-run" / "collected_data.json"
_ASSIGNED = ("uid", "resourceVersion", "creationTimestamp", "generation", "managedFields")


class SnapshotError(Exception):
    pass


def _kubectl(args: list[str], kubeconfig: str) -> str:
    try:
        # confined (itbench.sandbox.kubectl), as the agent's own kubectl tool
        proc = run_confined_kubectl(args, kubeconfig=kubeconfig, timeout_s=KUBECTL_TIMEOUT_S)
    except (OSError, InputError, subprocess.TimeoutExpired) as exc:
        raise SnapshotError(f"kubectl {' '.join(args)}: {exc}") from None
    if proc.exit_code != 0:
        raise SnapshotError(f"kubectl {' '.join(args)}: {proc.stderr.strip()[:500]}")
    return proc.stdout


def _is_report_or_policy(obj: dict[str, Any]) -> bool:
    api = str(obj.get("apiVersion", ""))
    return api.startswith(("wgpolicyk8s.io/", "kyverno.io/", "reports.kyverno.io/"))


def cluster_snapshot(kubeconfig: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(workload objects, Kyverno policies) the live cluster serves, read through the workspace's
    ``kubeconfig`` once checked (:func:`checked_kubeconfig`: the agent can rewrite it), by a
    confined kubectl. Objects owned by another (the ReplicaSets and Pods
    of a Deployment) are left out: a cluster loading the snapshot derives them again."""
    try:
        text = checked_kubeconfig(read_agent_text(kubeconfig), kubeconfig.name)
    except (OSError, UnicodeDecodeError, InputError) as exc:
        raise SnapshotError(str(exc)) from None
    names = [
        n
        for n in _kubectl(["api-resources", "--verbs=list", "-o", "name"], text).split()
        if n and n != "events" and not n.startswith("events.")
    ]
    listed = json.loads(_kubectl(["get", ",".join(names), "-A", "-o", "json"], text))
    objects, policies = [], []
    for obj in listed.get("items") or []:
        if not isinstance(obj, dict):
            continue
        meta = obj.get("metadata") or {}
        if str(obj.get("apiVersion", "")).startswith("kyverno.io/"):
            policies.append(obj)
            continue
        if _is_report_or_policy(obj) or meta.get("ownerReferences"):
            continue
        clean = {k: v for k, v in obj.items() if k != "status"}
        clean["metadata"] = {k: v for k, v in meta.items() if k not in _ASSIGNED}
        objects.append(clean)
    return objects, policies


def _kinds(objects: list[dict[str, Any]]) -> str:
    counts = Counter(str(o.get("kind")) for o in objects)
    return ", ".join(f"{k} x{n}" for k, n in sorted(counts.items()))


def _collected_shape(data: Any) -> str:
    if isinstance(data, dict) and isinstance(data.get("items"), list):
        items = [i for i in data["items"] if isinstance(i, dict)]
        return f"a List of {len(data['items'])} items ({_kinds(items) or 'no kinds'})"
    if isinstance(data, list):
        return f"a JSON array of {len(data)} entries"
    if isinstance(data, dict):
        return f"a JSON object with keys {', '.join(sorted(map(str, data))[:12])}"
    return f"a JSON {type(data).__name__}"


def _judge_collection(
    collection: Collection, policy: Path, files: AnswerFiles, collector: str, where: str
) -> list[Diagnostic]:
    from ciso.evaluation.rego import evaluate_policy

    if not collection.ok:
        output = f"; its output:\n{collection.output[-1500:]}" if collection.output.strip() else ""
        return [
            Diagnostic(
                Step.DRY_RUN,
                Level.ERROR,
                f"{collector} on {where}: {collection.problem}{output}",
                collector,
            )
        ]
    # kept for the agent to read (its own collector's output on its own environment)
    saved = real_directory(files.workspace, DRY_RUN_DATA.parent) / DRY_RUN_DATA.name
    atomic_write_text(saved, json.dumps(collection.data, indent=1))
    facts = [
        Diagnostic(
            Step.DRY_RUN,
            Level.INFO,
            f"{collector} on {where} wrote collected_data.json "
            f"({_collected_shape(collection.data)}); a copy is at {DRY_RUN_DATA}",
            collector,
        )
    ]
    verdict = evaluate_policy(policy, collection.data)
    rel = files.relative(policy)
    if verdict.error:
        return facts + [
            Diagnostic(
                Step.DRY_RUN,
                Level.ERROR,
                f"data.check.result does not evaluate on that data: {verdict.error}",
                rel,
            )
        ]
    if not isinstance(verdict.value, bool):
        return facts + [
            Diagnostic(
                Step.DRY_RUN,
                Level.ERROR,
                f"data.check.result is {verdict.shown()} on that data; it must be a boolean "
                "(false on a violation, true otherwise)",
                rel,
            )
        ]
    if verdict.value:
        return facts + [
            Diagnostic(
                Step.DRY_RUN,
                Level.WARNING,
                f"data.check.result is true on {where}: your policy detects no violation "
                f"there. Read {DRY_RUN_DATA} and check that the field paths your rules "
                "test exist in it",
                rel,
            )
        ]
    return facts + [
        Diagnostic(
            Step.DRY_RUN,
            Level.INFO,
            f"data.check.result is false on {where}: your policy reports a violation",
            rel,
        )
    ]


def _write_snapshot(objects: list[dict[str, Any]], directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "cluster.yaml").write_text(
        yaml.safe_dump_all(objects, sort_keys=False), encoding="utf-8"
    )
    return directory


def _no_cluster(files: AnswerFiles) -> list[Diagnostic] | None:
    if (files.workspace / KUBECONFIG_FILE).is_file():
        return None
    return [
        Diagnostic(
            Step.DRY_RUN,
            Level.INFO,
            f"no {KUBECONFIG_FILE} in the workspace (no live cluster): dry run skipped",
        )
    ]


def dry_run_fetcher(files: AnswerFiles, scratch: Path) -> list[Diagnostic]:
    from ciso.evaluation.fetch import run_fetcher_batch

    assert files.collector is not None and files.policy_rego is not None
    skipped = _no_cluster(files)
    if skipped is not None:
        return skipped
    try:
        objects, _ = cluster_snapshot(files.workspace / KUBECONFIG_FILE)
    except SnapshotError as exc:
        return [Diagnostic(Step.DRY_RUN, Level.WARNING, f"cannot read the cluster: {exc}")]
    source = _write_snapshot(objects, scratch / "snapshot")
    collected = run_fetcher_batch(
        files.collector, scratch / "runs", [("cluster", source)], FETCH_TIMEOUT_S
    )
    return _judge_collection(
        collected["cluster"],
        files.policy_rego,
        files,
        files.relative(files.collector),
        "the cluster you were given",
    )


def dry_run_static(files: AnswerFiles, scratch: Path) -> list[Diagnostic]:
    from ciso.evaluation.fetch import run_static_batch
    from ciso.scenarios.public import STATIC_RESOURCES

    assert files.collector is not None and files.policy_rego is not None
    resources = scratch / STATIC_RESOURCES
    left_out = copy_agent_tree(files.workspace, STATIC_RESOURCES, resources)
    if left_out is None:
        return [
            Diagnostic(
                Step.DRY_RUN,
                Level.INFO,
                f"no {STATIC_RESOURCES}/ folder in the workspace (missing, or a link): skipped",
            )
        ]
    collected = run_static_batch(
        files.collector,
        scratch / "runs",
        [("workspace", resources)],
        [str(files.workspace.resolve())],
        FETCH_TIMEOUT_S,
    )
    return _left_out(left_out) + _judge_collection(
        collected["workspace"],
        files.policy_rego,
        files,
        "fetch.sh",
        f"the {STATIC_RESOURCES}/ you were given",
    )


def _left_out(refused: list[str]) -> list[Diagnostic]:
    """What the dry run's copy of the agent's folder left out (a link the agent planted is never
    followed: the run sees the folder's real files only)."""
    return [Diagnostic(Step.DRY_RUN, Level.WARNING, line) for line in refused]


def dry_run_playbook(files: AnswerFiles, scratch: Path) -> list[Diagnostic]:
    from ciso.engines.ansible import run_playbook
    from ciso.evaluation.record import truncate
    from ciso.evaluation.rego import load_collected

    assert files.playbook is not None and files.policy_rego is not None
    # the agent's private copy of the host, copied again without following any link it planted
    # (the sandbox would otherwise show the play what such a link points to)
    tree = scratch / "host"
    left_out = copy_agent_tree(files.workspace, HOST_TREE_DIR, tree)
    if left_out is None:
        return [Diagnostic(Step.DRY_RUN, Level.INFO, "no host of the inventory here: skipped")]
    out = scratch / "run"
    result = run_playbook(files.playbook, out_dir=out, host_tree=tree, timeout_s=PLAYBOOK_TIMEOUT_S)
    output = truncate(result.summary())
    if result.ok:
        data, problem = load_collected(out / "collected_data.json")
    else:
        failed = result.failed_tasks()
        problem = f"the playbook {result.status}" + (f": {'; '.join(failed)}" if failed else "")
        data = None
    collection = Collection(data, problem, output, result.sandbox.duration_s)
    return _left_out(left_out) + _judge_collection(
        collection,
        files.policy_rego,
        files,
        files.relative(files.playbook),
        "the rhel9_servers host you were given",
    )


def dry_run_kyverno(files: AnswerFiles, update: bool) -> list[Diagnostic]:
    from ciso.evaluation.kyverno_engines import ScanFailed, select_scanner
    from ciso.evaluation.policies import agent_policies
    from ciso.evaluation.report_reading import failed, rule_errors

    skipped = _no_cluster(files)
    if skipped is not None:
        return skipped
    try:
        objects, _live_policies = cluster_snapshot(files.workspace / KUBECONFIG_FILE)
    except SnapshotError as exc:
        return [Diagnostic(Step.DRY_RUN, Level.WARNING, f"cannot read the cluster: {exc}")]
    policies = agent_policies(files.workspace).policies
    try:
        reports = select_scanner().reports(policies, objects)
    except ScanFailed as exc:
        return [Diagnostic(Step.DRY_RUN, Level.ERROR, f"the background scan failed: {exc}")]
    flagged = sorted(str(r) for r in failed(reports))
    out = [
        Diagnostic(Step.DRY_RUN, Level.WARNING, f"a rule errors during the scan: {e}")
        for e in rule_errors(reports)
    ]
    if flagged:
        shown = ", ".join(flagged[:20]) + (" …" if len(flagged) > 20 else "")
        out.append(
            Diagnostic(
                Step.DRY_RUN,
                Level.INFO,
                f"on the cluster you were given, your policies report fail for {len(flagged)} "
                f"resource(s): {shown}",
            )
        )
    else:
        # an update may legitimately end with every check passing; a new policy may not
        out.append(
            Diagnostic(
                Step.DRY_RUN,
                Level.INFO if update else Level.WARNING,
                "on the cluster you were given, your policies report fail for no resource: "
                "check the kinds they match and the fields their patterns test",
            )
        )
    return out


def dry_run_migration(
    files: AnswerFiles, cis_id: str | None, migrate_to: str | None = None
) -> list[Diagnostic]:
    """kyverno-migrate: the source and the answer scanned over instances of the control the
    generator builds for this check alone (the evaluator uses other ones); each resource whose
    verdict differs is an error."""
    from ciso.evaluation.kyverno_engines import ScanFailed, select_scanner
    from ciso.evaluation.kyverno_migrate import (
        answer_policies,
        disagreements,
        generated_environments,
        source_policies,
        workspace_source,
    )

    path = workspace_source(files.workspace)
    source, target = source_policies(path, migrate_to)
    answer = answer_policies(files.workspace, target)[0]
    environments = generated_environments(cis_id, "kyverno-migrate dry run")
    if not environments:
        return [Diagnostic(Step.DRY_RUN, Level.INFO, "no generated environment for this control")]
    scanner = select_scanner()
    differing: list[str] = []
    try:
        for name, objects in environments:
            differing += disagreements(scanner, source, answer, name, objects)[0]
    except ScanFailed as exc:
        return [Diagnostic(Step.DRY_RUN, Level.ERROR, f"the scan failed: {exc}")]
    if not differing:
        return [
            Diagnostic(
                Step.DRY_RUN,
                Level.INFO,
                f"same verdict as {path.name} on every resource of a generated environment",
            )
        ]
    shown = [Diagnostic(Step.DRY_RUN, Level.ERROR, line) for line in differing[:10]]
    if len(differing) > 10:
        shown.append(Diagnostic(Step.DRY_RUN, Level.ERROR, f"... {len(differing) - 10} more"))
    return shown


def dry_run(
    scenario_class: ScenarioClass,
    files: AnswerFiles,
    cis_id: str | None = None,
    migrate_to: str | None = None,
) -> list[Diagnostic]:
    with tempfile.TemporaryDirectory(prefix="itbench-validate-") as scratch:
        root = Path(scratch)
        if scenario_class is ScenarioClass.KUBECTL_OPA:
            return dry_run_fetcher(files, root)
        if scenario_class is ScenarioClass.OPA_STATIC:
            return dry_run_static(files, root)
        if scenario_class is ScenarioClass.RHEL9_ANSIBLE_OPA:
            return dry_run_playbook(files, root)
        if scenario_class is ScenarioClass.KYVERNO_MIGRATE:
            return dry_run_migration(files, cis_id, migrate_to)
        return dry_run_kyverno(files, update=scenario_class is ScenarioClass.KYVERNO_UPDATE)
