"""``itbench ansible run|check``: playbooks in the sandbox, and their validation."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from itbench.errors import UsageError
from itbench.exitcodes import ExitCode


@click.group()
def ansible() -> None:
    """Run and validate Ansible playbooks in the sandbox."""


@ansible.command()
@click.argument("playbook", type=click.Path(path_type=Path, exists=True, dir_okay=False))
@click.option(
    "--host-tree",
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    help="The host's files (the play's hosts group runs locally over them).",
)
@click.option(
    "-i",
    "--inventory",
    type=click.Path(path_type=Path, exists=True, dir_okay=False),
    help="An inventory file (the sandbox has no network: only local connections work).",
)
@click.option("--out", "out_dir", type=click.Path(path_type=Path, file_okay=False), required=True)
@click.option("--host-group", default="rhel9_servers", show_default=True)
@click.option(
    "--timeout", "timeout_s", type=click.FloatRange(min=1), default=300.0, show_default=True
)
@click.option(
    "--driver",
    type=click.Choice(["runner", "playbook"]),
    default="runner",
    show_default=True,
    help="ansible-runner (per-task events) or a bare ansible-playbook.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="text: Ansible's output; json: status and each task's outcome per host.",
)
def run(
    playbook: Path,
    host_tree: Path | None,
    inventory: Path | None,
    out_dir: Path,
    host_group: str,
    timeout_s: float,
    driver: str,
    fmt: str,
) -> int:
    """Run PLAYBOOK with ansible-playbook in the sandbox; the output directory is its working directory."""
    from ciso.engines.ansible import run_playbook

    if (host_tree is None) == (inventory is None):
        raise UsageError("give exactly one of --host-tree DIR or -i INVENTORY")
    result = run_playbook(
        playbook,
        out_dir=out_dir,
        host_tree=host_tree,
        inventory=inventory,
        timeout_s=timeout_s,
        host_group=host_group,
        driver=driver,
        # one play per command: building the module payloads once would cost more than it saves
        seed_modules=False,
    )
    collected = str(result.collected_data) if result.collected_data else None
    if result.warnings:  # where ansible-playbook writes them
        sys.stderr.write(result.warnings + "\n")
    for line in result.failed_tasks():  # chatter: which task stopped the play, and why
        click.echo(line, err=True)
    if fmt == "json":
        document = {
            "status": result.status,
            "driver": result.driver,
            "collected_data": collected,
            "tasks": [event.__dict__ for event in result.events],
        }
        click.echo(json.dumps(document, indent=2))
        return ExitCode.OK if result.ok else ExitCode.FINDINGS
    sys.stdout.write(
        result.output + ("\n" if result.output and not result.output.endswith("\n") else "")
    )
    sys.stderr.write(result.sandbox.stderr)
    click.echo(f"status: {result.status}; collected_data.json: {collected or 'none'}", err=True)
    return ExitCode.OK if result.ok else ExitCode.FINDINGS


@ansible.command()
@click.argument("playbook", type=click.Path(path_type=Path, exists=True, dir_okay=False))
@click.option("--no-lint", is_flag=True, help="Only the syntax check.")
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
def check(playbook: Path, no_lint: bool, fmt: str) -> int:
    """Validate PLAYBOOK: ansible-playbook --syntax-check, then ansible-lint where installed."""
    from ciso.engines.ansible import validate_playbook

    diagnostics = validate_playbook(playbook, with_lint=not no_lint)
    if fmt == "json":
        click.echo(json.dumps([d.__dict__ for d in diagnostics], indent=2))
    else:
        for d in diagnostics:
            where = f"{d.path}:{d.line}" if d.line else d.path
            click.echo(f"{where}: {d.severity}: [{d.tool} {d.rule}] {d.message}")
    return ExitCode.FINDINGS if any(d.severity == "error" for d in diagnostics) else ExitCode.OK
