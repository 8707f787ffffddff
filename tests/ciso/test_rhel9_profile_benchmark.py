"""benchmarks/rhel9_profile.py, run as a user runs it: the CPU seconds of sandboxed plays taken
apart (engine start, a task without a module, a module run), judged on the JSON it prints."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests._support.ciso import needs_sandbox

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "rhel9_profile.py"
CPUACCT = Path("/sys/fs/cgroup/cpuacct")
needs_cgroup = pytest.mark.skipif(
    not (CPUACCT.is_dir() and os.access(CPUACCT, os.W_OK)),
    reason=f"{CPUACCT} is not a writable cpuacct hierarchy (the benchmark measures CPU there)",
)


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rhel9_profile", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_task_results_counts_each_task_and_loop_item_once() -> None:
    lines = [
        {"event": "playbook_on_start"},
        {"event": "runner_on_start"},
        {"event": "runner_item_on_ok"},
        {"event": "runner_item_on_ok"},
        {"event": "runner_on_ok"},
        {"event": "runner_on_skipped"},
        {"event": "runner_on_failed"},
        {"event": "playbook_on_stats"},
    ]
    stdout = "\n".join([*map(json.dumps, lines), "[WARNING]: not json", "[1, 2]"])
    assert _script().task_results(stdout) == 5


@pytest.mark.slow
@needs_sandbox
@needs_cgroup
def test_profile_prints_the_cost_of_each_part_as_json() -> None:
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--rounds", "1"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(proc.stdout)
    cpu = report["median_cpu_s"]
    assert set(cpu) == {
        "empty",
        "debug_x10",
        "stat_x10",
        "empty_bare",
        "empty_fresh",
        "stat_x10_fresh",
    }
    derived = report["derived"]
    # the shape a reader of the JSON relies on; how the costs compare is the benchmark's figure,
    # not a test's assertion (timings belong to benchmarks/, never to a unit test)
    assert set(derived) >= {
        "play_start_cpu_s",
        "module_run_cpu_s",
        "task_without_module_cpu_s",
        "play_start_fresh_cpu_s",
        "module_run_fresh_cpu_s",
    }
    assert all(isinstance(value, float) and value >= 0.0 for value in cpu.values()), cpu
    assert all(isinstance(derived[key], float) for key in derived), derived
    assert "references" not in report
