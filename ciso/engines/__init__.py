"""Policy engines the CISO domain validates artifacts with: ``kyverno`` and ``rego``."""
