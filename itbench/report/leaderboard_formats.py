"""The leaderboard as a console table, Markdown, JSON and CSV."""

from __future__ import annotations

import csv
import io
from typing import Any

import orjson

from itbench.report.leaderboard import Leaderboard, LeaderRow

#: shown in the usage columns of a run that reported no usage (a baseline calls no model)
NO_LLM = "0 (no LLM)"

_HEAD = (
    "rank",
    "run",
    "scenarios",
    "trials",
    "primary",
    "pass@1 [95% Wilson]",
    "pass@k",
    "$/task",
    "$/success",
    "judge $/task",
    "tokens/task",
    "turns/task",
    "tool calls/task",
    "wall s/task",
    "bad runs",
)


def _cells(rank: int | str, row: LeaderRow) -> list[str]:
    low, high = row.interval
    usage = row.has_usage
    per_success = (
        "-" if row.cost_per_success is None else f"{row.cost_per_success:.4f}"
    )  # no success: no cost per success to speak of
    primary = "-" if row.primary_value is None else f"{row.primary_value:.3f}"
    if row.primary_metric and row.scenario_class == "all":
        primary += f" ({row.primary_metric})"
    return [
        str(rank),
        row.run if row.scenario_class == "all" else f"{row.run} [{row.scenario_class}]",
        str(row.scenarios),
        str(row.trials),
        primary,
        f"{row.pass_at_1:.3f} [{low:.3f}, {high:.3f}]",
        " ".join(f"@{k}={v:.3f}" for k, v in row.pass_at_k.items()) or "-",
        f"{row.cost_per_task:.4f}" if usage else NO_LLM,
        per_success if usage else NO_LLM,
        f"{row.judge_cost_per_task:.4f}" if row.has_judge else "0 (no judge)",
        f"{row.tokens_per_task:.0f}" if usage else NO_LLM,
        f"{row.turns_per_task:.1f}" if usage else NO_LLM,
        f"{row.tool_calls_per_task:.1f}" if usage else NO_LLM,
        f"{row.wall_s_per_task:.1f}",
        str(row.bad_runs),
    ]


def _tables(board: Leaderboard) -> list[tuple[str, list[list[str]]]]:
    out = []
    for domain, rows in board.overall.items():
        out.append((f"{domain}: leaderboard", [_cells(i + 1, r) for i, r in enumerate(rows)]))
        out.append((f"{domain}: by class", [_cells("-", r) for r in board.by_class[domain]]))
    return out


def _reliability_lines(board: Leaderboard) -> list[str]:
    lines = []
    for domain, scenarios in board.reliability.items():
        flaky = [s for s in scenarios if s.flaky_runs]
        none = [s.scenario for s in scenarios if s.solved_by_none]
        every = [s.scenario for s in scenarios if s.solved_by_all]
        lines.append(f"{domain}: reliability over {len(scenarios)} scenario(s)")
        lines.append(
            f"  flaky (pass and fail across trials of one run): {len(flaky)}"
            + "".join(f"\n    {s.scenario}: {', '.join(s.flaky_runs)}" for s in flaky)
        )
        lines.append(f"  solved by no run: {len(none)}" + (f" ({', '.join(none)})" if none else ""))
        lines.append(
            f"  solved by every run, every trial (no discrimination): {len(every)}"
            + (f" ({', '.join(every)})" if every else "")
        )
    return lines


def render_table(board: Leaderboard) -> str:
    parts = []
    for title, body in _tables(board):
        widths = [max(len(h), *(len(r[i]) for r in body)) for i, h in enumerate(_HEAD)]
        lines = [title, "  ".join(h.ljust(w) for h, w in zip(_HEAD, widths, strict=True))]
        lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in body]
        parts.append("\n".join(line.rstrip() for line in lines))
    parts.append("\n".join(_reliability_lines(board)))
    return "\n\n".join(parts) + "\n"


def render_markdown(board: Leaderboard) -> str:
    parts = []
    for title, body in _tables(board):
        lines = [f"## {title}", "", "| " + " | ".join(_HEAD) + " |"]
        lines.append("|" + "---|" * len(_HEAD))
        lines += ["| " + " | ".join(c.replace("|", "\\|") for c in r) + " |" for r in body]
        parts.append("\n".join(lines))
    parts.append("## Reliability\n\n```\n" + "\n".join(_reliability_lines(board)) + "\n```")
    parts.append(
        "pass@1 interval: 95% Wilson score interval over scenarios; pass@k: unbiased estimator "
        "(Chen et al. 2021); a bad run (errored trial) counts as a failure."
    )
    return "\n\n".join(parts) + "\n"


def _row_json(row: LeaderRow) -> dict[str, Any]:
    return {
        "run": row.run,
        "agent": row.agent,
        "model": row.model,
        "class": row.scenario_class,
        "scenarios": row.scenarios,
        "trials": row.trials,
        "primary_metric": row.primary_metric,
        "primary": row.primary_value,
        "pass@1": row.pass_at_1,
        "pass@1_interval95_wilson": list(row.interval),
        "pass@k": {str(k): v for k, v in row.pass_at_k.items()},
        "usage_reported": row.has_usage,
        "cost_usd_per_task": row.cost_per_task,
        "cost_usd_per_success": row.cost_per_success,
        "judge_reported": row.has_judge,
        "judge_cost_usd_per_task": row.judge_cost_per_task,
        "tokens_per_task": row.tokens_per_task,
        "turns_per_task": row.turns_per_task,
        "tool_calls_per_task": row.tool_calls_per_task,
        "wall_s_per_task": row.wall_s_per_task,
        "bad_runs": row.bad_runs,
    }


def to_jsonable(board: Leaderboard) -> dict[str, Any]:
    domains = {}
    for domain, rows in board.overall.items():
        scenarios = board.reliability[domain]
        domains[domain] = {
            "leaderboard": [_row_json(r) for r in rows],
            "by_class": [_row_json(r) for r in board.by_class[domain]],
            "reliability": {
                "scenarios": [
                    {
                        "scenario": s.scenario,
                        "class": s.scenario_class,
                        "per_run": {
                            name: {"trials": n, "passes": c, "pass_rate": c / n if n else 0.0}
                            for name, (n, c) in s.per_run.items()
                        },
                        "flaky_in": list(s.flaky_runs),
                    }
                    for s in scenarios
                ],
                "flaky": [s.scenario for s in scenarios if s.flaky_runs],
                "solved_by_none": [s.scenario for s in scenarios if s.solved_by_none],
                "solved_by_all": [s.scenario for s in scenarios if s.solved_by_all],
            },
        }
    return {
        "interval": "95% Wilson score interval of pass@1 over scenarios",
        "min_trials": board.min_trials,
        "domains": domains,
    }


def render_json(board: Leaderboard) -> str:
    return orjson.dumps(to_jsonable(board), option=orjson.OPT_INDENT_2).decode() + "\n"


def render_csv(board: Leaderboard) -> str:
    """One line per row (overall and per class) of every domain."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    header = ["domain", *_row_json(next(iter(board.overall.values()))[0]).keys()]
    writer.writerow(header)
    for domain, rows in board.overall.items():
        for row in (*rows, *board.by_class[domain]):
            data = _row_json(row)
            data["pass@1_interval95_wilson"] = "{:.6f};{:.6f}".format(*row.interval)
            data["pass@k"] = ";".join(f"{k}:{v:.6f}" for k, v in row.pass_at_k.items())
            writer.writerow([domain, *("" if v is None else v for v in data.values())])
    return buffer.getvalue()
