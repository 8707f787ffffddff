"""itbench: an offline-first benchmark and policy engine for AI agents doing IT operations work."""

from __future__ import annotations

__version__ = "0.1.0"
