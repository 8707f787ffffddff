"""Can we sandbox here? bubblewrap must exist and be able to create namespaces; otherwise refuse."""

from __future__ import annotations

import functools
import shutil
import subprocess
from pathlib import Path

from itbench.errors import ItbenchError


class SandboxUnavailable(ItbenchError):
    """No sandbox can be made on this machine; generated code is never run unsandboxed instead."""


@functools.lru_cache(maxsize=1)
def bwrap_path() -> str:
    path = shutil.which("bwrap")
    if path is None:
        raise SandboxUnavailable(
            "bubblewrap (bwrap) is not installed: install it (e.g. `apt-get install bubblewrap`); "
            "itbench never runs generated code unsandboxed"
        )
    probe = subprocess.run(
        [
            path,
            "--unshare-all",
            "--die-with-parent",
            "--ro-bind",
            "/",
            "/",
            "--proc",
            "/proc",
            "--dev",
            "/dev",
            "true",
        ],
        capture_output=True,
        text=True,
        timeout=30,
    )
    if probe.returncode != 0:
        raise SandboxUnavailable(
            f"bubblewrap cannot create namespaces here: {probe.stderr.strip() or probe.returncode}"
        )
    return path


@functools.cache
def bwrap_supports(option: str) -> bool:
    """Whether this bubblewrap knows ``option`` (``--size`` and ``--disable-userns`` are 0.7/0.8
    additions; older releases refuse the whole command line)."""
    help_text = subprocess.run(
        [bwrap_path(), "--help"], capture_output=True, text=True, timeout=30
    ).stdout
    return f"{option} " in help_text


def reachable(path: Path) -> list[str]:
    """bwrap arguments making every folder above ``path`` traversable (``0755``) before ``path``
    is mounted there: the folders bwrap creates inside an empty tmpfs for a mount point are
    ``0700`` and root's, which the sandboxed command, run as nobody, could not pass through.
    A folder that exists already is left as it is."""
    if not bwrap_supports("--perms"):
        return []
    args: list[str] = []
    for ancestor in reversed(path.parents[:-1]):  # from the top-level folder down, / left out
        args += ["--perms", "0755", "--dir", str(ancestor)]
    return args


def tmpfs_args(size: int | None) -> list[str]:
    """``--tmpfs`` for a private scratch folder, world-writable as /tmp is (``1777``: the
    sandboxed command may run as another uid than bwrap's), preceded by ``--size`` where bwrap
    knows it (0.7 and later)."""
    perms = ["--perms", "1777"] if bwrap_supports("--perms") else []
    if size is None or not bwrap_supports("--size"):
        return [*perms, "--tmpfs"]
    return [*perms, "--size", str(size), "--tmpfs"]
