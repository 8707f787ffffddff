"""The CISO ``baseline`` agent: requirement -> :mod:`intent` -> Jinja2 templates per dialect."""

from __future__ import annotations

from ciso.agents.baseline.agent import BaselineAgent

__all__ = ["BaselineAgent"]
