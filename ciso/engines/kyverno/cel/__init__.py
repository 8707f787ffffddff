"""Kyverno's CEL: the evaluator (``program``: compile cache and limits), the bindings Kyverno
gives an expression (``bindings``), the Kubernetes extension libraries (``libraries/``, one
module each) and the policy forms that use them (``validate``: ``validate.cel`` rules)."""
