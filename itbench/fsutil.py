"""Small filesystem helpers used across the core: atomic writes, safe copies."""

from __future__ import annotations

import json
import os
import shutil
import stat
import tempfile
from pathlib import Path
from typing import Any

from itbench.errors import OutputError


def atomic_write_text(path: Path, text: str, durable: bool = False) -> None:
    """Write ``text`` so that readers see the old file or the whole new one, never a part.

    The temporary file lives in the same directory so ``os.replace`` is a rename on one filesystem.
    The rename alone protects against our process dying (kill -9, Ctrl-C); ``durable`` also syncs
    to disk against a machine crash, at a cost of milliseconds per file. The file gets the mode an
    ordinary ``open(path, "w")`` would give it (an existing file's mode, else 0666 less the umask)
    rather than the 0600 of a temporary file. A path that cannot be written is an ``OutputError``
    naming it.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise OutputError(f"{path}: cannot write ({_reason(exc)})") from exc
    try:
        os.fchmod(fd, _mode_for(path))
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise OutputError(f"{path}: cannot write ({_reason(exc)})") from exc
        raise


def ensure_directory(path: Path) -> Path:
    """Create the output folder ``path`` (and its parents); an ``OutputError`` naming it when a
    file is in the way or it cannot be created."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"{path}: cannot create the folder ({_reason(exc)})") from exc
    return path


def _reason(exc: OSError) -> str:
    """The OS's words for a failure, without the repetition of the path Python adds."""
    if isinstance(exc, (FileExistsError, NotADirectoryError)) and exc.filename:
        # mkdir over a file says "File exists", which reads as if the output itself clashed
        blocker = next((p for p in Path(exc.filename).parents if p.is_file()), None)
        if blocker is not None or Path(exc.filename).is_file():
            return f"{blocker or exc.filename} is a file, not a directory"
    return exc.strerror or str(exc)


def _mode_for(path: Path) -> int:
    """The permission bits a plain ``open(path, "w")`` would leave ``path`` with."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return 0o666 & ~_umask()


def _umask() -> int:
    # /proc tells the umask without changing it; the set-and-restore fallback briefly changes a
    # process-wide setting, so it is only used where /proc is missing.
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    current = os.umask(0o022)
    os.umask(current)
    return current


def atomic_write_json(path: Path, data: Any) -> None:
    atomic_write_text(path, json.dumps(data, indent=2, default=str) + "\n")


def copy_input(source: Path, target: Path) -> None:
    """Copy a scenario input (file or directory) into a workspace; never a link, so an agent cannot
    follow it back to the scenario folder where ground truth lives."""
    target.parent.mkdir(parents=True, exist_ok=True)
    if source.is_dir():
        shutil.copytree(source, target, symlinks=False, dirs_exist_ok=True)
    else:
        shutil.copyfile(source, target)
