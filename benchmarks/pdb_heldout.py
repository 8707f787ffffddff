"""MEASUREMENT: the offline API server's PodDisruptionBudgets (``itbench/cluster/disruption.py``)
on held-out cases written from Kubernetes' documentation and source by a measurer who never read
it. Each case folder holds ``objects.yaml`` (workloads, bare pods, budgets) and ``expected.json``:
``status`` (per ``namespace/budget``: currentHealthy, desiredHealthy, disruptionsAllowed,
expectedPods) and ``evictions`` (per entry: the pods of ``namespace:label=value``, ``count`` of
them evicted one after another, ``allowed`` = how many succeed before the API answers 429).
The cluster is served as ``itbench cluster serve`` serves it and driven with the real kubectl.
Prints one JSON document: per case and field what agrees and what does not. It fixes nothing.
Run: .venv/bin/python benchmarks/pdb_heldout.py CASES_DIR
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from itbench.cluster import start_cluster

STATUS_FIELDS = ("currentHealthy", "desiredHealthy", "disruptionsAllowed", "expectedPods")


def _kubectl(kubeconfig: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["kubectl", "--kubeconfig", str(kubeconfig), *args],
        input=stdin, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


def _evict(kubeconfig: Path, namespace: str, pod: str) -> str:
    """``allowed``, ``refused`` (429) or the error kubectl printed."""
    body = json.dumps({"apiVersion": "policy/v1", "kind": "Eviction",
                       "metadata": {"name": pod, "namespace": namespace}})  # fmt: skip
    path = f"/api/v1/namespaces/{namespace}/pods/{pod}/eviction"
    proc = _kubectl(kubeconfig, "create", "--raw", path, "-f", "-", stdin=body)
    if proc.returncode == 0:
        return "allowed"
    if "429" in proc.stderr or "disruption budget" in proc.stderr:
        return "refused"
    return proc.stderr.strip()[:300]


def _as_snapshot(source: Path, kubeconfig: Path) -> list[dict]:
    """The case's objects as a snapshot of a real cluster holds them: the workloads, the
    ReplicaSets and Pods the cluster derives for them (with the uids their ownerReferences name)
    and the budgets, read back from the served cluster. Served without a reconciler, derived pods
    are a read-only view; an eviction needs pods the server stores, and the server derives
    nothing more for workloads whose children are there."""
    kinds = "namespaces,deployments,statefulsets,replicasets,pods,poddisruptionbudgets"
    with start_cluster(source, kubeconfig=kubeconfig):
        made = _kubectl(kubeconfig, "get", kinds, "-A", "-o", "json")
    objects = json.loads(made.stdout)["items"]
    for obj in objects:
        obj["metadata"].pop("resourceVersion", None)
    return objects


def _case(folder: Path) -> dict:
    expected = json.loads((folder / "expected.json").read_text())
    out: dict = {"status": {}, "evictions": []}
    with tempfile.TemporaryDirectory(prefix="itbench-pdb-") as tmp:
        kubeconfig = Path(tmp) / "kubeconfig"
        objects = _as_snapshot(folder / "objects.yaml", kubeconfig)
        with start_cluster(objects, kubeconfig=kubeconfig):
            listed = _kubectl(kubeconfig, "get", "pdb", "-A", "-o", "json")
            if listed.returncode != 0:
                return {"error": listed.stderr.strip()[:300]}
            budgets = {
                f"{b['metadata']['namespace']}/{b['metadata']['name']}": b.get("status") or {}
                for b in json.loads(listed.stdout)["items"]
            }
            for key, want in expected.get("status", {}).items():
                got = budgets.get(key, {})
                out["status"][key] = {
                    f: {"expected": want[f], "got": got.get(f)}
                    for f in STATUS_FIELDS
                    if f in want and got.get(f) != want[f]
                }
            for entry in expected.get("evictions", []):
                namespace, label = entry["selector"].split(":", 1)
                pods = _kubectl(
                    kubeconfig, "get", "pods", "-n", namespace, "-l", label, "-o", "json"
                )
                names = sorted(p["metadata"]["name"] for p in json.loads(pods.stdout)["items"])
                allowed, answers = 0, []
                for name in names[: entry["count"]]:
                    answer = _evict(kubeconfig, namespace, name)
                    answers.append(answer)
                    if answer != "allowed":
                        break
                    allowed += 1
                out["evictions"].append({"selector": entry["selector"], "expected": entry["allowed"],
                                         "got": allowed, "pods": len(names),
                                         "answers": answers})  # fmt: skip
    fields = sum(
        len([f for f in STATUS_FIELDS if f in w]) for w in expected.get("status", {}).values()
    )
    wrong = sum(len(v) for v in out["status"].values())
    out["status_fields"] = fields
    out["status_agree"] = fields - wrong
    out["evictions_agree"] = sum(e["expected"] == e["got"] for e in out["evictions"])
    return out


def main() -> None:
    if len(sys.argv) != 2:
        raise SystemExit("usage: pdb_heldout.py CASES_DIR")
    root = Path(sys.argv[1])
    folders = sorted(p.parent for p in root.rglob("expected.json"))
    if not folders:
        raise SystemExit(f"no case (a folder with expected.json) under {root}")
    cases = {str(f.relative_to(root)): _case(f) for f in folders}
    done = [c for c in cases.values() if "error" not in c]
    print(json.dumps({
        "benchmark": "pdb_heldout",
        "cases": len(cases),
        "errors": sorted(k for k, c in cases.items() if "error" in c),
        "status_fields": sum(c["status_fields"] for c in done),
        "status_agree": sum(c["status_agree"] for c in done),
        "evictions": sum(len(c["evictions"]) for c in done),
        "evictions_agree": sum(c["evictions_agree"] for c in done),
        "per_case": cases,
    }, indent=2))  # fmt: skip


if __name__ == "__main__":
    main()
