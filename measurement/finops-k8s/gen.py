#!/usr/bin/env python3
"""Held-out FinOps-on-Kubernetes cost-alert scenarios (stdlib only, deterministic).

usage: python3 gen.py OUTDIR

Written from public specifications only (Kubernetes HPA docs/controller formula, OpenCost's
allocation rule, the project's user docs docs/finops/kubernetes.md), without reading the project's
implementation.  For each scenario writes OUTDIR/<id>/:
  scenario.json      the world: node prices, usage model, load series (5-min steps, 9 days),
                     the history ("sound") objects and the incident-day objects, the alert
  manifests.json     the incident-day objects as a Kubernetes List (Deployments, HPAs autoscaling/v2,
                     the cost-alert ConfigMap) -- what an agent would find in the namespace
  ground_truth.json  cause, acceptable diagnoses, acceptable remedies, optimum configuration and its
                     costs/efficiencies as computed by THIS file's reference simulator, 2 naive
                     remedies that must not pass (with the reason under the reference simulator)
and OUTDIR/cases.json (the table).  Keep ground_truth.json / cases.json away from agents.
"""
from __future__ import annotations

import copy
import json
import math
import os
import random
import sys

STEPS_PER_DAY = 288           # 5-minute steps
SYNCS_PER_STEP = 20           # HPA sync period 15 s -> 20 syncs per 5 minutes
TOLERANCE = 0.1               # --horizontal-pod-autoscaler-tolerance default
DOWN_WINDOW_SYNCS = 20        # scale-down stabilisation 300 s / 15 s
HISTORY_DAYS = 7              # d0..d6, incident day d7, next day d8
DAYS = 9
SLO_ALLOWED_STEPS = 2
COST_RATIO_MIN = 0.8
MUTE_FACTOR = 1.5

NODE_TYPES = {
    # name: (USD per core-hour, USD per GiB-hour)  on-demand list-price splits, rounded
    "n2-standard-8": (0.031611, 0.004237),
    "e2-standard-4": (0.021811, 0.002923),
    "m6i.2xlarge": (0.036000, 0.004500),
    "c6i.4xlarge": (0.034000, 0.003800),
    "Standard_D8s_v5": (0.048000, 0.006000),
    "n2d-highmem-8": (0.027600, 0.003700),
    "m6a.xlarge-spot": (0.013000, 0.001700),
    "r6i.2xlarge": (0.030000, 0.005600),
}


# ----------------------------------------------------------------------------- load shapes
def load_series(spec: dict, seed: int) -> list[list[float]]:
    """rps per 5-minute step for DAYS days.

    spec: base, amp (diurnal amplitude), peak_h, weekly (7 factors, index = weekday),
    start_dow (weekday of d0; 0 = Monday), steps [[day, hour, factor]], ramps [[day, hour,
    hours, factor]], spikes [[day|-1 (daily), hour, minutes, factor]], noise (uniform +-).
    """
    rng = random.Random(seed)
    out = []
    for d in range(DAYS):
        dow = (spec.get("start_dow", 0) + d) % 7
        wk = spec.get("weekly", [1] * 7)[dow]
        row = []
        for s in range(STEPS_PER_DAY):
            h = s / 12.0
            t = d * 24 + h
            v = spec["base"] * wk * (1 + spec.get("amp", 0) * math.cos(2 * math.pi * (h - spec.get("peak_h", 14)) / 24))
            for sd, sh, f in spec.get("steps", []):
                if t >= sd * 24 + sh:
                    v *= f
            for rd, rh, hours, f in spec.get("ramps", []):
                t0 = rd * 24 + rh
                if t >= t0:
                    v *= 1 + (f - 1) * min(1.0, (t - t0) / hours)
            for pd, ph, minutes, f in spec.get("spikes", []):
                if (pd == -1 or pd == d) and ph <= h < ph + minutes / 60.0:
                    v *= f
            v *= 1 + spec.get("noise", 0.03) * (2 * rng.random() - 1)
            row.append(round(max(v, 0.0), 2))
        out.append(row)
    return out


# ----------------------------------------------------------------------------- reference simulator
def _util_pct(total_use: float, total_req: float) -> int:
    # the controller computes an int32 percentage: metricsTotal*100/requestsTotal
    return int(total_use * 100 / total_req) if total_req > 0 else 0


def _ratio_replicas(n: int, ratio: float) -> int:
    if abs(ratio - 1.0) <= TOLERANCE:
        return n
    return max(1, math.ceil(ratio * n))


def pod_usage(w: dict, rps: float, n: int) -> tuple[float, float, float]:
    """(cpu demand cores, cpu used cores after throttling, working set MiB) per pod."""
    share = rps / n if n else 0.0
    demand = w["usage"]["cpu_floor"] + w["usage"]["cpu_per_rps"] * share
    used = min(demand, w["cpu_limit"]) if w.get("cpu_limit") else demand
    ws = w["usage"]["mem_floor_mib"] + w["usage"]["mem_per_rps_mib"] * share
    return demand, used, ws


def hpa_desired(w: dict, hpa: dict, rps: float, n: int) -> int:
    best = 0
    for m in hpa["metrics"]:
        _, used, ws = pod_usage(w, rps, n)
        if m["type"] == "Resource" and m["name"] == "cpu":
            util = _util_pct(used * n, w["cpu_request"] * n)
            d = _ratio_replicas(n, util / m["averageUtilization"])
        elif m["type"] == "Resource" and m["name"] == "memory":
            util = _util_pct(ws * n, w["mem_request_mib"] * n)
            d = _ratio_replicas(n, util / m["averageUtilization"])
        elif m["type"] == "Pods":
            per_pod = rps / n
            d = _ratio_replicas(n, per_pod / m["averageValue"])
        else:
            raise ValueError(m)
        best = max(best, d)
    return best


def simulate(world: dict, objects_by_step, days: range, init: dict | None = None):
    """Replay `days`.  objects_by_step(day, step) -> objects dict.  Returns per-day totals."""
    series = world["load"]
    state = dict(init or {})
    history: dict[str, list[int]] = {}
    res = {"days": {}, "end_state": None}
    for d in days:
        day = {"cpu_cost": 0.0, "mem_cost": 0.0, "cpu_used": 0.0, "cpu_alloc": 0.0, "mem_used": 0.0,
               "mem_alloc": 0.0, "slo_steps": 0, "by_workload": {}, "max_replicas": {}}
        for s in range(STEPS_PER_DAY):
            objs = objects_by_step(d, s)
            wls = objs["workloads"]
            # incoming load per workload: own profile + active load generators
            rps = {name: (series[name][d][s] if name in series else 0.0) for name in wls}
            for name, w in wls.items():
                lg = w.get("loadgen")
                if lg:
                    rps[lg["target"]] = rps.get(lg["target"], 0.0) + w["replicas"] * lg["rps_per_replica"]
            out = False
            for name, w in wls.items():
                hpa = objs["hpas"].get(name)
                if hpa is None:
                    n = w["replicas"]
                else:
                    n = state.get(name) or max(hpa["minReplicas"], 1)
                    recs = history.setdefault(name, [])
                    beh = hpa.get("behavior", {})
                    for _ in range(SYNCS_PER_STEP):
                        want = min(max(hpa_desired(w, hpa, rps[name], n), hpa["minReplicas"]), hpa["maxReplicas"])
                        recs.append(want)
                        del recs[:-DOWN_WINDOW_SYNCS]
                        if want > n:
                            n = min(want, max(2 * n, n + 4))           # default scaleUp policies (Max)
                        elif want < n:
                            if beh.get("scaleDown", {}).get("selectPolicy") == "Disabled":
                                continue
                            n = max(min(max(recs), n), want)           # highest recommendation of the window
                        n = min(max(n, hpa["minReplicas"]), hpa["maxReplicas"])
                    state[name] = n
                day["max_replicas"][name] = max(day["max_replicas"].get(name, 0), n)
                if n == 0:
                    continue
                pc, pm = NODE_TYPES[w["node_type"]]
                demand, used, ws = pod_usage(w, rps[name], n)
                pk = day.setdefault("peak_pod", {}).setdefault(name, [0.0, 0.0])
                pk[0] = max(pk[0], used)
                pk[1] = max(pk[1], ws)
                cpu_alloc = max(used, w["cpu_request"]) * n
                mem_alloc = max(ws, w["mem_request_mib"]) * n / 1024
                c = cpu_alloc * pc / 12
                m = mem_alloc * pm / 12
                day["cpu_cost"] += c
                day["mem_cost"] += m
                day["cpu_used"] += used * n / 12
                day["cpu_alloc"] += cpu_alloc / 12
                day["mem_used"] += ws * n / 1024 / 12
                day["mem_alloc"] += mem_alloc / 12
                bw = day["by_workload"].setdefault(name, 0.0)
                day["by_workload"][name] = bw + c + m
                if not w.get("loadgen"):
                    if (w.get("cpu_limit") and demand >= 0.9 * w["cpu_limit"]) or \
                       (w.get("mem_limit_mib") and ws > w["mem_limit_mib"]) or ws > w["mem_request_mib"]:
                        out = True
            if out:
                day["slo_steps"] += 1
        day["spend"] = day["cpu_cost"] + day["mem_cost"]
        res["days"][d] = day
    res["end_state"] = dict(state)
    return res


# ----------------------------------------------------------------------------- patches
def get_path(obj, path):
    for p in path.split("."):
        obj = obj[int(p)] if isinstance(obj, list) else obj[p]
    return obj


def apply_patches(objs: dict, patches: list[dict]) -> dict:
    """patch: {kind: Deployment|HorizontalPodAutoscaler|ConfigMap, name, field (model path), value}
    value None deletes the key (HPA: deletes the HPA; ConfigMap: deletes the alert)."""
    o = copy.deepcopy(objs)
    for p in patches:
        if p["kind"] == "Deployment":
            tgt = o["workloads"][p["name"]]
        elif p["kind"] == "HorizontalPodAutoscaler":
            tgt = o["hpas"][p["name"]]
        else:
            tgt = o["alert"]
        if "field" not in p:                 # delete the whole object
            if p["kind"] == "ConfigMap":
                o["alert"] = None
            elif p["kind"] == "HorizontalPodAutoscaler":
                del o["hpas"][p["name"]]
            continue
        parts = p["field"].split(".")
        parent = get_path(tgt, ".".join(parts[:-1])) if len(parts) > 1 else tgt
        key = parts[-1]
        if isinstance(parent, list):
            key = int(key)
            if key == len(parent):
                parent.append(None)
        if p.get("value", 0) is None:
            if isinstance(parent, list):
                parent.pop(key)
            else:
                parent.pop(key, None)
        else:
            parent[key] = p["value"]
    return o


def half_everything(objs: dict) -> dict:
    o = copy.deepcopy(objs)
    for w in o["workloads"].values():
        w["replicas"] = max(1, w["replicas"] // 2) if w["replicas"] else 0
        w["cpu_request"] /= 2
        w["mem_request_mib"] /= 2
        if w.get("cpu_limit"):
            w["cpu_limit"] /= 2
        if w.get("mem_limit_mib"):
            w["mem_limit_mib"] /= 2
    for h in o["hpas"].values():
        h["minReplicas"] = max(1, h["minReplicas"] // 2)
        h["maxReplicas"] = max(h["minReplicas"], h["maxReplicas"] // 2)
    return o


# ----------------------------------------------------------------------------- scenarios
def W(name, node, cpu_req, cpu_lim, mem_req, mem_lim, cpu_floor, cpu_per_rps, mem_floor, mem_per_rps,
      replicas=0, loadgen=None, image=None):
    image = image or f"registry.internal/{name}:1.{sum(map(ord, name)) % 9}.{len(name) % 5}"
    return {"name": name, "node_type": node, "cpu_request": cpu_req, "cpu_limit": cpu_lim,
            "mem_request_mib": mem_req, "mem_limit_mib": mem_lim, "replicas": replicas, "image": image,
            "usage": {"cpu_floor": cpu_floor, "cpu_per_rps": cpu_per_rps, "mem_floor_mib": mem_floor,
                      "mem_per_rps_mib": mem_per_rps}, "loadgen": loadgen}


def H(mn, mx, cpu=None, mem=None, pods=None, behavior=None):
    metrics = []
    if cpu is not None:
        metrics.append({"type": "Resource", "name": "cpu", "averageUtilization": cpu})
    if mem is not None:
        metrics.append({"type": "Resource", "name": "memory", "averageUtilization": mem})
    if pods is not None:
        metrics.append({"type": "Pods", "name": pods[0], "averageValue": pods[1]})
    h = {"minReplicas": mn, "maxReplicas": mx, "metrics": metrics}
    if behavior:
        h["behavior"] = behavior
    return h


def objs(workloads, hpas, alert):
    return {"workloads": {w["name"]: w for w in workloads}, "hpas": hpas, "alert": alert}


def alert(variance=20, budget=None):
    return {"variancePct": variance, "budgetPerDay": budget}


DIURNAL_WEEK = [1.0, 1.02, 1.03, 1.0, 0.97, 0.85, 0.82]


def scenarios() -> list[dict]:
    S = []

    # ---------------- budget-too-low: genuine lasting rise over a fixed budget; fix the alert
    ws = [W("web-frontend", "n2-standard-8", 0.5, 0.75, 512, 1024, 0.05, 0.0022, 300, 0.25),
          W("cart", "n2-standard-8", 0.25, 1.0, 384, 768, 0.04, 0.0, 250, 0.0, replicas=3),
          W("session-store", "n2-standard-8", 0.5, 1.0, 2048, 2048, 0.10, 0.0, 1400, 0.0, replicas=2)]
    S.append(dict(id="bt-01", family="budget-too-low", namespace="storefront",
                  load={"web-frontend": dict(base=420, amp=0.5, peak_h=20, weekly=DIURNAL_WEEK, start_dow=2,
                                             steps=[[7, 0, 2.3]])},
                  history=objs(ws, {"web-frontend": H(3, 40, cpu=70)}, alert(20, "auto:1.05")),
                  incident=None, change_at=[7, 0],
                  cause=dict(workload="web-frontend", kind="ConfigMap", object="cost-alert", field="budgetPerDay"),
                  genuine=True, story="EU traffic routed to this cluster from 00:00 (DNS change); HPA scales correctly."))

    ws = [W("statement-api", "m6i.2xlarge", 1.0, 1.4, 1024, 2048, 0.1, 0.0045, 600, 0.4),
          W("pdf-export", "m6i.2xlarge", 0.5, 1.0, 768, 1536, 0.05, 0.0, 500, 0.0, replicas=2)]
    S.append(dict(id="bt-02", family="budget-too-low", namespace="ledger",
                  load={"statement-api": dict(base=260, amp=0.35, peak_h=11, weekly=[1, 1, 1, 1, 1, 0.9, 0.9],
                                              start_dow=0, steps=[[7, 6, 2.1]], spikes=[[-1, 9, 30, 1.3]])},
                  history=objs(ws, {"statement-api": H(2, 30, cpu=65)}, alert(20, "auto:1.02")),
                  incident=None, change_at=[7, 0],
                  cause=dict(workload="statement-api", kind="ConfigMap", object="cost-alert", field="budgetPerDay"),
                  genuine=True, story="A large customer onboarded at 06:00; traffic doubled for good."))

    ws = [W("thumbnailer", "c6i.4xlarge", 0.75, 1.0, 640, 1280, 0.08, 0.0060, 350, 0.9),
          W("upload-gw", "c6i.4xlarge", 0.25, 0.5, 256, 512, 0.05, 0.0, 180, 0.0, replicas=3)]
    S.append(dict(id="bt-03", family="budget-too-low", namespace="media",
                  load={"thumbnailer": dict(base=230, amp=0.4, peak_h=15, weekly=DIURNAL_WEEK, start_dow=4,
                                            ramps=[[7, 0, 6, 1.75]])},
                  history=objs(ws, {"thumbnailer": H(2, 50, cpu=75)}, alert(20, None)),
                  incident=None, change_at=[7, 0],
                  cause=dict(workload="thumbnailer", kind="ConfigMap", object="cost-alert", field="budgetPerDay"),
                  genuine=True, story="New mobile app version uploads 4 sizes; ramp over the morning, lasting. "
                                      "Alert compares to last week's average (no budgetPerDay)."))

    # ---------------- hpa-target-low
    ws = [W("checkout-api", "n2-standard-8", 0.5, 0.6, 512, 1024, 0.04, 0.0018, 320, 0.2),
          W("payments-adapter", "n2-standard-8", 0.25, 0.5, 256, 512, 0.03, 0.0, 200, 0.0, replicas=2)]
    S.append(dict(id="tl-01", family="hpa-target-low", namespace="checkout",
                  load={"checkout-api": dict(base=900, amp=0.45, peak_h=19, weekly=DIURNAL_WEEK, start_dow=1)},
                  history=objs(ws, {"checkout-api": H(2, 60, cpu=70)}, alert(20, None)),
                  incident={"patch": [dict(kind="HorizontalPodAutoscaler", name="checkout-api",
                                           field="metrics.0.averageUtilization", value=20)]},
                  change_at=[7, 0],
                  cause=dict(workload="checkout-api", kind="HorizontalPodAutoscaler", object="checkout-api",
                             field="spec.metrics[0].resource.target.averageUtilization"),
                  knobs={"target": {"hpa": "checkout-api", "metric": 0, "grid": list(range(50, 81, 5))}},
                  story="Helm values for a load-test environment merged into prod (target 20%)."))

    ws = [W("search-api", "Standard_D8s_v5", 1.0, 1.5, 1536, 3072, 0.15, 0.0070, 1100, 0.5),
          W("query-suggest", "Standard_D8s_v5", 0.5, 1.0, 512, 1024, 0.05, 0.0012, 300, 0.1),
          W("indexer", "Standard_D8s_v5", 1.0, 2.0, 2048, 4096, 0.40, 0.0, 1500, 0.0, replicas=1)]
    S.append(dict(id="tl-02", family="hpa-target-low", namespace="search",
                  load={"search-api": dict(base=210, amp=0.3, peak_h=13, weekly=[1, 1, 1, 1, 1, 0.7, 0.7],
                                           start_dow=3, spikes=[[-1, 12, 45, 1.4]]),
                        "query-suggest": dict(base=500, amp=0.3, peak_h=13, weekly=[1, 1, 1, 1, 1, 0.7, 0.7],
                                              start_dow=3)},
                  history=objs(ws, {"search-api": H(2, 40, cpu=60), "query-suggest": H(2, 20, cpu=70)},
                               alert(20, None)),
                  incident={"patch": [dict(kind="HorizontalPodAutoscaler", name="search-api",
                                           field="metrics.0.averageUtilization", value=30)]},
                  change_at=[7, 0],
                  cause=dict(workload="search-api", kind="HorizontalPodAutoscaler", object="search-api",
                             field="spec.metrics[0].resource.target.averageUtilization"),
                  knobs={"target": {"hpa": "search-api", "metric": 0, "grid": list(range(50, 81, 5))}},
                  story="Someone lowered the target after a latency complaint; the lunch spike is normal."))

    ws = [W("recommendation", "e2-standard-4", 0.5, 0.75, 768, 1536, 0.05, 0.0030, 450, 0.3),
          W("feature-store", "e2-standard-4", 0.5, 1.0, 3072, 3072, 0.10, 0.0, 2200, 0.0, replicas=3)]
    S.append(dict(id="tl-03", family="hpa-target-low", namespace="personalise",
                  load={"recommendation": dict(base=520, amp=0.55, peak_h=21, weekly=DIURNAL_WEEK, start_dow=5)},
                  history=objs(ws, {"recommendation": H(2, 50, cpu=78)}, alert(20, None)),
                  incident={"patch": [dict(kind="HorizontalPodAutoscaler", name="recommendation",
                                           field="metrics.0.averageUtilization", value=42)]},
                  change_at=[7, 0],
                  cause=dict(workload="recommendation", kind="HorizontalPodAutoscaler", object="recommendation",
                             field="spec.metrics[0].resource.target.averageUtilization"),
                  knobs={"target": {"hpa": "recommendation", "metric": 0, "grid": list(range(50, 81, 5))}},
                  story="Target 42%: low but not absurd (a rule 'target < 40%' misses it)."))

    # ---------------- hpa-min-replicas-high
    ws = [W("notification-svc", "m6i.2xlarge", 0.5, 1.0, 512, 1024, 0.05, 0.0025, 300, 0.2),
          W("email-relay", "m6i.2xlarge", 0.25, 0.5, 256, 512, 0.03, 0.0, 160, 0.0, replicas=2)]
    S.append(dict(id="mr-01", family="hpa-min-replicas-high", namespace="messaging",
                  load={"notification-svc": dict(base=140, amp=0.5, peak_h=18, weekly=DIURNAL_WEEK, start_dow=0)},
                  history=objs(ws, {"notification-svc": H(2, 24, cpu=70)}, alert(20, None)),
                  incident={"patch": [dict(kind="HorizontalPodAutoscaler", name="notification-svc",
                                           field="minReplicas", value=16)]},
                  change_at=[7, 0],
                  cause=dict(workload="notification-svc", kind="HorizontalPodAutoscaler", object="notification-svc",
                             field="spec.minReplicas"),
                  knobs={"minReplicas": {"hpa": "notification-svc", "grid": list(range(2, 17))}},
                  story="minReplicas raised to 16 for a campaign that was cancelled."))

    ws = [W("geo-lookup", "r6i.2xlarge", 0.5, 1.0, 2048, 2560, 0.06, 0.0016, 1700, 0.3),
          W("tile-cache", "r6i.2xlarge", 0.25, 0.5, 1024, 1024, 0.05, 0.0, 700, 0.0, replicas=2)]
    S.append(dict(id="mr-02", family="hpa-min-replicas-high", namespace="maps",
                  load={"geo-lookup": dict(base=900, amp=0.7, peak_h=8, weekly=[1, 1, 1, 1, 1.05, 0.8, 0.75],
                                           start_dow=6, spikes=[[-1, 17, 60, 1.3]])},
                  history=objs(ws, {"geo-lookup": H(3, 30, cpu=70)}, alert(20, None)),
                  incident={"patch": [dict(kind="HorizontalPodAutoscaler", name="geo-lookup",
                                           field="minReplicas", value=11)]},
                  change_at=[7, 0],
                  cause=dict(workload="geo-lookup", kind="HorizontalPodAutoscaler", object="geo-lookup",
                             field="spec.minReplicas"),
                  knobs={"minReplicas": {"hpa": "geo-lookup", "grid": list(range(2, 12))}},
                  story="minReplicas 11: the peak still scales above it, only nights/weekend are wasted."))

    # ---------------- requests-over-usage
    ws = [W("pdf-renderer", "m6i.2xlarge", 0.3, 2.5, 768, 1536, 0.05, 0.0045, 520, 0.0, replicas=6),
          W("doc-api", "m6i.2xlarge", 0.5, 1.0, 512, 1024, 0.05, 0.0020, 300, 0.2)]
    ro1_inc = [dict(kind="Deployment", name="pdf-renderer", field="cpu_request", value=2.0)]
    S.append(dict(id="ro-01", family="requests-over-usage", namespace="documents",
                  load={"pdf-renderer": dict(base=60, amp=0.5, peak_h=10, weekly=[1, 1, 1, 1, 1, 0.6, 0.6],
                                             start_dow=1),
                        "doc-api": dict(base=200, amp=0.4, peak_h=10, weekly=[1, 1, 1, 1, 1, 0.6, 0.6], start_dow=1)},
                  history=objs(ws, {"doc-api": H(2, 20, cpu=70)}, alert(20, None)),
                  incident={"patch": ro1_inc}, change_at=[7, 0],
                  cause=dict(workload="pdf-renderer", kind="Deployment", object="pdf-renderer",
                             field="spec.template.spec.containers[0].resources.requests.cpu"),
                  knobs={"request": {"workload": "pdf-renderer", "field": "cpu_request",
                                     "grid": [round(0.05 * i, 2) for i in range(1, 41)]}},
                  story="A 'large' resource profile (2 CPU) copied from the batch cluster; 6 fixed replicas."))

    ws = [W("session-cache", "n2d-highmem-8", 0.2, 0.4, 1536, 2048, 0.08, 0.0008, 900, 0.9, replicas=4),
          W("auth-api", "n2d-highmem-8", 0.25, 0.5, 384, 768, 0.04, 0.0010, 250, 0.1)]
    S.append(dict(id="ro-02", family="requests-over-usage", namespace="identity",
                  load={"session-cache": dict(base=300, amp=0.4, peak_h=9, weekly=DIURNAL_WEEK, start_dow=2),
                        "auth-api": dict(base=300, amp=0.4, peak_h=9, weekly=DIURNAL_WEEK, start_dow=2)},
                  history=objs(ws, {"auth-api": H(2, 12, cpu=70)}, alert(20, None)),
                  incident={"patch": [dict(kind="Deployment", name="session-cache", field="mem_request_mib", value=8192),
                                      dict(kind="Deployment", name="session-cache", field="mem_limit_mib", value=8192)]},
                  change_at=[7, 0],
                  cause=dict(workload="session-cache", kind="Deployment", object="session-cache",
                             field="spec.template.spec.containers[0].resources.requests.memory"),
                  knobs={"request": {"workload": "session-cache", "field": "mem_request_mib",
                                     "grid": list(range(512, 8193, 32))}},
                  story="JVM heap tuned to -Xmx1g but the memory request set to 8Gi (and limit)."))

    ws = [W("inventory-sync", "Standard_D8s_v5", 0.5, 4.0, 512, 1024, 0.05, 0.0040, 350, 0.2),
          W("stock-api", "Standard_D8s_v5", 0.25, 0.5, 256, 512, 0.04, 0.0, 180, 0.0, replicas=2)]
    S.append(dict(id="ro-03", family="requests-over-usage", namespace="warehouse",
                  load={"inventory-sync": dict(base=240, amp=0.35, peak_h=3, weekly=DIURNAL_WEEK, start_dow=3,
                                               spikes=[[-1, 2, 60, 1.5]])},
                  history=objs(ws, {"inventory-sync": H(2, 20, cpu=70)}, alert(20, None)),
                  incident={"patch": [dict(kind="Deployment", name="inventory-sync", field="cpu_request", value=3.0)]},
                  change_at=[7, 0],
                  cause=dict(workload="inventory-sync", kind="Deployment", object="inventory-sync",
                             field="spec.template.spec.containers[0].resources.requests.cpu"),
                  knobs={"request": {"workload": "inventory-sync", "field": "cpu_request",
                                     "grid": [round(0.1 * i, 1) for i in range(2, 31)]}},
                  story="CPU request 3 cores under an HPA: the HPA sits at minReplicas at ~10% utilisation."))

    # ---------------- memory-limit-scale-out
    ws = [W("quote-engine", "n2-standard-8", 0.5, 1.0, 1024, 1024, 0.05, 0.0020, 600, 0.15),
          W("rates-cache", "n2-standard-8", 0.25, 0.5, 512, 512, 0.03, 0.0, 300, 0.0, replicas=2)]
    S.append(dict(id="ml-01", family="memory-limit-scale-out", namespace="insurance",
                  load={"quote-engine": dict(base=300, amp=0.4, peak_h=12, weekly=DIURNAL_WEEK, start_dow=0)},
                  history=objs(ws, {"quote-engine": H(2, 30, cpu=70, mem=75)}, alert(20, None)),
                  incident={"usage": {"quote-engine": {"mem_floor_mib": 905}},
                            "patch": [dict(kind="Deployment", name="quote-engine", field="image",
                                           value="registry.internal/quote-engine:2.4.0")]},
                  change_at=[7, 0],
                  cause=dict(workload="quote-engine", kind="Deployment", object="quote-engine",
                             field="spec.template.spec.containers[0].resources.requests.memory"),
                  alt_diagnoses=[dict(workload="quote-engine", kind="HorizontalPodAutoscaler",
                                      field="spec.metrics[memory].resource.target.averageUtilization")],
                  knobs={"memreq": {"workload": "quote-engine", "grid": list(range(1024, 2561, 32))}},
                  story="Release 2.4.0 preloads the rate tables (+300 MiB); request=limit=1Gi sits at the "
                        "working set and the HPA's memory metric (75%) pins replicas at max."))

    ws = [W("media-thumbs", "e2-standard-4", 0.25, 1.0, 512, 512, 0.03, 0.0025, 400, 0.05),
          W("cdn-purger", "e2-standard-4", 0.1, 0.25, 128, 256, 0.02, 0.0, 90, 0.0, replicas=1)]
    S.append(dict(id="ml-02", family="memory-limit-scale-out", namespace="gallery",
                  load={"media-thumbs": dict(base=180, amp=0.45, peak_h=16, weekly=DIURNAL_WEEK, start_dow=6)},
                  history=objs(ws, {"media-thumbs": H(2, 25, cpu=70)}, alert(20, None)),
                  incident={"patch": [dict(kind="HorizontalPodAutoscaler", name="media-thumbs", field="metrics.1",
                                           value={"type": "Resource", "name": "memory", "averageUtilization": 60})]},
                  change_at=[7, 0],
                  cause=dict(workload="media-thumbs", kind="HorizontalPodAutoscaler", object="media-thumbs",
                             field="spec.metrics[memory].resource.target.averageUtilization"),
                  alt_diagnoses=[dict(workload="media-thumbs", kind="Deployment",
                                      field="spec.template.spec.containers[0].resources.requests.memory")],
                  knobs={"memreq": {"workload": "media-thumbs", "grid": list(range(512, 1537, 32))},
                         "drop_mem_metric": {"hpa": "media-thumbs", "index": 1}},
                  story="A memory metric at 60% added to the HPA (copy from another team); request=limit=512Mi, "
                        "working set ~84% of it at all loads."))

    # ---------------- forgotten-load-test
    ws = [W("catalog-api", "c6i.4xlarge", 0.5, 1.0, 512, 1024, 0.05, 0.0025, 320, 0.2),
          W("k6-soak", "c6i.4xlarge", 0.5, 1.0, 256, 512, 0.35, 0.0, 150, 0.0, replicas=0,
            loadgen={"target": "catalog-api", "rps_per_replica": 140}, image="grafana/k6:0.49.0"),
          W("catalog-db-proxy", "c6i.4xlarge", 0.25, 0.5, 256, 512, 0.05, 0.0, 120, 0.0, replicas=2)]
    S.append(dict(id="lt-01", family="forgotten-load-test", namespace="catalog",
                  load={"catalog-api": dict(base=300, amp=0.4, peak_h=14, weekly=DIURNAL_WEEK, start_dow=4)},
                  history=objs(ws, {"catalog-api": H(2, 40, cpu=70)}, alert(20, None)),
                  incident={"patch": [dict(kind="Deployment", name="k6-soak", field="replicas", value=3)]},
                  change_at=[6, 22],
                  cause=dict(workload="k6-soak", kind="Deployment", object="k6-soak", field="spec.replicas"),
                  knobs={"fixed": [dict(kind="Deployment", name="k6-soak", field="replicas", value=0)]},
                  story="A soak test started at 22:00 the evening before and never stopped."))

    ws = [W("ranking-svc", "m6a.xlarge-spot", 1.0, 2.0, 1024, 2048, 0.1, 0.0050, 700, 0.3),
          W("replay-shadow", "m6a.xlarge-spot", 0.5, 1.0, 512, 1024, 0.30, 0.0, 380, 0.0, replicas=0,
            loadgen={"target": "ranking-svc", "rps_per_replica": 110}, image="buger/goreplay:1.3.3"),
          W("ranking-model", "m6a.xlarge-spot", 2.0, 2.0, 4096, 4096, 0.6, 0.0, 3000, 0.0, replicas=2)]
    S.append(dict(id="lt-02", family="forgotten-load-test", namespace="feed",
                  load={"ranking-svc": dict(base=260, amp=0.5, peak_h=21, weekly=DIURNAL_WEEK, start_dow=1)},
                  history=objs(ws, {"ranking-svc": H(2, 40, cpu=65)}, alert(20, None)),
                  incident={"patch": [dict(kind="Deployment", name="replay-shadow", field="replicas", value=4)]},
                  change_at=[6, 23],
                  cause=dict(workload="replay-shadow", kind="Deployment", object="replay-shadow", field="spec.replicas"),
                  knobs={"fixed": [dict(kind="Deployment", name="replay-shadow", field="replicas", value=0)]},
                  story="A traffic replayer (goreplay) used for a capacity test doubles the real traffic."))

    # ---------------- noisy-neighbour (legitimate rise of another workload; fix the alert)
    ws = [W("product-api", "n2-standard-8", 1.0, 2.0, 1024, 2048, 0.1, 0.0030, 700, 0.2),
          W("image-resizer", "n2-standard-8", 0.5, 2.0, 768, 1536, 0.05, 0.0120, 400, 1.2)]
    S.append(dict(id="nn-01", family="noisy-neighbour", namespace="catalog-web",
                  load={"product-api": dict(base=600, amp=0.4, peak_h=20, weekly=DIURNAL_WEEK, start_dow=2),
                        "image-resizer": dict(base=40, amp=0.3, peak_h=11, weekly=DIURNAL_WEEK, start_dow=2,
                                              steps=[[7, 1, 4.5]])},
                  history=objs(ws, {"product-api": H(3, 40, cpu=70), "image-resizer": H(1, 40, cpu=70)},
                               alert(20, None)),
                  incident=None, change_at=[7, 0],
                  cause=dict(workload="image-resizer", kind="ConfigMap", object="cost-alert", field="budgetPerDay"),
                  genuine=True, story="Spring catalogue import: 40k new products, images resized all week "
                                      "(planned). product-api, the big spender, is unchanged."))

    ws = [W("report-builder", "r6i.2xlarge", 1.0, 2.0, 2048, 4096, 0.15, 0.0100, 1400, 2.0),
          W("etl-loader", "r6i.2xlarge", 1.0, 2.0, 1536, 3072, 0.10, 0.0150, 900, 3.0)]
    S.append(dict(id="nn-02", family="noisy-neighbour", namespace="analytics",
                  load={"report-builder": dict(base=110, amp=0.5, peak_h=10, weekly=[1, 1, 1, 1, 1, 0.5, 0.5],
                                               start_dow=1),
                        "etl-loader": dict(base=30, amp=0.2, peak_h=2, weekly=[1] * 7, start_dow=1,
                                           steps=[[7, 2, 3.2]])},
                  history=objs(ws, {"report-builder": H(2, 30, cpu=55), "etl-loader": H(1, 30, cpu=70)},
                               alert(25, "auto:1.0")),
                  incident=None, change_at=[7, 0],
                  cause=dict(workload="etl-loader", kind="ConfigMap", object="cost-alert", field="budgetPerDay"),
                  genuine=True, story="A second data source (the CRM) joined the nightly+continuous ETL from 02:00. "
                                      "Decoy: report-builder's HPA target 55% looks low but is sound and unchanged."))

    # ---------------- own designs
    ws = [W("cart-svc", "m6i.2xlarge", 0.5, 1.0, 512, 1024, 0.05, 0.0022, 300, 0.2),
          W("pricing-api", "m6i.2xlarge", 0.5, 1.0, 512, 1024, 0.05, 0.0020, 300, 0.2),
          W("vegeta-bench", "m6i.2xlarge", 0.25, 0.5, 128, 256, 0.2, 0.0, 100, 0.0, replicas=0,
            loadgen={"target": "pricing-api", "rps_per_replica": 250}, image="peterevans/vegeta:6.9")]
    S.append(dict(id="x2-01", family="two-causes", namespace="commerce",
                  load={"cart-svc": dict(base=350, amp=0.45, peak_h=19, weekly=DIURNAL_WEEK, start_dow=3),
                        "pricing-api": dict(base=350, amp=0.45, peak_h=19, weekly=DIURNAL_WEEK, start_dow=3)},
                  history=objs(ws, {"cart-svc": H(2, 60, cpu=70), "pricing-api": H(2, 60, cpu=70)}, alert(20, None)),
                  incident={"patch": [dict(kind="HorizontalPodAutoscaler", name="cart-svc",
                                           field="metrics.0.averageUtilization", value=25),
                                      dict(kind="Deployment", name="vegeta-bench", field="replicas", value=2)]},
                  change_at=[7, 0],
                  cause=dict(workload="cart-svc", kind="HorizontalPodAutoscaler", object="cart-svc",
                             field="spec.metrics[0].resource.target.averageUtilization"),
                  second_cause=dict(workload="vegeta-bench", kind="Deployment", object="vegeta-bench",
                                    field="spec.replicas"),
                  knobs={"target": {"hpa": "cart-svc", "metric": 0, "grid": list(range(50, 81, 5))},
                         "fixed": [dict(kind="Deployment", name="vegeta-bench", field="replicas", value=0)]},
                  story="Two independent wastes: a lowered HPA target on cart-svc and a benchmark left "
                        "hitting pricing-api. Each alone is over the alert."))

    ws = [W("order-worker", "c6i.4xlarge", 0.5, 1.0, 512, 1024, 0.05, 0.0060, 350, 0.5),
          W("order-api", "c6i.4xlarge", 0.25, 0.5, 256, 512, 0.04, 0.0, 200, 0.0, replicas=3)]
    S.append(dict(id="cm-01", family="hpa-custom-metric-low", namespace="fulfilment",
                  load={"order-worker": dict(base=500, amp=0.5, peak_h=13, weekly=DIURNAL_WEEK, start_dow=0,
                                             spikes=[[-1, h, 15, 1.6] for h in range(8, 20, 2)])},
                  history=objs(ws, {"order-worker": H(2, 80, pods=("messages_processed_per_second", 50))},
                               alert(20, None)),
                  incident={"patch": [dict(kind="HorizontalPodAutoscaler", name="order-worker",
                                           field="metrics.0.averageValue", value=12)]},
                  change_at=[7, 0],
                  cause=dict(workload="order-worker", kind="HorizontalPodAutoscaler", object="order-worker",
                             field="spec.metrics[0].pods.target.averageValue"),
                  knobs={"podsvalue": {"hpa": "order-worker", "grid": list(range(20, 101, 2)), "cpu_util_max": 0.8}},
                  story="HPA on a Pods (custom) metric: target averageValue 12 msg/s per pod (was 50); "
                        "CPU utilisation looks low but there is no CPU metric to fix."))

    ws = [W("api-gateway", "Standard_D8s_v5", 0.5, 1.0, 512, 1024, 0.05, 0.0020, 280, 0.1),
          W("auth-sidecar-cache", "Standard_D8s_v5", 0.25, 0.5, 256, 512, 0.03, 0.0, 150, 0.0, replicas=2)]
    S.append(dict(id="sd-01", family="hpa-scale-down-disabled", namespace="edge",
                  load={"api-gateway": dict(base=300, amp=0.4, peak_h=15, weekly=DIURNAL_WEEK, start_dow=4,
                                            spikes=[[-1, 11, 45, 3.5]])},
                  history=objs(ws, {"api-gateway": H(2, 60, cpu=70)}, alert(20, None)),
                  incident={"patch": [dict(kind="HorizontalPodAutoscaler", name="api-gateway", field="behavior",
                                           value={"scaleDown": {"selectPolicy": "Disabled"}})]},
                  change_at=[7, 0],
                  cause=dict(workload="api-gateway", kind="HorizontalPodAutoscaler", object="api-gateway",
                             field="spec.behavior.scaleDown.selectPolicy"),
                  knobs={"fixed": [dict(kind="HorizontalPodAutoscaler", name="api-gateway", field="behavior",
                                        value=None)]},
                  story="Scale-down disabled during last night's incident and never re-enabled; the 11:00 "
                        "flash sale (every day) ratchets replicas up and they stay."))
    return S


# ----------------------------------------------------------------------------- building a world
def build(sc: dict, idx: int) -> dict:
    world = {"load": {}}
    for j, (name, spec) in enumerate(sorted(sc["load"].items())):
        world["load"][name] = load_series(spec, seed=1000 * (idx + 1) + j)
    hist = copy.deepcopy(sc["history"])
    inc = copy.deepcopy(hist)
    if sc.get("incident"):
        inc = apply_patches(inc, sc["incident"].get("patch", []))
        for name, u in sc["incident"].get("usage", {}).items():
            inc["workloads"][name]["usage"].update(u)
    cd, ch = sc["change_at"]
    cstep = int(ch * 12)

    def timeline(d, s):
        return inc if (d, s) >= (cd, cstep) else hist

    # history spend with the alert unresolved ("auto" budgets resolved after)
    h = simulate(world, timeline, range(0, HISTORY_DAYS))
    avg = sum(h["days"][d]["spend"] for d in range(HISTORY_DAYS)) / HISTORY_DAYS
    for o in (hist, inc):
        b = o["alert"]["budgetPerDay"]
        if isinstance(b, str) and b.startswith("auto:"):
            o["alert"]["budgetPerDay"] = round(float(b[5:]) * avg, 2)
    world.update(sc=sc, hist=hist, inc=inc, hist_run=h, avg=avg, init=h["end_state"])
    return world


def threshold(alert_obj: dict | None, avg: float) -> float:
    if alert_obj is None:
        return math.inf
    base = alert_obj["budgetPerDay"] if alert_obj.get("budgetPerDay") else avg
    return base * (1 + alert_obj["variancePct"] / 100.0)


def evaluate(world: dict, o: dict) -> dict:
    """Replay d7 and d8 on configuration o, starting from the end of d6."""
    r = simulate(world, lambda d, s: o, range(HISTORY_DAYS, DAYS), init=world["init"])
    d7, d8 = r["days"][7], r["days"][8]
    tot = lambda k: d7[k] + d8[k]  # noqa: E731
    out = {"spend_d7": d7["spend"], "spend_d8": d8["spend"], "total": d7["spend"] + d8["spend"],
           "cpu_cost": tot("cpu_cost"), "mem_cost": tot("mem_cost"),
           "cpu_efficiency": tot("cpu_used") / tot("cpu_alloc"), "mem_efficiency": tot("mem_used") / tot("mem_alloc"),
           "slo_steps": d7["slo_steps"] + d8["slo_steps"],
           "max_replicas": {k: max(d7["max_replicas"].get(k, 0), d8["max_replicas"].get(k, 0))
                            for k in sorted(set(d7["max_replicas"]) | set(d8["max_replicas"]))},
           "by_workload_d7": d7["by_workload"],
           "peak_pod": {k: [max(d7["peak_pod"][k][0], d8["peak_pod"][k][0]),
                            max(d7["peak_pod"][k][1], d8["peak_pod"][k][1])] for k in d7.get("peak_pod", {})}}
    return out


def verdict(world: dict, o: dict, ev: dict, opt_total: float | None) -> tuple[bool, str]:
    sc = world["sc"]
    if ev["slo_steps"] > SLO_ALLOWED_STEPS:
        return False, f"SLO: {ev['slo_steps']} five-minute steps out (> {SLO_ALLOWED_STEPS})"
    if sc.get("genuine"):
        thr = threshold(o["alert"], world["avg"])
        if o["alert"] is None:
            return False, "alert deleted (muted)"
        if thr > MUTE_FACTOR * min(ev["spend_d7"], ev["spend_d8"]):
            return False, f"alert muted: threshold {thr:.2f} > 1.5 x day spend"
    else:
        thr = threshold(world["inc"]["alert"], world["avg"])   # the scenario's own alert
    for d in ("spend_d7", "spend_d8"):
        if ev[d] > thr:
            return False, f"{d} {ev[d]:.2f} above the alert threshold {thr:.2f}"
    if opt_total is not None:
        r = min(ev["total"], opt_total) / max(ev["total"], opt_total)
        if r < COST_RATIO_MIN:
            return False, f"total cost {ev['total']:.2f} vs optimum {opt_total:.2f} (ratio {r:.2f} < 0.8)"
    return True, "passes"


def candidate_configs(world: dict):
    """The cause's knobs within sound practice -> [(patches, objects)]."""
    sc, inc = world["sc"], world["inc"]
    kn = sc.get("knobs", {})
    fixed = kn.get("fixed", [])
    opts = []
    if "target" in kn:
        k = kn["target"]
        for t in k["grid"]:
            opts.append([dict(kind="HorizontalPodAutoscaler", name=k["hpa"],
                              field=f"metrics.{k['metric']}.averageUtilization", value=t)])
    elif "minReplicas" in kn:
        k = kn["minReplicas"]
        opts = [[dict(kind="HorizontalPodAutoscaler", name=k["hpa"], field="minReplicas", value=v)] for v in k["grid"]]
    elif "request" in kn:
        k = kn["request"]
        for v in k["grid"]:
            opts.append([dict(kind="Deployment", name=k["workload"], field=k["field"], value=v)])
    elif "memreq" in kn:
        k = kn["memreq"]
        lim = inc["workloads"][k["workload"]]["mem_limit_mib"]
        for v in k["grid"]:
            opts.append([dict(kind="Deployment", name=k["workload"], field="mem_request_mib", value=v),
                         dict(kind="Deployment", name=k["workload"], field="mem_limit_mib", value=max(lim, v))])
        if "drop_mem_metric" in kn:
            dm = kn["drop_mem_metric"]
            opts.append([dict(kind="HorizontalPodAutoscaler", name=dm["hpa"], field=f"metrics.{dm['index']}",
                              value=None)])
    elif "podsvalue" in kn:
        k = kn["podsvalue"]
        w = inc["hpas"][k["hpa"]] and inc["workloads"][k["hpa"]]
        for v in k["grid"]:
            if (w["usage"]["cpu_floor"] + w["usage"]["cpu_per_rps"] * v) / w["cpu_request"] <= k["cpu_util_max"]:
                opts.append([dict(kind="HorizontalPodAutoscaler", name=k["hpa"], field="metrics.0.averageValue",
                                  value=v)])
    if not opts:
        opts = [[]]
    return [(p + fixed, apply_patches(inc, p + fixed)) for p in opts]


def sound(world: dict, patches: list, ev: dict) -> bool:
    """requests covering the peak (CPU request >= peak per-pod CPU for the knob's workload)."""
    for p in patches:
        if p["kind"] == "Deployment" and p.get("field") == "cpu_request":
            if p["value"] < ev["peak_pod"][p["name"]][0]:
                return False
    return True


def optimum(world: dict):
    sc = world["sc"]
    if sc.get("genuine"):
        o = copy.deepcopy(world["inc"])
        ev0 = evaluate(world, o)
        lvl = math.ceil(max(ev0["spend_d7"], ev0["spend_d8"]) * 1.05 / (1 + o["alert"]["variancePct"] / 100) * 100) / 100
        p = [dict(kind="ConfigMap", name="cost-alert", field="budgetPerDay", value=lvl)]
        o = apply_patches(o, p)
        return p, o, evaluate(world, o)
    best = None
    for patches, o in candidate_configs(world):
        ev = evaluate(world, o)
        ok, _ = verdict(world, o, ev, None)
        if ok and sound(world, patches, ev) and (best is None or ev["total"] < best[2]["total"] - 1e-9):
            best = (patches, o, ev)
    return best


def naive_candidates(world: dict) -> list[tuple[str, list | None, dict]]:
    sc, inc = world["sc"], world["inc"]
    c = sc["cause"]["workload"]
    hpas = inc["hpas"]
    hmax = max(world["hist_run"]["days"][d]["max_replicas"].get(c, 0) for d in range(HISTORY_DAYS))
    out = []
    if sc.get("genuine"):
        if c in hpas:
            out.append((f"cap {c}'s HPA maxReplicas at last week's peak ({hmax}) and set budgetPerDay to last "
                        f"week's average", None,
                        apply_patches(inc, [dict(kind="HorizontalPodAutoscaler", name=c, field="maxReplicas",
                                                 value=max(hmax, hpas[c]["minReplicas"])),
                                            dict(kind="ConfigMap", name="cost-alert", field="budgetPerDay",
                                                 value=round(world["avg"], 2))])))
        out.append(("delete the cost-alert ConfigMap", None, apply_patches(inc, [dict(kind="ConfigMap",
                                                                                     name="cost-alert")])))
    else:
        out.append(("raise budgetPerDay to 3x last week's average",
                    None, apply_patches(inc, [dict(kind="ConfigMap", name="cost-alert", field="budgetPerDay",
                                                   value=round(3 * world["avg"], 2))])))
        for name, h in hpas.items():
            lg_targets = [w["loadgen"]["target"] for w in inc["workloads"].values() if w.get("loadgen")
                          and w["replicas"] > 0]
            if name in lg_targets:
                hm = max(world["hist_run"]["days"][d]["max_replicas"].get(name, 0) for d in range(HISTORY_DAYS))
                out.append((f"cap the loaded service {name}'s HPA maxReplicas at last week's peak ({hm}) "
                            f"instead of stopping the load", None,
                            apply_patches(inc, [dict(kind="HorizontalPodAutoscaler", name=name, field="maxReplicas",
                                                     value=hm)])))
        if c in hpas:
            out.append((f"delete {c}'s HPA (replicas frozen at the current count)", None,
                        _freeze(world, inc, c)))
            out.append((f"set {c}'s HPA maxReplicas to minReplicas (pin it)", None,
                        apply_patches(inc, [dict(kind="HorizontalPodAutoscaler", name=c, field="maxReplicas",
                                                 value=hpas[c]["minReplicas"])])))
        w = inc["workloads"].get(c)
        if w and not w.get("loadgen"):
            out.append((f"cut {c}'s CPU and memory requests and limits to a quarter", None,
                        apply_patches(inc, [dict(kind="Deployment", name=c, field=f, value=w[f] / 4)
                                            for f in ("cpu_request", "cpu_limit", "mem_request_mib", "mem_limit_mib")])))
    out.append(("mute the alert: variancePct 1000", None,
                apply_patches(inc, [dict(kind="ConfigMap", name="cost-alert", field="variancePct", value=1000)])))
    out.append(("halve every Deployment's replicas/requests/limits and every HPA's min/max", None,
                half_everything(inc)))
    return out


def snapshot_replicas(world: dict) -> dict:
    """Replicas at the end of the incident day under the incident configuration (what kubectl shows)."""
    r = simulate(world, lambda d, s: world["inc"], range(HISTORY_DAYS, HISTORY_DAYS + 1), init=world["init"])
    return r["end_state"]


def _freeze(world, inc, c):
    o = apply_patches(inc, [dict(kind="HorizontalPodAutoscaler", name=c)])
    o["workloads"][c]["replicas"] = world["snap"].get(c, inc["hpas"][c]["minReplicas"])
    return o


# ----------------------------------------------------------------------------- Kubernetes objects
def q_cpu(c: float) -> str:
    return f"{int(round(c * 1000))}m"


def q_mem(m: float) -> str:
    m = int(round(m))
    return f"{m // 1024}Gi" if m % 1024 == 0 else f"{m}Mi"


LOADGEN_ARGS = {
    "grafana/k6": lambda t, r: ["run", "--vus", "60", "--duration", "72h", "/scripts/soak.js"],
    "buger/goreplay": lambda t, r: ["--input-file", "/captures/prod-2026-11-19.gor|400%", "--input-file-loop",
                                    "--output-http", f"http://{t}:8080"],
    "peterevans/vegeta": lambda t, r: ["sh", "-c", f"vegeta attack -rate={r}/s -duration=0 -targets=/t/targets.txt"
                                                   " > /dev/null"],
}


def manifests(world: dict, o: dict) -> dict:
    sc = world["sc"]
    ns = sc["namespace"]
    items = []
    for name, w in o["workloads"].items():
        c = {"name": name.split("-")[0] if w.get("loadgen") else name, "image": w["image"],
             "resources": {"requests": {"cpu": q_cpu(w["cpu_request"]), "memory": q_mem(w["mem_request_mib"])},
                           "limits": {"cpu": q_cpu(w["cpu_limit"]), "memory": q_mem(w["mem_limit_mib"])}}}
        if w.get("loadgen"):
            img = w["image"].split(":")[0]
            c["args"] = LOADGEN_ARGS[img](w["loadgen"]["target"], w["loadgen"]["rps_per_replica"])
            c["env"] = [{"name": "TARGET", "value": f"http://{w['loadgen']['target']}.{ns}.svc:8080"}]
        else:
            c["ports"] = [{"containerPort": 8080}]
        reps = world["snap"].get(name, w["replicas"]) if name in o["hpas"] else w["replicas"]
        items.append({"apiVersion": "apps/v1", "kind": "Deployment",
                      "metadata": {"name": name, "namespace": ns, "labels": {"app": name}},
                      "spec": {"replicas": reps, "selector": {"matchLabels": {"app": name}},
                               "template": {"metadata": {"labels": {"app": name}},
                                            "spec": {"nodeSelector": {"node.kubernetes.io/instance-type": w["node_type"]},
                                                     "containers": [c]}}}})
    for name, h in o["hpas"].items():
        ms = []
        for m in h["metrics"]:
            if m["type"] == "Resource":
                ms.append({"type": "Resource", "resource": {"name": m["name"], "target": {
                    "type": "Utilization", "averageUtilization": m["averageUtilization"]}}})
            else:
                ms.append({"type": "Pods", "pods": {"metric": {"name": m["name"]}, "target": {
                    "type": "AverageValue", "averageValue": str(m["averageValue"])}}})
        spec = {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": name},
                "minReplicas": h["minReplicas"], "maxReplicas": h["maxReplicas"], "metrics": ms}
        if h.get("behavior"):
            spec["behavior"] = h["behavior"]
        items.append({"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
                      "metadata": {"name": name, "namespace": ns}, "spec": spec})
    a = o["alert"]
    data = {"variancePct": str(a["variancePct"]), "window": "lastWeekAverage"}
    if a.get("budgetPerDay"):
        data["budgetPerDay"] = f"{a['budgetPerDay']:.2f}"
    items.append({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cost-alert", "namespace": ns},
                  "data": data})
    return {"apiVersion": "v1", "kind": "List", "items": items}


FIELD_K8S = {"cpu_request": "spec.template.spec.containers[0].resources.requests.cpu",
             "cpu_limit": "spec.template.spec.containers[0].resources.limits.cpu",
             "mem_request_mib": "spec.template.spec.containers[0].resources.requests.memory",
             "mem_limit_mib": "spec.template.spec.containers[0].resources.limits.memory",
             "replicas": "spec.replicas", "minReplicas": "spec.minReplicas", "maxReplicas": "spec.maxReplicas",
             "behavior": "spec.behavior"}


def kubectl(ns: str, p: dict) -> str:
    k = {"Deployment": "deployment", "HorizontalPodAutoscaler": "hpa", "ConfigMap": "configmap"}[p["kind"]]
    if "field" not in p:
        return f"kubectl -n {ns} delete {k} {p['name']}"
    f, v = p["field"], p.get("value")
    if p["kind"] == "Deployment" and f == "replicas":
        return f"kubectl -n {ns} scale deployment {p['name']} --replicas={v}"
    if p["kind"] == "Deployment" and f in ("cpu_request", "cpu_limit", "mem_request_mib", "mem_limit_mib"):
        kind = "requests" if "request" in f else "limits"
        val = q_cpu(v) if f.startswith("cpu") else q_mem(v)
        return f"kubectl -n {ns} set resources deployment {p['name']} --{kind}={'cpu' if f.startswith('cpu') else 'memory'}={val}"
    if p["kind"] == "ConfigMap":
        return f"kubectl -n {ns} patch configmap cost-alert --type merge -p '{json.dumps({'data': {f: str(v)}})}'"
    if f.startswith("metrics."):
        i = f.split(".")[1]
        if v is None:
            return f"kubectl -n {ns} patch hpa {p['name']} --type json -p '[{{\"op\":\"remove\",\"path\":\"/spec/metrics/{i}\"}}]'"
        if f.endswith("averageUtilization"):
            return (f"kubectl -n {ns} patch hpa {p['name']} --type json -p '[{{\"op\":\"replace\",\"path\":"
                    f"\"/spec/metrics/{i}/resource/target/averageUtilization\",\"value\":{v}}}]'")
        if f.endswith("averageValue"):
            return (f"kubectl -n {ns} patch hpa {p['name']} --type json -p '[{{\"op\":\"replace\",\"path\":"
                    f"\"/spec/metrics/{i}/pods/target/averageValue\",\"value\":\"{v}\"}}]'")
    if f == "behavior" and v is None:
        return f"kubectl -n {ns} patch hpa {p['name']} --type json -p '[{{\"op\":\"remove\",\"path\":\"/spec/behavior\"}}]'"
    return f"kubectl -n {ns} patch hpa {p['name']} --type merge -p '{json.dumps({'spec': {f: v}})}'"


def r4(x):
    if isinstance(x, float):
        return round(x, 4)
    if isinstance(x, dict):
        return {k: r4(v) for k, v in x.items()}
    if isinstance(x, list):
        return [r4(v) for v in x]
    return x


def metrics_view(ev):
    return r4({k: ev[k] for k in ("spend_d7", "spend_d8", "total", "cpu_cost", "mem_cost", "cpu_efficiency",
                                  "mem_efficiency", "slo_steps", "max_replicas")})


def main(outdir: str) -> int:
    os.makedirs(outdir, exist_ok=True)
    table, problems = [], []
    for idx, sc in enumerate(scenarios()):
        world = build(sc, idx)
        world["snap"] = snapshot_replicas(world)
        ns = sc["namespace"]
        thr_own = threshold(world["inc"]["alert"], world["avg"])
        hist_days = [world["hist_run"]["days"][d] for d in range(HISTORY_DAYS)]
        for d, day in enumerate(hist_days):
            if day["spend"] > thr_own and (d, 0) < tuple(sc["change_at"]):
                problems.append(f"{sc['id']}: alert fires on history day {d} ({day['spend']:.2f} > {thr_own:.2f})")
            if day["slo_steps"] > SLO_ALLOWED_STEPS:
                problems.append(f"{sc['id']}: history day {d} has {day['slo_steps']} SLO steps out")
        nothing = evaluate(world, world["inc"])
        if nothing["spend_d7"] <= thr_own:
            problems.append(f"{sc['id']}: alert does not fire on the incident day "
                            f"({nothing['spend_d7']:.2f} <= {thr_own:.2f})")
        best = optimum(world)
        if best is None:
            problems.append(f"{sc['id']}: no passing configuration in the knob search")
            continue
        opt_p, opt_o, opt_ev = best
        ok, why = verdict(world, opt_o, opt_ev, opt_ev["total"])
        if not ok:
            problems.append(f"{sc['id']}: optimum fails its own check: {why}")
        naive, questionable = [], []
        for desc, _, o in naive_candidates(world):
            ev = evaluate(world, o)
            ok, why = verdict(world, o, ev, opt_ev["total"])
            rec = {"remedy": desc, "passes_reference": ok, "reason": why, "metrics": metrics_view(ev)}
            (questionable if ok else naive).append(rec)
        if len(naive) < 2:
            problems.append(f"{sc['id']}: fewer than 2 naive remedies fail")
        # fixing only one of two causes must not pass
        partial = []
        if sc.get("second_cause"):
            for p in (sc["knobs"]["fixed"], [x for x in opt_p if x not in sc["knobs"]["fixed"]]):
                o = apply_patches(world["inc"], p)
                ev = evaluate(world, o)
                ok, why = verdict(world, o, ev, opt_ev["total"])
                partial.append({"remedy": "only " + "; ".join(kubectl(ns, x) for x in p), "passes_reference": ok,
                                "reason": why, "metrics": metrics_view(ev)})
                if ok:
                    problems.append(f"{sc['id']}: fixing one cause alone passes")
        # what history looked like (the sound configuration replayed on d7/d8) for reference
        hist_ev = evaluate(world, apply_patches(world["hist"], []) if not sc["incident"] or
                           not sc["incident"].get("usage") else _hist_with_usage(world))
        d = os.path.join(outdir, sc["id"])
        os.makedirs(d, exist_ok=True)
        scen = {"id": sc["id"], "namespace": ns, "step_minutes": 5, "days": DAYS,
                "day_index": {"history": list(range(HISTORY_DAYS)), "incident": HISTORY_DAYS, "next": HISTORY_DAYS + 1},
                "start_weekday_d0": next(iter(sc["load"].values())).get("start_dow", 0),
                "node_prices_usd": {w["node_type"]: {"core_hour": NODE_TYPES[w["node_type"]][0],
                                                     "gib_hour": NODE_TYPES[w["node_type"]][1]}
                                    for w in world["inc"]["workloads"].values()},
                "usage_model": "per pod: cpu_cores = cpu_floor + cpu_per_rps * rps/replicas (capped at the CPU limit); "
                               "working_set_MiB = mem_floor_mib + mem_per_rps_mib * rps/replicas",
                "load_shape": sc["load"],
                "load_rps": world["load"],
                "history_objects": world["hist"],
                "incident_objects": world["inc"],
                "incident_starts_at": {"day": sc["change_at"][0], "hour": sc["change_at"][1]},
                "initial_hpa_replicas_at_d7_00h": world["init"],
                "history_daily_spend": [round(x["spend"], 4) for x in hist_days],
                "history_average": round(world["avg"], 4)}
        with open(os.path.join(d, "scenario.json"), "w") as f:
            json.dump(scen, f, indent=1, sort_keys=True)
        with open(os.path.join(d, "manifests.json"), "w") as f:
            json.dump(manifests(world, world["inc"]), f, indent=1)
        diagnoses = [sc["cause"]] + sc.get("alt_diagnoses", [])
        gt = {"id": sc["id"], "family": sc["family"], "story": sc["story"], "cause": sc["cause"],
              "second_cause": sc.get("second_cause"), "acceptable_diagnoses": diagnoses,
              "genuine_rise": bool(sc.get("genuine")),
              "alert_threshold_incident": round(thr_own, 4),
              "do_nothing": metrics_view(nothing),
              "history_config_replayed": metrics_view(hist_ev),
              "optimum": {"patches": opt_p, "kubectl": [kubectl(ns, p) for p in opt_p],
                          "metrics": metrics_view(opt_ev)},
              "naive_must_not_pass": naive[:2], "other_probes": naive[2:] + questionable,
              "partial_fixes": partial}
        if sc.get("genuine"):
            v = world["inc"]["alert"]["variancePct"] / 100
            lo = max(nothing["spend_d7"], nothing["spend_d8"]) / (1 + v)
            hi = MUTE_FACTOR * min(nothing["spend_d7"], nothing["spend_d8"]) / (1 + v)
            gt["acceptable_remedies"] = {"workloads": "unchanged (each Deployment/HPA as is; cost within 0.8 of "
                                                      "the optimum's)",
                                         "budgetPerDay_range_at_variancePct": [round(lo, 2), round(hi, 2)],
                                         "or_threshold_range_usd": [round(lo * (1 + v), 2), round(hi * (1 + v), 2)]}
        else:
            gt["acceptable_remedies"] = {"knob": sc.get("knobs"),
                                         "rule": "any value of the cause's knob whose replay keeps <= 2 SLO steps, "
                                                 "both days under the scenario's own alert, cost within 0.8 of the "
                                                 "optimum; other objects unchanged (blast radius 0)"}
            passing = []
            for patches, o in candidate_configs(world):
                ev = evaluate(world, o)
                ok, _ = verdict(world, o, ev, opt_ev["total"])
                if ok and sound(world, patches, ev):
                    passing.append([p.get("value") for p in patches])
            gt["acceptable_remedies"]["passing_knob_values_reference"] = passing
        with open(os.path.join(d, "ground_truth.json"), "w") as f:
            json.dump(r4(gt), f, indent=1)
        table.append({"id": sc["id"], "family": sc["family"], "namespace": ns, "cause": sc["cause"],
                      "second_cause": sc.get("second_cause"), "optimum": [kubectl(ns, p) for p in opt_p],
                      "do_nothing_total": round(nothing["total"], 2), "optimum_total": round(opt_ev["total"], 2),
                      "threshold": round(thr_own, 2), "naive": [n["remedy"] for n in naive[:2]],
                      "naive_reasons": [n["reason"] for n in naive[:2]],
                      "questionable_passing": [q["remedy"] for q in questionable]})
        print(f"{sc['id']:6s} {sc['family']:24s} thr {thr_own:8.2f} nothing d7 {nothing['spend_d7']:8.2f} "
              f"opt d7 {opt_ev['spend_d7']:8.2f} slo {opt_ev['slo_steps']} opt {[p.get('value') for p in opt_p]} "
              f"naive-fail {len(naive)} q {len(questionable)}", file=sys.stderr)
    with open(os.path.join(outdir, "cases.json"), "w") as f:
        json.dump(table, f, indent=1)
    for p in problems:
        print("PROBLEM", p, file=sys.stderr)
    return 1 if problems else 0


def _hist_with_usage(world):
    o = copy.deepcopy(world["hist"])
    for name, u in world["sc"]["incident"].get("usage", {}).items():
        o["workloads"][name]["usage"].update(u)
    return o


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
