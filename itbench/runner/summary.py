"""The compact table ``run`` and ``eval`` print: one row per scenario, then the overall line."""

from __future__ import annotations

from typing import Any


def _fmt(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def summary_table(document: dict[str, Any], primary_metric: str | None) -> str:
    stats = document.get("statistics", {})
    per_incident: dict[str, dict[str, Any]] = stats.get("per_incident", {})
    overall: dict[str, Any] = stats.get("overall", {})
    metrics = [primary_metric] if primary_metric else []
    for key in overall:
        if key not in metrics and isinstance(overall[key], dict) and len(metrics) < 4:
            metrics.append(key)
    classes = document.get("config", {}).get("scenario_classes", {})
    errors: dict[str, int] = {}
    trials: dict[str, int] = {}
    for entry in document.get("raw_results", []):
        iid = str(entry.get("incident_id"))
        trials[iid] = trials.get(iid, 0) + 1
        if "error" in entry:
            errors[iid] = errors.get(iid, 0) + 1
    header = ["scenario", "class", "trials", "errors", *metrics]
    rows = [header]
    for iid in sorted(trials, key=_natural):
        stat = per_incident.get(iid, {})
        row = [iid, classes.get(iid, "-"), str(trials[iid]), str(errors.get(iid, 0))]
        row += [_fmt(stat.get(m, {}).get("mean")) for m in metrics]
        rows.append(row)
    total_row = ["OVERALL", "", str(sum(trials.values())), str(overall.get("total_bad_runs", 0))]
    for m in metrics:
        entry = overall.get(m, {})
        mean, stderr = entry.get("mean"), entry.get("stderr")
        total_row.append(_fmt(mean) + (f" ±{stderr:.3f}" if isinstance(stderr, float) else ""))
    rows.append(total_row)
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(widths[i]) for i, cell in enumerate(r)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines.insert(len(lines) - 1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _natural(key: str) -> tuple:
    import re

    return tuple(int(t) if t.isdigit() else t for t in re.split(r"(\d+)", key))


def primary_mean(document: dict[str, Any], metric: str | None) -> float | None:
    if not metric:
        return None
    value = document.get("statistics", {}).get("overall", {}).get(metric, {}).get("mean")
    return float(value) if isinstance(value, int | float) else None
