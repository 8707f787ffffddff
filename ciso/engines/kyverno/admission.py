"""Kyverno's admission webhooks on the offline cluster: mutate rules patch every write, then
validate rules of Enforce policies deny a violating write with Kyverno's message; Audit policies
admit (their failures reach the policy reports through the background scan).

The denial reads as the API server relays Kyverno's webhook answer::

    admission webhook "validate.kyverno.svc-fail" denied the request:

    resource Pod/default/bad was blocked due to the following policies

    disallow-host-namespaces:
      host-namespaces: 'validation error: ... rule host-namespaces failed at path /spec/hostNetwork/'
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import yaml

from itbench.cluster.extensions import AdmissionDecision, AdmissionRequest

#: The webhook Kyverno registers for validate rules of policies that fail closed.
VALIDATE_WEBHOOK = "validate.kyverno.svc-fail"
_BLOCKING = ("fail", "error")
#: How the engine words an UPDATE's failure it lets through (the old object failed too).
_PRE_EXISTING = "skipping the rule evaluation as pre-existing violations"


def _admits_requests(policy: dict[str, Any]) -> bool:
    # ``spec.admission: false`` keeps a policy to background scans only
    return (policy.get("spec") or {}).get("admission", True) is not False


def _with_rules(policy: dict[str, Any], rule_kind: str) -> dict[str, Any] | None:
    """The policy reduced to its rules of one type (``mutate``, ``validate``); None if none."""
    rules = [r for r in (policy.get("spec") or {}).get("rules") or [] if rule_kind in r]
    if not rules:
        return None
    reduced = dict(policy)
    reduced["spec"] = {**(policy.get("spec") or {}), "rules": rules}
    return reduced


def _rule_enforces(policy: dict[str, Any], rule_name: str) -> bool:
    """A rule's own ``validate.failureAction`` wins over the policy's
    ``validationFailureAction`` (autogen rules inherit their source rule's)."""
    from ciso.engines.kyverno.schema import enforces

    spec = policy.get("spec") or {}
    source = rule_name.removeprefix("autogen-cronjob-").removeprefix("autogen-")
    for rule in spec.get("rules") or []:
        if rule.get("name") in (rule_name, source):
            action = (rule.get("validate") or {}).get("failureAction")
            if action:
                return enforces(action)
    return enforces(spec.get("validationFailureAction", "Audit"))


def _blocked_message(resource: dict[str, Any], failures: dict[str, dict[str, str]]) -> str:
    meta = resource.get("metadata") or {}
    where = f"{resource.get('kind')}/{meta.get('namespace', '')}/{meta.get('name', '')}"
    listed = yaml.safe_dump(failures, sort_keys=True, default_flow_style=False, width=80)
    return (
        f'admission webhook "{VALIDATE_WEBHOOK}" denied the request: \n\n'
        f"resource {where} was blocked due to the following policies \n\n{listed}"
    )


def _context(request: AdmissionRequest, operation: str) -> Any:
    """The engine's context for this request: its operation and the user it comes from (a
    policy's subjects, roles and clusterRoles are checked against that user)."""
    from ciso.engines.kyverno.engine import Context
    from ciso.engines.kyverno.matching import Facts, UserInfo

    user = UserInfo(
        username=str(request.user.get("username") or ""),
        groups=tuple(str(g) for g in request.user.get("groups") or ()),
    )
    return Context(operation=operation, facts=Facts(user=user))


def _mutate(
    policies: Sequence[dict[str, Any]], resource: dict[str, Any], request: AdmissionRequest
) -> dict[str, Any]:
    """Every policy's mutate rules in turn, each policy on the resource as patched so far."""
    from ciso.engines.kyverno.engine import apply as apply_policies

    current = resource
    for policy in policies:
        reduced = _with_rules(policy, "mutate")
        if reduced is None:
            continue
        for result in apply_policies([reduced], [current], _context(request, request.operation)):
            if result.patched is not None and result.status == "pass":
                current = result.patched
    return current


def _judge_existing_violations(
    results: list[Any],
    policies: Sequence[dict[str, Any]],
    new: dict[str, Any],
    old: dict[str, Any],
    request: AdmissionRequest,
) -> list[Any]:
    """The engine, like Kyverno's CLI, takes an UPDATE's old object to be the new one, so an
    enforced failure on UPDATE always reads as a pre-existing violation and is skipped. Here the
    old object is known: the failure is skipped only when the old object failed the same rule,
    as Kyverno's webhook decides."""
    from ciso.engines.kyverno.engine import apply as apply_policies

    if not any(r.status == "skip" and r.message.startswith(_PRE_EXISTING) for r in results):
        return results

    def failing(resource: dict[str, Any]) -> dict[tuple[str, str], str]:
        return {
            (r.policy, r.rule): r.message
            for r in apply_policies(policies, [resource], _context(request, "CREATE"))
            if r.status == "fail"
        }

    now, before = failing(new), failing(old)
    judged = []
    for result in results:
        key = (result.policy, result.rule)
        pre_existing = result.status == "skip" and result.message.startswith(_PRE_EXISTING)
        if pre_existing and key in now and key not in before:
            result = replace(result, status="fail", message=now[key])
        judged.append(result)
    return judged


def admit(request: AdmissionRequest) -> AdmissionDecision:
    """Kyverno's mutating then validating webhook on one write, bounded by the webhook's
    timeout rather than the per-resource budget of scans and ``kyverno apply``."""
    from ciso.engines.kyverno import budget

    with budget.exempt():
        return _admit(request)


def _admit(request: AdmissionRequest) -> AdmissionDecision:
    policies = sorted(
        (p for p in request.inputs if _admits_requests(p)),
        key=lambda p: ((p.get("metadata") or {}).get("namespace", ""), p["metadata"]["name"]),
    )
    if not policies:
        return AdmissionDecision()  # the engine is imported only once a policy is deployed
    from ciso.engines.kyverno.engine import apply as apply_policies
    from ciso.engines.kyverno.engine import policy_id
    from ciso.engines.kyverno.scope import as_the_cli_reads_it

    resource = as_the_cli_reads_it(copy.deepcopy(request.object))
    patched = _mutate(policies, resource, request)
    by_id = {policy_id(p): p for p in policies}
    validating = [v for v in (_with_rules(p, "validate") for p in policies) if v is not None]
    results = apply_policies(validating, [patched], _context(request, request.operation))
    if request.operation == "UPDATE" and request.old_object is not None:
        results = _judge_existing_violations(
            results, validating, patched, request.old_object, request
        )
    failures: dict[str, dict[str, str]] = {}
    for result in results:
        if result.status in _BLOCKING and _rule_enforces(by_id[result.policy], result.rule):
            failures.setdefault(result.policy, {})[result.rule] = result.message
    if failures:
        return AdmissionDecision(False, _blocked_message(patched, failures))
    return AdmissionDecision(patched=patched if patched != resource else None)
