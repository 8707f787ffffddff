"""Reading a cost export (``data.csv``, ``focus.csv``) within bounds.

An export comes from a scenario folder or an agent's workspace (the FinOps tools read it as the
runner's user, outside any sandbox), so its size is not to be trusted: a file of terabytes, or a
sparse file claiming them, would be read without end. Before anything is read, an export must be
a regular file of at most ``max_bytes`` (its apparent size: a sparse file counts whole), and at
most ``max_rows`` data rows are parsed. The caps are configurable through the environment
(``ITBENCH_FINOPS_MAX_EXPORT_BYTES``, ``ITBENCH_FINOPS_MAX_EXPORT_ROWS``; ``unlimited`` lifts one)
and an export over either is an ``InputError`` naming the file, the cap and how to raise it.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from itbench.errors import InputError, UsageError
from itbench.sandbox.limits import format_size, parse_size

__all__ = ["BYTES_VARIABLE", "ROWS_VARIABLE", "ExportLimits", "check_export", "read_export"]

BYTES_VARIABLE = "ITBENCH_FINOPS_MAX_EXPORT_BYTES"
ROWS_VARIABLE = "ITBENCH_FINOPS_MAX_EXPORT_ROWS"
#: the largest generated export is about 20 MB and 33,000 rows: room for real monthly exports
#: of a mid-size account, not for one that would exhaust the machine's memory in pandas
DEFAULT_MAX_BYTES = 256 << 20
DEFAULT_MAX_ROWS = 2_000_000


@dataclass(frozen=True)
class ExportLimits:
    """Caps on one export (None: no cap)."""

    max_bytes: int | None = DEFAULT_MAX_BYTES
    max_rows: int | None = DEFAULT_MAX_ROWS

    @staticmethod
    def from_environment() -> ExportLimits:
        size = os.environ.get(BYTES_VARIABLE)
        rows = os.environ.get(ROWS_VARIABLE)
        return ExportLimits(
            parse_size(size, BYTES_VARIABLE) if size else DEFAULT_MAX_BYTES,
            _parse_rows(rows) if rows else DEFAULT_MAX_ROWS,
        )


def _parse_rows(text: str) -> int | None:
    if text.strip().lower() in ("0", "unlimited"):
        return None
    try:
        rows = int(text)
    except ValueError:
        rows = 0
    if rows <= 0:
        raise UsageError(f"{ROWS_VARIABLE}: {text!r} is not a number of rows (0 for no limit)")
    return rows


def check_export(path: Path, limits: ExportLimits | None = None) -> ExportLimits:
    """Refuse ``path`` unless it is a regular file within the byte cap; the limits in force
    (the environment's when None). Nothing of the file is read."""
    limits = limits or ExportLimits.from_environment()
    try:
        info = os.stat(path)
    except FileNotFoundError as exc:
        raise InputError(f"{path}: file not found") from exc
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror})") from exc
    if not stat.S_ISREG(info.st_mode):
        raise InputError(f"{path}: not a regular file: not read")  # a FIFO would block for good
    if limits.max_bytes is not None and info.st_size > limits.max_bytes:
        raise InputError(
            f"{path}: {format_size(info.st_size)} ({info.st_size} bytes) is over the export size "
            f"limit of {format_size(limits.max_bytes)}; not read (raise it with "
            f"{BYTES_VARIABLE}=SIZE, e.g. 1G)"
        )
    return limits


def read_export(path: Path, limits: ExportLimits | None = None, **read_csv: Any) -> pd.DataFrame:
    """The export at ``path`` as pandas reads it with ``read_csv``'s options, within ``limits``
    (the environment's when None)."""
    limits = check_export(path, limits)
    nrows = None if limits.max_rows is None else limits.max_rows + 1
    try:
        raw = pd.read_csv(path, nrows=nrows, **read_csv)
    except FileNotFoundError as exc:
        raise InputError(f"{path}: file not found") from exc
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: not a readable CSV ({exc})") from exc
    if limits.max_rows is not None and len(raw) > limits.max_rows:
        raise InputError(
            f"{path}: more than {limits.max_rows} rows, the export row limit; not read (raise it "
            f"with {ROWS_VARIABLE}=N)"
        )
    return raw
