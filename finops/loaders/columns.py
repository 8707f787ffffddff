"""Column checks shared by the loaders: say which column is missing and what it may be called."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from pathlib import Path

from itbench.errors import InputError


def require_columns(path: Path, present: Iterable[str], required: Iterable[str]) -> None:
    columns = list(present)
    missing = [c for c in required if c not in columns]
    if not missing:
        return
    hints = []
    for name in missing:
        close = difflib.get_close_matches(name, columns, n=1, cutoff=0.5)
        hints.append(f"{name!r}" + (f" (found {close[0]!r}: renamed?)" if close else ""))
    raise InputError(
        f"{path}: missing column(s) {', '.join(hints)}; columns present: {', '.join(columns)}"
    )
