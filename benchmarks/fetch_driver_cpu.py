"""CPU seconds of the kubectl-opa fetch driver (one sandbox: the driver, its API server, a kubectl
fetcher per environment) for one or more checkouts, alternated so machine load falls on all
alike. CPU comes from a cpuacct cgroup holding everything a round starts (bubblewrap's PID
namespaces included); the machine is shared, so compare checkouts measured in the same session.

Each round runs, per checkout, ``--trials`` sandboxed drivers over ``--environments`` copies of
one scenario's violating manifests with the oracle-style fetcher (one ``kubectl get``).
Run: .venv/bin/python benchmarks/fetch_driver_cpu.py CHECKOUT [CHECKOUT ...] [--rounds 3]
(a checkout: e.g. ``git archive REV | tar -x -C DIR``, byte-compiled; its packages are imported
through PYTHONPATH). Prints one JSON document.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

CPUACCT = Path("/sys/fs/cgroup/cpuacct")
SCENARIO = "ciso/suite/kubernetes/cis-k8s-5.1.1-cluster-admin/violating"
FETCHER = "kubectl get clusterrolebindings,rolebindings -A -o json > collected_data.json\n"

#: run inside a fresh interpreter with the checkout on PYTHONPATH
ROUND = """
import json, shutil, sys, tempfile
from pathlib import Path
from itbench.cluster.extensions import extension_hooks
from itbench.sandbox import run_sandboxed
manifests, fetcher, environments, trials = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
hooks = [list(h) for h in extension_hooks()]
for _ in range(trials):
    root = Path(tempfile.mkdtemp(prefix="itbench-fetch-bench-"))
    runs = []
    for i in range(environments):
        shutil.copytree(manifests, root / f"env-{i}")
        (root / f"run-{i}").mkdir()
        (root / f"run-{i}" / "fetcher.sh").write_text(fetcher)
        runs.append({"manifests": str(root / f"env-{i}"), "workdir": str(root / f"run-{i}"),
                     "script": "fetcher.sh", "timeout_s": 60})
    (root / "spec.json").write_text(json.dumps({"runs": runs, "extension_hooks": hooks}))
    done = run_sandboxed([sys.executable, "-m", "ciso.evaluation.fetch_driver", str(root / "spec.json")],
                         out_dir=root, timeout_s=120)
    assert done.exit_code == 0, done.stderr
    for i in range(environments):
        assert (root / f"run-{i}" / "collected_data.json").stat().st_size > 0
    shutil.rmtree(root)
"""


def one_round(checkout: Path, environments: int, trials: int) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of ``trials`` driver runs with ``checkout``'s code."""
    # the script's own folder is on sys.path: the suite benchmark's cgroup accounting
    from ciso_suite import cpu_account, cpu_join

    with cpu_account() as used:
        started = time.monotonic()
        subprocess.run(
            [sys.executable, "-c", ROUND, str(checkout / SCENARIO), FETCHER, str(environments),
             str(trials)],
            env=dict(os.environ, PYTHONPATH=str(checkout)),
            cwd=checkout,
            check=True,
            preexec_fn=cpu_join(),
        )  # fmt: skip
        wall = time.monotonic() - started
        time.sleep(0.2)  # the last processes leave the group
        cpu, how = used()
    if not how.startswith("cgroup"):
        sys.exit(f"CPU time measured by {how}: not comparable; a cpuacct cgroup is needed")
    return cpu, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("checkouts", nargs="+", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--environments", type=int, default=5)
    parser.add_argument("--trials", type=int, default=5)
    args = parser.parse_args()
    if not CPUACCT.is_dir():
        sys.exit(f"no cpuacct cgroup at {CPUACCT}: CPU time cannot be measured here")
    samples: dict[str, list[float]] = {str(c): [] for c in args.checkouts}
    for index in range(args.rounds):
        order = args.checkouts if index % 2 == 0 else list(reversed(args.checkouts))
        for checkout in order:
            cpu, _ = one_round(checkout.resolve(), args.environments, args.trials)
            samples[str(checkout)].append(cpu / args.trials)
    print(
        json.dumps(
            {
                "environments_per_trial": args.environments,
                "trials_per_round": args.trials,
                "cpu_s_per_trial": {
                    name: {
                        "median": round(statistics.median(v), 3),
                        "rounds": [round(x, 3) for x in v],
                    }
                    for name, v in samples.items()
                },
                "load_average_after": [round(x, 2) for x in os.getloadavg()],
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
