"""``itbench ciso scenarios``: list the CISO scenarios that load, and why the others do not."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import click

from itbench.exitcodes import ExitCode

COLUMNS = ("ID", "CLASS", "PLATFORM", "CIS", "ORIGIN", "VIOLATING")


def _rows(scenarios: Sequence[Any]) -> list[dict[str, Any]]:
    from ciso.scenarios.public import public_metadata, short_title

    return [
        {
            "id": s.id,
            "base_id": s.base_id,
            "class": s.scenario_class.value,
            "platform": s.platform.value,
            "cis_id": s.cis_id,
            "origin": s.origin,
            "title": short_title(s),
            "violating_resources": len(s.violating_resources),
            "source": str(s.source) if s.source else None,
            "metadata": public_metadata(s),
        }
        for s in scenarios
    ]


def _table(rows: list[dict[str, Any]]) -> str:
    cells = [
        [
            r["id"],
            r["class"],
            r["platform"],
            r["cis_id"] or "-",
            r["origin"],
            str(r["violating_resources"]),
        ]
        for r in rows
    ]
    widths = [max([len(h)] + [len(c[i]) for c in cells]) for i, h in enumerate(COLUMNS)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(COLUMNS, widths, strict=True)).rstrip()]
    lines += [
        "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in cells
    ]
    return "\n".join(lines)


@click.command()
@click.option(
    "--scenarios",
    "selection",
    help="Scenario directory (searched recursively) or comma-separated ids (default: built-in).",
)
@click.option(
    "--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True
)
def scenarios(selection: str | None, fmt: str) -> int:
    """List CISO scenarios: one row per scenario and class. Exit 1 when some did not load."""
    from ciso.scenarios.loader import load_ciso_scenarios
    from itbench.errors import UsageError

    result = load_ciso_scenarios(selection)
    if selection is not None and not result.scenarios and not result.problems:
        raise UsageError(
            f"{selection}: no CISO scenario found (looked for scenario.yaml, info.json with "
            "scenario_type, problem.md beside static-resources/)"
        )
    rows = _rows(result.scenarios)
    if fmt == "json":
        errors = [{"directory": str(p.directory), "message": p.message} for p in result.problems]
        click.echo(json.dumps({"scenarios": rows, "errors": errors}, indent=2))
    else:
        click.echo(_table(rows))
    for problem in result.problems:
        click.echo(f"error: {problem.message}", err=True)
    click.echo(f"{len(rows)} scenario(s) loaded, {len(result.problems)} malformed", err=True)
    return ExitCode.FINDINGS if result.problems else ExitCode.OK
