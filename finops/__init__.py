"""FinOps domain: root cause of cost anomalies in hierarchical billing data."""
