"""Plain-text renderings: the terminal table and Markdown."""

from __future__ import annotations

from collections.abc import Sequence

from itbench.report.model import RunSummary, fmt_mean, metric_names


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


def render_table(runs: Sequence[RunSummary]) -> str:
    parts = [_grid(_overall_rows(runs))]
    names = metric_names(runs)
    if names:
        parts.append(f"per class ({names[0]}):\n" + _grid(_class_rows(runs, names[0])))
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
