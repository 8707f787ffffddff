"""``itbench sre faults``: the generator's fault types with their remedies, or (``--coverage``)
ITBench's 31 fault mechanisms and which of them our fault types cover."""

from __future__ import annotations

import json

import click

from sre.generator.faults import FAULT_TYPES


@click.command()
@click.option(
    "--coverage",
    "show_coverage",
    is_flag=True,
    help="Compare with ITBench's 31 fault mechanisms instead of listing the fault types.",
)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
def faults(show_coverage: bool, fmt: str) -> None:
    """List the SRE fault types (or their coverage of ITBench's mechanisms)."""
    from sre.generator.coverage import coverage, coverage_table

    if show_coverage:
        click.echo(json.dumps(coverage(), indent=2) if fmt == "json" else coverage_table())
        return
    rows = [
        {
            "fault_type": name,
            "description": ftype.description,
            "targets": list(ftype.targets),
            "accepted_remedies": [r.name for r in ftype.remedies if r.accepted],
            "rejected_remedies": [r.name for r in ftype.remedies if not r.accepted],
        }
        for name, ftype in sorted(FAULT_TYPES.items())
    ]
    if fmt == "json":
        click.echo(json.dumps(rows, indent=2))
        return
    width = max(len(r["fault_type"]) for r in rows)
    for r in rows:
        click.echo(f"{r['fault_type']:<{width}}  {r['description']}")
        click.echo(f"{'':<{width}}  remedies: {'; '.join(r['accepted_remedies'])}")
