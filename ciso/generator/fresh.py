"""``itbench ciso run --fresh SEED``: generate instances into the run's directory and run them.

The instances land in ``<run dir>/fresh-<tag>/`` (the seed in ``SEED`` beside them): each
scenario's folder is its ``source_dir``, hidden from the agent with its ``solution/``; ids carry the
tag, never the seed, so a rerun with the same seed resumes and another seed never does.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click

from itbench.errors import UsageError


def fresh_option() -> click.Option:
    return click.Option(
        ["--fresh", "fresh_seed"],
        default=None,
        metavar="SEED",
        help="Generate a fresh instance of every control the generator knows (integer seed) "
        "into the run directory and run those instead of the built-in suite.",
    )


def generate_fresh(options: Mapping[str, Any], run_directory: Path | None) -> Path | None:
    """The folder of the run's fresh instances, generated now (``--fresh``); None without
    ``--fresh``. The run's session keeps it (:func:`fresh_selection`)."""
    seed_text = options.get("fresh_seed")
    if seed_text is None:
        return None
    from ciso.generator import generate, instance_tag, parse_seed

    seed = parse_seed(str(seed_text))
    if run_directory is None:
        raise UsageError(
            "--fresh: only `itbench ciso run` generates instances (it needs a run directory)"
        )
    folder = run_directory / f"fresh-{instance_tag(seed)}"
    written = generate(seed, folder)
    print(
        f"ciso: fresh instances of seed {seed} ({len(written)} controls, tag "
        f"{instance_tag(seed)}) in {folder}; rerun them with --fresh {seed}",
        file=sys.stderr,
    )
    return folder


def fresh_selection(selection: str | None, fresh: Path | None) -> str | None:
    """The scenario selection to load: the fresh folder (``fresh``) under ``--fresh``."""
    if fresh is None:
        return selection
    if selection is not None:
        raise UsageError(
            "--fresh and --scenarios exclude each other: --fresh runs generated "
            "instances of every control"
        )
    return str(fresh)
