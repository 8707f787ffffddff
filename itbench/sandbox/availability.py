"""Can we sandbox here? bubblewrap must exist and be able to create namespaces; otherwise refuse."""

from __future__ import annotations

import functools
import shutil
import subprocess

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


def tmpfs_args(size: int | None) -> list[str]:
    """``--tmpfs`` preceded by ``--size`` where bwrap knows it (0.7 and later)."""
    if size is None or not bwrap_supports("--size"):
        return ["--tmpfs"]
    return ["--size", str(size), "--tmpfs"]
