"""``itbench ciso generate --seed S [--controls ...] --out DIR``: fresh scenario instances."""

from __future__ import annotations

import sys
from pathlib import Path

import click


@click.command()
@click.option(
    "--seed", required=True, help="Integer seed: the same seed writes the same instances."
)
@click.option(
    "--controls",
    multiple=True,
    help="CIS ids to generate (comma-separated or repeated; default: every control the "
    "generator knows).",
)
@click.option(
    "--out",
    required=True,
    type=click.Path(path_type=Path, file_okay=False),
    help="Folder to write the scenarios into (run them with itbench ciso run --scenarios DIR).",
)
def generate(seed: str, controls: tuple[str, ...], out: Path) -> None:
    """Write a fresh instance of each control in the scenario.yaml layout (its solution/ holds
    the reference answers); one scenario directory per line on stdout."""
    from ciso.generator import generate as write
    from ciso.generator import instance_tag, not_generated, parse_seed

    number = parse_seed(seed)
    written = write(number, out, controls or None)
    missing = not_generated()
    print(
        f"ciso: generated {len(written)} instances with tag {instance_tag(number)} into {out}"
        + (
            f"; controls of the built-in suite not generated yet: {', '.join(missing)}"
            if missing
            else ""
        ),
        file=sys.stderr,
    )
    for item in written:
        print(item.directory)
