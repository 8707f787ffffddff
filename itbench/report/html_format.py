"""A single self-contained HTML file: inline CSS and SVG bar charts, no script, no network.

Every chart compares the runs on one metric (bars = means, whiskers = stderr); all values are in
[0, 1] for ITBench metrics, and the axis stretches when one is not. All text is escaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from itbench.report.model import RunSummary, fmt_mean, metric_names

PALETTE = ("#2f6fdf", "#e0783a", "#2a9d6f", "#b94fb8", "#c9a227", "#5b6b7f", "#d64550", "#3fb0c9")
CHART_W, CHART_H, PAD_L, PAD_B, PAD_T = 360, 240, 52, 40, 36
#: Characters of a run label drawn under its bar (the legend and the tables have it whole).
LABEL_CHARS = 14

CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:24px;color:#1d2430;background:#fff}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 10px}h3{font-size:14px;margin:16px 0 6px}
.meta{color:#5b6b7f;font-size:13px}
table{border-collapse:collapse;font-size:13px;margin:6px 0}
th,td{border:1px solid #d5dbe3;padding:4px 8px;text-align:right}th:first-child,td:first-child{text-align:left}
th{background:#eef2f7}
.charts{display:flex;flex-wrap:wrap;gap:16px}
.chart{border:1px solid #d5dbe3;border-radius:6px;padding:8px;background:#fafbfd}
.legend span{display:inline-block;margin-right:14px;font-size:13px}
.legend i{display:inline-block;width:12px;height:12px;margin-right:4px;vertical-align:-1px}
"""


def _chart(metric: str, runs: Sequence[RunSummary]) -> str:
    values = [(r.metrics.get(metric), PALETTE[i % len(PALETTE)]) for i, r in enumerate(runs)]
    top = max([1.0] + [m.mean + (m.stderr or 0) for m, _ in values if m is not None])
    plot_w, plot_h = CHART_W - PAD_L - 10, CHART_H - PAD_B - PAD_T
    slot = plot_w / max(1, len(runs))
    bar_w = max(8.0, slot * 0.6)

    def y(v: float) -> float:
        return PAD_T + plot_h * (1 - v / top)

    parts = [
        f'<svg class="bar-chart" data-metric="{escape(metric)}" width="{CHART_W}" height="{CHART_H}" '
        f'viewBox="0 0 {CHART_W} {CHART_H}" xmlns="http://www.w3.org/2000/svg" role="img">',
        f'<text x="{CHART_W / 2}" y="15" text-anchor="middle" font-size="13" font-weight="600">{escape(metric)}</text>',
        f'<line x1="{PAD_L}" y1="{PAD_T + plot_h}" x2="{CHART_W - 10}" y2="{PAD_T + plot_h}" stroke="#8a94a3"/>',
    ]
    for tick in (0.0, 0.5, 1.0):
        v = tick * top
        parts.append(
            f'<text x="{PAD_L - 4}" y="{y(v) + 4:.1f}" text-anchor="end" font-size="10">{v:.2g}</text>'
        )
        parts.append(
            f'<line x1="{PAD_L}" y1="{y(v):.1f}" x2="{CHART_W - 10}" y2="{y(v):.1f}" stroke="#e3e7ee"/>'
        )
    for i, (summary, color) in enumerate(values):
        if summary is None:
            continue
        x = PAD_L + i * slot + (slot - bar_w) / 2
        height = plot_h * summary.mean / top
        parts.append(
            f'<rect class="bar" data-value="{summary.mean:.6f}" x="{x:.1f}" y="{y(summary.mean):.1f}" '
            f'width="{bar_w:.1f}" height="{height:.1f}" fill="{color}"><title>{escape(runs[i].label)}: '
            f"{escape(fmt_mean(summary))}</title></rect>"
        )
        if summary.stderr:
            cx = x + bar_w / 2
            lo, hi = y(max(0.0, summary.mean - summary.stderr)), y(summary.mean + summary.stderr)
            parts.append(
                f'<line class="whisker" x1="{cx:.1f}" y1="{lo:.1f}" x2="{cx:.1f}" y2="{hi:.1f}" stroke="#1d2430"/>'
            )
        # the value sits above the whisker's top, so the two never overlap
        above = y(summary.mean + (summary.stderr or 0.0))
        parts.append(
            f'<text class="value" x="{x + bar_w / 2:.1f}" y="{above - 4:.1f}" text-anchor="middle" font-size="10">{summary.mean:.2f}</text>'
        )
    for i, run in enumerate(runs):
        label = run.label if len(run.label) <= LABEL_CHARS else run.label[: LABEL_CHARS - 1] + "…"
        parts.append(
            f'<text class="x-label" x="{PAD_L + (i + 0.5) * slot:.1f}" y="{PAD_T + plot_h + 14:.1f}" '
            f'text-anchor="middle" font-size="10">{escape(label)}<title>{escape(run.label)}</title></text>'
        )
    mid = PAD_T + plot_h / 2
    parts.append(
        f'<text class="y-label" x="12" y="{mid:.1f}" transform="rotate(-90 12 {mid:.1f})" '
        f'text-anchor="middle" font-size="10">mean ± stderr</text>'
    )
    parts.append(
        f'<text class="x-title" x="{PAD_L + plot_w / 2:.1f}" y="{CHART_H - 6}" text-anchor="middle" '
        f'font-size="10">run</text>'
    )
    parts.append("</svg>")
    return "".join(parts)


def _table(header: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def render_html(runs: Sequence[RunSummary], title: str = "itbench report") -> str:
    names = metric_names(runs)
    legend = "".join(
        f'<span><i style="background:{PALETTE[i % len(PALETTE)]}"></i>{escape(r.label)}</span>'
        for i, r in enumerate(runs)
    )
    charts = "".join(f'<div class="chart">{_chart(m, runs)}</div>' for m in names)
    overall = _table(
        ["metric", *[r.label for r in runs]],
        [[m, *[fmt_mean(r.metrics.get(m)) for r in runs]] for m in names],
    )
    pass_rows = [
        [
            m,
            *[
                f"{r.metrics[m].pass_at_1:.3f}"
                if m in r.metrics and r.metrics[m].pass_at_1 is not None
                else "-"
                for r in runs
            ],
        ]
        for m in names
        if any(m in r.metrics and r.metrics[m].pass_at_1 is not None for r in runs)
    ]
    classes = sorted({c for r in runs for c in r.classes})
    class_sections = []
    for m in names:  # every metric, as the overall table has
        rows = []
        for cls in classes:
            cells = []
            for r in runs:
                n, means = r.classes.get(cls, (0, {}))
                cells.append(f"{means[m]:.3f} (n={n})" if m in means else "-")
            rows.append([cls, *cells])
        class_sections.append(
            f"<h3>{escape(m)}</h3>" + _table(["class", *[r.label for r in runs]], rows)
        )
    runs_rows = [
        [
            r.label,
            r.domain or "-",
            r.agent or "-",
            r.model or "-",
            str(len(r.trials)),
            str(r.bad_runs),
            r.source,
        ]
        for r in runs
    ]
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{CSS}</style></head><body>"
        f'<h1>{escape(title)}</h1><p class="meta">{len(runs)} run(s), {len(names)} metric(s)</p>'
        f'<div class="legend">{legend}</div>'
        f'<h2>Metrics</h2><div class="charts">{charts}</div>'
        f"<h2>Overall (mean ± stderr over scenarios)</h2>{overall}"
        + (
            f"<h2>pass@1</h2>{_table(['metric', *[r.label for r in runs]], pass_rows)}"
            if pass_rows
            else ""
        )
        + f"<h2>Per class</h2>{''.join(class_sections)}"
        + f"<h2>Runs</h2>{_table(['run', 'domain', 'agent', 'model', 'trials', 'bad runs', 'source'], runs_rows)}"
        + "</body></html>\n"
    )
