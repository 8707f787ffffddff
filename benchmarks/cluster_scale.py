"""Offline cluster at scale: start-up with 10,000 objects and `kubectl get pods -A -o json` latency.

The manifests are 2,500 Deployments (2 replicas each, so 2,500 ReplicaSets and 5,000 Pods are
derived) plus 7,500 ConfigMaps across 50 namespaces: 10,000 declared objects, 17,550 served.
Prints one JSON document.
Run: .venv/bin/python benchmarks/cluster_scale.py
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml


def write_manifests(folder: Path, deployments: int = 2500, configmaps: int = 7500) -> int:
    docs = []
    for i in range(deployments):
        ns = f"ns-{i % 50}"
        docs.append(
            {
                "apiVersion": "apps/v1",
                "kind": "Deployment",
                "metadata": {"name": f"app-{i}", "namespace": ns, "labels": {"app": f"app-{i}"}},
                "spec": {
                    "replicas": 2,
                    "selector": {"matchLabels": {"app": f"app-{i}"}},
                    "template": {
                        "metadata": {"labels": {"app": f"app-{i}"}},
                        "spec": {"containers": [{"name": "main", "image": f"registry/app:{i}"}]},
                    },
                },
            }
        )
    for i in range(configmaps):
        docs.append(
            {
                "apiVersion": "v1",
                "kind": "ConfigMap",
                "metadata": {"name": f"cm-{i}", "namespace": f"ns-{i % 50}"},
                "data": {"k": str(i)},
            }
        )
    (folder / "all.yaml").write_text(yaml.safe_dump_all(docs, sort_keys=False))
    return len(docs)


def main() -> None:
    kubectl = shutil.which("kubectl")
    exe = str(Path(sys.executable).parent / "itbench")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "m").mkdir()
        declared = write_manifests(root / "m")
        kubeconfig = root / "kc"
        started = time.perf_counter()
        server = subprocess.Popen(
            [exe, "cluster", "serve", str(root / "m"), "--kubeconfig", str(kubeconfig)],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        server.stdout.readline()
        startup = time.perf_counter() - started
        latencies, pods = [], 0
        env = {"PATH": os.environ["PATH"], "HOME": tmp, "KUBECACHEDIR": str(root / "cache")}
        try:
            if kubectl:
                for _ in range(5):
                    t = time.perf_counter()
                    out = subprocess.run(
                        [
                            kubectl,
                            "--kubeconfig",
                            str(kubeconfig),
                            "get",
                            "pods",
                            "-A",
                            "-o",
                            "json",
                        ],
                        capture_output=True,
                        text=True,
                        env=env,
                        check=True,
                    ).stdout
                    latencies.append(time.perf_counter() - t)
                pods = len(json.loads(out)["items"])
        finally:
            server.terminate()
            server.wait()
    print(
        json.dumps(
            {
                "benchmark": "cluster_scale",
                "declared_objects": declared,
                "pods_served": pods,
                "startup_s": round(startup, 3),
                "kubectl_get_pods_all_json_s": {
                    "median": round(statistics.median(latencies), 3),
                    "min": round(min(latencies), 3),
                }
                if latencies
                else "kubectl not installed",
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
