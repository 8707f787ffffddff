"""Agents of the Kubernetes cost task that work only through kubectl, as any agent must.

- ``baseline_agent`` (deterministic): reads OpenCost's allocation, the HPAs and the Deployments,
  names the cause and applies one change: a load generator left running is scaled to zero; an
  HPA whose utilisation target is low is set to 75%; an HPA held at a high ``minReplicas`` far
  under what the HPA formula asks for gets ``minReplicas: 2``; a memory request/limit at the working set that makes
  a memory-driven HPA scale out is raised; requests far above the peak usage of a fixed-size
  Deployment are cut to the peak plus headroom; when nothing is misconfigured, the workload
  whose spend rose most is the cause and the alert's budget is set to the new level.
- ``naive_agent``: halves every Deployment's replicas and requests and every HPA's bounds.
- ``idle_agent``: does nothing.
Each returns its diagnosis (workload, kind, field), or None.
"""

from __future__ import annotations

import json
import math
import subprocess
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from itbench.cluster.quantity import parse_quantity

__all__ = ["AGENTS", "Kubectl", "baseline_agent", "diagnose_only", "idle_agent", "naive_agent"]

Diagnosis = tuple[str, str, str] | None
NS = "shop"
LOW_TARGET = 40  # a CPU target under this keeps pods mostly idle
SOUND_TARGET = 75  # within the 50-80% of common practice, towards its cheap end
HEADROOM = 1.15


class Kubectl:
    def __init__(
        self, kubeconfig: Path, home: Path, read_only: bool = False, namespace: str = NS
    ) -> None:
        self.namespace = namespace
        self.env = {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "KUBECONFIG": str(kubeconfig),
            "HOME": str(home),
        }
        self.read_only = read_only
        self.calls: list[str] = []

    def __call__(self, *args: str, stdin: str | None = None) -> str:
        self.calls.append(" ".join(args))
        if self.read_only and args[0] not in ("get", "describe"):
            return ""  # the diagnose task: the change is named, not made
        done = subprocess.run(
            ["kubectl", "-n", self.namespace, *args],
            capture_output=True,
            text=True,
            env=self.env,
            input=stdin,
            timeout=60,
        )
        if done.returncode != 0:
            raise RuntimeError(f"kubectl {' '.join(args)}: {done.stderr.strip()}")
        return done.stdout

    def items(self, kind: str) -> list[dict[str, Any]]:
        return json.loads(self("get", kind, "-o", "json"))["items"]

    def allocation(self) -> dict[str, Any]:
        cm = json.loads(self("get", "configmap", "opencost-allocation", "-o", "json"))
        return json.loads(cm["data"]["allocation.json"])


def diagnose_only(k: Kubectl) -> Kubectl:
    """The same reads, no writes: an agent on the diagnose task names the change only."""
    out = Kubectl.__new__(Kubectl)
    out.env, out.read_only, out.calls, out.namespace = k.env, True, k.calls, k.namespace
    return out


def _mi(gib: float) -> str:
    return f"{math.ceil(gib * 1024)}Mi"


def _m(cores: float) -> str:
    return f"{max(1, math.ceil(cores * 1000))}m"


def _container(dep: Mapping[str, Any]) -> Mapping[str, Any]:
    return dep["spec"]["template"]["spec"]["containers"][0]


def baseline_agent(k: Kubectl) -> Diagnosis:
    alloc = k.allocation()
    deployments = {d["metadata"]["name"]: d for d in k.items("deployments")}
    hpas = {h["spec"]["scaleTargetRef"]["name"]: h for h in k.items("hpa")}
    usage = alloc["workloads"]
    # 1. a load generator nobody stopped
    for name, dep in deployments.items():
        if "load" in name and dep["spec"].get("replicas", 0) > 0 and name not in hpas:
            k("scale", "deployment", name, "--replicas=0")
            return (name, "Deployment", "spec.replicas")
    for name, hpa in hpas.items():
        spec = hpa["spec"]
        metrics = {
            m["resource"]["name"]: m["resource"]["target"].get("averageUtilization")
            for m in spec.get("metrics", [])
        }
        current = {
            m["resource"]["name"]: m["resource"]["current"].get("averageUtilization")
            for m in hpa.get("status", {}).get("currentMetrics", [])
        }
        replicas = hpa.get("status", {}).get("currentReplicas", 0)
        # 2. a CPU target so low that pods idle
        cpu_target = metrics.get("cpu")
        if cpu_target is not None and cpu_target < LOW_TARGET:
            patch = [
                {
                    "op": "replace",
                    "path": f"/spec/metrics/{list(metrics).index('cpu')}/resource/target/averageUtilization",
                    "value": SOUND_TARGET,
                }
            ]
            k("patch", "hpa", name, "--type=json", "-p", json.dumps(patch))
            return (
                name,
                "HorizontalPodAutoscaler",
                "spec.metrics[0].resource.target.averageUtilization",
            )
        # 3. held at minReplicas: the controller's own formula asks for fewer pods than the
        # minimum, so the minimum, not the load, sets the count
        lo = spec.get("minReplicas", 1)
        wanted = math.ceil(replicas * (current.get("cpu") or 0) / cpu_target) if cpu_target else lo
        if lo > 3 and replicas <= lo and wanted < lo:
            k("patch", "hpa", name, "--type=merge", "-p", json.dumps({"spec": {"minReplicas": 2}}))
            return (name, "HorizontalPodAutoscaler", "spec.minReplicas")
        # 4. a memory metric at its target while CPU idles: the memory request (= limit) sits at
        # the working set, so only more pods bring the average down
        mem_target = metrics.get("memory")
        scaled = deployments.get(name)
        if (
            mem_target
            and scaled is not None
            and cpu_target
            and (current.get("cpu") or 0) < cpu_target / 2
        ):
            peak = usage[name]["memoryPeakPerPodGiB"]
            request = max(peak * 2.0, 0.1)
            res = {"requests": {"memory": _mi(request)}, "limits": {"memory": _mi(request * 1.5)}}
            ctr = _container(scaled)["name"]
            template_patch = {
                "spec": {"template": {"spec": {"containers": [{"name": ctr, "resources": res}]}}}
            }
            k("patch", "deployment", name, "--type=strategic", "-p", json.dumps(template_patch))
            return (name, "Deployment", "spec.template.spec.containers[0].resources.limits.memory")
    # 5. requests far above the peak usage of a fixed-size Deployment
    for name, dep in deployments.items():
        if name in hpas or name not in usage:
            continue
        u = usage[name]
        req = _container(dep).get("resources", {}).get("requests", {})
        cpu_req = parse_quantity(req.get("cpu")) or 0.0
        if cpu_req and u["cpuPeakPerPodCores"] < cpu_req / 2:
            res = {
                "requests": {
                    "cpu": _m(u["cpuPeakPerPodCores"] * HEADROOM),
                    "memory": _mi(u["memoryPeakPerPodGiB"] * HEADROOM),
                }
            }
            ctr = _container(dep)["name"]
            template_patch = {
                "spec": {"template": {"spec": {"containers": [{"name": ctr, "resources": res}]}}}
            }
            k("patch", "deployment", name, "--type=strategic", "-p", json.dumps(template_patch))
            return (name, "Deployment", "spec.template.spec.containers[0].resources.requests")
    # 6. nothing misconfigured: a genuine rise; the alert's budget follows the new level
    days = alloc["dailySpend"]
    week, today = days[:-1], days[-1]

    def mean(n: str) -> float:
        return sum(d["byWorkload"].get(n, 0.0) for d in week) / len(week)

    riser = max(today["byWorkload"], key=lambda n: today["byWorkload"][n] - mean(n))
    budget = math.ceil(today["total"] * 100) / 100
    k(
        "patch",
        "configmap",
        "cost-alert",
        "--type=merge",
        "-p",
        json.dumps({"data": {"budgetPerDay": f"{budget:.2f}"}}),
    )
    return (riser, "ConfigMap", "data.budgetPerDay")


def naive_agent(k: Kubectl) -> Diagnosis:
    for dep in k.items("deployments"):
        name = dep["metadata"]["name"]
        ctr = _container(dep)
        res: dict[str, dict[str, str]] = {}
        for part in ("requests", "limits"):
            for r, v in (ctr.get("resources", {}).get(part) or {}).items():
                q = (parse_quantity(v) or 0.0) / 2
                res.setdefault(part, {})[r] = _m(q) if r == "cpu" else _mi(q / 2**30)
        patch = {
            "spec": {
                "replicas": dep["spec"].get("replicas", 1) // 2,
                "template": {"spec": {"containers": [{"name": ctr["name"], "resources": res}]}},
            }
        }
        k("patch", "deployment", name, "--type=strategic", "-p", json.dumps(patch))
    for hpa in k.items("hpa"):
        spec = hpa["spec"]
        lo, hi = max(1, spec.get("minReplicas", 1) // 2), max(1, spec["maxReplicas"] // 2)
        k(
            "patch",
            "hpa",
            hpa["metadata"]["name"],
            "--type=merge",
            "-p",
            json.dumps({"spec": {"minReplicas": lo, "maxReplicas": hi}}),
        )
    return None


def idle_agent(k: Kubectl) -> Diagnosis:
    return None


AGENTS: dict[str, Callable[[Kubectl], Diagnosis]] = {
    "baseline": baseline_agent,
    "naive": naive_agent,
    "nothing": idle_agent,
}
