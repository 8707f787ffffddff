"""Scratch directories of a run never outlive it (issue 26): ``/tmp/itbench-rhel9-*`` and
``/tmp/itbench-ansible-*`` were left behind by Ctrl-C and ``kill -9`` of a run, because the
workers that made them are killed with SIGKILL. A real ``itbench ciso run`` of the Ansible class,
with its own TMPDIR so that nothing else on the machine is counted."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from itbench import scratch
from tests._support.cli import itbench_executable
from tests._support.sandbox import needs_sandbox

RHEL9 = "cis-rhel9-3.2.1-ip-forward.rhel9-ansible-opa,cis-rhel9-1.1.1.1-cramfs-disabled.rhel9-ansible-opa"


pytestmark = needs_sandbox


def _trial_scratch(tmp: Path) -> list[Path]:
    """The evaluator's scratch directories, wherever they are under ``tmp`` (walked so that a
    folder the live run removes meanwhile, such as the payload seed builder's, is skipped)."""
    return [
        Path(folder) / name
        for folder, dirs, _files in os.walk(tmp, onerror=lambda _err: None)
        for name in dirs
        if name.startswith(("itbench-rhel9-", "itbench-ansible-"))
    ]


def _start_run(tmp_path: Path) -> tuple[subprocess.Popen[str], Path]:
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    proc = subprocess.Popen(
        [itbench_executable(), "ciso", "run", "--agent", "oracle", "--scenarios", RHEL9]
        + ["--output", str(tmp_path / "out"), "--no-progress"],
        env={**os.environ, "TMPDIR": str(tmp)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 180
    while not _trial_scratch(tmp):
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"the run made no scratch directory: {proc.communicate()[1][-2000:]}")
        time.sleep(0.1)
    return proc, tmp


def _leftovers(tmp: Path) -> list[str]:
    return sorted(p.name for p in tmp.iterdir() if p.name.startswith("itbench-"))


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_run_removes_its_scratch(tmp_path, signum):
    proc, tmp = _start_run(tmp_path)
    proc.send_signal(signum)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode in (130, 128 + signum, -signum), stderr
    assert _leftovers(tmp) == []


def test_after_kill_9_the_next_itbench_process_sweeps_the_dead_runs_scratch(tmp_path):
    proc, tmp = _start_run(tmp_path)
    proc.kill()
    proc.wait(timeout=30)
    time.sleep(1)  # the workers die with the runner (PR_SET_PDEATHSIG)
    (left,) = _leftovers(tmp)  # nothing can run at SIGKILL: the scratch parent is still there
    assert left.startswith(scratch.PREFIX) and _trial_scratch(tmp / left)
    # a live process's parent (this test's own) must survive the sweep
    live = tmp / f"{scratch.PREFIX}{os.getpid()}-{scratch._start_time(os.getpid())}"
    live.mkdir()
    other = subprocess.run(
        [itbench_executable(), "domains"],
        env={**os.environ, "TMPDIR": str(tmp)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert other.returncode == 0, other.stderr
    assert _leftovers(tmp) == [live.name]


def test_a_served_host_environment_outlives_the_command(tmp_path):
    """``ciso env`` of a host prints a host tree for a person to use after it returns: that one
    folder is made outside the scratch parent removed at exit."""
    scenarios = Path(__file__).resolve().parents[1] / "ciso" / "fixtures" / "scenarios"
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    proc = subprocess.run(
        [itbench_executable(), "ciso", "env", "fixture-rhel9-5.2.12-x11-forwarding"]
        + ["--scenarios", str(scenarios)],
        env={**os.environ, "TMPDIR": str(tmp)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    lines = dict(line.split("=", 1) for line in proc.stdout.splitlines())
    tree = Path(lines["ITBENCH_HOST_TREE"])
    assert (tree / "etc/ssh/sshd_config").is_file()
    assert tmp in tree.parents
    assert [p.name for p in tmp.iterdir() if p.name.startswith(scratch.PREFIX)] == []
