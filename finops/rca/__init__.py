"""Root-cause analysis of a cost anomaly: cube, seasonal baseline, drill-down, naive comparison."""

from finops.rca.diagnose import diagnose

__all__ = ["diagnose"]
