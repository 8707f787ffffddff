"""Tool commands the ciso plugin contributes (``itbench kyverno``, ``itbench rego``)."""
