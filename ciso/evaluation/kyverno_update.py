"""``kyverno-update``: the deployed policies after the agent's edits, scanned over the violating
environment, checked with ITBench's ``eval_config.yaml`` rules.

- ``check_violations``: the named policy's results on the named resource, judged as a set:
  ``fail`` expected needs at least one ``fail``; ``pass`` expected needs no ``fail`` (all ``pass``,
  or no result at all). ITBench reads only the first result, but which result comes first depends
  on rule order and on how the report was sorted (Kyverno's report controller sorts results by
  policy and rule name), so appending the new rule and prepending it would score differently; here
  they score the same. With ``strict_check``, results of any other policy not in
  ``ignore_policies`` on that resource fail the check.
- ``check_unchanged_policies``: the original policy is a recursive subset of the edited one,
  lists compared pairwise with ``zip`` as ITBench does (so a removed trailing rule goes unnoticed).

Strict: also every list of an unchanged policy keeps its length and order (no rule removed or
reordered), and, when the scenario has a compliant environment, the edited policies report no
``fail`` there.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ciso.evaluation.kyverno_engines import ScanFailed, select_scanner
from ciso.evaluation.plan import COMPLIANT, VIOLATING
from ciso.evaluation.policies import agent_policies, policy_key
from ciso.evaluation.record import Record, as_score
from ciso.evaluation.report_reading import ResourceResult, resource_results
from ciso.scenarios.model import CisoScenario
from ciso.scenarios.objects import declared_objects, is_policy
from itbench.cluster import load_manifests
from itbench.plugins.spec import TrialScores

ZERO = {"itbench_pass": 0, "strict_pass": 0}


def itbench_subset(expected: Any, actual: Any) -> bool:
    """ITBench's recursive compare: dict keys of ``expected`` present and equal in ``actual``;
    lists pairwise over the shorter length."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            k in actual and itbench_subset(v, actual[k]) for k, v in expected.items()
        )
    if isinstance(expected, list):
        return isinstance(actual, list) and all(
            itbench_subset(e, a) for e, a in zip(expected, actual, strict=False)
        )
    return expected == actual


def strict_subset(expected: Any, actual: Any) -> bool:
    """As :func:`itbench_subset`, but lists must keep their length (nothing removed, nothing
    shifted)."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            k in actual and strict_subset(v, actual[k]) for k, v in expected.items()
        )
    if isinstance(expected, list):
        return (
            isinstance(actual, list)
            and len(expected) == len(actual)
            and all(strict_subset(e, a) for e, a in zip(expected, actual, strict=True))
        )
    return expected == actual


def _named(policies: list[dict[str, Any]], name: str) -> dict[str, Any] | None:
    return next((p for p in policies if (p.get("metadata") or {}).get("name") == name), None)


def check_violation(check: dict[str, Any], results: list[ResourceResult]) -> tuple[bool, str]:
    resource = check.get("resource") or {}
    policy = str(check.get("policy_name", ""))
    expected = str(check.get("expected_result", ""))
    on_resource = [
        r
        for r in results
        if r.resource.kind == resource.get("kind")
        and r.resource.name == resource.get("name")
        and (not r.resource.namespace or r.resource.namespace == resource.get("namespace"))
    ]
    own = [r for r in on_resource if r.policy.split("/")[-1] == policy]
    where = f"{resource.get('kind')}/{resource.get('name')}"
    if not own:
        ok = expected == "pass"
        return ok, f"{policy} has no result on {where}"
    outcomes = sorted({r.result for r in own})
    failing = sorted({r.rule for r in own if r.result == "fail"})
    shown = ", ".join(f"{r.rule}: {r.result}" for r in sorted(own, key=lambda r: r.rule))
    if expected == "fail" and not failing:
        return False, f"{policy} gives no fail on {where} ({shown}); expected fail"
    if expected == "pass" and (failing or set(outcomes) - {"pass", "skip"}):
        return False, f"{policy} gives {'/'.join(outcomes)} on {where} ({shown}); expected pass"
    if expected not in ("pass", "fail") and expected not in outcomes:
        return False, f"{policy} gives {'/'.join(outcomes)} on {where}; expected {expected}"
    if check.get("strict_check"):
        ignored = set(check.get("ignore_policies") or []) | {policy}
        others = sorted({r.policy for r in on_resource if r.policy.split("/")[-1] not in ignored})
        if others:
            return (
                False,
                f"strict_check: other policies report on the resource: {', '.join(others)}",
            )
    return True, f"{policy}: {expected} as expected ({shown})"


def evaluate(scenario: CisoScenario, trial_dir: Path) -> TrialScores:
    record = Record()
    spec = scenario.update
    if spec is None:
        record.fail("scenario", "kyverno-update scenario without eval_config (update spec)")
        return record.scores(ZERO)
    original = [p for path in spec.existing_policies for p in load_manifests(path) if is_policy(p)]
    found = agent_policies(trial_dir)
    final = {policy_key(p): p for p in original}
    changed = [policy_key(p) for p in found.policies if final.get(policy_key(p)) != p]
    final.update({policy_key(p): p for p in found.policies})
    policies = list(final.values())
    record.verdict(
        "agent",
        edited=sorted(k[2] for k in changed if k in {policy_key(p) for p in original}),
        created=sorted(k[2] for k in changed if k not in {policy_key(p) for p in original}),
    )
    if found.unreadable:
        record.notes.extend(f"unreadable: {u}" for u in found.unreadable)
    if not changed:
        record.fail(
            "policies",
            "the agent changed no policy: " + found.describe_absence()
            if not found.policies
            else "the agent's policies equal the deployed ones",
        )
    scanner = select_scanner()
    record.engines["kyverno"] = f"{scanner.name} {scanner.version}"
    objects = [o for o in declared_objects(scenario) if not is_policy(o)]
    try:
        with record.timed("scan violating"):
            results = list(resource_results(scanner.reports(policies, objects)))
    except ScanFailed as exc:
        record.fail(f"scan ({VIOLATING})", str(exc))
        return record.scores(ZERO)

    violations_ok = True
    for check in spec.check_violations:
        ok, why = check_violation(dict(check), results)
        record.verdict(VIOLATING, **{f"check_violations {check.get('policy_name')}": why})
        if not ok:
            violations_ok = False
            record.fail("check_violations", why)
    unchanged_ok = strict_unchanged = True
    for name in spec.unchanged_policies:
        before, after = _named(original, name), _named(policies, name)
        if before is None or after is None:
            unchanged_ok = strict_unchanged = False
            record.fail("check_unchanged_policies", f"policy {name} is missing")
            continue
        if not itbench_subset(before.get("spec"), after.get("spec")):
            unchanged_ok = False
            record.fail("check_unchanged_policies", f"the rules of {name} were changed")
        if not strict_subset(before.get("spec"), after.get("spec")):
            strict_unchanged = False
            record.fail("strict unchanged", f"a rule of {name} was removed, added or reordered")

    compliant_ok = True
    if scenario.compliant is not None:
        edited = {c.get("policy_name") for c in spec.check_violations}
        compliant_objects = [o for o in declared_objects(scenario, True) if not is_policy(o)]
        try:
            with record.timed("scan compliant"):
                compliant = list(resource_results(scanner.reports(policies, compliant_objects)))
        except ScanFailed as exc:
            record.fail(f"scan ({COMPLIANT})", str(exc))
            compliant = []
            compliant_ok = False
        wrong = sorted(
            {
                f"{r.policy} on {r.resource}"
                for r in compliant
                if r.result == "fail" and r.policy in edited
            }
        )
        record.verdict(COMPLIANT, failed=wrong)
        if wrong:
            compliant_ok = False
            record.fail(
                f"scan ({COMPLIANT})", "compliant resources reported fail: " + ", ".join(wrong)
            )
    itbench = violations_ok and unchanged_ok
    return record.scores(
        {
            "itbench_pass": as_score(itbench),
            "strict_pass": as_score(itbench and strict_unchanged and compliant_ok),
        }
    )
