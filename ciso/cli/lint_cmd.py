"""``itbench lint``: Rego, Kyverno and Ansible policies checked in one CI step."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import click

from itbench.exitcodes import ExitCode
from itbench.fsutil import atomic_write_text


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path, exists=True))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "sarif", "junit", "github"]),
    default="text",
    show_default=True,
)
@click.option(
    "--fail-level",
    type=click.Choice(["error", "warning", "info"]),
    help="Lowest severity that makes the exit code 1 (default: error, or the configuration's).",
)
@click.option(
    "--profile",
    type=click.Choice(["itbench"]),
    help="Extra contract checks (itbench: package check, boolean data.check.result).",
)
@click.option(
    "--run-tests", is_flag=True, help="Also run *_test.rego and kyverno-test.yaml suites."
)
@click.option("--enable", multiple=True, help="Only these rule ids (repeatable).")
@click.option("--disable", multiple=True, help="Skip these rule ids (repeatable).")
@click.option(
    "--config",
    "config_path",
    type=click.Path(path_type=Path, dir_okay=False, exists=True),
    help="A pyproject.toml with [tool.itbench.lint] (default: the nearest one).",
)
@click.option("--rego-engine", type=click.Choice(["opa", "opa-golib", "regorus"]))
@click.option(
    "--output",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Write the document to this file instead of stdout.",
)
@click.option(
    "--exclude",
    multiple=True,
    metavar="GLOB",
    help="Do not lint files matching GLOB (repeatable; as .gitignore: `templates`, `charts/*`), "
    "added to the configuration's exclude.",
)
@click.option(
    "--strict-engines",
    is_flag=True,
    help="Exit 3 when a check could not run because only a weaker Rego backend is installed "
    "(regorus has no type checker) instead of warning.",
)
@click.option("--list-rules", is_flag=True, help="List every rule and exit.")
@click.option("-q", "--quiet", is_flag=True, help="No progress on stderr.")
def lint(
    paths: tuple[Path, ...],
    fmt: str,
    fail_level: str | None,
    profile: str | None,
    run_tests: bool,
    enable: tuple[str, ...],
    disable: tuple[str, ...],
    config_path: Path | None,
    rego_engine: str | None,
    output: Path | None,
    exclude: tuple[str, ...],
    strict_engines: bool,
    list_rules: bool,
    quiet: bool,
) -> int:
    """Lint PATHS (files or folders; default: the configuration's paths, else .).

    Policies are found by content: YAML that is no Kyverno policy, Kyverno test or playbook (a
    Helm template, any other YAML) is skipped. Every report names the Rego backend that ran; the
    checks a weaker one (regorus) cannot do are reported as not checked.

    Exit 0 with no finding at or above the fail level, 1 with findings, 2 usage error, 3 tool error
    (with --strict-engines: also when a check was not done).
    """
    from ciso.lint.config import load_config
    from ciso.lint.discovery import Exclude
    from ciso.lint.formats.render import RENDERERS
    from ciso.lint.model import Options, severity_rank
    from ciso.lint.rules import infos
    from ciso.lint.runner import lint_paths

    rules = infos()
    if list_rules:
        for r in rules:
            click.echo(f"{r.id:8} {r.severity:8} {r.description}")
        return ExitCode.OK
    config = load_config(config_path, Path.cwd())
    _known_rule_ids(
        {r.id for r in rules},
        {
            "--enable": enable,
            "--disable": disable,
            f"{config.source}: enable": config.enable,
            f"{config.source}: disable": config.disable,
        },
    )
    targets = list(paths) or [Path(p) for p in config.paths] or [Path(".")]
    options = Options(
        profile=profile or config.profile, run_tests=run_tests, rego_engine=rego_engine
    )
    excludes = [Exclude(tuple(exclude), Path.cwd())]
    if config.source and config.exclude:
        excludes.append(Exclude(tuple(config.exclude), Path(config.source).parent))
    run = lint_paths(
        targets,
        options,
        enable or config.enable,
        (*config.disable, *disable),
        progress=not quiet,
        exclude=excludes,
    )
    document = RENDERERS[fmt](run, rules)
    if output is not None:
        atomic_write_text(output, document)
    else:
        sys.stdout.write(document)
    for note in run.notes:
        click.echo(f"note: {note}", err=True)
    if not run.files:
        # an empty folder or a wrong path in the configuration would otherwise pass CI silently
        skipped = f" ({len(run.skipped)} skipped: no policy in them)" if run.skipped else ""
        click.echo(
            f"warning: no files to lint under {', '.join(map(str, targets))}{skipped}", err=True
        )
    strict = strict_engines or config.strict_engines
    if run.not_checked and (strict or fmt != "text" or output is not None):
        # the text document says it already; other formats and files need it said here too
        from ciso.lint.formats.render import not_checked_text

        for engine in run.not_checked:
            click.echo(f"{'error' if strict else 'warning'}: {not_checked_text(engine)}", err=True)
    if strict and run.not_checked:
        return ExitCode.TOOL_ERROR
    threshold = severity_rank(fail_level or config.fail_level)
    if any(severity_rank(f.level) >= threshold for f in run.findings):
        return ExitCode.FINDINGS
    if run.tool_errors:
        for error in run.tool_errors:
            click.echo(f"tool error: {error}", err=True)
        return ExitCode.TOOL_ERROR
    return ExitCode.OK


def _known_rule_ids(known: set[str], given: dict[str, Sequence[str]]) -> None:
    """A rule id that does not exist is a usage error: `--enable KYV0O1` would otherwise run no
    rule at all and pass, and a misspelt `--disable` would silently disable nothing."""
    import difflib

    from itbench.errors import UsageError

    for where, ids in given.items():
        for rule_id in ids:
            if rule_id not in known:
                close = difflib.get_close_matches(rule_id, sorted(known), n=1)
                hint = f" (did you mean {close[0]}?)" if close else ""
                raise UsageError(
                    f"{where}: unknown rule id {rule_id!r}{hint}; `itbench lint --list-rules` "
                    "lists them"
                )
