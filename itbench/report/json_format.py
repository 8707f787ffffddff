"""The comparison document (``--format json``): stable keys, one entry per run."""

from __future__ import annotations

import json
from collections.abc import Sequence

from itbench.report.model import RunSummary, metric_names


def render_json(runs: Sequence[RunSummary]) -> str:
    document = {
        "metrics": metric_names(runs),
        "runs": [
            {
                "label": r.label,
                "source": r.source,
                "domain": r.domain,
                "agent": r.agent,
                "model": r.model,
                "primary_metric": r.primary_metric,
                "trials": len(r.trials),
                "bad_runs": r.bad_runs,
                "metrics": {
                    name: {
                        "mean": m.mean,
                        "stderr": m.stderr,
                        "n_incidents": m.n_incidents,
                        "pass@1": m.pass_at_1,
                    }
                    for name, m in r.metrics.items()
                },
                "classes": {
                    cls: {"n_incidents": n, "means": means} for cls, (n, means) in r.classes.items()
                },
            }
            for r in runs
        ],
    }
    return json.dumps(document, indent=2) + "\n"
