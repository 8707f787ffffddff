"""Shared pieces of the CISO baseline's reading tests: a requirement parsed into its intent, and
the objects the rendered policy flags through the real engines (the Kyverno scanner, Rego).
No tests here."""

from __future__ import annotations

from typing import Any

import yaml

from ciso.agents.baseline.intent import Intent
from ciso.agents.baseline.parser import parse
from ciso.agents.baseline.render import render
from ciso.evaluation.kyverno_engines import select_scanner
from ciso.evaluation.kyverno_migrate import _flagged
from ciso.evaluation.rego import evaluate_source


def intent_of(text: str, platform: str = "kubernetes") -> Intent:
    """The intent the baseline reads from ``text`` (the test fails when it reads none)."""
    parsed = parse(text, platform)
    assert isinstance(parsed, Intent), parsed
    return parsed


def kyverno_flags(intent: Intent, objects: list[dict[str, Any]]) -> set[str]:
    """The names of the objects (and the pods their controllers would make) the rendered
    ClusterPolicy flags in a background scan."""
    policy = [
        d for d in yaml.safe_load_all(render(intent, "kyverno").files["kyverno-policy.yaml"]) if d
    ]
    return {r.name for r in _flagged(select_scanner("itbench"), policy, objects)}


def rego_flags(intent: Intent, objects: list[dict[str, Any]], ciso_class: str) -> set[str]:
    """The names of the objects the Rego policy rendered for ``ciso_class`` (kubectl-opa or
    opa-static) counts as violations."""
    policy = render(intent, ciso_class).files["policy.rego"]
    result = evaluate_source({"policy.rego": policy}, "data.check.violations", {"items": objects})
    return {v.rsplit("/", 1)[-1] for v in result.value}


#: the three Kubernetes classes a rendered policy is judged in
CLASSES = ("kyverno", "kubectl-opa", "opa-static")


def flagged(intent: Intent, objects: list[dict[str, Any]], ciso_class: str) -> set[str]:
    """The names among ``objects`` themselves that the class's rendered policy flags (Kyverno's
    scanner also judges the pods a controller would create: only the objects count)."""
    names = {o["metadata"]["name"] for o in objects}
    if ciso_class == "kyverno":
        return kyverno_flags(intent, objects) & names
    return rego_flags(intent, objects, ciso_class) & names


def assert_every_class(intent: Intent, objects: list[dict[str, Any]], expected: set[str]) -> None:
    """Each class flags exactly ``expected`` among ``objects``."""
    for ciso_class in CLASSES:
        assert flagged(intent, objects, ciso_class) == expected, ciso_class


def role(kind: str, name: str, rules: list[dict[str, Any]], namespace: str = "") -> dict[str, Any]:
    """A Role or ClusterRole with ``rules``."""
    metadata = {"name": name, **({"namespace": namespace} if namespace else {})}
    return {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": kind, "metadata": metadata,
            "rules": rules}  # fmt: skip


def api_object(api: str, kind: str, name: str, namespace: str = "team", **body: Any) -> dict:
    """An object of ``kind`` (``namespace=""`` for a cluster-scoped one) with ``body`` beside
    its metadata (``spec=...``, ``data=...``)."""
    meta = {"name": name, **({"namespace": namespace} if namespace else {})}
    return {"apiVersion": api, "kind": kind, "metadata": meta, **body}


def labelled_namespace(name: str, **labels: str) -> dict[str, Any]:
    """A Namespace carrying ``labels``."""
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name, "labels": labels}}


def pod_carrier(
    kind: str, name: str, spec: dict[str, Any], namespace: str = "team"
) -> dict[str, Any]:
    """A Pod, or a workload of ``kind`` whose pod template carries ``spec`` (a CronJob through its
    job template; ``namespace=""`` for none)."""
    meta = {"name": name, **({"namespace": namespace} if namespace else {})}
    if kind == "Pod":
        return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}
    template = {"metadata": {"labels": {"app": name}}, "spec": spec}
    if kind == "CronJob":
        return {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": meta,
                "spec": {"schedule": "15 2 * * *", "jobTemplate": {"spec": {"template": template}}}}  # fmt: skip
    if kind == "Job":
        return {
            "apiVersion": "batch/v1",
            "kind": "Job",
            "metadata": meta,
            "spec": {"template": template},
        }
    return {"apiVersion": "apps/v1", "kind": kind, "metadata": meta,
            "spec": {"selector": {"matchLabels": {"app": name}}, "template": template}}  # fmt: skip
