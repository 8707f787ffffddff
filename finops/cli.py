"""``itbench finops generate``: write ITBench-Lite scenarios, or plant anomalies in a FOCUS export."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from finops.generator import FAMILY_NAMES, generate_scenarios
from finops.generator.difficulty import DIFFICULTIES
from itbench.exitcodes import ExitCode


@click.command()
@click.option(
    "--n",
    "count",
    type=click.IntRange(min=1),
    default=10,
    show_default=True,
    help="How many scenarios.",
)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--out", "out_dir", type=click.Path(path_type=Path, file_okay=False), required=True)
@click.option(
    "--difficulty", type=click.Choice(list(DIFFICULTIES)), default="medium", show_default=True
)
@click.option(
    "--family",
    type=click.Choice(["classic", *FAMILY_NAMES]),
    default="classic",
    show_default=True,
    help="Scenario shape: classic (by --difficulty), service- or provider-wide causes, or "
    "normal billing life beside a cause (migration, month_end, weekend_free, scale_step, "
    "messy_export).",
)
@click.option(
    "--inject-into",
    type=click.Path(path_type=Path, exists=True, dir_okay=False),
    help="Plant anomalies into this FOCUS 1.0 export instead.",
)
@click.option(
    "--k",
    type=click.IntRange(min=1),
    default=3,
    show_default=True,
    help="Root causes planted per scenario with --inject-into.",
)
def generate(
    count: int,
    seed: int,
    out_dir: Path,
    difficulty: str,
    family: str,
    inject_into: Path | None,
    k: int,
) -> int:
    """Generate FinOps scenarios with ground truth (ITBench-Lite layout); prints their folders."""
    if inject_into is not None:
        # a CLI edge: pandas (~0.25 s) is loaded only for --inject-into
        from finops.generator.focus import inject_into_focus

        folders = inject_into_focus(inject_into, out_dir, k, seed, n=count)
    else:
        folders = generate_scenarios(out_dir, count, seed, difficulty, family=family)
    for folder in folders:
        click.echo(str(folder))
    print(f"wrote {len(folders)} scenario(s) under {out_dir}", file=sys.stderr)
    return ExitCode.OK
