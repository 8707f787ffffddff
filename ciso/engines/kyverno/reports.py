"""PolicyReports as Kyverno's background scan writes them: one ``wgpolicyk8s.io/v1alpha2``
PolicyReport per namespaced resource (ClusterPolicyReport for cluster-scoped ones), with ``scope``,
``results`` and ``summary``. Policies or rules with ``background: false`` produce no result, and
neither do rules that need admission data (request operation, user info, old object)."""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ciso.engines.kyverno import namespaces
from ciso.engines.kyverno.cel import vap as cel_vap
from ciso.engines.kyverno.cel import vpol as cel_vpol
from ciso.engines.kyverno.engine import Context, apply, policy_id
from ciso.engines.kyverno.schema import POLICY_KINDS
from ciso.engines.kyverno.structure import PolicyError, check_policy

ADMISSION_ONLY = (
    "request.operation",
    "request.userInfo",
    "request.oldObject",
    "serviceAccountName",
)
# a variable inside {{ }} starting with one of them: request.object.spec.serviceAccountName (the
# resource's own field) and a pattern key serviceAccountName are fine in a background scan, the
# bare serviceAccountName variable is not
_ADMISSION_PATH = re.compile(
    r"(?<![\w.])(?:" + "|".join(re.escape(a) for a in ADMISSION_ONLY) + r")(?![\w])"
)
_VARIABLE = re.compile(r"\{\{(.*?)\}\}", re.DOTALL)


def _reads_admission_data(rule: dict[str, Any]) -> bool:
    import json

    return any(_ADMISSION_PATH.search(v) for v in _VARIABLE.findall(json.dumps(rule)))


SUMMARY_KEYS = ("pass", "fail", "warn", "error", "skip")


def _background_rules(policy: dict[str, Any]) -> dict[str, Any]:
    """The policy with only the rules a background scan evaluates."""

    spec = dict(policy.get("spec") or {})
    if spec.get("background") is False:
        spec["rules"] = []
    else:
        # a background scan reports validation only: mutate and generate act at admission
        spec["rules"] = [
            r
            for r in spec.get("rules") or []
            if "mutate" not in r and "generate" not in r and not _reads_admission_data(r)
        ]
    return {**policy, "spec": spec}


#: The ``source`` of a report result, by the kind of the policy that produced it (Kyverno's
#: values); kinds not listed act at admission only and are not reported in a background scan.
SOURCES = {
    **dict.fromkeys(POLICY_KINDS, "kyverno"),
    **dict.fromkeys(cel_vpol.KINDS, "KyvernoValidatingPolicy"),
    **dict.fromkeys(cel_vap.KINDS, "ValidatingAdmissionPolicy"),
}


def _well_formed(policy: dict[str, Any]) -> bool:
    kind = policy.get("kind")
    if kind in cel_vpol.KINDS:
        return not cel_vpol.check_structure(policy)
    if kind in cel_vap.KINDS:
        return not cel_vap.check_structure(policy)
    try:
        check_policy(policy, str((policy.get("metadata") or {}).get("name", "")))
    except PolicyError:
        return False
    return True


def _in_background(policy: dict[str, Any]) -> bool:
    """A ValidatingPolicy may opt out of background scans (spec.evaluation.background)."""
    background = ((policy.get("spec") or {}).get("evaluation") or {}).get("background") or {}
    return background.get("enabled") is not False


def policy_reports(
    policies: Sequence[dict[str, Any]],
    resources: Sequence[dict[str, Any]],
    ctx: Context | None = None,
) -> list[dict[str, Any]]:
    """The report objects for ``resources`` (the signature the offline cluster's hook calls)."""
    by_name = {(p.get("metadata") or {}).get("name"): p for p in policies}
    # a policy of the wrong shape would be refused by Kyverno's admission: it reports nothing
    documents = list(policies)  # bindings of ValidatingAdmissionPolicies among them
    policies = [
        p for p in policies if p.get("kind") in SOURCES and _well_formed(p) and _in_background(p)
    ]
    scanned = [_background_rules(p) if p.get("kind") in POLICY_KINDS else p for p in policies]
    ctx = ctx or Context()
    # a background scan decides namespaceSelector on the labels of the Namespaces it holds;
    # labels the caller gives (a values file) win
    labels = {**namespaces.from_objects(resources), **ctx.facts.namespace_labels}
    facts = replace(ctx.facts, namespace_labels=labels)
    ctx = replace(ctx, policy_documents=documents, facts=facts)
    results = apply(scanned, resources, ctx)
    kinds: dict[str, Any] = {policy_id(p): p.get("kind") for p in policies}
    index = {
        (
            r.get("kind"),
            (r.get("metadata") or {}).get("namespace", ""),
            (r.get("metadata") or {}).get("name"),
        ): r
        for r in resources
    }
    reports: dict[tuple, dict[str, Any]] = {}
    now = int(time.time())
    for result in results:
        resource = index.get((result.kind, result.namespace, result.name))
        if resource is None:
            continue
        meta = resource.get("metadata") or {}
        uid = (
            meta.get("uid")
            or hashlib.sha1(f"{result.kind}/{result.namespace}/{result.name}".encode()).hexdigest()
        )
        key = (result.kind, result.namespace, result.name)
        report = reports.get(key)
        if report is None:
            report = {
                "apiVersion": "wgpolicyk8s.io/v1alpha2",
                "kind": "PolicyReport" if result.namespace else "ClusterPolicyReport",
                "metadata": {
                    "name": uid,
                    **({"namespace": result.namespace} if result.namespace else {}),
                    "labels": {"app.kubernetes.io/managed-by": "kyverno"},
                },
                "scope": {
                    "apiVersion": resource.get("apiVersion", ""),
                    "kind": result.kind,
                    "name": result.name,
                    **({"namespace": result.namespace} if result.namespace else {}),
                    "uid": uid,
                },
                "results": [],
                "summary": dict.fromkeys(SUMMARY_KEYS, 0),
            }
            reports[key] = report
        policy = by_name.get(result.policy.split("/")[-1]) or {}
        annotations = (policy.get("metadata") or {}).get("annotations") or {}
        status = report_status(result.status, policy)
        entry = {
            "policy": result.policy,
            "rule": result.rule,
            "result": status,
            "message": result.message,
            "source": SOURCES.get(kinds.get(result.policy, ""), "kyverno"),
            "scored": annotations.get("policies.kyverno.io/scored") != "false",
            "timestamp": {"seconds": now, "nanos": 0},
        }
        if annotations.get("policies.kyverno.io/category"):
            entry["category"] = annotations["policies.kyverno.io/category"]
        if annotations.get("policies.kyverno.io/severity"):
            entry["severity"] = annotations["policies.kyverno.io/severity"]
        report["results"].append(entry)
        report["summary"][status] += 1
    return list(reports.values())


def unscored(policy: dict[str, Any]) -> bool:
    """``policies.kyverno.io/scored: "false"``: the policy's failures are reported as warnings."""
    annotations = (policy.get("metadata") or {}).get("annotations") or {}
    return annotations.get("policies.kyverno.io/scored") == "false"


def report_status(status: str, policy: dict[str, Any]) -> str:
    """A rule status as a report (and the Kyverno CLI's test) gives it: an unscored policy's
    ``fail`` is a ``warn``."""
    return "warn" if status == "fail" and unscored(policy) else status
