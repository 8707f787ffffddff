"""``itbench rego eval|test|check``: OPA's commands on embedded engines, evaluation killable."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from itbench.exitcodes import ExitCode

ENGINE_CHOICES = ("opa", "opa-golib", "regorus")


def _engine_options(f):
    f = click.option(
        "--rego-engine",
        type=click.Choice(ENGINE_CHOICES),
        help="Force a backend (default: opa, then opa-golib, then regorus).",
    )(f)
    f = click.option(
        "--v0-compatible", is_flag=True, help="Accept Rego v0 syntax (as OPA's flag of that name)."
    )(f)
    f = click.option(
        "--timeout",
        "timeout_s",
        type=click.FloatRange(min=0.1),
        default=30.0,
        show_default=True,
        help="Seconds before a policy is stopped.",
    )(f)
    f = click.option(
        "--strict-engines",
        is_flag=True,
        help="Exit 3 when the backend that ran cannot do all of OPA's compile checks "
        "(regorus: no type checker) instead of warning.",
    )(f)
    return f


def _name_engine(engine: str, version: str, not_checked, strict: bool) -> bool:
    """Name the backend on stderr and warn about the checks it did not do; True when
    ``--strict-engines`` makes that a tool error (a weaker backend must not pass silently)."""
    from ciso.engines.rego.select import not_checked_message

    click.echo(f"engine: {engine} {version}".rstrip(), err=True)
    if not not_checked:
        return False
    click.echo(
        f"{'error' if strict else 'warning'}: {not_checked_message(engine, not_checked)}",
        err=True,
    )
    return strict


#: What OPA 1.x (and regorus in v1 mode) says about a rule written in Rego v0 syntax.
_V0_SYMPTOMS = ("keyword is required", "`contains` keyword", "`if` keyword")
V0_HINT = (
    "hint: this looks like Rego v0 syntax (rules without `if`/`contains`), which OPA 1.x rejects;"
    " rerun with --v0-compatible"
)


def _looks_like_v0(diagnostics) -> bool:  # noqa: ANN001 - list[Diagnostic], imported lazily
    return any(
        d.code == "rego_parse_error" and any(s in d.message for s in _V0_SYMPTOMS)
        for d in diagnostics
    )


def _report(exc, v0_compatible: bool = True) -> int:  # noqa: ANN001 - a RegoError
    """Each diagnostic on stderr as file:line:col: code: message, and the v0 hint where it helps."""
    for diagnostic in exc.diagnostics:
        click.echo(str(diagnostic), err=True)
    if exc.engine:
        click.echo(f"engine: {exc.engine}", err=True)
    if not v0_compatible and _looks_like_v0(exc.diagnostics):
        click.echo(V0_HINT, err=True)
    return ExitCode.TOOL_ERROR


@click.group()
def rego() -> None:
    """Evaluate and test Rego policies (OPA semantics; opa CLI, embedded OPA or regorus)."""


@rego.command("eval")
@click.option(
    "-d",
    "--data",
    "data_paths",
    multiple=True,
    type=click.Path(path_type=Path, exists=True),
    help="Policy or data file or directory (repeatable).",
)
@click.option(
    "-i",
    "--input",
    "input_path",
    type=click.Path(path_type=Path, exists=True, dir_okay=False),
    help="Input document (JSON or YAML).",
)
@click.option(
    "--format", "fmt", type=click.Choice(["json", "raw"]), default="json", show_default=True
)
@click.option("--fail", is_flag=True, help="Exit 1 when the result is undefined (as opa eval).")
@click.option(
    "--fail-defined", is_flag=True, help="Exit 1 when the result is defined (as opa eval)."
)
@_engine_options
@click.argument("query")
def eval_(
    data_paths: tuple[Path, ...],
    input_path: Path | None,
    fmt: str,
    fail: bool,
    fail_defined: bool,
    rego_engine: str | None,
    v0_compatible: bool,
    timeout_s: float,
    strict_engines: bool,
    query: str,
) -> int:
    """Evaluate QUERY. json prints {"result": [{"expressions": [{"value": ...}]}]} ({} when
    undefined); raw prints the bare value (nothing when undefined). Exit 3 on a policy error;
    with --fail, 1 when undefined; with --fail-defined, 1 when defined (a pipeline gate)."""
    if fail and fail_defined:
        raise click.UsageError("give --fail or --fail-defined, not both")
    from ciso.engines.rego import modules
    from ciso.engines.rego.model import RegoError
    from ciso.engines.rego.pool import RegoPool
    from ciso.engines.rego.select import select_engine

    policies, data = modules.load(list(data_paths))
    engine = select_engine(rego_engine, v0_compatible)  # usage errors before any work
    with RegoPool(size=1, timeout_s=timeout_s) as pool:
        try:
            result = pool.evaluate(
                policies,
                query,
                modules.read_input(input_path),
                data,
                engine=rego_engine,
                v0=v0_compatible,
            )
        except RegoError as exc:
            return _report(exc, v0_compatible)
    del engine
    if _name_engine(result.engine, result.version, result.not_checked, strict_engines):
        return ExitCode.TOOL_ERROR
    if fmt == "raw":
        if result.defined:
            value = result.value
            click.echo(value if isinstance(value, str) else json.dumps(value))
    else:
        click.echo(
            json.dumps(
                {"result": result.results} if result.defined or result.results else {}, indent=2
            )
        )
    # OPA's meanings: defined is a non-empty result set (a query evaluating to false is defined);
    # --fail gates on undefined, --fail-defined on anything defined
    defined = result.defined or bool(result.results)
    if (fail and not defined) or (fail_defined and defined):
        return ExitCode.FINDINGS
    return ExitCode.OK


@rego.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path, exists=True))
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@click.option("-v", "--verbose", is_flag=True, help="List every test, not only failures.")
@click.option(
    "-r", "--run", "run_pattern", help="Only tests whose data.<package>.<rule> matches this regex."
)
@click.option("--coverage", is_flag=True, help="Report line coverage (needs the embedded OPA).")
@click.option(
    "--fail-on-empty",
    is_flag=True,
    help="Exit 1 when no test ran (no test_* rule, or --run matched none), as opa test's flag.",
)
@_engine_options
def test(
    paths: tuple[Path, ...],
    fmt: str,
    verbose: bool,
    run_pattern: str | None,
    coverage: bool,
    fail_on_empty: bool,
    rego_engine: str | None,
    v0_compatible: bool,
    timeout_s: float,
    strict_engines: bool,
) -> int:
    """Run test_* rules as `opa test` does (todo_* skipped); exit 1 when a test fails."""
    from ciso.engines.rego import modules
    from ciso.engines.rego.model import RegoError
    from ciso.engines.rego.pool import RegoPool

    policies, data = modules.load(list(paths))
    with RegoPool(size=1, timeout_s=timeout_s) as pool:
        try:
            run = pool.test(
                policies,
                data,
                engine=rego_engine,
                v0=v0_compatible,
                run=run_pattern,
                coverage=coverage,
            )
        except RegoError as exc:
            return _report(exc, v0_compatible)
    counts = {
        s: sum(1 for c in run.cases if c.status == s) for s in ("pass", "fail", "error", "skip")
    }
    if fmt == "json":
        click.echo(
            json.dumps(
                {
                    "engine": run.engine,
                    "not_checked": list(run.not_checked),
                    "summary": counts,
                    "tests": [c.__dict__ for c in run.cases],
                    **({"coverage": run.coverage} if coverage else {}),
                },
                indent=2,
            )
        )
    else:
        for case in run.cases:
            if verbose or case.status in ("fail", "error"):
                detail = f": {case.message}" if case.message else ""
                click.echo(
                    f"data.{case.package}.{case.name}: {case.status.upper()} ({case.duration_ms:.1f}ms){detail}"
                )
        total = len(run.cases) - counts["skip"]
        click.echo("-" * 40)
        click.echo(f"PASS: {counts['pass']}/{total}")
        if counts["fail"] or counts["error"]:
            click.echo(f"FAIL: {counts['fail'] + counts['error']}/{total}")
        if counts["skip"]:
            click.echo(f"SKIPPED: {counts['skip']}")
        if coverage:
            if run.coverage is None:
                click.echo("coverage: not available without the embedded OPA (opa-golib)")
            else:
                for file, report in run.coverage["files"].items():
                    click.echo(
                        f"coverage {file}: {report['coverage']}% (not covered: {report['not_covered']})"
                    )
                click.echo(f"coverage: {run.coverage['coverage']}%")
    if _name_engine(run.engine, "", run.not_checked, strict_engines):
        return ExitCode.TOOL_ERROR
    if not any(c.status != "skip" for c in run.cases):
        # a folder without tests, or a --run pattern with a typo, would otherwise pass CI silently
        print("warning: no tests were run", file=sys.stderr)
        if fail_on_empty:
            return ExitCode.FINDINGS
    return ExitCode.FINDINGS if run.failed else ExitCode.OK


@rego.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path, exists=True))
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@_engine_options
def check(
    paths: tuple[Path, ...],
    fmt: str,
    rego_engine: str | None,
    v0_compatible: bool,
    timeout_s: float,
    strict_engines: bool,
) -> int:
    """Parse and compile the policies; print their errors with file:line:column (exit 1 if any).

    The backend that ran is named (JSON: ``engine``; text: on stderr) with the checks of OPA's
    it could not do; with --strict-engines those make the exit 3."""
    from ciso.engines.rego import modules
    from ciso.engines.rego.pool import RegoPool

    policies, _ = modules.load(list(paths))
    with RegoPool(size=1, timeout_s=timeout_s) as pool:
        checked = pool.checked(policies, engine=rego_engine, v0=v0_compatible)
    diagnostics = checked.diagnostics
    if fmt == "json":
        engine = {
            "name": checked.engine,
            "version": checked.version,
            "not_checked": list(checked.not_checked),
        }
        click.echo(
            json.dumps({"errors": [d.__dict__ for d in diagnostics], "engine": engine}, indent=2)
        )
    else:
        for d in diagnostics:
            click.echo(str(d))
    if not v0_compatible and _looks_like_v0(diagnostics):
        click.echo(V0_HINT, err=True)
    if _name_engine(checked.engine, checked.version, checked.not_checked, strict_engines):
        return ExitCode.TOOL_ERROR
    return ExitCode.FINDINGS if diagnostics else ExitCode.OK
