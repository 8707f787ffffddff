"""Whether the real sandbox (bubblewrap) can run here, for the tests that need it. No tests here."""

from __future__ import annotations

import pytest


def sandbox_missing() -> str | None:
    """Why bubblewrap cannot run here, or None when it can."""
    from itbench.sandbox import SandboxUnavailable
    from itbench.sandbox.availability import bwrap_path

    try:
        bwrap_path()
    except SandboxUnavailable as exc:
        return str(exc)
    return None


#: skips a test (or, as ``pytestmark``, a module) with the reason the sandbox cannot run
needs_sandbox = pytest.mark.skipif(
    sandbox_missing() is not None, reason=f"no sandbox here: {sandbox_missing()}"
)
