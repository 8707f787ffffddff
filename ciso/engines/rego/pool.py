"""A pool of killable worker processes for evaluating untrusted Rego with a time and memory limit.

A policy that runs past the time limit gets its worker killed (and replaced on the next call) and
comes back as a ``rego_timeout`` error: never a hang. The memory limit is an RLIMIT_AS on the worker.
"""

from __future__ import annotations

import ctypes
import json
import os
import resource
import select
import signal
import subprocess
import sys
import threading
from collections.abc import Mapping
from typing import Any

from ciso.engines.rego.model import (
    UNDEFINED,
    CheckResult,
    Diagnostic,
    EvalResult,
    RegoError,
    TestCase,
    TestRun,
)

_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: an orphan still ends at its stdin's EOF
        pass


_CLONE_NEWNET = 0x40000000
_CLONE_NEWUSER = 0x10000000
#: What an offline worker keeps of the environment (``opa.runtime()`` would hand out the rest).
_OFFLINE_ENV = ("PATH", "PYTHONPATH", "LANG", "LC_ALL", "TMPDIR")


def _cut_network() -> None:
    """Move this (just forked, single-threaded) process into a network namespace of its own: no
    interface but a loopback that is down. As root directly; otherwise inside a user namespace
    that maps the same uid (so files stay readable). When neither is allowed (a container without
    namespaces) nothing changes: the refusal of I/O builtins (``offline_problem``) still holds."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.unshare(_CLONE_NEWNET) == 0:
            return
        uid, gid = os.getuid(), os.getgid()
        if libc.unshare(_CLONE_NEWUSER | _CLONE_NEWNET) != 0:
            return
        with open("/proc/self/setgroups", "w") as handle:
            handle.write("deny")
        with open("/proc/self/uid_map", "w") as handle:
            handle.write(f"{uid} {uid} 1")
        with open("/proc/self/gid_map", "w") as handle:
            handle.write(f"{gid} {gid} 1")
    except (OSError, AttributeError):
        pass


class _Worker:
    def __init__(self, memory_bytes: int, offline: bool = False) -> None:
        def limit() -> None:
            resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
            _die_with_parent()
            if offline:
                _cut_network()

        env = dict(os.environ, RUST_BACKTRACE="0")
        if offline:
            env = {k: v for k, v in env.items() if k in _OFFLINE_ENV}
            env["RUST_BACKTRACE"] = "0"
        # Its own session: the benchmark runner ends each trial by signalling its worker's process
        # group, which would otherwise take this worker (and its started Go runtime, ~0.3 s) with
        # it after every trial. It still dies with the process that started it (PDEATHSIG).
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "ciso.engines.rego.worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            preexec_fn=limit,  # noqa: PLW1509 - the limit must apply to the worker alone
            start_new_session=True,
            env=env,
        )

    def call(self, request: dict[str, Any], timeout_s: float) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        # poll(2), not select(2), which takes no descriptor above 1023 (a long-lived caller of
        # the library may hold that many)
        poller = select.poll()
        poller.register(self.proc.stdout.fileno(), select.POLLIN | select.POLLPRI)
        if not poller.poll(timeout_s * 1000):
            self.kill()
            raise TimeoutError
        line = self.proc.stdout.readline()
        if not line:
            code = self.proc.wait()
            raise MemoryError(f"worker died (exit {code}); the memory limit may have been reached")
        return json.loads(line)

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait()

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None


class RegoPool:
    def __init__(
        self,
        size: int = 2,
        timeout_s: float = 10.0,
        memory_bytes: int = 8 * 2**30,
        offline: bool = False,
    ) -> None:
        """``offline``: the workers evaluate untrusted policies (an agent's): no network
        namespace shared with the host and none of the host's environment variables."""
        self.size, self.timeout_s, self.memory_bytes = size, timeout_s, memory_bytes
        self.offline = offline
        self._idle: list[_Worker] = []
        self._lock = threading.Lock()
        self._slots = threading.Semaphore(size)

    def _call(self, request: dict[str, Any]) -> dict[str, Any]:
        with self._slots:
            with self._lock:
                worker = self._idle.pop() if self._idle else None
            if worker is None or not worker.alive:
                worker = _Worker(self.memory_bytes, self.offline)
            try:
                reply = worker.call(request, self.timeout_s)
            except TimeoutError:
                raise RegoError(
                    [
                        Diagnostic(
                            "",
                            None,
                            None,
                            "rego_timeout",
                            f"evaluation exceeded the {self.timeout_s:g} s time limit",
                        )
                    ]
                ) from None
            except MemoryError as exc:
                raise RegoError(
                    [Diagnostic("", None, None, "rego_resource_error", str(exc))]
                ) from None
            with self._lock:
                self._idle.append(worker)
        if not reply.get("ok"):
            raise RegoError(
                [Diagnostic(**d) for d in reply.get("diagnostics", [])], reply.get("engine", "")
            )
        return reply

    def evaluate(
        self,
        modules: Mapping[str, str],
        query: str,
        input: Any = None,
        data: Mapping[str, Any] | None = None,
        *,
        engine: str | None = None,
        v0: bool = False,
    ) -> EvalResult:
        reply = self._call(
            {
                "op": "eval",
                "engine": engine,
                "v0": v0,
                "modules": dict(modules),
                "query": query,
                "input": input,
                "data": dict(data or {}),
            }
        )
        return EvalResult(
            reply["value"] if reply["defined"] else UNDEFINED,
            reply["results"],
            reply["engine"],
            reply["version"],
            tuple(reply.get("not_checked", ())),
        )

    def checked(
        self, modules: Mapping[str, str], *, engine: str | None = None, v0: bool = False
    ) -> CheckResult:
        """The diagnostics of ``modules`` and the backend that found them (what it could not
        check included)."""
        reply = self._call({"op": "check", "engine": engine, "v0": v0, "modules": dict(modules)})
        return CheckResult(
            [Diagnostic(**d) for d in reply["diagnostics"]],
            reply["engine"],
            reply["version"],
            tuple(reply.get("not_checked", ())),
        )

    def check(
        self, modules: Mapping[str, str], *, engine: str | None = None, v0: bool = False
    ) -> list[Diagnostic]:
        return self.checked(modules, engine=engine, v0=v0).diagnostics

    def test(
        self,
        modules: Mapping[str, str],
        data: Mapping[str, Any] | None = None,
        *,
        engine: str | None = None,
        v0: bool = False,
        run: str | None = None,
        coverage: bool = False,
    ) -> TestRun:
        reply = self._call(
            {
                "op": "test",
                "engine": engine,
                "v0": v0,
                "modules": dict(modules),
                "data": dict(data or {}),
                "run": run,
                "coverage": coverage,
            }
        )
        return TestRun(
            reply["engine"],
            [TestCase(**c) for c in reply["cases"]],
            reply.get("coverage"),
            tuple(reply.get("not_checked", ())),
        )

    def close(self) -> None:
        with self._lock:
            for worker in self._idle:
                worker.kill()
            self._idle.clear()

    def __enter__(self) -> RegoPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
