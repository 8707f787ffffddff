"""Where a RHEL 9 trial's time goes: the CPU seconds of one sandboxed play, taken apart.

Runs plays through ``ciso.engines.ansible.run_playbook`` (the rhel9 evaluation's own call: the
bubblewrap sandbox, ansible-runner, the module bytecode hook) and measures each one's CPU time in a
cpuacct cgroup that holds this process and everything it starts (bubblewrap's PID namespaces
included, which ``getrusage`` never sees). Variants, alternated round by round so machine load
falls on all alike:

- ``empty`` / ``empty_bare``: a play without tasks through ansible-runner / a bare
  ``ansible-playbook``: what starting the sandbox and the engine costs per environment;
- ``debug_x10``: ten tasks that run no module (controller-side cost of a task);
- ``stat_x10``: ten ``ansible.builtin.stat`` tasks (each one module run: the controller's share
  plus a child of the play's warm module interpreter, ``warm_modules.py``);
- ``empty_fresh`` / ``stat_x10_fresh``: the same plays with a fresh interpreter per module run
  (each importing ``ansible.module_utils``), as before the warm interpreter;
- every built-in rhel9 scenario's reference playbook on its violating and its compliant host, with
  the number of task results the runner reported (loop items counted one by one), through the
  warm interpreter and with fresh ones, alternated.

Prints one JSON document; needs root (the cgroup) and bubblewrap.
Run: .venv/bin/python benchmarks/rhel9_profile.py [--rounds 2] [--references]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from ciso.engines.ansible import run_playbook
from ciso.environments.hosts import locate, prepare

REPO = Path(__file__).resolve().parents[1]
SUITE = REPO / "ciso" / "suite" / "rhel9"
PLAYBOOKS = REPO / "playbooks"
CPUACCT = Path("/sys/fs/cgroup/cpuacct")

_HEAD = "- hosts: rhel9_servers\n  gather_facts: false\n  tasks:\n"
SYNTHETIC = {
    "empty": _HEAD.replace("  tasks:\n", "  tasks: []\n"),
    "debug_x10": _HEAD + "    - ansible.builtin.debug: {msg: hi}\n" * 10,
    "stat_x10": _HEAD + "    - ansible.builtin.stat: {path: /etc/passwd}\n" * 10,
}
#: the runner events that close one task (or one loop item of it) on one host
_RESULTS = ("runner_on_ok", "runner_on_failed", "runner_on_skipped", "runner_item_on_ok",
            "runner_item_on_failed", "runner_item_on_skipped")  # fmt: skip


@contextlib.contextmanager
def cpu_clock() -> Iterator[Path]:
    """A cpuacct cgroup holding this process (and so every process it starts from now on)."""
    group = CPUACCT / f"itbench-rhel9-profile-{os.getpid()}"
    group.mkdir()
    (group / "cgroup.procs").write_text(str(os.getpid()))
    try:
        yield group / "cpuacct.usage"
    finally:
        # back to the root group, so the measuring group can go
        (CPUACCT / "cgroup.procs").write_text(str(os.getpid()))
        with contextlib.suppress(OSError):
            group.rmdir()


def task_results(stdout: str) -> int:
    count = 0
    for line in stdout.splitlines():
        with contextlib.suppress(ValueError):
            event = json.loads(line)
            if isinstance(event, dict) and event.get("event") in _RESULTS:
                count += 1
    return count


def measure(
    usage: Path, playbook: Path, host: Path, out: Path, driver: str, warm: bool = True
) -> dict:
    before, started = int(usage.read_text()), time.monotonic()
    result = run_playbook(playbook, out_dir=out, host_tree=host, driver=driver, warm_modules=warm)
    cpu = (int(usage.read_text()) - before) / 1e9
    if not result.ok:
        raise SystemExit(f"{playbook}: play {result.status}: {result.summary()[-1500:]}")
    return {
        "cpu_s": round(cpu, 3),
        "wall_s": round(time.monotonic() - started, 3),
        "task_results": task_results(result.sandbox.stdout) if driver == "runner" else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument(
        "--references", action="store_true", help="also every reference playbook, once per host"
    )
    args = parser.parse_args()
    load_before = os.getloadavg()
    samples: dict[str, list[dict]] = {}
    references: dict[str, dict] = {}
    with (
        tempfile.TemporaryDirectory(prefix="itbench-rhel9-profile-") as scratch,
        cpu_clock() as usage,
    ):
        root = Path(scratch)
        host, _ = prepare(
            locate(SUITE / "cis-rhel9-5.2.7-permit-root-login" / "violating"), root / "h"
        )
        for name, text in SYNTHETIC.items():
            (root / f"{name}.yml").write_text(text)
        variants = [(n, n, "runner", True) for n in SYNTHETIC] + [
            ("empty_bare", "empty", "playbook", True),
            ("empty_fresh", "empty", "runner", False),
            ("stat_x10_fresh", "stat_x10", "runner", False),
        ]
        for r in range(args.rounds + 1):  # round 0 warms the page cache and is not kept
            for label, name, driver, warm in variants if r % 2 else variants[::-1]:
                sample = measure(
                    usage, root / f"{name}.yml", host, root / f"{label}-{r}", driver, warm
                )
                if r:
                    samples.setdefault(label, []).append(sample)
        if args.references:
            for scenario in sorted(p for p in SUITE.iterdir() if p.is_dir()):
                playbook = PLAYBOOKS / scenario.name / "playbook.yml"
                for side in ("violating", "compliant"):
                    tree, _ = prepare(locate(scenario / side), root / f"{scenario.name}-{side}")
                    # alternated: which path goes first changes from one play to the next
                    order = (True, False) if len(references) % 2 else (False, True)
                    for warm in order:
                        label = "warm" if warm else "fresh"
                        references[f"{scenario.name}/{side}/{label}"] = measure(
                            usage,
                            playbook,
                            tree,
                            root / f"out-{scenario.name}-{side}-{label}",
                            "runner",
                            warm,
                        )
    cpu = {k: statistics.median(s["cpu_s"] for s in v) for k, v in samples.items()}
    report: dict[str, object] = {
        "median_cpu_s": {k: round(v, 3) for k, v in cpu.items()},
        "median_wall_s": {
            k: round(statistics.median(s["wall_s"] for s in v), 3) for k, v in samples.items()
        },
        "rounds": args.rounds,
        "derived": {
            "play_start_cpu_s": round(cpu["empty"], 3),
            "runner_start_extra_cpu_s": round(cpu["empty"] - cpu["empty_bare"], 3),
            "task_without_module_cpu_s": round((cpu["debug_x10"] - cpu["empty"]) / 10, 3),
            "module_run_cpu_s": round((cpu["stat_x10"] - cpu["empty"]) / 10, 3),
            "play_start_fresh_cpu_s": round(cpu["empty_fresh"], 3),
            "module_run_fresh_cpu_s": round((cpu["stat_x10_fresh"] - cpu["empty_fresh"]) / 10, 3),
        },
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
    }
    if references:
        report["references"] = references
        for label in ("warm", "fresh"):
            mine = [v for k, v in references.items() if k.endswith(f"/{label}")]
            report[f"reference_cpu_s_total_{label}"] = round(sum(v["cpu_s"] for v in mine), 1)
            report[f"reference_task_results_total_{label}"] = sum(v["task_results"] for v in mine)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
