"""Reports over one or more results documents: table, json, markdown, junit, html."""

from itbench.report.model import RunSummary, load_runs

__all__ = ["RunSummary", "load_runs"]
