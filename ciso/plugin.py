"""The ``ciso`` domain plugin. It hosts the policy engines (Kyverno, Rego) and their commands;
its scenarios arrive in a later piece of work, so it offers no ``run`` yet."""

from __future__ import annotations

from itbench.plugins.spec import Domain

domain = Domain(
    name="ciso",
    description="Compliance policies: Kyverno and Rego engines, lint (itbench kyverno|rego|lint)",
)
