"""Sandbox cost: the same ``ansible-playbook`` command, with the same settings, run directly vs in
the bubblewrap sandbox as the Ansible engine runs it (ratio), and one sandboxed fetcher with its
offline cluster. Prints one JSON document.
Run: .venv/bin/python benchmarks/sandbox_overhead.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ciso.engines.ansible import ANSIBLE_ENV, local_inventory, run_playbook
from itbench.sandbox import run_sandboxed

REPO = Path(__file__).resolve().parents[1]
PLAYBOOK = REPO / "tests" / "sandbox" / "fixtures" / "collect_x11.yml"
HOST = REPO / "tests" / "sandbox" / "fixtures" / "host"
MANIFESTS = REPO / "tests" / "cluster" / "fixtures" / "workloads.yaml"


def unsandboxed(out: Path) -> float:
    # the host has no /etc/ssh/sshd_config: the grep falls back to "not set", same work otherwise
    out.mkdir(parents=True)
    shutil.copyfile(PLAYBOOK, out / PLAYBOOK.name)
    (out / "hosts").write_text(local_inventory("rhel9_servers"))
    env = {**os.environ, **ANSIBLE_ENV, "ANSIBLE_INVENTORY_ENABLED": "ini"}
    env["ANSIBLE_LOCAL_TEMP"] = str(out / "ansible-local")
    env["ANSIBLE_REMOTE_TMP"] = str(out / "ansible-remote")
    started = time.perf_counter()
    subprocess.run(
        [str(Path(sys.executable).parent / "ansible-playbook"), "-i", "hosts", PLAYBOOK.name],
        cwd=out,
        env=env,
        check=True,
        capture_output=True,
    )
    return time.perf_counter() - started


def sandboxed(out: Path) -> float:
    started = time.perf_counter()
    assert run_playbook(PLAYBOOK, out_dir=out, host_tree=HOST, driver="playbook").ok
    return time.perf_counter() - started


def fetcher(out: Path) -> float:
    out.mkdir(parents=True, exist_ok=True)
    script = out / "fetcher.sh"
    script.write_text("#!/bin/bash\nkubectl get deploy -A -o json > collected_data.json\n")
    script.chmod(0o755)
    started = time.perf_counter()
    assert run_sandboxed(["./fetcher.sh"], out_dir=out, cluster_manifests=MANIFESTS).exit_code == 0
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    timings: dict[str, list[float]] = {"unsandboxed": [], "sandboxed": [], "fetcher": []}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.repeat):
            timings["unsandboxed"].append(unsandboxed(Path(tmp) / f"u{i}"))
            timings["sandboxed"].append(sandboxed(Path(tmp) / f"s{i}"))
            timings["fetcher"].append(fetcher(Path(tmp) / f"f{i}"))
    med = {k: statistics.median(v) for k, v in timings.items()}
    print(
        json.dumps(
            {
                "benchmark": "sandbox_overhead",
                "python": sys.version.split()[0],
                "playbook_unsandboxed_s": round(med["unsandboxed"], 3),
                "playbook_sandboxed_s": round(med["sandboxed"], 3),
                "ratio": round(med["sandboxed"] / med["unsandboxed"], 2),
                "fetcher_with_cluster_s": round(med["fetcher"], 3),
                "repeat": args.repeat,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
