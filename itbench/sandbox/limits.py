"""A process-count limit for everything the sandbox starts, and a way to kill all of it.

A pids cgroup (v2 unified, else v1) caps the number of tasks; a fork bomb hits the cap instead of
the machine, and at the end every task in the cgroup is killed. Without a writable cgroup the limit
falls back to RLIMIT_NPROC (weaker: it counts every process of the same user).
"""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import uuid
from dataclasses import dataclass
from pathlib import Path

CGROUP_ROOTS = (Path("/sys/fs/cgroup"), Path("/sys/fs/cgroup/unified"), Path("/sys/fs/cgroup/pids"))


@dataclass
class ProcessLimit:
    max_processes: int
    cgroup: Path | None = None

    @classmethod
    def create(cls, max_processes: int) -> ProcessLimit:
        for root in CGROUP_ROOTS:
            if not (_v1_pids(root) or _v2_with_pids(root)):
                continue
            path = root / f"itbench-sandbox-{uuid.uuid4().hex[:12]}"
            try:
                path.mkdir()
                (path / "pids.max").write_text(str(max_processes))
                return cls(max_processes, path)
            except OSError:
                with contextlib.suppress(OSError):
                    path.rmdir()
        return cls(max_processes, None)

    @property
    def kind(self) -> str:
        return f"cgroup {self.cgroup}" if self.cgroup else "RLIMIT_NPROC"

    def enter(self) -> None:
        """Run in the child before exec: join the cgroup (or set the rlimit)."""
        if self.cgroup is not None:
            (self.cgroup / "cgroup.procs").write_text(str(os.getpid()))
        else:
            resource.setrlimit(resource.RLIMIT_NPROC, (self.max_processes, self.max_processes))

    def kill_all(self) -> int:
        if self.cgroup is None:
            return 0
        killed = 0
        for _ in range(20):  # tasks may be forking while we kill: repeat until empty
            pids = [int(p) for p in (self.cgroup / "cgroup.procs").read_text().split()]
            if not pids:
                break
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                    killed += 1
                except ProcessLookupError:
                    pass
        return killed

    def close(self) -> None:
        if self.cgroup is None:
            return
        import time

        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:  # killed tasks leave the cgroup once reaped
            self.kill_all()
            try:
                self.cgroup.rmdir()
                return
            except OSError:
                time.sleep(0.02)


def _v1_pids(root: Path) -> bool:
    """The root of a v1 pids hierarchy: its children get pids.max (the root itself has none)."""
    return root.name == "pids" and (root / "cgroup.procs").exists()


def _v2_with_pids(root: Path) -> bool:
    controllers = root / "cgroup.controllers"
    return (
        controllers.exists()
        and "pids" in controllers.read_text().split()
        and (root / "cgroup.subtree_control").exists()
    )
