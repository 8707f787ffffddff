"""A Kyverno engine in Python: validate rules, PolicyReports and the ``kyverno test`` runner."""
