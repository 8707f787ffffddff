#!/usr/bin/env python3
"""Self-check of my own arithmetic (not the project): re-derives expected.json from gen.CASES
with the upstream formulas, so typos in the hand-written labels show up. Usage: python3 check_labels.py"""
import math, gen
def matches(sel, labels):
    for k, v in sel.get("matchLabels", {}).items():
        if labels.get(k) != v: return False
    for e in sel.get("matchExpressions", []):
        k, op, vals = e["key"], e["operator"], e.get("values", [])
        if op == "In" and labels.get(k) not in vals: return False
        if op == "NotIn" and k in labels and labels[k] in vals: return False
        if op == "Exists" and k not in labels: return False
        if op == "DoesNotExist" and k in labels: return False
    return True
def scaled(v, total):
    if isinstance(v, int): return v
    return math.ceil(int(v[:-1]) * total / 100)
bad = 0
for cid, objs, exp in gen.CASES:
    pods = []  # (ns, labels, controller-uid, scale)
    for o in objs:
        k, md = o["kind"], o["metadata"]
        if k in ("Deployment", "StatefulSet", "ReplicaSet"):
            n = o["spec"].get("replicas", 1)
            for i in range(n): pods.append([md["namespace"], o["spec"]["template"]["metadata"]["labels"], (k, md["namespace"], md["name"]), n])
        elif k == "Pod":
            pods.append([md["namespace"], md["labels"], None, 0])
    pdbs = [o for o in objs if o["kind"] == "PodDisruptionBudget"]
    def status(p, live):
        sel = [q for q in live if q[0] == p["metadata"]["namespace"] and matches(p["spec"]["selector"], q[1])]
        s = p["spec"]
        if "maxUnavailable" in s or isinstance(s.get("minAvailable"), str):
            ctrls = {q[2]: q[3] for q in sel if q[2]}
            expc = sum(ctrls.values())
            if "maxUnavailable" in s: des = max(0, expc - scaled(s["maxUnavailable"], expc))
            else: des = scaled(s["minAvailable"], expc)
        else:
            des, expc = s["minAvailable"], len(sel)
        cur = len(sel); al = cur - des
        if expc <= 0 or al <= 0: al = 0
        return {"currentHealthy": cur, "desiredHealthy": des, "disruptionsAllowed": al, "expectedPods": expc}
    got = {f'{p["metadata"]["namespace"]}/{p["metadata"]["name"]}': status(p, pods) for p in pdbs}
    if got != exp["status"]: bad += 1; print(cid, "STATUS", got, exp["status"])
    allowed = {k: v["disruptionsAllowed"] for k, v in got.items()}
    live = list(pods)
    for e in exp["evictions"]:
        ns_, kv = e["selector"].split(":", 1); k, v = kv.split("=", 1)
        ok = 0
        for _ in range(e["count"]):
            cand = [q for q in live if q[0] == ns_ and q[1].get(k) == v]
            if not cand: print(cid, "NO POD LEFT", e); bad += 1; break
            q = cand[0]
            m = [f'{p["metadata"]["namespace"]}/{p["metadata"]["name"]}' for p in pdbs if p["metadata"]["namespace"] == q[0] and matches(p["spec"]["selector"], q[1])]
            if len(m) > 1: break          # 500
            if m:
                if allowed[m[0]] <= 0: break   # 429
                allowed[m[0]] -= 1
            live.remove(q); ok += 1
        if ok != e["allowed"]: bad += 1; print(cid, "EVICT", e, "got", ok)
print("mismatches:", bad, "cases:", len(gen.CASES))
