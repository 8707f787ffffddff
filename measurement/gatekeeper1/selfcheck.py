#!/usr/bin/env python3
"""Optional self-check of the hand-written labels (run only after they were fixed).

    python selfcheck.py CASESDIR        # needs PyYAML and a regorus build (e.g. gordon-to-regorus)

Re-implements Gatekeeper's matcher (pkg/mutation/match/match.go, pkg/wildcard) and audit's
enforcementAction handling, evaluates each template's Rego (v0) with regorus on
{"review": {"object", "kind", "name", "namespace", "namespaceObject"}, "parameters"},
and prints every object whose computed verdict differs from expected.json.
"""
import glob
import json
import os
import sys

import regorus
import yaml


def wild(w, s):
    if w.startswith("*") and w.endswith("*") and len(w) > 1:
        return w.strip("*") in s
    if w.startswith("*"):
        return s.endswith(w[1:])
    if w.endswith("*"):
        return s.startswith(w[:-1])
    return w == s


def sel(selector, labels):
    labels = labels or {}
    for k, v in (selector.get("matchLabels") or {}).items():
        if labels.get(k) != v:
            return False
    for e in selector.get("matchExpressions") or []:
        k, op, vals = e["key"], e["operator"], e.get("values") or []
        if op == "In" and not (k in labels and labels[k] in vals):
            return False
        if op == "NotIn" and (k in labels and labels[k] in vals):
            return False
        if op == "Exists" and k not in labels:
            return False
        if op == "DoesNotExist" and k in labels:
            return False
    return True


def group_of(o):
    av = o["apiVersion"]
    return av.split("/")[0] if "/" in av else ""


def matches(m, o, nss):
    if m is None:
        return True
    kind, grp = o["kind"], group_of(o)
    ns = o["metadata"].get("namespace", "")
    is_ns = kind == "Namespace" and grp == ""
    if m.get("kinds"):
        ok = False
        for kk in m["kinds"]:
            ks, gs = kk.get("kinds") or [], kk.get("apiGroups") or []
            if (not ks or "*" in ks or kind in ks) and (not gs or "*" in gs or grp in gs):
                ok = True
        if not ok:
            return False
    scope = m.get("scope")
    if scope == "Cluster" and not (is_ns or not ns):
        return False
    if scope == "Namespaced" and not (not is_ns and ns):
        return False
    nsname = o["metadata"]["name"] if is_ns else ns
    if m.get("namespaces") and nsname and not any(wild(w, nsname) for w in m["namespaces"]):
        return False
    if m.get("excludedNamespaces") and nsname and any(wild(w, nsname) for w in m["excludedNamespaces"]):
        return False
    if m.get("labelSelector") is not None and not sel(m["labelSelector"], o["metadata"].get("labels")):
        return False
    if m.get("namespaceSelector") is not None:
        if is_ns:
            if not sel(m["namespaceSelector"], o["metadata"].get("labels")):
                return False
        elif ns:
            if not sel(m["namespaceSelector"], nss[ns]["metadata"].get("labels")):
                return False
    if m.get("name") and not wild(m["name"], o["metadata"]["name"]):
        return False
    return True


def audited(con):
    spec = con["spec"]
    if spec.get("enforcementAction") != "scoped":
        return True
    for a in spec.get("scopedEnforcementActions") or []:
        for p in a.get("enforcementPoints") or []:
            if p.get("name") in ("audit.gatekeeper.sh", "*"):
                return True
    return False


def run_case(d):
    docs = list(yaml.safe_load_all(open(os.path.join(d, "template.yaml"))))
    objs = list(yaml.safe_load_all(open(os.path.join(d, "resources.yaml"))))
    expected = json.load(open(os.path.join(d, "expected.json")))
    tpls = {t["spec"]["crd"]["spec"]["names"]["kind"]: t for t in docs if t["kind"] == "ConstraintTemplate"}
    cons = [c for c in docs if c["apiVersion"].startswith("constraints.gatekeeper.sh")]
    nss = {o["metadata"]["name"]: o for o in objs if o["kind"] == "Namespace"}
    got = {}
    for o in objs:
        key = "%s/%s/%s" % (o["kind"], o["metadata"].get("namespace", ""), o["metadata"]["name"])
        verdict = "pass"
        for c in cons:
            if not audited(c) or not matches(c["spec"].get("match"), o, nss):
                continue
            t = tpls[c["kind"]]["spec"]["targets"][0]
            e = regorus.Engine()
            e.set_rego_v0(True)
            e.add_policy("main.rego", t["rego"])
            for i, lib in enumerate(t.get("libs") or []):
                e.add_policy("lib%d.rego" % i, lib)
            ns = o["metadata"].get("namespace")
            review = {"object": o, "name": o["metadata"]["name"], "namespace": ns or "",
                      "kind": {"group": group_of(o), "version": o["apiVersion"].split("/")[-1], "kind": o["kind"]},
                      "namespaceObject": nss.get(ns) if ns else None}
            e.set_input({"review": review, "parameters": c["spec"].get("parameters") or {}})
            pkg = t["rego"].split("\n")[0].split()[1]
            res = json.loads(e.eval_query_as_json("data.%s.violation" % pkg))
            vals = res["result"][0]["expressions"][0]["value"] if res.get("result") else []
            if vals:
                verdict = "fail"
        got[key] = verdict
    return {k: (expected[k], got[k]) for k in expected if expected[k] != got[k]}


def main(root):
    total = bad = 0
    for d in sorted(glob.glob(os.path.join(root, "*", ""))):
        diff = run_case(d)
        n = len(json.load(open(os.path.join(d, "expected.json"))))
        total += n
        bad += len(diff)
        print("%-60s %2d objects, %d differ %s" % (os.path.basename(d.rstrip("/")), n, len(diff), diff or ""))
    print("total %d objects, %d differ" % (total, bad))


if __name__ == "__main__":
    main(sys.argv[1])
