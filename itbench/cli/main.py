"""Top-level ``itbench`` command.

Core commands, domain groups and plugin tool commands are all resolved lazily: listing them
reads entry-point metadata only; a plugin's modules are imported when one of its commands runs.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

import click

from itbench import __version__
from itbench.errors import ItbenchError
from itbench.exitcodes import ExitCode
from itbench.plugins import (
    COMMAND_GROUP,
    DOMAIN_GROUP,
    PluginLoadError,
    PluginRecord,
    discover,
    load,
)

#: Commands core owns: name -> ("module:attribute", one-line help).
CORE_COMMANDS: dict[str, tuple[str, str]] = {
    "domains": ("itbench.cli.domains_cmd:domains", "List installed domains and their providers."),
    "stats": (
        "itbench.cli.stats_cmd:stats",
        "Recompute statistics of an ITBench results document.",
    ),
    "report": ("itbench.cli.report_cmd:report", "Render one or more results documents."),
    "leaderboard": (
        "itbench.cli.leaderboard_cmd:leaderboard",
        "Rank runs of several agents and models (pass@k, cost, reliability).",
    ),
    "cluster": ("itbench.cli.cluster_cmd:cluster", "Offline Kubernetes API server over manifests."),
    "sandbox": ("itbench.cli.sandbox_cmd:sandbox", "Run a command in the bubblewrap sandbox."),
}


def _import(target: str) -> click.Command:
    module_name, _, attribute = target.partition(":")
    module = __import__(module_name, fromlist=[attribute])
    command: click.Command = getattr(module, attribute)
    return command


class LazyGroup(click.Group):
    """A group whose subcommands are imported only when invoked."""

    def _core(self) -> dict[str, tuple[str, str]]:
        return {
            name: spec
            for name, spec in CORE_COMMANDS.items()
            if _module_exists(spec[0].partition(":")[0])
        }

    def _domains(self) -> dict[str, PluginRecord]:
        return {r.name: r for r in discover(DOMAIN_GROUP)}

    def _tools(self) -> dict[str, PluginRecord]:
        return {r.name: r for r in discover(COMMAND_GROUP)}

    def list_commands(self, ctx: click.Context) -> list[str]:
        names = set(self._core()) | set(self._domains()) | set(self._tools())
        return sorted(names)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        core = self._core()
        if cmd_name in core:
            return _import(core[cmd_name][0])
        domains = self._domains()
        if cmd_name in domains:
            from itbench.cli.domain_group import domain_group

            return domain_group(domains[cmd_name])
        tools = self._tools()
        if cmd_name in tools:
            command = load(tools[cmd_name])
            if not isinstance(command, click.Command):
                raise PluginLoadError(tools[cmd_name], TypeError("not a click command"))
            return command
        return None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Help text comes from static tables and metadata so that --help imports no plugin.
        rows: list[tuple[str, str]] = [(n, spec[1]) for n, spec in self._core().items()]
        from itbench.plugins.summary import command_summary, domain_summary

        # a plugin's own words, read from its source (not imported); a third party's provider
        rows += [
            (n, _plugin_help(domain_summary(r) or f"The {n} domain.", r))
            for n, r in self._domains().items()
        ]
        rows += [
            (n, _plugin_help(command_summary(r) or f"The {n} command.", r))
            for n, r in self._tools().items()
        ]
        rows.sort()
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def _plugin_help(summary: str, record: PluginRecord) -> str:
    # click.utils.make_default_short_help is deprecated (Click 9 drops it); a command's own short
    # help is the same first-sentence cut
    short = click.Command(None, help=summary).get_short_help_str(60)
    return short if record.builtin else f"{short} [{record.provider}]"


def _module_exists(module_name: str) -> bool:
    from importlib.util import find_spec

    try:
        return find_spec(module_name) is not None
    except ModuleNotFoundError:
        return False


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="itbench")
def cli() -> None:
    """itbench: benchmark and policy engine for AI agents in IT operations.

    Exit codes: 0 success, 1 findings, 2 usage error, 3 tool error.
    """


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI and map every outcome onto the exit-code enum; never show a traceback."""
    from itbench import scratch

    scratch.install()  # every scratch directory of this process under one removable parent
    try:
        rv = cli.main(args=list(argv) if argv is not None else None, standalone_mode=False)
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.UsageError as exc:
        exc.show()
        return ExitCode.USAGE
    except click.ClickException as exc:
        exc.show()
        return ExitCode.TOOL_ERROR
    except click.Abort:
        click.echo("interrupted", err=True)
        return 130
    except ItbenchError as exc:
        click.echo(f"error: {exc}", err=True)
        return int(exc.exit_code)
    except PluginLoadError as exc:
        click.echo(f"error: {exc}", err=True)
        return ExitCode.TOOL_ERROR
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        return 130
    except BrokenPipeError:
        return ExitCode.OK
    except Exception as exc:  # the last line of defence: a message, not a traceback
        if os.environ.get("ITBENCH_DEBUG"):
            raise
        click.echo(f"error: unexpected {type(exc).__name__}: {exc}", err=True)
        return ExitCode.TOOL_ERROR
    return int(rv) if isinstance(rv, int) else ExitCode.OK


def run() -> None:
    sys.exit(main())
