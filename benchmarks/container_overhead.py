"""What the container backend costs per trial over bubblewrap: the CISO oracle on one scenario of
each class, through ``itbench ciso run --sandbox bubblewrap`` and ``--sandbox container`` in one
run, alternated so machine load falls on both alike, with a warm image. Per class: each trial's
``duration_s`` (the evaluation, every sandboxed command of it) and the difference of the means.
With ``--build`` it also times a forced ``itbench sandbox image build``; it always times the
reuse check (hashing what would go in). Prints one JSON document.

Needs a container engine at DOCKER_HOST (e.g. ``podman system service --time=0 unix://...``).
Run: DOCKER_HOST=unix:///run/podman/podman.sock .venv/bin/python benchmarks/container_overhead.py
[--repeat 3] [--build]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ITBENCH = str(Path(sys.executable).parent / "itbench")
ONE_PER_CLASS = (
    "cis-k8s-5.1.1-cluster-admin.kyverno",
    "cis-k8s-5.1.1-cluster-admin.kubectl-opa",
    "cis-k8s-5.1.1-cluster-admin.opa-static",
    "update-drop-capabilities.kyverno-update",
    "cis-rhel9-1.1.1.1-cramfs-disabled.rhel9-ansible-opa",
)


def image_build(force: bool) -> tuple[str, float]:
    started = time.perf_counter()
    args = [ITBENCH, "sandbox", "image", "build", *(["--force"] if force else [])]
    done = subprocess.run(args, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"image build failed: {done.stderr[-2000:]}")
    return done.stdout.strip(), time.perf_counter() - started


def trials(backend: str, out: Path) -> tuple[dict[str, float], float]:
    started = time.perf_counter()
    done = subprocess.run(
        [ITBENCH, "ciso", "run", "--sandbox", backend, "--agent", "oracle", "-j", "1"]
        + ["--scenarios", ",".join(ONE_PER_CLASS), "--output", str(out), "--no-progress"],
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"{backend} run failed: {done.stderr[-2000:]}")
    results = json.loads((out / "results.json").read_text())["raw_results"]
    durations = {}
    for entry in results:
        if entry.get("error") or entry["scores"]["strict_pass"] != 1:
            sys.exit(f"{backend}: {entry['incident_id']} did not pass: {entry.get('error')}")
        durations[entry["incident_id"].rpartition(".")[2]] = entry["duration_s"]
    return durations, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--build", action="store_true", help="time a forced image build too")
    args = parser.parse_args()
    if "DOCKER_HOST" not in os.environ:
        sys.exit("set DOCKER_HOST to a container engine's socket")
    report: dict[str, object] = {}
    if args.build:
        _, report["image_build_s"] = image_build(force=True)
    tag, report["image_reuse_check_s"] = image_build(force=False)
    report["image"] = tag
    samples: dict[str, dict[str, list[float]]] = {"bubblewrap": {}, "container": {}}
    walls: dict[str, list[float]] = {"bubblewrap": [], "container": []}
    with tempfile.TemporaryDirectory() as scratch:
        trials("container", Path(scratch) / "warm")  # the first start pays the image's cache
        for i in range(args.repeat):
            order = ("bubblewrap", "container") if i % 2 == 0 else ("container", "bubblewrap")
            for backend in order:
                durations, wall = trials(backend, Path(scratch) / f"{backend}-{i}")
                walls[backend].append(wall)
                for name, seconds in durations.items():
                    samples[backend].setdefault(name, []).append(seconds)
    per_class = {}
    for name in sorted(samples["bubblewrap"]):
        bwrap = statistics.mean(samples["bubblewrap"][name])
        container = statistics.mean(samples["container"][name])
        per_class[name] = {
            "bubblewrap_s": round(bwrap, 3),
            "container_s": round(container, 3),
            "extra_s": round(container - bwrap, 3),
        }
    report["per_trial"] = per_class
    report["mean_extra_per_trial_s"] = round(
        statistics.mean(c["extra_s"] for c in per_class.values()), 3
    )
    report["run_wall_s"] = {k: round(statistics.mean(v), 2) for k, v in walls.items()}
    report["repeat"] = args.repeat
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
