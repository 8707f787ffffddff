"""``kyverno``: the agent's policies scanned over the violating environment (as Kyverno's
background scan would after they were deployed), then over the compliant one.

ITBench: a report scoped to an injected (violating) resource has ``fail > 0``. Strict: every
violating resource (or an object it owns: the Pods of a Deployment) has a ``fail``, in the violating
environment and in its own leave-one-in environment (the compliant one with that resource put in,
the objects the OPA classes judge), and nothing in the compliant environment does. The
leave-one-in scans stop a policy that recognises the environment it was shown (a context lookup
comparing the cluster's objects with the ones the agent saw, or looking for a harmless object only
that environment holds) instead of judging each resource. resource_recall / resource_precision: violating resources caught /
listed, and flagged top-level objects that are violating / all flagged.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ciso.engines.kyverno.structure import PolicyError, check_policy
from ciso.environments.kubernetes import cluster_view, leave_one_in
from ciso.evaluation.kyverno_engines import KyvernoScanner, ScanFailed, select_scanner
from ciso.evaluation.plan import COMPLIANT, VIOLATING, leave_one_in_label
from ciso.evaluation.policies import agent_policies
from ciso.evaluation.record import Record, as_score
from ciso.evaluation.report_reading import failed, rule_errors
from ciso.scenarios.model import CisoScenario, ResourceRef
from ciso.scenarios.objects import declared_objects, identity, is_policy
from itbench.plugins.spec import TrialScores

if TYPE_CHECKING:
    from ciso.live import LiveSettings

ZERO = {"itbench_pass": 0, "strict_pass": 0, "resource_recall": 0.0, "resource_precision": 0.0}


def malformed(policies: tuple[dict[str, Any], ...]) -> list[str]:
    """Policies Kyverno's admission would refuse (they would never report)."""
    problems = []
    for policy in policies:
        name = str((policy.get("metadata") or {}).get("name", ""))
        try:
            check_policy(policy, name)
        except PolicyError as exc:
            problems.append(str(exc))
    return problems


def ancestry(objects: list[dict[str, Any]]) -> dict[ResourceRef, list[ResourceRef]]:
    """Each object with the chain of its owners (itself first, root last)."""
    by_uid = {o["metadata"].get("uid"): o for o in objects if o["metadata"].get("uid")}
    chains: dict[ResourceRef, list[ResourceRef]] = {}
    for obj in objects:
        chain, current, seen = [identity(obj)], obj, set()
        while True:
            refs = current["metadata"].get("ownerReferences") or []
            parent = next((by_uid[r["uid"]] for r in refs if r.get("uid") in by_uid), None)
            if parent is None or id(parent) in seen:
                break
            seen.add(id(parent))
            chain.append(identity(parent))
            current = parent
        chains[chain[0]] = chain
    return chains


def evaluate(
    scenario: CisoScenario, trial_dir: Path, live: LiveSettings | None = None
) -> TrialScores:
    """Score the agent's policies: scanned by the live cluster's Kyverno when ``live`` is given
    (the run's session), else by a local engine."""
    record = Record()
    found = agent_policies(trial_dir)
    record.verdict(
        "agent",
        policies=[
            f"{k} ({o})"
            for k, o in zip(
                [
                    f"{p.get('kind')}/{(p.get('metadata') or {}).get('name')}"
                    for p in found.policies
                ],
                found.origins,
                strict=True,
            )
        ],
    )
    if found.unreadable:
        record.notes.extend(f"unreadable: {u}" for u in found.unreadable)
    if not found.policies:
        record.fail("policies", found.describe_absence())
        return record.scores(ZERO)
    problems = malformed(found.policies)
    if problems:
        record.notes.extend(problems)
    scanner = _scanner(scenario, trial_dir, live)
    record.engines["kyverno"] = f"{scanner.name} {scanner.version}"

    violating_objects = [o for o in declared_objects(scenario) if not is_policy(o)]
    try:
        with record.timed("scan violating"):
            reports = scanner.reports(found.policies, violating_objects)
    except ScanFailed as exc:
        record.fail(f"scan ({VIOLATING})", str(exc))
        return record.scores(ZERO)
    flagged = failed(reports)
    refs = set(scenario.violating_resources)
    chains = ancestry(cluster_view(violating_objects))
    covered = {ref for obj in flagged for ref in chains.get(obj, [obj]) if ref in refs}
    roots = {chains.get(obj, [obj])[-1] for obj in flagged}
    true_roots = {
        chains.get(obj, [obj])[-1]
        for obj in flagged
        if any(r in refs for r in chains.get(obj, [obj]))
    }
    itbench = bool(flagged & refs)
    errors = rule_errors(reports)
    record.verdict(
        VIOLATING,
        failed=sorted(str(r) for r in flagged),
        violating_caught=sorted(str(r) for r in covered),
        **({"rule_errors": errors} if errors else {}),
    )
    if not itbench:
        detail = f"; rule errors: {' | '.join(errors)}" if errors else ""
        detail += f"; malformed: {' | '.join(problems)}" if problems else ""
        record.fail(
            f"scan ({VIOLATING})",
            "no report scoped to a violating resource has a fail "
            f"({', '.join(sorted(map(str, refs))) or 'none listed'}){detail}",
        )
    elif covered != refs:
        record.fail(
            f"scan ({VIOLATING})",
            "violating resources without a fail: " + ", ".join(sorted(map(str, refs - covered))),
        )

    alone_ok = True
    if itbench and covered == refs and len(refs) > 1:
        compliant_declared = (
            None
            if scenario.compliant is None
            else [o for o in declared_objects(scenario, compliant=True) if not is_policy(o)]
        )
        alone_ok = _each_caught_alone(
            record, scanner, found.policies, violating_objects, compliant_declared, refs
        )

    compliant_ok = True
    if scenario.compliant is not None:
        compliant_objects = [
            o for o in declared_objects(scenario, compliant=True) if not is_policy(o)
        ]
        try:
            with record.timed("scan compliant"):
                compliant_flagged = failed(scanner.reports(found.policies, compliant_objects))
        except ScanFailed as exc:
            record.fail(f"scan ({COMPLIANT})", str(exc))
            compliant_flagged = {ResourceRef("?", "", "scan failed")}
        compliant_ok = not compliant_flagged
        record.verdict(COMPLIANT, failed=sorted(str(r) for r in compliant_flagged))
        if not compliant_ok:
            record.fail(
                f"scan ({COMPLIANT})",
                "compliant resources reported fail (too broad): "
                + ", ".join(sorted(map(str, compliant_flagged))),
            )
    else:
        record.notes.append("no compliant environment: strict_pass checks violations only")
    # a live scan's refused policies and slow scans
    record.notes.extend(getattr(scanner, "notes", ()))
    recall = len(covered) / len(refs) if refs else float(itbench)
    precision = len(true_roots) / len(roots) if roots else 0.0
    return record.scores(
        {
            "itbench_pass": as_score(itbench),
            "strict_pass": as_score(itbench and covered == refs and alone_ok and compliant_ok),
            "resource_recall": round(recall, 4),
            "resource_precision": round(precision, 4),
        }
    )


def _each_caught_alone(
    record: Record,
    scanner: KyvernoScanner,
    policies: tuple[dict[str, Any], ...],
    violating_objects: list[dict[str, Any]],
    compliant_objects: list[dict[str, Any]] | None,
    refs: set[ResourceRef],
) -> bool:
    """Whether every violating resource still fails in its leave-one-in environment; a verdict
    and, where it does not, a failure recorded per environment."""
    kept = sorted(refs, key=str)
    environments = [leave_one_in(violating_objects, compliant_objects, refs, ref) for ref in kept]
    try:
        with record.timed("scan leave-one-in"):
            batches = scanner.reports_many([(policies, objects) for objects in environments])
    except ScanFailed as exc:
        record.fail("scan (leave-one-in)", str(exc))
        return False
    ok = True
    for ref, objects, reports in zip(kept, environments, batches, strict=True):
        chains = ancestry(cluster_view(objects))
        caught = any(ref in chains.get(obj, [obj]) for obj in failed(reports))
        label = leave_one_in_label(ref)
        record.verdict(label, caught=caught)
        if not caught:
            ok = False
            record.fail(
                f"scan ({label})",
                f"{ref} has no fail in its leave-one-in environment (the compliant one with "
                "it put in): the policy judges the environment, not the resource",
            )
    return ok


def _scanner(scenario: CisoScenario, trial_dir: Path, live: LiveSettings | None) -> KyvernoScanner:
    """The live cluster's Kyverno in live mode (under the trial's names), else a local engine."""
    if live is None:
        return select_scanner()
    from ciso.live.kyverno import LiveScanner
    from ciso.live.naming import trial_suffix

    return LiveScanner(live, trial_suffix(scenario.id, trial_dir))
