"""Where a fetch step's CPU goes (issue 32 item 5): the opa-static ``fetch`` and kubectl-opa
``fetcher`` steps of the built-in suite's first ``--trials`` trials of each class, run through
the evaluator's own batch calls (``run_static_batch`` / ``run_fetcher_batch``: one sandbox per
trial, every environment of it in turn, leave-one-in copies included) with:

- ``reference``: the suite's reference script (opa-static: bash starting ``python3`` that reads
  the YAML; kubectl-opa: one ``kubectl get``);
- ``empty``: a ``/bin/sh`` script that writes ``{}``: what the sandbox, the driver and the steps
  between environments cost by themselves;
- ``python3`` (opa-static): bash starting ``python3`` that writes ``{}``: the interpreter's start;
- ``kubectl`` (kubectl-opa): ``kubectl version --client``: kubectl's start without a request.

CPU comes from a cpuacct cgroup around each batch of trials (bubblewrap's PID namespaces
included); variants are alternated round by round, so machine load falls on all alike. The
differences between variants, divided by the environments run, give the per-environment cost of
each piece. Needs root (the cgroup) and bubblewrap; prints one JSON document.
Run: .venv/bin/python benchmarks/ciso_fetch_costs.py [--trials 10] [--rounds 2]
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

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

from ciso_suite import compile_checkout, cpu_account, cpu_join  # noqa: E402 - the folder above

SCRIPTS = {
    "opa-static": {
        "empty": '#!/bin/sh\necho "{}" > collected_data.json\n',
        "python3": '#!/usr/bin/env bash\npython3 -c \'open("collected_data.json", "w").write("{}")\'\n',
    },
    "kubectl-opa": {
        "empty": 'echo "{}" > collected_data.json\n',
        "kubectl": "kubectl version --client -o json > collected_data.json\n",
    },
}

#: one batch: the first N trials of a class, each fetched as the evaluator fetches it
BATCH = """
import sys, tempfile
from pathlib import Path
from ciso.environments import ciso_truth
from ciso.evaluation.fetch import run_fetcher_batch, run_static_batch
from ciso.evaluation.plan import leave_one_in_environments
from ciso.scenarios.loader import load_benchmark_scenarios
from ciso.scenarios.reference import package_dir

cls, script, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
name = "fetch.sh" if cls == "opa-static" else "fetcher.sh"
scenarios = [ciso_truth(s) for s in load_benchmark_scenarios(None) if s.id.endswith("." + cls)]
environments = 0
for scenario in scenarios[:count]:
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        base = scenario.id.rsplit(".", 1)[0]
        path = package_dir("policies") / "rego" / base / name if script == "reference" else Path(script)
        extra = leave_one_in_environments(scenario, root / "environments")
        runs = [("violating", scenario.violating), ("compliant", scenario.compliant)]
        runs += [(e.label, e.source) for e in extra]
        if cls == "opa-static":
            found = run_static_batch(path, root / "runs", runs, [])
        else:
            found = run_fetcher_batch(path, root / "runs", runs)
        bad = [label for label, c in found.items() if not c.ok]
        if bad:
            sys.exit(f"{scenario.id}: no data from {bad}: {found[bad[0]].problem}")
        environments += len(runs)
print(environments)
"""


def batch(cls: str, script: str, trials: int) -> tuple[float, int]:
    """(CPU seconds, environments run) of one batch in a fresh interpreter."""
    with cpu_account() as used:
        done = subprocess.run(
            [sys.executable, "-c", BATCH, cls, script, str(trials)],
            capture_output=True,
            text=True,
            cwd=REPO,
            env=dict(os.environ, PYTHONPATH=str(REPO)),
            preexec_fn=cpu_join(),
        )
        time.sleep(0.2)  # the last processes leave the group
        cpu, how = used()
    if done.returncode != 0:
        sys.exit(f"{cls} {script}: {done.stderr[-2000:]}")
    if not how.startswith("cgroup"):
        sys.exit(f"CPU time measured by {how}: not comparable; a cpuacct cgroup is needed")
    return cpu, int(done.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--trials", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    compile_checkout()
    load_before = os.getloadavg()
    report: dict[str, dict[str, object]] = {}
    with tempfile.TemporaryDirectory(prefix="itbench-fetch-costs-") as scratch:
        scripts: dict[str, dict[str, str]] = {}
        for cls, variants in SCRIPTS.items():
            scripts[cls] = {"reference": "reference"}
            for label, text in variants.items():
                path = Path(scratch) / f"{cls}-{label}.sh"
                path.write_text(text, encoding="utf-8")
                path.chmod(0o755)
                scripts[cls][label] = str(path)
        # the imports and the scenario load of a batch, without a trial
        base = [batch("opa-static", "reference", 0)[0] for _ in range(args.rounds)]
        samples: dict[tuple[str, str], list[float]] = {}
        environments: dict[str, int] = {}
        for r in range(args.rounds):
            order = [(c, v) for c in scripts for v in scripts[c]]
            for cls, variant in order if r % 2 == 0 else order[::-1]:
                cpu, envs = batch(cls, scripts[cls][variant], args.trials)
                samples.setdefault((cls, variant), []).append(cpu)
                environments[cls] = envs
    fixed = statistics.median(base)
    for cls in scripts:
        medians = {v: statistics.median(samples[(cls, v)]) - fixed for v in scripts[cls]}
        envs = environments[cls]
        report[cls] = {
            "trials": args.trials,
            "environments": envs,
            "cpu_s": {v: round(m, 2) for v, m in medians.items()},
            "per_trial_s": {v: round(m / args.trials, 3) for v, m in medians.items()},
            "per_environment_over_empty_ms": {
                v: round((m - medians["empty"]) / envs * 1000, 1)
                for v, m in medians.items()
                if v != "empty"
            },
        }
    print(
        json.dumps(
            {
                "classes": report,
                "batch_start_cpu_s": round(fixed, 2),
                "load_average_before": [round(x, 2) for x in load_before],
                "load_average_after": [round(x, 2) for x in os.getloadavg()],
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
