"""``itbench sre generate``: write generated incidents as ITBench-Lite v0.2 snapshots."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from itbench.exitcodes import ExitCode
from sre.generator.faults import FAULT_TYPES
from sre.generator.incident import SIZES
from sre.generator.snapshot import generate_incidents


@click.command()
@click.option(
    "--fault",
    "fault_type",
    type=click.Choice(sorted(FAULT_TYPES)),
    help="Fault type for every incident (default: cycle through all of them).",
)
@click.option(
    "--n", "count", type=click.IntRange(min=1), default=1, show_default=True, help="How many."
)
@click.option("--seed", type=int, required=True, help="Incident i uses seed + i - 1.")
@click.option(
    "--size",
    type=click.Choice(list(SIZES), case_sensitive=False),
    default="SMALL",
    show_default=True,
    help="SMALL: under 5 MB per incident; 1GB: about 1 GB of traces and logs (benchmarks).",
)
@click.option("--out", "out_dir", type=click.Path(path_type=Path, file_okay=False), required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@click.option(
    "--emit-manifests",
    "manifests_dir",
    type=click.Path(path_type=Path, file_okay=False),
    help="Also write each incident's fault as what a real cluster is given (DIR/<incident>/: "
    "baseline.yaml, inject.yaml, patch-*.json, injection.json), as live mode injects it.",
)
def generate(
    fault_type: str | None,
    count: int,
    seed: int,
    size: str,
    out_dir: Path,
    fmt: str,
    manifests_dir: Path | None,
) -> int:
    """Generate SRE incidents (OpenTelemetry demo) with ground truth; prints their folders.

    These are synthetic incidents, not the real ITBench-Lite snapshots.
    """
    written = generate_incidents(out_dir, seed, count, fault_type, size.upper())
    if fmt == "json":
        doc = [
            {
                "path": str(w.path),
                "fault_type": w.fault_type,
                "target": w.target,
                "seed": w.seed,
                "fault_time": w.fault_time.isoformat(),
                "bytes": w.bytes,
            }
            for w in written
        ]
        click.echo(json.dumps(doc, indent=2))
    else:
        for w in written:
            click.echo(str(w.path))
    if manifests_dir is not None:
        _emit_manifests(written, manifests_dir)
    for w in written:
        print(
            f"{w.path.name}: {w.fault_type} on {w.target}, fault at {w.fault_time:%H:%M:%S}, "
            f"{w.bytes / 1e6:.1f} MB in {w.seconds:.1f} s",
            file=sys.stderr,
        )
    return ExitCode.OK


def _emit_manifests(written: list, folder: Path) -> None:
    from itbench.errors import UsageError
    from sre.live.injection import render_injection, write_manifests

    for w in written:
        try:
            injection = render_injection(w.fault_type, w.seed, w.target)
        except UsageError as exc:
            print(f"{w.path.name}: no manifests: {exc}", file=sys.stderr)
            continue
        write_manifests(injection, folder / w.path.name)
