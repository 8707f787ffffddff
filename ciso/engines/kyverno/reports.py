"""PolicyReports as Kyverno's background scan writes them: one ``wgpolicyk8s.io/v1alpha2``
PolicyReport per namespaced resource (ClusterPolicyReport for cluster-scoped ones), with ``scope``,
``results`` and ``summary``. Policies or rules with ``background: false`` produce no result, and
neither do rules that need admission data (request operation, user info, old object)."""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Sequence
from typing import Any

from ciso.engines.kyverno.engine import Context, apply
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


def _well_formed(policy: dict[str, Any]) -> bool:
    try:
        check_policy(policy, str((policy.get("metadata") or {}).get("name", "")))
    except PolicyError:
        return False
    return True


def policy_reports(
    policies: Sequence[dict[str, Any]],
    resources: Sequence[dict[str, Any]],
    ctx: Context | None = None,
) -> list[dict[str, Any]]:
    """The report objects for ``resources`` (the signature the offline cluster's hook calls)."""
    by_name = {(p.get("metadata") or {}).get("name"): p for p in policies}
    # a policy of the wrong shape would be refused by Kyverno's admission: it reports nothing
    policies = [p for p in policies if _well_formed(p)]
    results = apply([_background_rules(p) for p in policies], resources, ctx)
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
        status = result.status
        if status == "fail" and annotations.get("policies.kyverno.io/scored") == "false":
            status = "warn"
        entry = {
            "policy": result.policy,
            "rule": result.rule,
            "result": status,
            "message": result.message,
            "source": "kyverno",
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
