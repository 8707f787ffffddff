#!/usr/bin/env python3
"""Deterministic, stdlib-only generator for the pdb1 held-out PodDisruptionBudget set.

Usage: python3 gen.py OUTDIR   -> OUTDIR/<case>/{objects.yaml,expected.json}
All expected values below were fixed by hand from upstream semantics before anything was run.
"""
import json, os, sys

# ---------------------------------------------------------------- tiny YAML dumper
def _scalar(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    return json.dumps(v)          # double-quoted YAML string ("50%", names, ...)

def _dump(v, ind=0):
    pad = "  " * ind
    out = []
    if isinstance(v, dict):
        if not v:
            return [pad + "{}"]
        for k, x in v.items():
            if isinstance(x, (dict, list)) and x:
                out.append(f"{pad}{k}:")
                out.extend(_dump(x, ind + 1))
            elif isinstance(x, dict):
                out.append(f"{pad}{k}: {{}}")
            elif isinstance(x, list):
                out.append(f"{pad}{k}: []")
            else:
                out.append(f"{pad}{k}: {_scalar(x)}")
    elif isinstance(v, list):
        for x in v:
            if isinstance(x, (dict, list)) and x:
                sub = _dump(x, ind + 1)
                out.append(pad + "- " + sub[0].lstrip())
                out.extend(sub[1:])
            else:
                out.append(f"{pad}- {_scalar(x) if not isinstance(x,(dict,list)) else ('{}' if isinstance(x,dict) else '[]')}")
    return out

def yaml_docs(objs):
    return "".join("---\n" + "\n".join(_dump(o)) + "\n" for o in objs)

# ---------------------------------------------------------------- object helpers
def ns(name):
    return {"apiVersion": "v1", "kind": "Namespace",
            "metadata": {"name": name, "labels": {"kubernetes.io/metadata.name": name}}}

def _tmpl(labels, image):
    return {"metadata": {"labels": dict(labels)},
            "spec": {"containers": [{"name": "main", "image": image,
                                     "resources": {"requests": {"cpu": "50m", "memory": "64Mi"}}}]}}

def deploy(namespace, name, replicas, labels, meta_labels=None, image="nginx:1.27"):
    spec = {"selector": {"matchLabels": dict(labels)}, "template": _tmpl(labels, image)}
    if replicas is not None:
        spec = {"replicas": replicas, **spec}
    md = {"name": name, "namespace": namespace}
    if meta_labels:
        md["labels"] = dict(meta_labels)
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": md, "spec": spec}

def sts(namespace, name, replicas, labels, image="redis:7.2"):
    return {"apiVersion": "apps/v1", "kind": "StatefulSet",
            "metadata": {"name": name, "namespace": namespace},
            "spec": {"replicas": replicas, "serviceName": name,
                     "selector": {"matchLabels": dict(labels)}, "template": _tmpl(labels, image)}}

def rs(namespace, name, replicas, labels, image="busybox:1.36"):
    t = _tmpl(labels, image)
    t["spec"]["containers"][0]["command"] = ["sleep", "infinity"]
    return {"apiVersion": "apps/v1", "kind": "ReplicaSet",
            "metadata": {"name": name, "namespace": namespace},
            "spec": {"replicas": replicas, "selector": {"matchLabels": dict(labels)}, "template": t}}

def pod(namespace, name, labels, image="busybox:1.36"):
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": namespace, "labels": dict(labels)},
            "spec": {"containers": [{"name": "main", "image": image, "command": ["sleep", "infinity"]}]}}

def pdb(namespace, name, selector, min_available=None, max_unavailable=None, policy=None):
    spec = {}
    if min_available is not None:
        spec["minAvailable"] = min_available
    if max_unavailable is not None:
        spec["maxUnavailable"] = max_unavailable
    spec["selector"] = selector
    if policy:
        spec["unhealthyPodEvictionPolicy"] = policy
    return {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
            "metadata": {"name": name, "namespace": namespace}, "spec": spec}

def st(cur, des, allowed, exp):
    return {"currentHealthy": cur, "desiredHealthy": des, "disruptionsAllowed": allowed, "expectedPods": exp}

def ev(sel, count, allowed, why):
    return {"selector": sel, "count": count, "allowed": allowed, "why": why}

ML = lambda **kw: {"matchLabels": kw}

# ---------------------------------------------------------------- cases
CASES = []
def case(cid, objects, status, evictions):
    CASES.append((cid, objects, {"status": status, "evictions": evictions}))

# p01 int minAvailable over a Deployment
case("p01-min-int-deploy",
     [ns("shop"), deploy("shop", "web", 3, {"app": "web"}),
      pdb("shop", "web-pdb", ML(app="web"), min_available=2)],
     {"shop/web-pdb": st(3, 2, 1, 3)},
     [ev("shop:app=web", 3, 1, "3 healthy - minAvailable 2 = 1 disruption; the 2nd try gets 429")])

# p02 maxUnavailable percent, rounding up (30% of 5 = 1.5 -> 2)
case("p02-maxunavail-pct-roundup",
     [ns("billing"), deploy("billing", "invoicer", 5, {"app": "invoicer", "tier": "api"}),
      pdb("billing", "invoicer-budget", ML(app="invoicer"), max_unavailable="30%")],
     {"billing/invoicer-budget": st(5, 3, 2, 5)},
     [ev("billing:tier=api", 3, 2, "maxUnavailable 30% of 5 = ceil(1.5) = 2 -> desired 3; 2 evictions")])

# p03 minAvailable percent on a StatefulSet (50% of 3 = 1.5 -> 2)
case("p03-minavail-pct-sts",
     [ns("data"), sts("data", "zk", 3, {"app": "zookeeper"}),
      pdb("data", "zk-pdb", ML(app="zookeeper"), min_available="50%")],
     {"data/zk-pdb": st(3, 2, 1, 3)},
     [ev("data:app=zookeeper", 2, 1, "minAvailable 50% of 3 rounds UP to 2 -> 1 disruption")])

# p04 maxUnavailable 50% of 3: rounds up too (2), so desired = 1
case("p04-maxunavail-50pct-odd",
     [ns("edge"), deploy("edge", "gateway", 3, {"app": "gateway"}),
      pdb("edge", "gateway", ML(app="gateway"), max_unavailable="50%")],
     {"edge/gateway": st(3, 1, 2, 3)},
     [ev("edge:app=gateway", 3, 2, "maxUnavailable ceil(1.5)=2 -> desired 1 -> 2 disruptions (not 1)")])

# p05 100% minAvailable and 0% maxUnavailable: nothing can be evicted
case("p05-full-protection",
     [ns("core"), deploy("core", "auth", 4, {"app": "auth"}), sts("core", "etcd", 2, {"app": "etcd"}),
      pdb("core", "auth-all", ML(app="auth"), min_available="100%"),
      pdb("core", "etcd-none", ML(app="etcd"), max_unavailable="0%")],
     {"core/auth-all": st(4, 4, 0, 4), "core/etcd-none": st(2, 2, 0, 2)},
     [ev("core:app=auth", 1, 0, "minAvailable 100% -> desired 4 = healthy -> 429"),
      ev("core:app=etcd", 1, 0, "maxUnavailable 0% -> desired 2 = healthy -> 429")])

# p06 100% maxUnavailable and minAvailable 0: everything can go
case("p06-no-protection",
     [ns("scratch"), deploy("scratch", "preview", 3, {"app": "preview"}),
      rs("scratch", "sidecar-rs", 2, {"app": "sidecar"}),
      pdb("scratch", "preview-pdb", ML(app="preview"), max_unavailable="100%"),
      pdb("scratch", "sidecar-pdb", ML(app="sidecar"), min_available=0)],
     {"scratch/preview-pdb": st(3, 0, 3, 3), "scratch/sidecar-pdb": st(2, 0, 2, 2)},
     [ev("scratch:app=preview", 3, 3, "maxUnavailable 100% -> desired 0 -> all 3 evictable"),
      ev("scratch:app=sidecar", 2, 2, "minAvailable 0 -> desired 0 -> both evictable")])

# p07 budgets matching nothing, a deployment scaled to 0, and uncovered pods
case("p07-budgets-matching-nothing",
     [ns("ops"), deploy("ops", "api", 2, {"app": "api"}), deploy("ops", "idle", 0, {"app": "idle"}),
      pdb("ops", "ghost-min", ML(app="ghost"), min_available=1),
      pdb("ops", "ghost-max", ML(app="ghost-worker"), max_unavailable=1),
      pdb("ops", "idle-pdb", ML(app="idle"), min_available="50%")],
     {"ops/ghost-min": st(0, 1, 0, 0), "ops/ghost-max": st(0, 0, 0, 0), "ops/idle-pdb": st(0, 0, 0, 0)},
     [ev("ops:app=api", 2, 2, "no PDB selects app=api: eviction is not budgeted")])

# p08 PDB selects a label that is on the Deployment object, not on its pod template (near miss)
case("p08-selector-on-deploy-metadata",
     [ns("payments"), deploy("payments", "pay", 3, {"app": "pay"}, meta_labels={"team": "payments", "app": "pay"}),
      pdb("payments", "team-payments", ML(team="payments"), min_available=2)],
     {"payments/team-payments": st(0, 2, 0, 0)},
     [ev("payments:app=pay", 3, 3, "PDB selects pods, and the pods lack team=payments: no budget applies")])

# p09 one budget over pods of two workloads (Deployment + StatefulSet); evictions share the budget
case("p09-two-workloads-one-budget",
     [ns("shop-a"), deploy("shop-a", "frontend", 2, {"app": "shop", "tier": "fe"}),
      sts("shop-a", "cache", 3, {"app": "shop", "tier": "cache"}),
      pdb("shop-a", "shop", ML(app="shop"), max_unavailable=2)],
     {"shop-a/shop": st(5, 3, 2, 5)},
     [ev("shop-a:tier=fe", 1, 1, "expected = 2 + 3 replicas; 2 disruptions; first uses one"),
      ev("shop-a:tier=cache", 2, 1, "one disruption left in the shared budget")])

# p10 two budgets over the same pods: status computed per budget, eviction refused (500, not 429)
case("p10-overlapping-budgets",
     [ns("db"), deploy("db", "pg", 4, {"app": "pg", "role": "db"}), deploy("db", "pgbouncer", 2, {"app": "pgbouncer"}),
      pdb("db", "pg-min", ML(app="pg"), min_available=1),
      pdb("db", "db-role", {"matchExpressions": [{"key": "role", "operator": "In", "values": ["db", "database"]}]},
          max_unavailable=1),
      pdb("db", "bouncer", ML(app="pgbouncer"), min_available=1)],
     {"db/pg-min": st(4, 1, 3, 4), "db/db-role": st(4, 3, 1, 4), "db/bouncer": st(2, 1, 1, 2)},
     [ev("db:app=pg", 1, 0, "pod matched by 2 PDBs: eviction API answers 500 'more than one PodDisruptionBudget' (debatable: 500, not 429)"),
      ev("db:app=pgbouncer", 2, 1, "single PDB, 2 healthy - 1 = 1")])

# p11 matchLabels AND matchExpressions (NotIn matches pods lacking the key; Exists)
case("p11-match-expressions",
     [ns("reco"), deploy("reco", "stable", 3, {"app": "rec", "env": "prod", "tier": "backend"}),
      deploy("reco", "canary", 1, {"app": "rec", "env": "canary", "tier": "backend"}),
      deploy("reco", "ranker", 2, {"app": "rec2", "tier": "backend"}),
      deploy("reco", "trainer", 2, {"app": "rec3", "tier": "batch"}),
      pod("reco", "debug-shell", {"tool": "debug", "tier": "backend"}),
      pdb("reco", "backend", {"matchLabels": {"tier": "backend"},
                              "matchExpressions": [{"key": "env", "operator": "NotIn", "values": ["canary"]},
                                                   {"key": "app", "operator": "Exists"}]},
          min_available="60%")],
     {"reco/backend": st(5, 3, 2, 5)},
     [ev("reco:env=canary", 1, 1, "env=canary excluded by NotIn: not budgeted"),
      ev("reco:app=rec3", 2, 2, "tier=batch excluded by matchLabels: not budgeted"),
      ev("reco:app=rec2", 2, 2, "no env key -> NotIn matches; 60% of (3+2) = 3 desired -> 2 disruptions"),
      ev("reco:env=prod", 1, 0, "shared budget already used by the 2 ranker evictions")])

# p12 bare pods with an integer minAvailable (supported: expected = number of pods)
case("p12-bare-pods-min-int",
     [ns("batch"), pod("batch", "etl-1", {"app": "etl"}), pod("batch", "etl-2", {"app": "etl"}),
      pod("batch", "etl-3", {"app": "etl"}),
      pdb("batch", "etl", ML(app="etl"), min_available=2)],
     {"batch/etl": st(3, 2, 1, 3)},
     [ev("batch:app=etl", 2, 1, "int minAvailable works for pods without controller; 3-2 = 1")])

# p13 unmanaged pods under maxUnavailable / percent (debatable: docs call this undefined)
case("p13-unmanaged-pods-percent",
     [ns("legacy"), deploy("legacy", "legacy", 2, {"app": "legacy"}), pod("legacy", "legacy-manual", {"app": "legacy"}),
      pod("legacy", "solo-a", {"app": "solo"}), pod("legacy", "solo-b", {"app": "solo"}),
      pdb("legacy", "legacy", ML(app="legacy"), max_unavailable=1),
      pdb("legacy", "solo", ML(app="solo"), min_available="50%")],
     {"legacy/legacy": st(3, 1, 2, 2), "legacy/solo": st(2, 0, 0, 0)},
     [ev("legacy:app=legacy", 3, 2, "expected counts only the Deployment's 2 replicas, healthy counts 3 pods -> 3-1 = 2 (debatable)"),
      ev("legacy:app=solo", 1, 0, "percent over bare pods: expectedPods 0 -> disruptionsAllowed forced to 0 (debatable)")])

# p14 minAvailable above the replica count; maxUnavailable above the replica count
case("p14-over-asking",
     [ns("queue"), sts("queue", "rabbit", 2, {"app": "rabbit"}), deploy("queue", "consumer", 3, {"app": "consumer"}),
      pdb("queue", "rabbit", ML(app="rabbit"), min_available=3),
      pdb("queue", "consumer", ML(app="consumer"), max_unavailable=5)],
     {"queue/rabbit": st(2, 3, 0, 2), "queue/consumer": st(3, 0, 3, 3)},
     [ev("queue:app=rabbit", 1, 0, "minAvailable 3 > 2 pods -> 0 allowed"),
      ev("queue:app=consumer", 3, 3, "maxUnavailable 5 > 3 -> desired clamped to 0 -> 3 allowed")])

# p15 unhealthyPodEvictionPolicy does not loosen the budget for Ready pods
case("p15-unhealthy-policy-ready-pods",
     [ns("search"), deploy("search", "query", 3, {"app": "query"}), sts("search", "index", 4, {"app": "index"}),
      pdb("search", "query", ML(app="query"), min_available=2, policy="AlwaysAllow"),
      pdb("search", "index", ML(app="index"), max_unavailable="20%", policy="IfHealthyBudget")],
     {"search/query": st(3, 2, 1, 3), "search/index": st(4, 3, 1, 4)},
     [ev("search:app=query", 3, 1, "AlwaysAllow only bypasses the budget for NOT-Ready pods; these are Ready"),
      ev("search:app=index", 2, 1, "20% of 4 = ceil(0.8) = 1 -> desired 3")])

# p16 empty selector {} matches every pod of its namespace (policy/v1); budgets are namespaced
case("p16-empty-selector-namespaced",
     [ns("tenant-a"), ns("tenant-b"),
      deploy("tenant-a", "ui", 2, {"app": "alpha-ui"}), sts("tenant-a", "store", 2, {"app": "alpha-store"}),
      deploy("tenant-b", "ui", 2, {"app": "alpha-ui"}),
      pdb("tenant-a", "everything", {}, max_unavailable=1),
      pdb("tenant-b", "alpha-store", ML(app="alpha-store"), min_available=1)],
     {"tenant-a/everything": st(4, 3, 1, 4), "tenant-b/alpha-store": st(0, 1, 0, 0)},
     [ev("tenant-a:app=alpha-ui", 1, 1, "empty selector covers ui+store: expected 4, 1 disruption"),
      ev("tenant-a:app=alpha-store", 1, 0, "same budget, already used"),
      ev("tenant-b:app=alpha-ui", 2, 2, "tenant-a's budget does not reach tenant-b; no budget here")])

# p17 standalone ReplicaSet, awkward percentages (90% of 7 = 6.3 -> 7; 10% of 7 = 0.7 -> 1)
case("p17-rounding-seven",
     [ns("ledger"), rs("ledger", "ledger", 7, {"app": "ledger"}), deploy("ledger", "indexer", 7, {"app": "indexer"}),
      pdb("ledger", "ledger", ML(app="ledger"), min_available="90%"),
      pdb("ledger", "indexer", ML(app="indexer"), max_unavailable="10%")],
     {"ledger/ledger": st(7, 7, 0, 7), "ledger/indexer": st(7, 6, 1, 7)},
     [ev("ledger:app=ledger", 1, 0, "minAvailable 90% of 7 rounds up to 7 -> nothing evictable"),
      ev("ledger:app=indexer", 2, 1, "maxUnavailable 10% of 7 rounds up to 1")])

# p18 same budget name in several namespaces; default replicas (1)
case("p18-same-name-default-replicas",
     [ns("team-a"), ns("team-b"), ns("team-c"),
      deploy("team-a", "web", 2, {"app": "web"}), deploy("team-b", "web", 6, {"app": "web"}),
      deploy("team-c", "web", None, {"app": "web"}),
      pdb("team-a", "web-pdb", ML(app="web"), min_available=1),
      pdb("team-b", "web-pdb", ML(app="web"), max_unavailable="33%"),
      pdb("team-c", "web-pdb", ML(app="web"), min_available=1)],
     {"team-a/web-pdb": st(2, 1, 1, 2), "team-b/web-pdb": st(6, 4, 2, 6), "team-c/web-pdb": st(1, 1, 0, 1)},
     [ev("team-a:app=web", 2, 1, "2-1 = 1"),
      ev("team-b:app=web", 3, 2, "33% of 6 = ceil(1.98) = 2 -> desired 4"),
      ev("team-c:app=web", 1, 0, "replicas omitted -> 1 pod; minAvailable 1 -> 0")])


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: gen.py OUTDIR")
    out = sys.argv[1]
    for cid, objs, exp in CASES:
        d = os.path.join(out, cid)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "objects.yaml"), "w") as f:
            f.write(yaml_docs(objs))
        with open(os.path.join(d, "expected.json"), "w") as f:
            json.dump(exp, f, indent=2, sort_keys=False)
            f.write("\n")
    print(f"wrote {len(CASES)} cases to {out}")

if __name__ == "__main__":
    main()
