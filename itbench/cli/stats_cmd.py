"""``itbench stats FILE``: recompute the statistics of an ITBench results document."""

from __future__ import annotations

import json
from pathlib import Path

import click

from itbench.exitcodes import ExitCode


@click.command()
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False))
def stats(file: Path) -> int:
    """Recompute `statistics` from `raw_results` and print the whole document as JSON.

    FILE is a results document or an AgentBeats file wrapping them under
    results[].evaluation_results; the output keeps the input's shape. The file is only read.
    """
    from itbench.scoring.results import load_results_file, recompute

    loaded = load_results_file(file)
    documents = [recompute(doc, file) for doc in loaded.documents]
    click.echo(json.dumps(loaded.with_documents(documents), indent=2))
    return ExitCode.OK
