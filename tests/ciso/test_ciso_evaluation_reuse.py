"""What the CISO evaluators keep between trials, and what a playbook run leaves behind.

The benchmark runner ends every trial by signalling its worker's process group; the Rego worker
(with its Go runtime) must survive that and be reused by the next trial, yet still die with the
process that started it. A playbook run's output directory holds only the playbook and what the
play wrote: the inventory stays outside it, read-only.
"""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest

from ciso.engines.ansible import run_playbook
from ciso.engines.rego.pool import RegoPool
from tests._support.ciso import needs_sandbox

SANDBOX_FIXTURES = Path(__file__).resolve().parents[1] / "sandbox" / "fixtures"
POLICY = {"p.rego": "package check\n\nresult := input.n > 1\n"}


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie still answers kill 0: read its state
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _trial_worker(report: int) -> None:
    """In a forked child standing for a runner worker: evaluate, SIGTERM our own process group as
    the runner does after a trial, evaluate again; report the Rego worker's pids and verdicts."""
    os.setsid()
    pool = RegoPool(size=1, timeout_s=20)
    first = pool.evaluate(POLICY, "data.check.result", {"n": 2}).value
    before = pool._idle[0].proc.pid
    previous = signal.signal(signal.SIGTERM, signal.SIG_IGN)
    os.killpg(0, signal.SIGTERM)
    signal.signal(signal.SIGTERM, previous)
    time.sleep(0.2)
    second = pool.evaluate(POLICY, "data.check.result", {"n": 0}).value
    after = pool._idle[0].proc.pid
    os.write(report, json.dumps([first, second, before, after]).encode())
    os.close(report)
    os._exit(0)  # no cleanup: the worker must go because its parent did, not because we closed it


def test_the_rego_worker_survives_the_end_of_a_trial_and_dies_with_its_parent() -> None:
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the forked child
        os.close(read)
        try:
            _trial_worker(write)
        finally:
            os._exit(1)
    os.close(write)
    with os.fdopen(read) as pipe:
        text = pipe.read()
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0, text
    first, second, before, after = json.loads(text)
    assert (first, second) == (True, False)
    assert before == after, "the trial's end killed the Rego worker: it was started again"
    deadline = time.monotonic() + 5
    while _alive(before) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(before), "the Rego worker outlived the process that started it"


@needs_sandbox
@pytest.mark.slow
def test_a_playbook_run_leaves_only_the_playbook_and_its_data(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = run_playbook(
        SANDBOX_FIXTURES / "collect_x11.yml",
        out_dir=out,
        host_tree=SANDBOX_FIXTURES / "host",
        timeout_s=120,
    )
    assert result.ok and result.status == "successful", result.sandbox.stderr[-2000:]
    assert sorted(p.name for p in out.iterdir()) == ["collect_x11.yml", "collected_data.json"]
    assert "PLAY RECAP" in result.sandbox.stdout  # the play's own output reaches the record


@needs_sandbox
@pytest.mark.slow
def test_a_play_cannot_change_its_inventory(tmp_path: Path) -> None:
    playbook = tmp_path / "tamper.yml"
    playbook.write_text(
        "- hosts: rhel9_servers\n"
        "  gather_facts: false\n"
        "  tasks:\n"
        "    - ansible.builtin.copy:\n"
        "        content: '[rhel9_servers]\\n'\n"
        "        dest: /tmp/itbench-ansible/hosts\n"
    )
    result = run_playbook(
        playbook, out_dir=tmp_path / "run", host_tree=SANDBOX_FIXTURES / "host", timeout_s=120
    )
    assert not result.ok and result.status == "failed"
    assert "Destination /tmp/itbench-ansible not writable" in result.sandbox.stdout
