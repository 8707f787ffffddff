"""Pod-security baseline + restricted policies over 10,000 generated Pods and Deployments: rule
evaluations per second on one core, and peak memory. Needs ../shared. Prints one JSON document.
Run: .venv/bin/python benchmarks/kyverno_throughput.py [--n 10000]
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import sys
import time
from pathlib import Path

import yaml

from ciso.engines.kyverno.engine import apply

CORPUS = (
    Path(__file__).resolve().parents[2] / "shared" / "corpora" / "kyverno-policies" / "pod-security"
)


def pod_spec(rng: random.Random) -> dict:
    spec = {
        "containers": [
            {
                "name": f"c{i}",
                "image": rng.choice(["nginx:1.25", "busybox", "registry.io/app:2"]),
                "securityContext": {
                    "privileged": rng.random() < 0.1,
                    "allowPrivilegeEscalation": rng.random() < 0.3,
                    "runAsNonRoot": rng.random() < 0.7,
                    "capabilities": {"drop": ["ALL"]}
                    if rng.random() < 0.6
                    else {"add": ["NET_ADMIN"]},
                },
            }
            for i in range(rng.randint(1, 3))
        ]
    }
    if rng.random() < 0.1:
        spec["hostNetwork"] = True
    if rng.random() < 0.1:
        spec["volumes"] = [{"name": "h", "hostPath": {"path": "/var"}}]
    return spec


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=10_000)
    args = parser.parse_args()
    if not CORPUS.exists():
        sys.exit(f"{CORPUS} not found: ../shared is needed")
    policies = []
    for level in ("baseline", "restricted"):
        for path in sorted((CORPUS / level).glob("*/*.yaml")):
            policies += [
                d
                for d in yaml.safe_load_all(path.read_text())
                if d and d.get("kind") in ("ClusterPolicy", "Policy")
            ]
    rng = random.Random(0)
    resources = []
    for i in range(args.n):
        spec = pod_spec(rng)
        if i % 2:
            resources.append(
                {
                    "apiVersion": "v1",
                    "kind": "Pod",
                    "metadata": {"name": f"p{i}", "namespace": "bench"},
                    "spec": spec,
                }
            )
        else:
            resources.append(
                {
                    "apiVersion": "apps/v1",
                    "kind": "Deployment",
                    "metadata": {"name": f"d{i}", "namespace": "bench"},
                    "spec": {"template": {"spec": spec}},
                }
            )
    started = time.perf_counter()
    results = apply(policies, resources)
    elapsed = time.perf_counter() - started
    counts: dict[str, int] = {}
    for r in results:
        counts[r.status] = counts.get(r.status, 0) + 1
    print(
        json.dumps(
            {
                "benchmark": "kyverno_throughput",
                "policies": len(policies),
                "resources": len(resources),
                "rule_evaluations": len(results),
                "seconds": round(elapsed, 2),
                "evaluations_per_s": round(len(results) / elapsed),
                "results": counts,
                "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
                "target_per_s": 20000,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
