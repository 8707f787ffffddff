"""``itbench leaderboard RUN_DIR...``: runs of several agents and models ranked, per domain."""

from __future__ import annotations

from pathlib import Path

import click

from itbench.exitcodes import ExitCode
from itbench.fsutil import atomic_write_text

FORMATS = ("table", "markdown", "json", "csv", "html")


@click.command()
@click.argument("runs", nargs=-1, required=True, type=click.Path(path_type=Path, exists=True))
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True)
@click.option(
    "--output",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Write the document here instead of stdout.",
)
@click.option(
    "--min-trials",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Refuse runs with fewer trials than this on any scenario (flakiness needs repeats).",
)
@click.option(
    "--reference",
    type=click.Path(path_type=Path, exists=True, dir_okay=False),
    help="Published results to draw as reference points in html (docs/leaderboard-references.json).",
)
def leaderboard(
    runs: tuple[Path, ...], fmt: str, output: Path | None, min_trials: int, reference: Path | None
) -> int:
    """Rank RUNS (run folders holding results.json, or results files) by primary metric.

    One row per agent/model per domain, and per scenario class: pass@1 with a 95% Wilson interval
    over scenarios, pass@k for every k the trials allow, $ per task and per success, tokens,
    turns, wall time and bad runs; then flaky scenarios and those no run or every run solves.
    Runs of different domains get one table each.
    """
    from itbench.report.leaderboard import build_leaderboard
    from itbench.report.leaderboard_formats import (
        render_csv,
        render_json,
        render_markdown,
        render_table,
    )
    from itbench.report.leaderboard_html import read_references, render_html

    board = build_leaderboard(list(runs), min_trials)
    references = read_references(reference) if reference is not None else ()
    renderers = {
        "html": lambda b: render_html(b, references),
        "table": render_table,
        "markdown": render_markdown,
        "json": render_json,
        "csv": render_csv,
    }
    text = renderers[fmt](board)
    if output is not None:
        atomic_write_text(output, text)
        click.echo(f"wrote {output}", err=True)
    else:
        click.echo(text, nl=False)
    return ExitCode.OK
