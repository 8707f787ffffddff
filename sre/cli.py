"""``itbench sre tool|mcp|cluster``: the investigation tools on the command line and over MCP, and
the offline cluster serving a snapshot's latest objects."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from itbench import jsonsafe
from itbench.errors import UsageError, unknown_name
from itbench.exitcodes import ExitCode

_SNAPSHOT = click.option(
    "--snapshot",
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    help="Snapshot directory (ITBench-Lite v0.2): fills every file argument not given.",
)


def parse_tool_options(spec, extra: list[str]) -> dict:
    """``--name value`` pairs (``--group-by`` or ``--group_by``); values are JSON where the
    argument takes numbers, booleans, lists or objects, text otherwise."""
    from sre.snapshot_args import accepts_only_text

    out: dict = {}
    i = 0
    while i < len(extra):
        token = extra[i]
        if not token.startswith("--"):
            raise UsageError(f"{spec.name}: unexpected argument {token!r}; use --name value")
        key = token[2:].replace("-", "_")
        if "=" in key:
            key, value = key.split("=", 1)
            i += 1
        else:
            if i + 1 >= len(extra):
                raise UsageError(f"{spec.name}: --{key} needs a value")
            value = extra[i + 1]
            i += 2
        if key not in spec.args.model_fields:
            raise unknown_name(f"argument of {spec.name}", key, list(spec.args.model_fields))
        if accepts_only_text(spec, key):
            out[key] = value
        else:
            try:
                out[key] = jsonsafe.loads(value, f"argument {key}")
            except ValueError:
                out[key] = value
    return out


def _type_label(annotation: Any) -> str:
    """An argument's type as ``--help`` shows it: click's words for scalars, choices, JSON."""
    import types
    import typing

    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return "[" + "|".join(str(a) for a in typing.get_args(annotation)) + "]"
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in typing.get_args(annotation) if a is not type(None)]
        return " or ".join(_type_label(a) for a in inner)
    if origin in (list, tuple, set) or annotation in (list, tuple, set):
        return "JSON list"
    if origin is dict or annotation is dict:
        return "JSON object"
    names = {str: "TEXT", int: "INTEGER", float: "NUMBER", bool: "BOOLEAN"}
    return names.get(annotation, getattr(annotation, "__name__", str(annotation)).upper())


def tool_argument_rows(spec: Any) -> list[tuple[str, str]]:
    """(``--name TYPE``, what it is and its default) for each argument of a tool, from its
    argument model: the same fields, types and defaults the tool validates against."""
    rows = []
    snapshot_paths = spec.snapshot_paths or {}
    for name, field in spec.args.model_fields.items():
        parts = [field.description] if field.description else []
        if field.is_required():
            parts.append("required")
        else:
            default = field.get_default(call_default_factory=True)
            parts.append("optional" if default is None else f"default: {json.dumps(default)}")
        if name in snapshot_paths:
            parts.append(f"with --snapshot: <snapshot>/{snapshot_paths[name]}")
        rows.append(
            (f"--{name.replace('_', '-')} {_type_label(field.annotation)}", "; ".join(parts))
        )
    return rows


class _ToolCommand(click.Command):
    """``itbench sre tool NAME --help`` lists NAME's own arguments after the general help."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta["sre_tool_args"] = list(args)  # --help is eager: NAME is not parsed yet then
        return super().parse_args(ctx, args)

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_help(ctx, formatter)
        from sre.tools import TOOL_NAMES, tool_specs

        words = [a for a in ctx.meta.get("sre_tool_args", []) if not a.startswith("-")]
        name = next((w for w in words if w in TOOL_NAMES), None)
        if name is None:
            with formatter.section("Tools"):
                formatter.write_text(", ".join(TOOL_NAMES))
            return
        spec = tool_specs()[name]
        with formatter.section(f"Arguments of {name}"):
            formatter.write_text(spec.description.strip().split("\n\n")[0])
            formatter.write_paragraph()
            formatter.write_dl(tool_argument_rows(spec))


@click.command(
    cls=_ToolCommand,
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
)
@click.argument("name")
@_SNAPSHOT
@click.pass_context
def tool(ctx: click.Context, name: str, snapshot: Path | None) -> int:
    """Run one investigation tool and print its answer as JSON.

    NAME is one of the original MCP server's tools (alert_summary, event_analysis, ...); give its
    arguments as --name value (JSON for numbers, lists and objects). Warnings about skipped rows
    or files go to stderr; stdout is the answer in the original tool's shape.
    """
    from sre.snapshot_args import validate, with_snapshot_defaults
    from sre.tools import tool_specs

    specs = tool_specs()
    if name not in specs:
        raise unknown_name("tool", name, list(specs))
    spec = specs[name]
    arguments = with_snapshot_defaults(spec, parse_tool_options(spec, list(ctx.args)), snapshot)
    result = spec.run(validate(spec, arguments))
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)
    answer = result.answer()
    click.echo(answer if isinstance(answer, str) else json.dumps(answer, indent=2))
    return ExitCode.OK


@click.command()
@_SNAPSHOT
def mcp(snapshot: Path | None) -> int:
    """Serve the investigation tools over MCP on stdin/stdout (the original server's tool names
    and arguments; with --snapshot the file arguments are optional)."""
    from sre.mcp_server import serve

    serve(snapshot)
    return ExitCode.OK


@click.command()
@click.option(
    "--snapshot",
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    required=True,
    help="Snapshot directory whose k8s_objects_raw.tsv is served.",
)
@click.option("--port", type=int, default=0, help="Port on 127.0.0.1 (default: a free one).")
@click.option(
    "--kubeconfig",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Where to write the kubeconfig (default: <snapshot>/kubeconfig.yaml is not touched; a "
    "temporary file).",
)
def cluster(snapshot: Path, port: int, kubeconfig: Path | None) -> int:
    """Serve the snapshot's latest object of each kind/namespace/name on an offline API server so
    kubectl works on the incident; prints KUBECONFIG=... and runs until interrupted."""
    import signal
    import threading

    from itbench.cluster import start_cluster
    from itbench.cluster.extensions import domain_extensions
    from itbench.cluster.resources import BUILTIN_TYPES
    from sre.cluster import latest_objects, snapshot_extension

    objects, warnings = latest_objects(snapshot)
    for w in warnings:
        click.echo(f"warning: {w}", err=True)
    extensions = list(domain_extensions())
    served = {(t.group, t.kind) for t in BUILTIN_TYPES}
    served |= {(t.group, t.kind) for ext in extensions for t in ext.types}
    extra = snapshot_extension(objects, served)
    if extra.types:
        extensions.append(extra)
    running = start_cluster(objects, port=port, kubeconfig=kubeconfig, extensions=extensions)
    click.echo(f"KUBECONFIG={running.kubeconfig_path}")
    sys.stdout.flush()
    click.echo(f"serving {len(objects)} object(s) from {snapshot}; Ctrl-C to stop", err=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        stop.wait()
    except KeyboardInterrupt:
        pass
    finally:
        running.stop()
    return ExitCode.OK


__all__ = ["cluster", "mcp", "tool", "UsageError"]
