"""``itbench report``: one or more results documents side by side, in five formats."""

from __future__ import annotations

from pathlib import Path

import click

from itbench.exitcodes import ExitCode
from itbench.fsutil import atomic_write_text

FORMATS = ("table", "json", "markdown", "junit", "html")


@click.command()
@click.argument(
    "results", nargs=-1, required=True, type=click.Path(path_type=Path, exists=True, dir_okay=False)
)
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

    if fmt == "table" and len(results) == 1:
        own = _domain_table(results[0])
        if own is not None:  # one run of a domain with its own table: the table `run` printed
            return _write(own + "\n", output)
    runs = load_runs(list(results))
    renderers = {
        "table": render_table,
        "json": render_json,
        "markdown": render_markdown,
        "junit": render_junit,
        "html": render_html,
    }
    return _write(renderers[fmt](runs), output)


def _domain_table(path: Path) -> str | None:
    """The run's own domain table (``Domain.render_table``) for a file holding one run, else None."""
    from itbench.plugins.domains import load_domain
    from itbench.plugins.finder import DOMAIN_GROUP, PluginLoadError, discover
    from itbench.scoring.results import load_results_file

    loaded = load_results_file(path)
    if len(loaded.documents) != 1:
        return None
    document = loaded.documents[0]
    name = document.config.domain if document.config is not None else None
    record = next((r for r in discover(DOMAIN_GROUP) if r.name == name), None)
    if record is None:
        return None
    try:
        domain = load_domain(record).domain
    except PluginLoadError:
        return None
    return domain.render_table(document) if domain.render_table is not None else None


def _write(text: str, output: Path | None) -> int:
    if output is not None:
        atomic_write_text(output, text)
        click.echo(f"wrote {output}", err=True)
    else:
        click.echo(text, nl=False)
    return ExitCode.OK
