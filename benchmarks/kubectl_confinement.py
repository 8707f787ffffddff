"""Cost of confining the agents' kubectl (itbench.sandbox.kubectl): the same kubectl call against
an SRE twin's offline cluster, run as the runner ran it before (a direct child with a private
kubeconfig and discovery cache per call) and confined (bubblewrap, the relay), alternated in one
run. Wall time per call (median) and CPU per call (median): the whole process tree's, the
runner's own included (its relay threads, its process starts), from a cpuacct cgroup the script
joins (where none can be made, getrusage of the children, which misses what bwrap does not reap,
and says so). Prints one JSON document.
Run: PYTHONPATH=$PWD .venv/bin/python benchmarks/kubectl_confinement.py [--rounds 10]
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import json
import os
import resource
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from itbench.sandbox.kubectl import run_confined_kubectl
from sre.twin.scenario import build_case, serve_case

CALLS = {
    "get pods -A -o name": ["get", "pods", "-A", "-o", "name"],
    "get deploy -o json": ["-n", "otel-demo", "get", "deploy", "-o", "json"],
}


def direct(args: list[str], kubeconfig: str) -> int:
    """kubectl as the tools ran it before: unconfined, a private kubeconfig and cache."""
    with tempfile.TemporaryDirectory(prefix="itbench-kubeconfig-") as folder:
        path = Path(folder) / "kubeconfig"
        path.write_text(kubeconfig, encoding="utf-8")
        env = {**os.environ, "KUBECONFIG": str(path), "KUBECACHEDIR": f"{folder}/kube-cache"}
        done = subprocess.run(
            ["kubectl", *args], env=env, capture_output=True, timeout=60, check=False
        )
    return done.returncode


def confined(args: list[str], kubeconfig: str) -> int:
    return run_confined_kubectl(args, kubeconfig=kubeconfig, timeout_s=60).exit_code


CPUACCT = Path("/sys/fs/cgroup/cpuacct")


def cpu_clock() -> tuple[Callable[[], float], str]:
    """CPU seconds used so far by this process and everything it started, and how measured."""
    group = CPUACCT / f"itbench-bench-kubectl-{os.getpid()}"
    try:
        group.mkdir()
        (group / "cgroup.procs").write_text(str(os.getpid()))
    except OSError:

        def rusage() -> float:
            own = resource.getrusage(resource.RUSAGE_SELF)
            kids = resource.getrusage(resource.RUSAGE_CHILDREN)
            return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime

        return rusage, "getrusage self + children (misses processes bwrap does not reap)"
    atexit.register(_leave, group)
    return lambda: int((group / "cpuacct.usage").read_text()) / 1e9, f"cpuacct cgroup {group}"


def _leave(group: Path) -> None:
    """Back to the parent group, and the script's own group removed."""
    with contextlib.suppress(OSError):
        (group.parent / "cgroup.procs").write_text(str(os.getpid()))
        group.rmdir()


def _measure(
    run: Callable[[list[str], str], int], args: list[str], kubeconfig: str, cpu: Callable[[], float]
) -> tuple[int, float, float]:
    used = cpu()
    started = time.perf_counter()
    code = run(args, kubeconfig)
    return code, time.perf_counter() - started, cpu() - used


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=10)
    rounds = parser.parse_args().rounds
    cpu, how = cpu_clock()
    with tempfile.TemporaryDirectory() as folder:
        config_path = Path(folder) / "kubeconfig.yaml"
        cluster, _twin = serve_case(build_case("scaled-to-zero", 5), config_path)
        kubeconfig = config_path.read_text()
        samples: dict[str, dict[str, list[tuple[int, float, float]]]] = {
            name: {"direct": [], "confined": []} for name in CALLS
        }
        try:
            for _ in range(rounds):
                for name, args in CALLS.items():
                    for way, run in (("direct", direct), ("confined", confined)):
                        samples[name][way].append(_measure(run, args, kubeconfig, cpu))
        finally:
            cluster.stop()
    result: dict[str, object] = {"rounds": rounds, "load": os.getloadavg()[0], "cpu": how}
    for name, ways in samples.items():
        entry: dict[str, dict[str, float] | float] = {}
        for way, runs in ways.items():
            assert all(code == 0 for code, *_ in runs), (name, way, runs)
            entry[way] = {
                "wall_s_median": round(statistics.median(r[1] for r in runs), 4),
                "cpu_s_median": round(statistics.median(r[2] for r in runs), 4),
            }
        for key in ("wall_s_median", "cpu_s_median"):
            added = entry["confined"][key] - entry["direct"][key]
            entry[f"{key.split('_')[0]}_added_s"] = round(added, 4)
        result[name] = entry
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
