"""``itbench sandbox run``: any command in the bubblewrap sandbox."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from itbench.cli.sandbox_option import sandbox_option
from itbench.cli.size_option import size_option
from itbench.exitcodes import ExitCode
from itbench.sandbox.limits import DEFAULT_EVALUATION_LIMITS as DEFAULTS


@click.group()
def sandbox() -> None:
    """Run generated code without touching the host (bubblewrap or a container)."""


@sandbox.command(context_settings={"ignore_unknown_options": True})
@click.option(
    "--host-tree",
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    help="Files laid over the read-only system (e.g. DIR/etc/ssh/sshd_config).",
)
@click.option(
    "--cluster",
    "cluster_manifests",
    type=click.Path(path_type=Path, exists=True),
    help="Manifests of an offline cluster started on the sandbox's loopback (KUBECONFIG is set).",
)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path, file_okay=False),
    required=True,
    help="The only writable directory; the working directory.",
)
@click.option(
    "--timeout", "timeout_s", type=click.FloatRange(min=0.1), default=60.0, show_default=True
)
@click.option("--max-processes", type=click.IntRange(min=8), default=256, show_default=True)
@size_option(
    "--memory",
    DEFAULTS.memory_bytes,
    "Private writable memory of each process (RLIMIT_DATA); 0: no cap.",
)
@size_option(
    "--file-size",
    DEFAULTS.file_size_bytes,
    "Largest file it may write (RLIMIT_FSIZE), and the size of its private /tmp; 0: no cap.",
)
@size_option(
    "--output",
    DEFAULTS.output_bytes,
    "Stdout and stderr kept each (head and tail); past it the command is stopped; 0: no cap.",
)
@sandbox_option()
@click.argument("command", nargs=-1, required=True, type=click.UNPROCESSED)
def run(
    host_tree: Path | None,
    cluster_manifests: Path | None,
    out_dir: Path,
    timeout_s: float,
    max_processes: int,
    memory: str,
    file_size: str,
    output: str,
    command: tuple[str, ...],
) -> int:
    """Run COMMAND (after --) in the sandbox; its stdout and stderr are passed through.

    Exit 0 when it succeeds, 1 when it fails or times out (its code is reported), 3 when no sandbox
    can be made here.
    """
    from itbench.sandbox import run_sandboxed
    from itbench.sandbox.limits import ResourceLimits, parse_size

    limits = ResourceLimits(
        memory_bytes=parse_size(memory, "--memory"),
        file_size_bytes=parse_size(file_size, "--file-size"),
        output_bytes=parse_size(output, "--output"),
    )
    result = run_sandboxed(
        list(command),
        out_dir=out_dir,
        host_tree=host_tree,
        cluster_manifests=cluster_manifests,
        timeout_s=timeout_s,
        max_processes=max_processes,
        limits=limits,
    )
    sys.stdout.write(result.stdout)
    sys.stderr.write(result.stderr)
    if result.timed_out:
        click.echo(f"sandboxed command timed out after {timeout_s:g} s", err=True)
        return ExitCode.FINDINGS
    if result.cap is not None:
        which, size = result.cap
        click.echo(f"sandboxed command hit the {which} cap of {size} (--{which})", err=True)
        return ExitCode.FINDINGS
    if result.exit_code != 0:
        click.echo(f"sandboxed command exited with {result.exit_code}", err=True)
        return ExitCode.FINDINGS
    return ExitCode.OK


@sandbox.group()
def image() -> None:
    """The container backend's evaluation image (no registry needed)."""


@image.command()
@click.option("--force", is_flag=True, help="Build even when an image of the same hash exists.")
def build(force: bool) -> int:
    """Build the evaluation image from this machine (Python, the environment's packages itbench
    needs, kubectl, the system libraries they load) and tag it with a hash of its content; an
    image of the same hash is reused. Prints the tag on stdout."""
    from itbench.sandbox.engine import engine_client
    from itbench.sandbox.image import build_image

    built = build_image(engine_client(), force=force, log=lambda m: click.echo(m, err=True))
    how = "reused" if built.reused else f"built from {built.files} entries"
    click.echo(f"itbench: {built.tag}: {how} in {built.seconds:.1f} s", err=True)
    click.echo(built.tag)
    return ExitCode.OK
