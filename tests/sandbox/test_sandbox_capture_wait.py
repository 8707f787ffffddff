"""Waiting for a sandboxed command's end: on its process file descriptor, not by polling (a
polling wait sees a 0.1 s command end up to 50 ms late, several times per trial), with the same
outcomes as before: ended, or still running at the time limit."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from itbench.sandbox import capture
from itbench.sandbox.capture import exited_within


def _start(seconds: float) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-c", f"import time; time.sleep({seconds})"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def test_the_wait_does_not_poll(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_sleep(_seconds: float) -> None:
        raise AssertionError("the wait slept between looks at the process")

    proc = _start(0.2)
    # Popen.wait(timeout=...) sleeps between its looks through subprocess's own time module
    monkeypatch.setattr(subprocess.time, "sleep", no_sleep)
    assert exited_within(proc, 30) is True
    assert proc.returncode == 0


def test_a_command_past_its_limit_is_reported_running() -> None:
    proc = _start(30)
    try:
        started = time.monotonic()
        assert exited_within(proc, 0.3) is False
        assert time.monotonic() - started >= 0.3
        assert proc.poll() is None  # not reaped, not killed: the caller stops it
    finally:
        proc.kill()
        proc.wait()


def test_a_command_that_already_ended_is_seen_ended() -> None:
    proc = _start(0)
    time.sleep(0.5)  # ended, not yet reaped
    assert exited_within(proc, 5) is True
    assert proc.returncode == 0


def test_without_pidfd_the_polling_wait_gives_the_same_outcomes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_pidfd(_pid: int) -> int:
        raise OSError(38, "Function not implemented")

    monkeypatch.setattr(capture.os, "pidfd_open", no_pidfd)
    proc = _start(30)
    try:
        assert exited_within(proc, 0.2) is False
    finally:
        proc.kill()
        proc.wait()
    assert exited_within(_start(0), 10) is True
