"""Run trials in persistent forked workers: ``jobs`` at a time, each trial with a hard time limit.

Each slot has one worker process, forked once from the runner (so it holds the domain and agent
already built) in its own session; trials are handed to it over a pipe, which keeps the per-trial
cost to running the trial itself instead of a fork of the whole runner.

- A trial past its time limit: the worker's whole process group (the agent and everything it
  started) is killed with SIGKILL, and so is every container it made (``--sandbox container``:
  those lie outside the group); the trial is recorded as timed out, and a fresh worker takes the
  slot.
- After every trial the worker sends SIGTERM to the rest of its process group, so processes a
  trial left behind do not outlive it; at the end of the run every worker group is SIGKILLed.
- Workers ask the kernel to kill them if the runner dies (``PR_SET_PDEATHSIG``), so a ``kill -9``
  of the runner leaves no orphan finishing a trial behind its back.
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
from dataclasses import dataclass, field

from itbench.runner.trial import TrialSpec
from itbench.sandbox.backend import ENV as BACKEND_ENV
from itbench.sandbox.container import kill_containers_of

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
    #: None when the trial ran to completion.
    failure: str | None
    timed_out: bool


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _read_line(fd: int) -> str:
    """One newline-terminated message from a pipe ('' when the writer is gone)."""
    chunks: list[bytes] = []
    while True:
        try:
            byte = os.read(fd, 1)
        except InterruptedError:
            continue
        if not byte:
            return ""
        if byte == b"\n":
            return b"".join(chunks).decode()
        chunks.append(byte)


def _sweep_own_group() -> None:
    """SIGTERM whatever the finished trial left in our process group, sparing ourselves."""
    previous = signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(0, signal.SIGTERM)
    finally:
        signal.signal(signal.SIGTERM, previous)


def _worker(
    specs: list[TrialSpec], work: Callable[[TrialSpec], None], requests: int, replies: int
) -> None:
    code = 0
    try:
        os.setsid()
        _die_with_parent()
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        # A worker's objects are mostly the runner's: collecting would only touch (and copy) pages.
        gc.disable()
        while True:
            line = _read_line(requests)
            if not line:
                break
            spec = specs[int(line)]
            reply = "ok"
            try:
                work(spec)
            except BaseException as exc:  # report it; the runner records the trial as failed
                reply = f"error {type(exc).__name__}: {exc}".replace("\n", " ")[:500]
            _sweep_own_group()
            os.write(replies, (reply + "\n").encode())
    except BaseException:
        code = 70
    finally:
        os._exit(code)


@dataclass
class _Slot:
    specs: list[TrialSpec]
    work: Callable[[TrialSpec], None]
    pid: int = 0
    requests: int = -1
    replies: int = -1
    spec: TrialSpec | None = None
    deadline: float | None = None
    alive: bool = field(default=False)

    def start(self) -> None:
        sys.stdout.flush()
        sys.stderr.flush()
        req_r, req_w = os.pipe()
        rep_r, rep_w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(req_w)
            os.close(rep_r)
            _worker(self.specs, self.work, req_r, rep_w)
        os.close(req_r)
        os.close(rep_w)
        self.pid, self.requests, self.replies, self.alive = pid, req_w, rep_r, True

    def send(self, index: int, time_limit: float | None) -> None:
        if not self.alive:
            self.start()
        self.spec = self.specs[index]
        self.deadline = time.monotonic() + time_limit if time_limit else None
        os.write(self.requests, f"{index}\n".encode())

    def stop(self) -> str | None:
        """Kill the worker and everything in its group; the exit description if it had died."""
        _kill_group(self.pid)
        _, status = os.waitpid(self.pid, 0)
        if os.environ.get(BACKEND_ENV) == "container":
            # its containers are not in its process group: killed here, or they run on
            kill_containers_of(self.pid)
        for fd in (self.requests, self.replies):
            with contextlib.suppress(OSError):
                os.close(fd)
        self.alive = False
        if os.WIFSIGNALED(status) and os.WTERMSIG(status) != signal.SIGKILL:
            return f"trial process killed by signal {signal.Signals(os.WTERMSIG(status)).name}"
        if os.WIFEXITED(status) and os.WEXITSTATUS(status) != 0:
            return f"trial process exited with {os.WEXITSTATUS(status)}"
        return None


def run_in_workers(
    specs: Iterable[TrialSpec],
    work: Callable[[TrialSpec], None],
    jobs: int,
    time_limit: float | None,
    on_exit: Callable[[WorkerExit], None],
) -> None:
    """Run ``work(spec)`` for every spec in a worker; call ``on_exit`` in the runner after each."""
    ordered = list(specs)
    if not ordered:
        return
    # Objects that exist now are shared with every worker; freezing them keeps the collector from
    # writing to their pages in the children (copy-on-write would copy them all).
    gc.freeze()
    pending = list(range(len(ordered)))
    pending.reverse()  # pop() from the end keeps the given order
    slots = [_Slot(ordered, work) for _ in range(max(1, min(jobs, len(ordered))))]
    try:
        while pending or any(s.spec is not None for s in slots):
            for slot in slots:
                if slot.spec is None and pending:
                    slot.send(pending.pop(), time_limit)
            _wait_any(slots, time_limit, on_exit)
    finally:
        for slot in slots:
            if slot.alive:
                with contextlib.suppress(OSError):
                    os.close(slot.requests)
                slot.stop()


class SingleSlot:
    """One persistent forked worker driven one trial at a time, with the same time limit, group
    kill and sweep as ``run_in_workers``: for callers that receive trials one by one (a remote
    executor's worker process). ``specs`` is fixed when the worker is forked."""

    def __init__(self, specs: list[TrialSpec], work: Callable[[TrialSpec], None]) -> None:
        self._slot = _Slot(specs, work)

    def run(self, index: int, time_limit: float | None) -> WorkerExit:
        exits: list[WorkerExit] = []
        self._slot.send(index, time_limit)
        while self._slot.spec is not None:
            _wait_any([self._slot], time_limit, exits.append)
        return exits[0]

    def close(self) -> None:
        if self._slot.alive:
            with contextlib.suppress(OSError):
                os.close(self._slot.requests)
            self._slot.stop()


def _readable(fds: list[int], timeout: float | None) -> set[int]:
    """The descriptors of ``fds`` with something to read (or closed) within ``timeout`` seconds.
    poll(2), not select(2): select takes no descriptor above 1023, which a long-lived caller of
    the library (a service, a test session) may well hold."""
    poller = select.poll()
    for fd in fds:
        poller.register(fd, select.POLLIN | select.POLLPRI)
    events = poller.poll(None if timeout is None else timeout * 1000)
    return {fd for fd, _ in events}


def _wait_any(
    slots: list[_Slot], time_limit: float | None, on_exit: Callable[[WorkerExit], None]
) -> None:
    busy = [s for s in slots if s.spec is not None]
    deadlines = [s.deadline for s in busy if s.deadline is not None]
    timeout = max(0.0, min(deadlines) - time.monotonic()) if deadlines else None
    ready = _readable([s.replies for s in busy], timeout)
    now = time.monotonic()
    for slot in busy:
        spec = slot.spec
        assert spec is not None
        if slot.replies in ready:
            reply = _read_line(slot.replies)
            slot.spec = None
            if reply == "ok":
                on_exit(WorkerExit(spec, None, False))
            elif reply.startswith("error "):
                on_exit(WorkerExit(spec, f"trial failed: {reply[6:]}", False))
            else:  # the worker died mid-trial
                failure = slot.stop() or "trial process ended abnormally"
                on_exit(WorkerExit(spec, failure, False))
        elif slot.deadline is not None and now >= slot.deadline:
            slot.spec = None
            slot.stop()
            on_exit(WorkerExit(spec, "timeout", True))
