"""Which sandbox runs generated code and agent commands: bubblewrap or a container engine.

``--sandbox bubblewrap|container|auto`` (or ``ITBENCH_SANDBOX``; default ``auto``). ``container``
runs every sandboxed command in a container through the ``docker`` SDK against ``DOCKER_HOST``
(Docker Engine, Docker Desktop, Podman's socket). ``auto`` takes bubblewrap on Linux when it can
make namespaces, else a reachable container engine. Neither available is an error (exit 3): a
command is never run unsandboxed instead.

The choice travels in the environment (``ITBENCH_SANDBOX``, rewritten to what ``auto`` resolved
to) so that worker processes and every caller of the sandbox follow it without a parameter.
"""

from __future__ import annotations

import os
import sys

from itbench.errors import UsageError
from itbench.sandbox.availability import SandboxUnavailable, bwrap_path

BACKENDS = ("bubblewrap", "container", "auto")
ENV = "ITBENCH_SANDBOX"


def requested() -> str:
    choice = os.environ.get(ENV, "").strip() or "auto"
    if choice not in BACKENDS:
        raise UsageError(f"{ENV}={choice!r}: not one of {', '.join(BACKENDS)}")
    return choice


def select(choice: str | None = None, *, announce: bool | None = None) -> str:
    """Resolve ``choice`` (default: ``ITBENCH_SANDBOX``) to ``bubblewrap`` or ``container``,
    checking it can run here (:class:`SandboxUnavailable`, exit 3, when it cannot), and record
    it in the environment for the processes this one starts. ``auto`` says on stderr what it
    picked when asked for explicitly or when it picked a container engine."""
    if choice is not None:
        if choice not in BACKENDS:
            raise UsageError(f"--sandbox {choice!r}: not one of {', '.join(BACKENDS)}")
        explicit = True
    else:
        explicit = ENV in os.environ
        choice = requested()
    if choice == "bubblewrap":
        bwrap_path()
    elif choice == "container":
        from itbench.sandbox.engine import engine_client

        engine_client()
    else:
        choice, why = _auto()
        if announce or (announce is None and (explicit or choice == "container")):
            print(f"itbench: sandbox: {choice} ({why})", file=sys.stderr)
    os.environ[ENV] = choice
    return choice


def _auto() -> tuple[str, str]:
    bwrap_problem = "bubblewrap exists only on Linux"
    if sys.platform.startswith("linux"):
        try:
            bwrap_path()
            return "bubblewrap", "auto: Linux with working bubblewrap"
        except SandboxUnavailable as exc:
            bwrap_problem = str(exc)
    from itbench.sandbox.engine import engine_client

    try:
        engine_client()
    except SandboxUnavailable as exc:
        raise SandboxUnavailable(f"no sandbox can run here: {bwrap_problem}; and {exc}") from None
    return "container", f"auto: {bwrap_problem}"


def current() -> str:
    """The backend in force for this process (resolved once, then read from the environment)."""
    choice = os.environ.get(ENV, "").strip()
    if choice in ("bubblewrap", "container"):
        return choice
    return select(None)
