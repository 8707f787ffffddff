"""The reconciler of a Kubernetes cost trial: the controllers and OpenCost of the namespace.

After every write it reads the configuration the declared objects give (``objects.read_config``)
and replays the incident day on it (the week before stays as it was: its spend is the alert's
reference). Reads then show what that day ends with: each Deployment's replicas as its HPA set
them and its pods, each HPA's status (current and desired replicas, current utilisation), and the
``opencost-allocation`` ConfigMap (daily spend per workload and in total, per-pod usage against
requests, the alert's threshold and whether it fires). A change shows its effect over the
incident day at once: the agent sees what the controllers would make of it, the evaluator replays
the day and the next.
"""

from __future__ import annotations

import copy
import datetime as dt
import hashlib
import json
from collections.abc import Mapping
from typing import Any

from finops.k8s.objects import read_config
from finops.k8s.scenario import INCIDENT_DAY, K8sScenario
from finops.k8s.simulate import Config, Replay
from itbench.cluster import Reconciled

__all__ = ["ALLOCATION_CONFIGMAP", "BASE_EPOCH", "CostTwin", "at"]

Key = tuple[str, str, str, str]
ALLOCATION_CONFIGMAP = "opencost-allocation"
#: simulated day 0 of every scenario (a Monday)
BASE_EPOCH = dt.datetime(2026, 3, 2, tzinfo=dt.UTC).timestamp()


def at(day: float) -> float:
    return BASE_EPOCH + day * 86400.0


def _iso(t: float) -> str:
    return dt.datetime.fromtimestamp(t, dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _date(day: int) -> str:
    return dt.datetime.fromtimestamp(at(day), dt.UTC).strftime("%Y-%m-%d")


def _suffix(*parts: object) -> str:
    return hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()[:5]


class CostTwin:
    def __init__(self, scenario: K8sScenario) -> None:
        self.s = scenario
        self.config: Config = scenario.incident
        self.last: Replay | None = None
        self.writes = 0
        #: the namespace's declared objects as the last reconcile saw them: the trial's end state,
        #: recorded so that ``eval`` can judge the trial again without its cluster
        self.declared: dict[Key, dict[str, Any]] = {}

    def owns(self, key: Key) -> bool:
        return key[:3] == ("", "pods", self.s.namespace)

    def reconcile(
        self, declared: Mapping[Key, dict[str, Any]], write: object, now: float
    ) -> Reconciled:
        if write is not None:
            self.writes += 1
        self.declared = {
            k: copy.deepcopy(o) for k, o in declared.items() if k[2] == self.s.namespace
        }
        self.config = read_config(self.s, declared)
        run = self.s.evaluate_replay(self.config, days=1)
        self.last = run
        replicas = dict(run.final_replicas)
        usage = {n: (cpu, mem) for n, cpu, mem in run.last_usage}
        ns = self.s.namespace
        observed: dict[Key, dict[str, Any]] = {}
        objects: dict[Key, dict[str, Any]] = {}
        workloads = dict(self.config.workloads)
        for key, obj in declared.items():
            if key[:3] == ("apps", "deployments", ns) and key[3] in workloads:
                name = key[3]
                n = replicas.get(name, 0)
                shown = copy.deepcopy(obj)
                shown["spec"]["replicas"] = n
                shown["status"] = {
                    "observedGeneration": obj["metadata"].get("generation", 1),
                    "replicas": n,
                    "readyReplicas": n,
                    "availableReplicas": n,
                    "updatedReplicas": n,
                }
                observed[key] = shown
                template = obj["spec"].get("template") or {}
                for i in range(n):
                    pod_name = f"{name}-{_suffix(name, json.dumps(template, sort_keys=True))}-{_suffix(name, i)}"
                    objects[("", "pods", ns, pod_name)] = {
                        "apiVersion": "v1",
                        "kind": "Pod",
                        "metadata": {
                            "name": pod_name,
                            "namespace": ns,
                            "labels": dict((template.get("metadata") or {}).get("labels") or {}),
                            "creationTimestamp": obj["metadata"].get("creationTimestamp"),
                            "ownerReferences": [
                                {"apiVersion": "apps/v1", "kind": "Deployment", "name": name}
                            ],
                        },
                        "spec": copy.deepcopy(template.get("spec") or {}),
                        "status": {
                            "phase": "Running",
                            "conditions": [{"type": "Ready", "status": "True"}],
                            "containerStatuses": [
                                {
                                    "name": c.get("name", ""),
                                    "ready": True,
                                    "restartCount": 0,
                                    "started": True,
                                }
                                for c in (template.get("spec") or {}).get("containers") or []
                            ],
                        },
                    }
            if key[:3] == ("autoscaling", "horizontalpodautoscalers", ns):
                target = ((obj.get("spec") or {}).get("scaleTargetRef") or {}).get("name")
                if target in workloads and target in usage:
                    w = workloads[target]
                    cpu, mem = usage[target]
                    util = {
                        "cpu": round(100 * cpu / w.resources.cpu_request)
                        if w.resources.cpu_request
                        else 0,
                        "memory": round(100 * mem / w.resources.memory_request)
                        if w.resources.memory_request
                        else 0,
                    }
                    shown = copy.deepcopy(obj)
                    shown["status"] = {
                        "currentReplicas": replicas.get(target, 0),
                        "desiredReplicas": replicas.get(target, 0),
                        "currentMetrics": [
                            {
                                "type": "Resource",
                                "resource": {
                                    "name": r,
                                    "current": {"averageUtilization": util[r]},
                                },
                            }
                            for r, _ in (w.hpa.targets if w.hpa else ())
                        ],
                        "lastScaleTime": _iso(now),
                    }
                    observed[key] = shown
        objects[("", "configmaps", ns, ALLOCATION_CONFIGMAP)] = self._allocation(
            run, usage, replicas, now
        )
        return Reconciled(objects=objects, observed=observed)

    def _allocation(
        self,
        run: Replay,
        usage: Mapping[str, tuple[float, float]],
        replicas: Mapping[str, int],
        now: float,
    ) -> dict[str, Any]:
        s = self.s
        today = run.days[0]
        history = list(s.history)
        threshold = self.config.alert.threshold(history)
        spend = [
            {"date": _date(d), "total": round(v, 4), "byWorkload": {n: round(c, 4) for n, c in by}}
            for d, (v, by) in enumerate(zip(history, s.history_by_workload, strict=True))
        ]
        spend.append(
            {
                "date": _date(INCIDENT_DAY),
                "total": round(today.spend, 4),
                "byWorkload": {n: round(c, 4) for n, c in sorted(today.by_workload.items())},
            }
        )
        peaks = {n: (cpu, mem) for n, cpu, mem in run.peak_usage}
        workloads = {}
        for name, w in self.config.workloads:
            cpu, mem = usage.get(name, (0.0, 0.0))
            workloads[name] = {
                "replicas": replicas.get(name, 0),
                "cpuUsagePerPodCores": round(cpu, 4),
                "memoryUsagePerPodGiB": round(mem, 4),
                "cpuPeakPerPodCores": round(peaks.get(name, (0.0, 0.0))[0], 4),
                "memoryPeakPerPodGiB": round(peaks.get(name, (0.0, 0.0))[1], 4),
                "cpuRequestCores": w.resources.cpu_request,
                "memoryRequestGiB": round(w.resources.memory_request, 4),
                "costToday": round(today.by_workload.get(name, 0.0), 4),
            }
        doc = {
            "window": {"from": _date(0), "to": _date(INCIDENT_DAY)},
            "prices": {
                "nodeType": s.node.name,
                "cpuCoreHourly": s.node.cpu_hourly,
                "memoryGiBHourly": s.node.memory_hourly,
            },
            "dailySpend": spend,
            "today": {
                "total": round(today.spend, 4),
                "cpuCost": round(today.cpu_cost, 4),
                "memoryCost": round(today.memory_cost, 4),
                "cpuEfficiency": round(today.cpu_used_h / today.cpu_alloc_h, 4)
                if today.cpu_alloc_h
                else 0,
                "memoryEfficiency": round(today.memory_used_h / today.memory_alloc_h, 4)
                if today.memory_alloc_h
                else 0,
            },
            "workloads": workloads,
            "alert": {
                "threshold": None
                if threshold is None or threshold == float("inf")
                else round(threshold, 4),
                "firing": bool(threshold is not None and today.spend > threshold),
            },
        }
        return {
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": {
                "name": ALLOCATION_CONFIGMAP,
                "namespace": s.namespace,
                "creationTimestamp": _iso(at(0)),
                "labels": {"app.kubernetes.io/managed-by": "opencost"},
            },
            "data": {"allocation.json": json.dumps(doc, indent=1, sort_keys=True)},
        }
