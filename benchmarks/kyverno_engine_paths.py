"""CPU time of the Kyverno evaluation path end to end: ``apply`` and ``apply_rows`` of the
pod-security policies over 10,000 generated Pods and Deployments (validate outcomes remembered),
``apply`` of the same on 3,000 of them as UPDATE requests (every rule through its handler, the
old object checked), and the ``kyverno test`` runner over the policy library's tests.
With ``--against OTHER_CHECKOUT`` (e.g. a worktree of an earlier commit) each side runs in its own
process with ``PYTHONPATH`` set to its checkout, alternately, three rounds each, in one run; per
side the best of 3 and the results' counts (which must be equal). Needs ../shared. Prints one
JSON document.
Run: .venv/bin/python benchmarks/kyverno_engine_paths.py [--against /path/to/older/checkout]
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[1]
LIBRARY = REPO.parent / "shared" / "corpora" / "kyverno-policies"
TIMED = ("apply_cpu_s", "apply_rows_cpu_s", "apply_update_cpu_s", "test_runner_cpu_s")


def _policies() -> list[dict[str, Any]]:
    found = []
    for level in ("baseline", "restricted"):
        for path in sorted((LIBRARY / "pod-security" / level).glob("*/*.yaml")):
            found += [
                d
                for d in yaml.safe_load_all(path.read_text())
                if d and d.get("kind") in ("ClusterPolicy", "Policy")
            ]
    return found


def _resources(n: int) -> list[dict[str, Any]]:
    """Pods and Deployments with the pod specs of benchmarks/kyverno_throughput.py."""
    # the script's own folder is on sys.path (this checkout's, whichever tree PYTHONPATH names)
    from kyverno_throughput import pod_spec

    rng = random.Random(0)
    made = []
    for i in range(n):
        spec: dict[str, Any] = pod_spec(rng)
        meta = {"name": f"r{i}", "namespace": "bench"}
        if i % 2:
            made.append({"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec})
        else:
            template = {"template": {"spec": spec}}
            made.append({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": meta,
                         "spec": template})  # fmt: skip
    return made


def _measure() -> dict[str, Any]:
    import ciso
    from ciso.engines.kyverno.engine import Context, apply, apply_rows
    from ciso.engines.kyverno.testrunner import run_tests

    policies, resources = _policies(), _resources(10_000)
    measured: dict[str, Any] = {"ciso": ciso.__file__}

    def timed(name: str, work: Any) -> Any:
        started = time.process_time()
        out = work()
        measured[name] = round(time.process_time() - started, 3)
        return out

    # fresh policy objects per workload: no memo or compiled pattern carries over between them
    results = timed("apply_cpu_s", lambda: apply(copy.deepcopy(policies), resources))
    rows = timed("apply_rows_cpu_s", lambda: apply_rows(copy.deepcopy(policies), resources))
    update = Context(operation="UPDATE")
    updated = timed(
        "apply_update_cpu_s", lambda: apply(copy.deepcopy(policies), resources[:3000], update)
    )
    report = timed("test_runner_cpu_s", lambda: run_tests([LIBRARY]))
    measured["counts"] = {
        "apply": dict(sorted(Counter(r.status for r in results).items())),
        "apply_rows": dict(sorted(Counter(r[5] for r in rows).items())),
        "apply_update": dict(sorted(Counter(r.status for r in updated).items())),
        "test_runner": report.summary(),
    }
    return measured


def _in(checkout: Path) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    proc = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--inner"],
        capture_output=True, text=True, check=True, cwd="/tmp", env=env,
    )  # fmt: skip
    measured = json.loads(proc.stdout)
    if not measured["ciso"].startswith(str(checkout.resolve())):
        sys.exit(f"{checkout}: the measured run imported {measured['ciso']}")
    return measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--against", type=Path, help="another checkout to compare with")
    parser.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not LIBRARY.exists():
        sys.exit(f"{LIBRARY} not found: ../shared is needed")
    if args.inner:
        print(json.dumps(_measure()))
        return
    checkouts = {"this": REPO} | ({"against": args.against} if args.against else {})
    rounds: dict[str, list[dict[str, Any]]] = {name: [] for name in checkouts}
    for _ in range(3):
        for name, checkout in checkouts.items():
            rounds[name].append(_in(checkout))
    best = {name: {k: min(r[k] for r in runs) for k in TIMED} for name, runs in rounds.items()}
    counts = {name: runs[0]["counts"] for name, runs in rounds.items()}
    print(
        json.dumps(
            {
                "benchmark": "kyverno_engine_paths",
                "best_of_3_cpu_s": best,
                "counts": counts,
                "same_counts": len({json.dumps(c, sort_keys=True) for c in counts.values()}) == 1,
                "rounds": {
                    n: [{k: r[k] for k in TIMED} for r in runs] for n, runs in rounds.items()
                },
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
