"""A trivial report producer for tests: one PolicyReport per namespace with a Pod, failing every
Pod that uses the host network, for every policy. It stands in for the Kyverno engine."""

from __future__ import annotations


def host_network_reports(policies, resources):
    reports = {}
    for pod in (r for r in resources if r["kind"] == "Pod"):
        ns = pod["metadata"]["namespace"]
        report = reports.setdefault(
            ns,
            {
                "apiVersion": "wgpolicyk8s.io/v1alpha2",
                "kind": "PolicyReport",
                "metadata": {"name": f"test-{ns}", "namespace": ns},
                "results": [],
                "summary": {"pass": 0, "fail": 0, "warn": 0, "error": 0, "skip": 0},
            },
        )
        for policy in policies:
            failed = bool(pod["spec"].get("hostNetwork"))
            report["results"].append(
                {
                    "policy": policy["metadata"]["name"],
                    "result": "fail" if failed else "pass",
                    "resources": [{"kind": "Pod", "name": pod["metadata"]["name"]}],
                }
            )
            report["summary"]["fail" if failed else "pass"] += 1
    return list(reports.values())
