"""Small filesystem helpers used across the core: atomic writes, safe copies."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any


def atomic_write_text(path: Path, text: str, durable: bool = False) -> None:
    """Write ``text`` so that readers see the old file or the whole new one, never a part.

    The temporary file lives in the same directory so ``os.replace`` is a rename on one filesystem.
    The rename alone protects against our process dying (kill -9, Ctrl-C); ``durable`` also syncs
    to disk against a machine crash, at a cost of milliseconds per file.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


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
