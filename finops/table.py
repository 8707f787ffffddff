"""The table ``itbench finops run|eval`` prints: the generic one, with the FinOps metrics in the
order that keeps ``root_cause_resource`` honest.

``root_cause_resource`` follows ITBench (1 when every true resource is among the predictions), so
an answer naming everything scores 1 on it. Its per-scenario columns are therefore followed by the
strict ``root_cause_resource_exact`` and by precision and F1, and a legend says what each means.
"""

from __future__ import annotations

from dataclasses import replace

from finops.evaluate import EXACT_METRIC, RESOURCE_METRIC
from itbench.report.model import summarize
from itbench.report.text_formats import render_table
from itbench.scoring.document import ResultsDocument

#: Shown first, in this order: the generic table gives the first four a column per scenario.
SHOWN_FIRST = (
    RESOURCE_METRIC,
    EXACT_METRIC,
    f"{RESOURCE_METRIC}_precision",
    f"{RESOURCE_METRIC}_f1",
)

LEGEND = (
    f"{RESOURCE_METRIC}: 1 when every true resource is among the predictions (ITBench's rule; "
    "naming everything scores 1, read it with precision and F1)\n"
    f"{EXACT_METRIC}: 1 when the predictions are exactly the true resources\n"
)


def render_finops_table(document: ResultsDocument) -> str:
    label = document.config.run_name or document.config.agent or "run"
    summary = summarize(document, label, "")
    order = [m for m in SHOWN_FIRST if m in summary.metrics]
    order += [m for m in summary.metrics if m not in order]
    summary = replace(summary, metrics={m: summary.metrics[m] for m in order})
    legend = LEGEND if RESOURCE_METRIC in summary.metrics else ""
    return render_table([summary]) + "\n" + legend
