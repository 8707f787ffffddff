#!/usr/bin/env python3
"""Self-check (not stdlib: PyYAML + regorus): my own reading of Gatekeeper's matcher
(pkg/mutation/match/match.go, pkg/wildcard) + audit's enforcementAction handling, evaluating each
template's Rego (v0) per matched constraint; prints objects whose verdict differs from expected.json."""
import glob, json, os, sys
import regorus, yaml

def wc(w, s):
    if w.startswith("*") and w.endswith("*") and len(w) > 1: return w.strip("*") in s
    if w.startswith("*"): return s.endswith(w[1:])
    if w.endswith("*"): return s.startswith(w[:-1])
    return w == s

def sel(selector, labels):
    labels = labels or {}
    for k, v in (selector.get("matchLabels") or {}).items():
        if labels.get(k) != v: return False
    for e in selector.get("matchExpressions") or []:
        k, op, vals = e["key"], e["operator"], e.get("values", [])
        if op == "In" and not (k in labels and labels[k] in vals): return False
        if op == "NotIn" and (k in labels and labels[k] in vals): return False
        if op == "Exists" and k not in labels: return False
        if op == "DoesNotExist" and k in labels: return False
    return True

def audited(c):
    spec = c["spec"]; ea = spec.get("enforcementAction", "deny")
    if ea != "scoped": return True
    for s in spec.get("scopedEnforcementActions", []):
        for p in s.get("enforcementPoints", []):
            if p["name"] in ("audit.gatekeeper.sh", "*"): return True
    return False

def matches(m, o, nsobjs):
    if m is None: return True
    kind = o["kind"]; group = o["apiVersion"].split("/")[0] if "/" in o["apiVersion"] else ""
    isns = kind == "Namespace" and group == ""
    ons = o["metadata"].get("namespace")
    if m.get("kinds"):
        if not any((not k.get("kinds") or "*" in k["kinds"] or kind in k["kinds"]) and
                   (not k.get("apiGroups") or "*" in k["apiGroups"] or group in k["apiGroups"]) for k in m["kinds"]):
            return False
    sc = m.get("scope", "*")
    if sc == "Cluster" and not (isns or not ons): return False
    if sc == "Namespaced" and not (not isns and ons): return False
    nsname = o["metadata"]["name"] if isns else ons
    if m.get("namespaces") and nsname is not None and not any(wc(w, nsname) for w in m["namespaces"]): return False
    if m.get("excludedNamespaces") and nsname is not None and any(wc(w, nsname) for w in m["excludedNamespaces"]): return False
    if m.get("labelSelector") and not sel(m["labelSelector"], o["metadata"].get("labels")): return False
    if m.get("namespaceSelector"):
        if isns: lab = o["metadata"].get("labels")
        elif ons: lab = nsobjs[ons]["metadata"].get("labels")
        else: lab = None
        if lab is not None and not sel(m["namespaceSelector"], lab): return False
    if m.get("name") and not wc(m["name"], o["metadata"]["name"]): return False
    return True

def main(root):
    bad = n = 0
    for d in sorted(glob.glob(os.path.join(root, "*"))):
        if not os.path.isdir(d): continue
        docs = list(yaml.safe_load_all(open(d + "/template.yaml")))
        tmpls = {t["spec"]["crd"]["spec"]["names"]["kind"]: t for t in docs if t["kind"] == "ConstraintTemplate"}
        cons = [c for c in docs if c["kind"] not in ("ConstraintTemplate",)]
        res = list(yaml.safe_load_all(open(d + "/resources.yaml")))
        nsobjs = {o["metadata"]["name"]: o for o in res if o["kind"] == "Namespace"}
        exp = json.load(open(d + "/expected.json"))
        for o in res:
            k = f"{o['kind']}/{o['metadata'].get('namespace','')}/{o['metadata']['name']}"
            fail = False
            for c in cons:
                if not audited(c) or not matches(c["spec"].get("match"), o, nsobjs): continue
                t = tmpls[c["kind"]]["spec"]["targets"][0]
                e = regorus.Engine(); e.set_rego_v0(True)
                e.add_policy("t.rego", t["rego"])
                for i, lib in enumerate(t.get("libs", [])): e.add_policy(f"lib{i}.rego", lib)
                ons = o["metadata"].get("namespace")
                inp = {"review": {"object": o, "name": o["metadata"]["name"], "namespace": ons or "",
                                  "kind": {"kind": o["kind"]}}, "parameters": c["spec"].get("parameters", {})}
                e.set_input_json(json.dumps(inp))
                pkg = t["rego"].split("\n")[0].split()[1]
                r = json.loads(e.eval_query_as_json(f"data.{pkg}.violation"))
                v = r["result"][0]["expressions"][0]["value"] if r.get("result") else []
                if v: fail = True
            got = "fail" if fail else "pass"; n += 1
            if got != exp[k]:
                bad += 1; print("DIFF", os.path.basename(d), k, "expected", exp[k], "got", got)
    print(f"{n - bad}/{n} agree")

main(sys.argv[1])
