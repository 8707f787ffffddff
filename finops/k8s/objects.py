"""The scenario's configuration as Kubernetes objects, and back: Deployments (replicas,
requests/limits), autoscaling/v2 HorizontalPodAutoscalers, and the ``cost-alert`` ConfigMap
holding the spend alert's rule. Reading back starts from the incident's configuration, so what
the model knows of a workload but the cluster does not show (its load, a load generator's
target) stays, and only what an agent can change is taken from the objects."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from finops.k8s.cost import SpendAlert
from finops.k8s.hpa import DEFAULT_SCALE_DOWN, DEFAULT_SCALE_UP, HPASpec, Policy, ScalingRules
from finops.k8s.scenario import ALERT_OBJECT, K8sScenario, milli
from finops.k8s.simulate import Config
from finops.k8s.workload import Resources
from itbench.cluster.quantity import parse_quantity

__all__ = ["manifests", "read_config"]

GIB = 2.0**30
Key = tuple[str, str, str, str]


def _cpu(cores: float) -> str:
    return f"{round(cores * 1000)}m"


def _mem(gib: float) -> str:
    return f"{math.ceil(gib * 1024)}Mi"


def _resources(r: Resources) -> dict[str, Any]:
    out: dict[str, Any] = {
        "requests": {"cpu": _cpu(r.cpu_request), "memory": _mem(r.memory_request)}
    }
    limits = {}
    if r.cpu_limit is not None:
        limits["cpu"] = _cpu(r.cpu_limit)
    if r.memory_limit is not None:
        limits["memory"] = _mem(r.memory_limit)
    if limits:
        out["limits"] = limits
    return out


def _rules(r: ScalingRules) -> dict[str, Any]:
    return {
        "stabilizationWindowSeconds": r.stabilization_s,
        "selectPolicy": r.select,
        "policies": [
            {"type": p.kind, "value": p.value, "periodSeconds": p.period_s} for p in r.policies
        ],
    }


def manifests(s: K8sScenario, config: Config, created: str) -> list[dict[str, Any]]:
    ns = s.namespace
    out: list[dict[str, Any]] = []
    for name, w in config.workloads:
        labels = {"app": name}
        out.append(
            {
                "apiVersion": "apps/v1",
                "kind": "Deployment",
                "metadata": {
                    "name": name,
                    "namespace": ns,
                    "labels": labels,
                    "creationTimestamp": created,
                },
                "spec": {
                    "replicas": w.replicas,
                    "selector": {"matchLabels": labels},
                    "template": {
                        "metadata": {"labels": labels},
                        "spec": {
                            "containers": [
                                {
                                    "name": name,
                                    "image": f"registry.local/shop/{name}:1.0",
                                    "resources": _resources(w.resources),
                                }
                            ]
                        },
                    },
                },
            }
        )
        if w.hpa is not None:
            out.append(
                {
                    "apiVersion": "autoscaling/v2",
                    "kind": "HorizontalPodAutoscaler",
                    "metadata": {"name": name, "namespace": ns, "creationTimestamp": created},
                    "spec": {
                        "scaleTargetRef": {
                            "apiVersion": "apps/v1",
                            "kind": "Deployment",
                            "name": name,
                        },
                        "minReplicas": w.hpa.min_replicas,
                        "maxReplicas": w.hpa.max_replicas,
                        "metrics": [
                            {
                                "type": "Resource",
                                "resource": {
                                    "name": r,
                                    "target": {"type": "Utilization", "averageUtilization": t},
                                },
                            }
                            for r, t in w.hpa.targets
                        ],
                        "behavior": {
                            "scaleUp": _rules(w.hpa.scale_up),
                            "scaleDown": _rules(w.hpa.scale_down),
                        },
                    },
                }
            )
    alert = config.alert
    data = {"variancePct": f"{alert.variance_pct:g}", "window": "7d"}
    if alert.budget_per_day is not None:
        data["budgetPerDay"] = f"{alert.budget_per_day:.2f}"
    out.append(
        {
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": {"name": ALERT_OBJECT, "namespace": ns, "creationTimestamp": created},
            "data": data,
        }
    )
    return out


def _read_resources(ctr: Mapping[str, Any], was: Resources) -> Resources:
    res = ctr.get("resources") or {}
    req, lim = res.get("requests") or {}, res.get("limits") or {}

    def q(values: Mapping[str, Any], name: str, scale: float) -> float | None:
        v = parse_quantity(values.get(name)) if name in values else None
        return None if v is None else v / scale

    cpu_l, mem_l = milli(q(lim, "cpu", 1.0)), q(lim, "memory", GIB)
    # Kubernetes defaults a missing request to the limit; with neither, nothing is reserved
    cpu_r = milli(q(req, "cpu", 1.0))
    mem_r = q(req, "memory", GIB)
    return Resources(
        cpu_r if cpu_r is not None else (cpu_l or 0.0),
        mem_r if mem_r is not None else (mem_l or 0.0),
        cpu_l,
        mem_l,
    )


def _read_rules(doc: Any, default: ScalingRules) -> ScalingRules:
    if not isinstance(doc, Mapping):
        return default
    policies = tuple(
        Policy(str(p.get("type")), int(p.get("value", 0)), int(p.get("periodSeconds", 15)))
        for p in doc.get("policies") or ()
        if isinstance(p, Mapping) and p.get("type") in ("Pods", "Percent")
    )
    return ScalingRules(
        int(doc.get("stabilizationWindowSeconds", default.stabilization_s)),
        policies or default.policies,
        str(doc.get("selectPolicy", default.select)),
    )


def _read_hpa(obj: Mapping[str, Any]) -> HPASpec:
    spec = obj.get("spec") or {}
    targets = []
    for m in spec.get("metrics") or ():
        res = (m or {}).get("resource") or {}
        value = (res.get("target") or {}).get("averageUtilization")
        if res.get("name") in ("cpu", "memory") and isinstance(value, int):
            targets.append((res["name"], value))
    behavior = spec.get("behavior") or {}
    return HPASpec(
        int(spec.get("minReplicas", 1)),
        int(spec.get("maxReplicas", 1)),
        tuple(targets),
        _read_rules(behavior.get("scaleUp"), DEFAULT_SCALE_UP),
        _read_rules(behavior.get("scaleDown"), DEFAULT_SCALE_DOWN),
    )


def _read_alert(data: Mapping[str, Any]) -> SpendAlert:
    def number(field: str) -> float | None:
        try:
            return float(data[field])
        except (KeyError, TypeError, ValueError):
            return None

    variance = number("variancePct")
    return SpendAlert(variance if variance is not None else 20.0, number("budgetPerDay"))


def read_config(s: K8sScenario, declared: Mapping[Key, dict[str, Any]]) -> Config:
    """The configuration the declared objects give; a deleted Deployment runs no pod, a deleted
    HPA leaves the Deployment's replicas, a deleted alert never fires."""
    ns = s.namespace
    deployments = {k[3]: o for k, o in declared.items() if k[:3] == ("apps", "deployments", ns)}
    hpas = {}
    for k, o in declared.items():
        if k[:3] == ("autoscaling", "horizontalpodautoscalers", ns):
            ref = (o.get("spec") or {}).get("scaleTargetRef") or {}
            if ref.get("kind") == "Deployment":
                hpas[ref.get("name")] = o
    workloads = []
    for name, was in s.incident.workloads:
        dep = deployments.get(name)
        if dep is None:
            workloads.append((name, replace(was, replicas=0, hpa=None)))
            continue
        containers = ((dep.get("spec") or {}).get("template") or {}).get("spec", {}).get(
            "containers"
        ) or [{}]
        replicas = (dep.get("spec") or {}).get("replicas", 1)
        hpa = _read_hpa(hpas[name]) if name in hpas else None
        workloads.append(
            (
                name,
                replace(
                    was,
                    resources=_read_resources(containers[0], was.resources),
                    replicas=int(replicas) if isinstance(replicas, int) else 1,
                    hpa=hpa,
                ),
            )
        )
    cm = declared.get(("", "configmaps", ns, ALERT_OBJECT))
    alert = _read_alert(cm.get("data") or {}) if cm is not None else SpendAlert(math.inf)
    return Config(tuple(workloads), alert)
