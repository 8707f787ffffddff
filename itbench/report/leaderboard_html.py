"""The leaderboard as one self-contained HTML page: inline CSS and SVG, no script, no network.

Per domain: the ranked table, an accuracy-versus-cost scatter with the Pareto frontier (and the
published reference points given with ``--reference``), per-class bars with their 95% Wilson
whiskers, and a heat map of pass rates (runs x scenarios). Labels that could collide are placed
by :func:`_place_labels`, which moves a label down until its box meets no other. All text is
escaped.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path

from itbench.errors import InputError
from itbench.report.html_format import CSS, PALETTE
from itbench.report.leaderboard import Leaderboard, LeaderRow, ScenarioReliability
from itbench.report.leaderboard_formats import _HEAD, _cells

#: width of one character of the 11 px labels, generous so estimated boxes cover drawn ones
_CHAR_W = 6.8
_LABEL_H = 13.0


@dataclass(frozen=True)
class ReferencePoint:
    """A published result drawn beside the runs (hollow diamond)."""

    label: str
    domain: str
    score: float
    cost_usd_per_task: float | None
    source: str = ""


def read_references(path: Path) -> tuple[ReferencePoint, ...]:
    """``[{"label", "domain", "score" (0-1), "cost_usd_per_task" (or null), "source"}, ...]``."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"{path}: not a readable JSON file ({exc})") from None
    if not isinstance(data, list):
        raise InputError(f"{path}: expected a list of reference points")
    points = []
    for i, item in enumerate(data):
        where = f"{path}: [{i}]"
        if not isinstance(item, dict):
            raise InputError(f"{where} is not an object")
        for key in ("label", "domain"):
            if not isinstance(item.get(key), str):
                raise InputError(f"{where}.{key} is missing or not a string")
        score = item.get("score")
        if isinstance(score, bool) or not isinstance(score, int | float) or not 0 <= score <= 1:
            raise InputError(f"{where}.score must be a number in [0, 1], got {score!r}")
        cost = item.get("cost_usd_per_task")
        if cost is not None and (
            isinstance(cost, bool) or not isinstance(cost, int | float) or cost < 0
        ):
            raise InputError(f"{where}.cost_usd_per_task must be a non-negative number or null")
        points.append(
            ReferencePoint(
                item["label"], item["domain"], float(score), cost, str(item.get("source", ""))
            )
        )
    return tuple(points)


def _place_labels(
    anchors: Sequence[tuple[float, float, str]], bottom: float
) -> list[tuple[float, float]]:
    """Label positions (x, baseline y) right of each anchor, moved down (then up) until no two
    estimated boxes overlap."""
    placed: list[tuple[float, float, float, float]] = []
    out = []
    for x, y, text in anchors:
        width = len(text) * _CHAR_W
        left = x + 7
        candidates = [y + 4 + step * _LABEL_H for step in range(0, 40)]
        candidates += [y + 4 - step * _LABEL_H for step in range(1, 40)]
        for baseline in candidates:
            box = (left, baseline - _LABEL_H + 2, left + width, baseline + 2)
            if box[3] > bottom or box[1] < 0:
                continue
            if not any(_overlap(box, other) for other in placed):
                break
        placed.append(box)
        out.append((left, baseline))
    return out


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _pareto(points: Sequence[tuple[float, float]]) -> list[int]:
    """Indices of points no other beats on both cost (lower) and score (higher), by cost."""
    order = sorted(range(len(points)), key=lambda i: (points[i][0], -points[i][1]))
    frontier, best = [], -1.0
    for i in order:
        if points[i][1] > best:
            frontier.append(i)
            best = points[i][1]
    return frontier


def _scatter(domain: str, rows: Sequence[LeaderRow], refs: Sequence[ReferencePoint]) -> str:
    width, height, left, bottom_pad, top = 760, 380, 60, 46, 30
    plot_w, plot_h = 440, height - bottom_pad - top
    points = [(r.cost_per_task, _score(r)) for r in rows]
    ref_points = [(p.cost_usd_per_task or 0.0, p.score) for p in refs]
    top_cost = max([c for c, _ in points + ref_points] + [0.0]) * 1.1 or 1.0

    def sx(cost: float) -> float:
        return left + plot_w * cost / top_cost

    def sy(score: float) -> float:
        return top + plot_h * (1 - score)

    metric = rows[0].primary_metric or "pass@1"
    parts = [
        f'<svg class="scatter" data-domain="{escape(domain)}" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg" role="img">',
        f'<text class="axis-label" x="{left + plot_w / 2}" y="{height - 6}" text-anchor="middle" '
        f'font-size="12">cost per task (USD)</text>',
        f'<text class="axis-label" x="14" y="{top + plot_h / 2}" text-anchor="middle" font-size="12" '
        f'transform="rotate(-90 14 {top + plot_h / 2})">{escape(metric)} (primary)</text>',
        f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" stroke="#8a94a3"/>',
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}" stroke="#8a94a3"/>',
    ]
    for tick in (0.0, 0.5, 1.0):
        parts.append(
            f'<text class="tick" x="{left - 6}" y="{sy(tick) + 4:.1f}" text-anchor="end" '
            f'font-size="10">{tick:.1f}</text>'
        )
        cost = tick * top_cost
        parts.append(
            f'<text class="tick" x="{sx(cost):.1f}" y="{top + plot_h + 14}" text-anchor="middle" '
            f'font-size="10">{cost:.3g}</text>'
        )
    frontier = _pareto(points)
    if len(frontier) > 1:
        path = " ".join(f"{sx(points[i][0]):.1f},{sy(points[i][1]):.1f}" for i in frontier)
        parts.append(
            f'<polyline class="pareto" points="{path}" fill="none" stroke="#2a9d6f" '
            f'stroke-dasharray="5 3" stroke-width="1.5"/>'
        )
    anchors = []
    for i, (row, (cost, score)) in enumerate(zip(rows, points, strict=True)):
        color = PALETTE[i % len(PALETTE)]
        x, y = sx(cost), sy(score)
        on = " on-frontier" if i in frontier else ""
        parts.append(
            f'<circle class="run-point{on}" data-run="{escape(row.run)}" cx="{x:.1f}" cy="{y:.1f}" '
            f'r="5" fill="{color}"/>'
        )
        note = "" if row.has_usage else " (no LLM)"
        anchors.append((x, y, row.run + note))
    for ref, (cost, score) in zip(refs, ref_points, strict=True):
        x, y = sx(cost), sy(score)
        parts.append(
            f'<path class="reference-point" data-label="{escape(ref.label)}" '
            f'd="M{x:.1f},{y - 6:.1f} L{x + 6:.1f},{y:.1f} L{x:.1f},{y + 6:.1f} L{x - 6:.1f},{y:.1f} Z" '
            f'fill="none" stroke="#5b6b7f" stroke-width="1.5"/>'
        )
        anchors.append((x, y, f"paper: {ref.label}"))
    for (x, y, text), (lx, ly) in zip(
        anchors, _place_labels(anchors, top + plot_h + 30), strict=True
    ):
        parts.append(
            f'<line x1="{x:.1f}" y1="{y:.1f}" x2="{lx - 1:.1f}" y2="{ly - 4:.1f}" stroke="#c2c9d3"/>'
        )
        parts.append(
            f'<text class="point-label" x="{lx:.1f}" y="{ly:.1f}" font-size="11">{escape(text)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _score(row: LeaderRow) -> float:
    value = row.primary_value if row.primary_value is not None else row.pass_at_1
    return min(1.0, max(0.0, value))


def _class_bars(domain: str, rows: Sequence[LeaderRow], runs: Sequence[str]) -> str:
    classes = list(dict.fromkeys(r.scenario_class for r in rows))
    colour = {run: PALETTE[i % len(PALETTE)] for i, run in enumerate(runs)}
    group_w = max(60.0, 18.0 * len(runs) + 20)
    left, top, plot_h = 50, 20, 200
    width = int(left + group_w * len(classes) + 20)
    height = top + plot_h + 60
    parts = [
        f'<svg class="class-bars" data-domain="{escape(domain)}" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg" role="img">',
        f'<text class="axis-label" x="12" y="{top + plot_h / 2}" text-anchor="middle" font-size="12" '
        f'transform="rotate(-90 12 {top + plot_h / 2})">pass@1 (95% Wilson)</text>',
        f'<line x1="{left}" y1="{top + plot_h}" x2="{width - 10}" y2="{top + plot_h}" stroke="#8a94a3"/>',
    ]
    for tick in (0.0, 0.5, 1.0):
        y = top + plot_h * (1 - tick)
        parts.append(
            f'<text class="tick" x="{left - 4}" y="{y + 4:.1f}" text-anchor="end" font-size="10">'
            f"{tick:.1f}</text>"
        )
    bar_w = 14.0
    for g, cls in enumerate(classes):
        x0 = left + g * group_w + 10
        members = [r for r in rows if r.scenario_class == cls]
        for row in members:
            j = runs.index(row.run)
            x = x0 + j * (bar_w + 4)
            y = top + plot_h * (1 - row.pass_at_1)
            low, high = row.interval
            parts.append(
                f'<rect class="bar" data-run="{escape(row.run)}" data-class="{escape(cls)}" '
                f'x="{x:.1f}" y="{y:.1f}" width="{bar_w}" height="{top + plot_h - y:.1f}" '
                f'fill="{colour[row.run]}"/>'
            )
            cx = x + bar_w / 2
            y_low, y_high = top + plot_h * (1 - low), top + plot_h * (1 - high)
            parts.append(
                f'<path class="whisker" d="M{cx:.1f},{y_low:.1f} V{y_high:.1f} M{cx - 4:.1f},'
                f'{y_low:.1f} H{cx + 4:.1f} M{cx - 4:.1f},{y_high:.1f} H{cx + 4:.1f}" stroke="#1d2430"/>'
            )
        label = (
            cls
            if len(cls) * _CHAR_W <= group_w - 4
            else cls[: int((group_w - 4) / _CHAR_W) - 1] + "…"
        )
        parts.append(
            f'<text class="class-label" x="{x0 + (group_w - 20) / 2:.1f}" y="{top + plot_h + 16}" '
            f'text-anchor="middle" font-size="11">{escape(label)}</text>'
        )
    parts.append(
        f'<text class="axis-label" x="{width / 2}" y="{height - 8}" text-anchor="middle" '
        f'font-size="12">scenario class</text>'
    )
    parts.append("</svg>")
    legend = "".join(
        f'<span><i style="background:{c}"></i>{escape(run)}</span>' for run, c in colour.items()
    )
    return f'<div class="legend">{legend}</div>' + "".join(parts)


def _heat_map(domain: str, scenarios: Sequence[ScenarioReliability], runs: Sequence[str]) -> str:
    cell, left, top = 12, max(80, int(max(len(r) for r in runs) * _CHAR_W) + 10), 20
    label_h = int(max(len(s.scenario) for s in scenarios) * 5.6) + 10
    width = left + cell * len(scenarios) + 20
    height = top + cell * len(runs) + label_h + 24
    parts = [
        f'<svg class="heat-map" data-domain="{escape(domain)}" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg" role="img">',
        f'<text class="axis-label" x="{left}" y="12" font-size="12">pass rate per scenario '
        f"(white 0, dark 1; grey: not run)</text>",
    ]
    for i, run in enumerate(runs):
        y = top + i * cell
        parts.append(
            f'<text class="run-label" x="{left - 6}" y="{y + cell - 2}" text-anchor="end" '
            f'font-size="10">{escape(run)}</text>'
        )
        for j, scenario in enumerate(scenarios):
            pair = scenario.per_run.get(run)
            if pair is None:
                fill, title = "#c2c9d3", "not run"
            else:
                n, c = pair
                rate = c / n if n else 0.0
                shade = int(255 - 200 * rate)
                fill, title = f"rgb({shade},{shade},255)", f"{c}/{n}"
            parts.append(
                f'<rect class="cell" data-run="{escape(run)}" data-scenario="{escape(scenario.scenario)}" '
                f'x="{left + j * cell}" y="{y}" width="{cell - 1}" height="{cell - 1}" fill="{fill}">'
                f"<title>{escape(run)} {escape(scenario.scenario)}: {title}</title></rect>"
            )
    base = top + cell * len(runs) + 4
    for j, scenario in enumerate(scenarios):
        x = left + j * cell + cell - 3
        parts.append(
            f'<text class="scenario-label" x="{x}" y="{base}" font-size="9" text-anchor="end" '
            f'transform="rotate(-90 {x} {base})">{escape(scenario.scenario)}</text>'
        )
    parts.append(
        f'<text class="axis-label" x="{left}" y="{height - 6}" font-size="12">scenario</text>'
    )
    parts.append("</svg>")
    return "".join(parts)


def _table(board: Leaderboard, domain: str) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in _HEAD)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(c)}</td>" for c in _cells(i + 1, row)) + "</tr>"
        for i, row in enumerate(board.overall[domain])
    )
    return f"<table class='leaderboard'><tr>{head}</tr>{body}</table>"


def render_html(board: Leaderboard, references: Sequence[ReferencePoint] = ()) -> str:
    sections = []
    for domain, rows in board.overall.items():
        runs = [r.run for r in rows]
        refs = [p for p in references if p.domain == domain and p.cost_usd_per_task is not None]
        # a published score without a cost has no place on a cost axis: listed instead
        costless = [p for p in references if p.domain == domain and p.cost_usd_per_task is None]
        published = "".join(
            f"<tr><td>{escape(p.label)}</td><td>{p.score:.3f}</td><td>{escape(p.source)}</td></tr>"
            for p in costless
        )
        scenarios = board.reliability[domain]
        flaky = [s.scenario for s in scenarios if s.flaky_runs]
        sections.append(
            f"<h2>{escape(domain)}</h2>{_table(board, domain)}"
            f"<h3>Accuracy versus cost (dashed: Pareto frontier)</h3>"
            f"<div class='chart'>{_scatter(domain, rows, refs)}</div>"
            f"<h3>pass@1 per class</h3><div class='chart'>"
            f"{_class_bars(domain, board.by_class[domain], runs)}</div>"
            f"<h3>Pass rate per scenario</h3><div class='chart'>"
            f"{_heat_map(domain, scenarios, runs)}</div>"
            f"<p class='meta'>flaky: {escape(', '.join(flaky) or 'none')}</p>"
            + (
                "<h3>Published results without a cost</h3><table class='published'><tr><th>"
                f"result</th><th>score</th><th>source</th></tr>{published}</table>"
                if published
                else ""
            )
        )
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>Leaderboard</title>"
        f"<style>{CSS}</style></head><body><h1>Leaderboard</h1>"
        "<p class='meta'>pass@1 interval: 95% Wilson score interval over scenarios; a bad run "
        "counts as a failure; hollow diamonds are published results.</p>"
        + "".join(sections)
        + "</body></html>\n"
    )
