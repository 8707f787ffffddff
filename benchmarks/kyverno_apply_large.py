"""``itbench kyverno apply`` of the 18 pod-security policies (baseline + restricted) over one
manifest of 250,000 Pods (about 50 MB): wall time, CPU time (user + system, the command and its
worker processes) and peak RSS of the command, run as a user runs it, with the machine's load
average when it started (wall time on a shared machine is only as good as that). Needs
../shared. Prints one JSON document. Targets: at most 15 s and 500 MB.
Run: .venv/bin/python benchmarks/kyverno_apply_large.py [--pods 250000] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CORPUS = (
    Path(__file__).resolve().parents[2] / "shared" / "corpora" / "kyverno-policies" / "pod-security"
)
ITBENCH = Path(sys.executable).parent / "itbench"
TARGET_S, TARGET_MB = 15.0, 500.0


def pod_yaml(i: int, rng: random.Random) -> str:
    """One small Pod (about 200 bytes, as in the issue's 50 MB for 250k), some violating."""
    privileged = "true" if rng.random() < 0.05 else "false"
    host_network = "\n  hostNetwork: true" if rng.random() < 0.05 else ""
    return (
        f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: pod-{i}\n  namespace: ns-{i % 50}\n"
        f"spec:{host_network}\n  containers:\n  - name: app\n    image: nginx:1.27\n"
        f"    securityContext:\n      privileged: {privileged}\n      runAsNonRoot: true\n"
    )


def write_manifest(path: Path, pods: int) -> None:
    rng = random.Random(0)
    with path.open("w") as out:
        for i in range(pods):
            out.write("---\n" if i else "")
            out.write(pod_yaml(i, rng))


def policy_files() -> list[Path]:
    return [
        folder / f"{folder.name}.yaml"
        for level in ("baseline", "restricted")
        for folder in sorted((CORPUS / level).iterdir())
        if (folder / f"{folder.name}.yaml").is_file()
    ]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pods", type=int, default=250_000)
    parser.add_argument("--keep", type=Path, help="write (or reuse) the manifest in DIR")
    args = parser.parse_args()
    if not CORPUS.exists():
        sys.exit(f"{CORPUS} not found: ../shared is needed")
    policies = policy_files()
    with tempfile.TemporaryDirectory(prefix="itbench-bench-") as scratch:
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        manifest = folder / f"pods-{args.pods}.yaml"
        if not manifest.exists():
            write_manifest(manifest, args.pods)
        command = [str(ITBENCH), "kyverno", "apply", *map(str, policies)]
        command += ["--resource", str(manifest)]
        output = Path(scratch) / "stdout.txt"  # the results go to a file, as a user redirects
        load = os.getloadavg()[0]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        with output.open("w") as out:
            proc = subprocess.run(command, stdout=out, stderr=subprocess.PIPE, text=True)
        seconds = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        peak_mb = after.ru_maxrss / 1024
        with output.open("rb") as results:
            lines = sum(chunk.count(b"\n") for chunk in iter(lambda: results.read(1 << 20), b""))
        summary = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else ""
        print(
            json.dumps(
                {
                    "benchmark": "kyverno_apply_large",
                    "policies": len(policies),
                    "pods": args.pods,
                    "manifest_mb": round(manifest.stat().st_size / 2**20, 1),
                    "exit_code": proc.returncode,
                    "result_lines": lines,
                    "summary": summary,
                    "seconds": round(seconds, 2),
                    "cpu_seconds": round(cpu, 2),
                    "cpus": os.cpu_count(),
                    "load_average_at_start": round(load, 2),
                    "peak_rss_mb": round(peak_mb, 1),
                    "target_seconds": TARGET_S,
                    "target_peak_rss_mb": TARGET_MB,
                    "within_target": seconds <= TARGET_S and peak_mb <= TARGET_MB,
                },
                indent=2,
            )
        )


if __name__ == "__main__":
    main()
