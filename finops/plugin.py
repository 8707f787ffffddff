"""The ``finops`` domain plugin (wired to the library in a later step)."""

from __future__ import annotations

from itbench.plugins.spec import Domain

domain = Domain(name="finops", description="Cost anomaly root cause in hierarchical billing data")
