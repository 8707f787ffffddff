"""``itbench stats FILE``: recompute the statistics of an ITBench results document."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from itbench.exitcodes import ExitCode


@click.command()
@click.argument("file", type=click.Path(path_type=Path, exists=True, dir_okay=False))
def stats(file: Path) -> int:
    """Recompute `statistics` from `raw_results` and print the whole document as JSON.

    FILE is a results document or an AgentBeats file wrapping them under
    results[].evaluation_results; the output keeps the input's shape. The file is only read.
    """
    import gc

    from itbench.scoring.results import dumps_document, load_results_file

    # Building 100,000 small dicts triggers the cyclic collector over and over for nothing: this
    # short-lived command creates no cycles worth collecting.
    gc.disable()

    loaded = load_results_file(file)  # reading recomputes every document's statistics
    out = sys.stdout.buffer  # click.get_binary_stream is deprecated (Click 9 drops it)
    out.write(dumps_document(loaded.to_jsonable()))
    out.flush()
    return ExitCode.OK
