"""Incident generator throughput (MB/s) and peak memory for the SMALL and 1GB size profiles.

Each size runs in a fresh subprocess (peak RSS from getrusage) writing into a temporary folder
(or ``--keep DIR``, e.g. to hand the 1 GB snapshot to the tools benchmark). The 1 GB profile
streams its rows: its peak memory must not grow with the snapshot.
Run: .venv/bin/python benchmarks/sre_generate.py [--sizes SMALL,1GB] [--fault oom-killed]
     [--seed 1] [--keep DIR]
Prints one JSON document on stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = """
import json, resource, sys, time
from pathlib import Path
started = time.perf_counter()
from sre.generator.snapshot import write_incident
out, fault, seed, size = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
w = write_incident(out, fault, seed, size)
elapsed = time.perf_counter() - started
files = {str(p.relative_to(out)): p.stat().st_size for p in out.rglob("*") if p.is_file()}
print(json.dumps({
    "size": size, "fault_type": w.fault_type, "target": w.target, "seed": seed,
    "bytes": w.bytes, "seconds": round(elapsed, 3),
    "mb_per_s": round(w.bytes / 1e6 / elapsed, 2),
    "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    "largest_files": dict(sorted(files.items(), key=lambda kv: -kv[1])[:4]),
}))
"""


def run(out: Path, fault: str, seed: int, size: str) -> dict:
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, str(out), fault, str(seed), size],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[1],
        check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(f"generator failed for {size}: {proc.stderr.strip()[-2000:]}")
    return json.loads(proc.stdout)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="SMALL,1GB")
    parser.add_argument("--fault", default="oom-killed")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, help="write the snapshots here and keep them")
    args = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        root = args.keep or Path(tmp)
        for size in args.sizes.split(","):
            result = run(root / f"generated-{size}", args.fault, args.seed, size)
            results.append(result)
            print(
                f"{size}: {result['bytes'] / 1e6:.1f} MB in {result['seconds']:.1f} s "
                f"({result['mb_per_s']} MB/s), peak RSS {result['peak_rss_mb']} MB",
                file=sys.stderr,
            )
    doc = {
        "benchmark": "sre_generate",
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "results": results,
    }
    print(json.dumps(doc, indent=2))


if __name__ == "__main__":
    main()
