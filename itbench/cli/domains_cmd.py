"""``itbench domains``: which domains are installed, from which distribution."""

from __future__ import annotations

import json
from typing import Any

import click

from itbench.exitcodes import ExitCode
from itbench.plugins import DOMAIN_GROUP, PluginLoadError, discover
from itbench.plugins.domains import load_domain


@click.command()
@click.option(
    "--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True
)
def domains(fmt: str) -> int:
    """List installed domains with the distribution and version providing each."""
    rows: list[dict[str, Any]] = []
    for record in discover(DOMAIN_GROUP):
        row: dict[str, Any] = {
            "name": record.name,
            "distribution": record.distribution,
            "version": record.version,
            "builtin": record.builtin,
            "entry_point": record.value,
            "status": "ok",
            "description": "",
        }
        try:
            row["description"] = load_domain(record).domain.description
        except PluginLoadError as exc:
            click.echo(f"warning: {exc}", err=True)
            row["status"] = "error"
        rows.append(row)
    if fmt == "json":
        click.echo(json.dumps({"domains": rows}, indent=2))
    else:
        width = max([len(r["name"]) for r in rows] + [6])
        click.echo(f"{'DOMAIN':<{width}}  {'PROVIDER':<24}  STATUS  DESCRIPTION")
        for r in rows:
            provider = f"{r['distribution']} {r['version']}"
            click.echo(
                f"{r['name']:<{width}}  {provider:<24}  {r['status']:<6}  {r['description']}"
            )
    return ExitCode.OK
