"""Run trials in forked worker processes: ``jobs`` at a time, each with a hard time limit.

Each trial gets its own process in its own session, so a timeout kills the agent and everything it
started (``killpg``). Workers ask the kernel to kill them if the runner dies (``PR_SET_PDEATHSIG``),
so a ``kill -9`` of the runner leaves no orphan finishing a trial behind its back.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import os
import select
import signal
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from itbench.runner.trial import TrialSpec

_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the worker may outlive a killed runner
        pass


@dataclass(frozen=True)
class WorkerExit:
    spec: TrialSpec
    #: None when the worker ran to completion and exited 0.
    failure: str | None
    timed_out: bool


@dataclass
class _Running:
    spec: TrialSpec
    pid: int
    deadline: float | None
    pidfd: int | None


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _start(
    spec: TrialSpec, work: Callable[[TrialSpec], None], time_limit: float | None
) -> _Running:
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # worker
        code = 0
        # A short-lived worker: collecting would only touch (and so copy) the runner's pages.
        gc.disable()
        try:
            os.setsid()
            _die_with_parent()
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            work(spec)
        except BaseException as exc:  # report and exit; never return into the runner's loop
            try:
                print(f"itbench worker {spec.label}: {type(exc).__name__}: {exc}", file=sys.stderr)
            finally:
                code = 70
        finally:
            os._exit(code)
    deadline = time.monotonic() + time_limit if time_limit else None
    try:
        pidfd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        pidfd = None
    return _Running(spec, pid, deadline, pidfd)


def _describe(status: int) -> str | None:
    if os.WIFEXITED(status):
        code = os.WEXITSTATUS(status)
        return None if code == 0 else f"trial process exited with {code}"
    if os.WIFSIGNALED(status):
        return f"trial process killed by signal {signal.Signals(os.WTERMSIG(status)).name}"
    return "trial process ended abnormally"


def run_in_workers(
    specs: Iterable[TrialSpec],
    work: Callable[[TrialSpec], None],
    jobs: int,
    time_limit: float | None,
    on_exit: Callable[[WorkerExit], None],
) -> None:
    """Run ``work(spec)`` for every spec in a forked worker; call ``on_exit`` in the runner."""
    # Objects that exist now are shared with every worker; freezing them keeps the collector from
    # writing to their pages in the children (copy-on-write would copy them all, each trial).
    gc.freeze()
    pending = list(specs)
    pending.reverse()  # pop() from the end keeps the given order
    running: dict[int, _Running] = {}
    try:
        while pending or running:
            while pending and len(running) < max(1, jobs):
                r = _start(pending.pop(), work, time_limit)
                running[r.pid] = r
            _wait_any(running, on_exit)
    except BaseException:
        for r in running.values():
            _kill_group(r.pid)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(r.pid, 0)
        raise
    finally:
        for r in running.values():
            if r.pidfd is not None:
                os.close(r.pidfd)


def _wait_any(running: dict[int, _Running], on_exit: Callable[[WorkerExit], None]) -> None:
    now = time.monotonic()
    deadlines = [r.deadline for r in running.values() if r.deadline is not None]
    timeout = max(0.0, min(deadlines) - now) if deadlines else None
    fds = {r.pidfd: r for r in running.values() if r.pidfd is not None}
    if len(fds) == len(running):
        select.select(list(fds), [], [], timeout)
    else:  # no pidfd support: poll
        time.sleep(min(timeout, 0.01) if timeout is not None else 0.01)
    now = time.monotonic()
    for pid, r in list(running.items()):
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            _finish(running, r, _describe(status), False, on_exit)
        elif r.deadline is not None and now >= r.deadline:
            _kill_group(pid)
            os.waitpid(pid, 0)
            _finish(running, r, "timeout", True, on_exit)


def _finish(
    running: dict[int, _Running],
    r: _Running,
    failure: str | None,
    timed_out: bool,
    on_exit: Callable[[WorkerExit], None],
) -> None:
    _kill_group(r.pid)  # whatever the agent left running dies with its trial
    if r.pidfd is not None:
        os.close(r.pidfd)
    del running[r.pid]
    on_exit(WorkerExit(r.spec, failure, timed_out))
