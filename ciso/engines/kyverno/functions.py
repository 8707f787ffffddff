"""Kept for imports: Kyverno's JMESPath dialect lives in ``ciso.engines.kyverno.jmespath``."""

from __future__ import annotations

from ciso.engines.kyverno.jmespath import compile_check, search

__all__ = ["compile_check", "search"]
