"""Plain-text renderings: the terminal table and Markdown.

:func:`render_table` is the one terminal table: ``itbench report`` draws it for any number of runs,
and ``itbench <domain> run|eval`` for the run just made (unless the domain has its own).
"""

from __future__ import annotations

from collections.abc import Sequence

from itbench.report.model import RunSummary, fmt_mean, metric_names, natural_key


def _grid(rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = ["  ".join(c.ljust(widths[i]) for i, c in enumerate(r)).rstrip() for r in rows]
    out.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(out)


def _overall_rows(runs: Sequence[RunSummary]) -> list[list[str]]:
    rows = [["metric", *[r.label for r in runs]]]
    for name in metric_names(runs):
        rows.append([name, *[fmt_mean(r.metrics.get(name)) for r in runs]])
    for name in metric_names(runs):
        if any(r.metrics.get(name) and r.metrics[name].pass_at_1 is not None for r in runs):
            rows.append([f"{name} pass@1", *[_pass(r, name) for r in runs]])
    rows.append(["trials", *[str(len(r.trials)) for r in runs]])
    rows.append(["bad runs", *[str(r.bad_runs) for r in runs]])
    return rows


def _pass(run: RunSummary, name: str) -> str:
    summary = run.metrics.get(name)
    return f"{summary.pass_at_1:.3f}" if summary and summary.pass_at_1 is not None else "-"


def _class_rows(runs: Sequence[RunSummary], metric: str) -> list[list[str]]:
    classes = sorted({c for r in runs for c in r.classes})
    rows = [["class", *[r.label for r in runs]]]
    for cls in classes:
        cells = []
        for r in runs:
            n, means = r.classes.get(cls, (0, {}))
            cells.append(f"{means[metric]:.3f} (n={n})" if metric in means else "-")
        rows.append([cls, *cells])
    return rows


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _scenario_rows(runs: Sequence[RunSummary], names: Sequence[str]) -> list[list[str]]:
    """One run: trials, errors and up to four metrics per scenario. Several: the headline
    metric per scenario, one column per run, with that run's errored trials."""
    if len(runs) == 1:
        shown = names[:4]
        rows = [["scenario", "class", "trials", "errors", *shown]]
        for s in runs[0].scenarios:
            cells = [s.scenario, s.scenario_class, str(s.trials), str(s.errors)]
            rows.append(cells + [_fmt(s.means.get(m)) for m in shown])
        return rows
    headline = names[0] if names else None
    by_run = [{s.scenario: s for s in r.scenarios} for r in runs]
    scenarios = sorted({s for rows in by_run for s in rows}, key=natural_key)
    rows = [["scenario", "class", *[r.label for r in runs]]]
    for scenario in scenarios:
        found = [rows_of[scenario] for rows_of in by_run if scenario in rows_of]
        cells = [scenario, found[0].scenario_class]
        for rows_of in by_run:
            row = rows_of.get(scenario)
            if row is None:
                cells.append("-")
                continue
            cell = _fmt(row.means.get(headline) if headline else None)
            cells.append(cell + (f" ({row.errors} err)" if row.errors else ""))
        rows.append(cells)
    return rows


def render_table(runs: Sequence[RunSummary]) -> str:
    """Per scenario, per class (headline metric), then overall: the last lines are the verdict."""
    names = metric_names(runs)
    title = f"per scenario ({names[0]}):" if len(runs) > 1 and names else "per scenario:"
    parts = [title + "\n" + _grid(_scenario_rows(runs, names))]
    if names:
        parts.append(f"per class ({names[0]}):\n" + _grid(_class_rows(runs, names[0])))
    parts.append("overall:\n" + _grid(_overall_rows(runs)))
    return "\n\n".join(parts) + "\n"


def _md(rows: list[list[str]]) -> str:
    def esc(cell: str) -> str:
        return cell.replace("|", "\\|")

    lines = ["| " + " | ".join(esc(c) for c in rows[0]) + " |", "|" + "---|" * len(rows[0])]
    lines += ["| " + " | ".join(esc(c) for c in r) + " |" for r in rows[1:]]
    return "\n".join(lines)


def render_markdown(runs: Sequence[RunSummary]) -> str:
    out = ["# itbench report", "", "## Overall", "", _md(_overall_rows(runs))]
    names = metric_names(runs)
    if names:
        out += ["", f"## Per class: {names[0]}", "", _md(_class_rows(runs, names[0]))]
    out += ["", "## Runs", ""]
    for r in runs:
        out.append(
            f"- **{r.label}**: domain {r.domain or '-'}, agent {r.agent or '-'}, model {r.model or '-'} ({r.source})"
        )
    return "\n".join(out) + "\n"
