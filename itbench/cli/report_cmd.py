"""``itbench report``: one or more results documents side by side, in five formats."""

from __future__ import annotations

from pathlib import Path

import click

from itbench.exitcodes import ExitCode
from itbench.fsutil import atomic_write_text

FORMATS = ("table", "json", "markdown", "junit", "html")


@click.command()
@click.argument("results", nargs=-1, required=True, type=click.Path(path_type=Path, dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True)
@click.option(
    "--output",
    "output",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Write the document here instead of stdout.",
)
def report(results: tuple[Path, ...], fmt: str, output: Path | None) -> int:
    """Render RESULTS.json files (ITBench results documents, AgentBeats files too).

    Per-metric means with stderr, pass@1, a per-class breakdown and bad runs, one column per run.
    html is a single self-contained file with bar charts; junit has one testcase per trial.
    """
    from itbench.report.html_format import render_html
    from itbench.report.json_format import render_json
    from itbench.report.junit import render_junit
    from itbench.report.model import load_runs
    from itbench.report.text_formats import render_markdown, render_table

    runs = load_runs(list(results))
    renderers = {
        "table": render_table,
        "json": render_json,
        "markdown": render_markdown,
        "junit": render_junit,
        "html": render_html,
    }
    text = renderers[fmt](runs)
    if output is not None:
        atomic_write_text(output, text)
        click.echo(f"wrote {output}", err=True)
    else:
        click.echo(text, nl=False)
    return ExitCode.OK
