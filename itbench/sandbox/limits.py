"""Limits on what a sandboxed command may take: processes, memory, file size.

A pids cgroup (v2 unified, else v1) caps the number of tasks; a fork bomb hits the cap instead of
the machine, and at the end every task in the cgroup is killed. Without a writable cgroup the limit
falls back to RLIMIT_NPROC (weaker: it counts every process of the same user).

Memory and file size are resource limits set in the child before ``exec`` (so bwrap and everything
it starts inherit them). Memory is RLIMIT_DATA, the private writable memory of each process (heap,
anonymous mappings), not RLIMIT_AS: JavaScript engines (node, the runtime of most agent CLIs)
reserve many gigabytes of address space they never touch, and fail to start under an address-space
cap that an allocation-heavy Python process would still pass. Both limits are per process.
"""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import uuid
from dataclasses import dataclass
from pathlib import Path

from itbench.errors import UsageError

CGROUP_ROOTS = (Path("/sys/fs/cgroup"), Path("/sys/fs/cgroup/unified"), Path("/sys/fs/cgroup/pids"))


_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def parse_size(text: str, option: str) -> int | None:
    """``4G``, ``512M``, ``100K`` or bytes; ``0`` or ``unlimited`` is no limit (None)."""
    value = text.strip().upper().removesuffix("B").removesuffix("I")
    if value in ("0", "UNLIMITED"):
        return None
    number, unit = (value[:-1], value[-1]) if value[-1:] in _UNITS else (value, "")
    try:
        size = int(float(number) * _UNITS[unit])
    except ValueError:
        size = 0
    if size <= 0:
        raise UsageError(f"{option}: {text!r} is not a size (e.g. 4G, 512M, 0 for no limit)")
    return size


def format_size(size: int | None) -> str:
    if size is None:
        return "unlimited"
    for unit in ("T", "G", "M", "K"):
        if size % _UNITS[unit] == 0:
            return f"{size // _UNITS[unit]}{unit}"
    return str(size)


@dataclass(frozen=True)
class ResourceLimits:
    """Caps on one sandboxed command (None: no cap). ``output_bytes`` bounds what the runner keeps
    of stdout and of stderr each; past it the command is stopped."""

    memory_bytes: int | None
    file_size_bytes: int | None
    output_bytes: int | None

    def apply(self) -> None:
        """Run in the child before exec."""
        for which, size in (
            (resource.RLIMIT_DATA, self.memory_bytes),
            (resource.RLIMIT_FSIZE, self.file_size_bytes),
        ):
            if size is not None:
                resource.setrlimit(which, (size, size))

    def describe(self) -> dict[str, str]:
        return {
            "memory": format_size(self.memory_bytes),
            "file_size": format_size(self.file_size_bytes),
            "output": format_size(self.output_bytes),
        }


#: Defaults of ``--agent-memory``, ``--agent-file-size``, ``--agent-output``: room for an agent
#: CLI and the tools it runs, not for a runaway allocation, file or log.
DEFAULT_AGENT_LIMITS = ResourceLimits(
    memory_bytes=4 << 30, file_size_bytes=1 << 30, output_bytes=10 << 20
)
#: The evaluation sandbox's (fetch scripts, playbooks, validators; ``itbench sandbox run``).
DEFAULT_EVALUATION_LIMITS = ResourceLimits(
    memory_bytes=2 << 30, file_size_bytes=256 << 20, output_bytes=2 << 20
)


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


#: Where a memory controller may be mounted: v1's own hierarchy, or v2's unified root.
MEMORY_ROOTS = (
    Path("/sys/fs/cgroup/memory"),
    Path("/sys/fs/cgroup"),
    Path("/sys/fs/cgroup/unified"),
)


@dataclass
class MemoryLimit:
    """A memory cgroup capping what all of one command's processes hold together (the resource
    limits cap each process only: ten processes under a 4G cap could hold 40G). Past the cap the
    kernel's OOM killer ends a process of the group. None of it where no writable memory
    controller exists (then only the per-process cap holds)."""

    limit_bytes: int | None
    cgroup: Path | None = None
    v2: bool = False

    @classmethod
    def create(cls, limit_bytes: int | None) -> MemoryLimit:
        if limit_bytes is None:
            return cls(None)
        for root in MEMORY_ROOTS:
            v1 = root.name == "memory" and (root / "memory.limit_in_bytes").exists()
            v2 = not v1 and _v2_with(root, "memory")
            if not (v1 or v2):
                continue
            path = root / f"itbench-sandbox-{uuid.uuid4().hex[:12]}"
            try:
                path.mkdir()
                if v2:
                    (path / "memory.max").write_text(str(limit_bytes))
                    with contextlib.suppress(OSError):
                        (path / "memory.swap.max").write_text("0")
                else:
                    (path / "memory.limit_in_bytes").write_text(str(limit_bytes))
                    with contextlib.suppress(OSError):  # swap accounting may be off
                        (path / "memory.memsw.limit_in_bytes").write_text(str(limit_bytes))
                return cls(limit_bytes, path, v2)
            except OSError:
                with contextlib.suppress(OSError):
                    path.rmdir()
        return cls(limit_bytes)

    @property
    def kind(self) -> str:
        return f"memory cgroup {self.cgroup}" if self.cgroup else "none (per-process RLIMIT_DATA)"

    def enter(self) -> None:
        """Run in the child before exec."""
        if self.cgroup is not None:
            (self.cgroup / "cgroup.procs").write_text(str(os.getpid()))

    def oom_killed(self) -> bool:
        """Whether the kernel killed a process of the group for passing the cap."""
        if self.cgroup is None:
            return False
        try:
            if self.v2:
                events = (self.cgroup / "memory.events").read_text()
                counts = dict(line.split() for line in events.splitlines() if line.strip())
                return int(counts.get("oom_kill", "0")) > 0
            control = (self.cgroup / "memory.oom_control").read_text()
            counts = dict(line.split() for line in control.splitlines() if line.strip())
            if "oom_kill" in counts:
                return int(counts["oom_kill"]) > 0
            return int((self.cgroup / "memory.failcnt").read_text()) > 0
        except (OSError, ValueError):
            return False

    def close(self) -> None:
        if self.cgroup is None:
            return
        import time

        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:  # the tasks leave once the pids cgroup killed them
            try:
                self.cgroup.rmdir()
                return
            except OSError:
                for pid in (self.cgroup / "cgroup.procs").read_text().split():
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(int(pid), signal.SIGKILL)
                time.sleep(0.02)


def _v2_with(root: Path, controller: str) -> bool:
    controllers = root / "cgroup.controllers"
    try:
        return (
            controllers.exists()
            and controller in controllers.read_text().split()
            and controller in (root / "cgroup.subtree_control").read_text().split()
        )
    except OSError:
        return False


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


#: What a program prints when one of the resource limits stopped it (bash, Python, C, C++, Go,
#: node): the evidence that a failure was the cap's doing.
_FILE_SIZE_SIGNS = ("File size limit exceeded", "File too large")
_MEMORY_SIGNS = (
    "MemoryError",
    "Cannot allocate memory",
    "out of memory",
    "std::bad_alloc",
    "Allocation failed",
    "failed to reserve",
)
_SIGXFSZ_EXIT = 128 + signal.SIGXFSZ


def cap_hit(
    limits: ResourceLimits, exit_code: int, stderr: str, output_capped: bool
) -> tuple[str, str] | None:
    """(which cap, its size) when the command's end shows it hit a cap, else None."""
    if output_capped:
        return ("output", format_size(limits.output_bytes))
    if exit_code == 0:
        return None
    if limits.file_size_bytes is not None and (
        exit_code == _SIGXFSZ_EXIT or any(sign in stderr for sign in _FILE_SIZE_SIGNS)
    ):
        return ("file-size", format_size(limits.file_size_bytes))
    if limits.memory_bytes is not None and any(sign in stderr for sign in _MEMORY_SIGNS):
        return ("memory", format_size(limits.memory_bytes))
    return None
