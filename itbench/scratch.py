"""One parent directory for every scratch directory an itbench process makes, and its removal.

Trials make scratch directories (``tempfile.mkdtemp``, ``TemporaryDirectory``) in forked workers
that the runner kills with SIGKILL when a run is interrupted or a trial times out; their own
cleanup never runs. So :func:`install` points :mod:`tempfile` of this process (and of the workers
it forks) at ``$TMPDIR/itbench-proc-<pid>-<start>/``, which is removed

- on a normal exit and on Ctrl-C (``atexit``: the CLI turns KeyboardInterrupt into an exit code),
- on SIGTERM and SIGHUP (a handler that exits the same way),
- after ``kill -9``, where nothing runs: by the next itbench process, which removes every such
  directory whose owner is gone (its pid is not running, or runs a process started at another
  time: pids are reused).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import signal
import tempfile
from pathlib import Path
from types import FrameType

PREFIX = "itbench-proc-"
_installed: dict[int, Path] = {}  # pid -> its parent directory (a fork inherits the parent's)
_system: list[Path] = []  # the temporary directory before install() redirected it


def system_tempdir() -> Path:
    """The temporary directory before :func:`install` redirected it: for files meant to outlive
    the process (a served environment left in place for a person)."""
    return _system[0] if _system else Path(tempfile.gettempdir())


def _start_time(pid: int) -> str | None:
    """The process's start time in clock ticks since boot (field 22 of /proc/PID/stat), or None
    when no such process runs."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        if not Path("/proc/self/stat").exists():  # no procfs: fall back to "is it alive"
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return None
            except PermissionError:
                return "?"
            return "?"
        return None
    return stat.rsplit(")", 1)[1].split()[19]


def _owner_alive(directory: Path) -> bool:
    pid_text, _, start = directory.name.removeprefix(PREFIX).partition("-")
    if not pid_text.isdigit():
        return True  # not one of ours: leave it
    running = _start_time(int(pid_text))
    return running is not None and running in (start, "?")


def sweep(base: Path) -> list[Path]:
    """Remove the scratch parents under ``base`` whose owner process is gone; the removed."""
    removed = []
    with contextlib.suppress(OSError):
        for entry in base.iterdir():
            ours = entry.name.startswith(PREFIX) and entry.is_dir() and not entry.is_symlink()
            if ours and not _owner_alive(entry):
                shutil.rmtree(entry, ignore_errors=True)
                removed.append(entry)
    return removed


def _remove(owner: int, directory: Path) -> None:
    if os.getpid() == owner:  # never from a forked worker: the runner owns the directory
        shutil.rmtree(directory, ignore_errors=True)


def _on_signal(signum: int, frame: FrameType | None) -> None:
    if os.getpid() not in _installed:  # a fork that kept the handler: behave as by default
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return
    raise SystemExit(128 + signum)


def install() -> Path:
    """Make this process's scratch parent (once), sweep dead owners', redirect :mod:`tempfile`."""
    pid = os.getpid()
    if pid in _installed:
        return _installed[pid]
    base = system_tempdir()
    _system[:] = [base]
    sweep(base)
    directory = base / f"{PREFIX}{pid}-{_start_time(pid) or '0'}"
    directory.mkdir(mode=0o700, exist_ok=True)
    _installed.clear()  # a fork of an installed process starts its own
    _installed[pid] = directory
    tempfile.tempdir = str(directory)
    atexit.register(_remove, pid, directory)
    for signum in (signal.SIGTERM, signal.SIGHUP):
        with contextlib.suppress(ValueError, OSError):  # not the main thread: leave them
            if signal.getsignal(signum) in (signal.SIG_DFL, None):
                signal.signal(signum, _on_signal)
    return directory
