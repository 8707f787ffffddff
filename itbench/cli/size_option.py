"""One ``--NAME SIZE`` option for the sandboxes' caps (memory, file size, output), shared by
``<domain> run``'s agent caps and ``itbench sandbox run``: the default shown is the cap's own."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from itbench.sandbox.limits import format_size


def size_option(flag: str, default_bytes: int | None, help: str) -> Callable[[Any], Any]:
    """A click option taking a size such as ``4G`` or ``512M`` (parsed by the command)."""
    return click.option(
        flag, default=format_size(default_bytes), show_default=True, metavar="SIZE", help=help
    )
