"""Latency of one evaluation of a CIS pod-security Rego policy per backend, in-process and through
the killable worker pool, and the wall time of `itbench rego eval`. Prints one JSON document.
Run: .venv/bin/python benchmarks/rego_latency.py [--n 200]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ciso.engines.rego.pool import RegoPool
from ciso.engines.rego.select import available_engines, select_engine

REPO = Path(__file__).resolve().parents[1]
POLICY = REPO / "policies" / "rego" / "cis-k8s-5.2.2-privileged" / "policy.rego"


def make_input(n_pods: int = 50) -> dict:
    return {
        "kind": "List",
        "items": [
            {
                "kind": "Pod",
                "spec": {
                    "containers": [
                        {"name": f"c{i}", "securityContext": {"privileged": i == n_pods - 1}}
                    ]
                },
            }
            for i in range(n_pods)
        ],
    }


def timed(fn, n: int) -> float:
    samples = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t)
    return round(statistics.median(samples) * 1000, 3)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=200)
    args = parser.parse_args()
    modules = {str(POLICY): POLICY.read_text()}
    data = make_input()
    report: dict = {
        "benchmark": "rego_latency",
        "policy": POLICY.parent.name,
        "pods_in_input": 50,
        "median_ms": {},
    }
    engines = [e for e in available_engines() if e != "opa"]
    for name in engines:
        backend = select_engine(name)
        assert backend.evaluate(modules, "data.check.result", data).value is False
        report["median_ms"][f"{name} in-process"] = timed(
            lambda b=backend: b.evaluate(modules, "data.check.result", data), args.n
        )
        with RegoPool(size=1) as pool:
            pool.evaluate(modules, "data.check.result", data, engine=name)  # start the worker
            report["median_ms"][f"{name} worker pool"] = timed(
                lambda p=pool, e=name: p.evaluate(modules, "data.check.result", data, engine=e),
                args.n,
            )
    exe = str(Path(sys.executable).parent / "itbench")
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "input.json").write_text(json.dumps(data))
        walls = []
        for _ in range(5):
            t = time.perf_counter()
            subprocess.run(
                [
                    exe,
                    "rego",
                    "eval",
                    "-d",
                    str(POLICY),
                    "-i",
                    str(Path(tmp) / "input.json"),
                    "data.check.result",
                    "--format",
                    "raw",
                ],
                check=True,
                capture_output=True,
            )
            walls.append(time.perf_counter() - t)
    report["itbench_rego_eval_wall_s"] = round(statistics.median(walls), 3)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
