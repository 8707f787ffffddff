"""``itbench kyverno test|apply``: Kyverno's CLI commands on the Python engine."""

from __future__ import annotations

import json
from pathlib import Path

import click
import yaml

from itbench.exitcodes import ExitCode


@click.group()
def kyverno() -> None:
    """Kyverno policies offline: run kyverno-test.yaml suites, apply policies to resources."""


@kyverno.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path, exists=True))
@click.option(
    "--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True
)
@click.option(
    "--detailed", is_flag=True, help="Table: list every expectation, not only the problems."
)
@click.option(
    "--strict",
    is_flag=True,
    help="Fail on excluded expectations (no rule response where pass or fail was expected).",
)
@click.option(
    "--allow-empty",
    is_flag=True,
    help="Exit 0 when there is no test, or nothing was evaluated (every expectation skipped).",
)
def test(paths: tuple[Path, ...], fmt: str, detailed: bool, strict: bool, allow_empty: bool) -> int:
    """Run every kyverno-test.yaml under PATHS (hidden .kyverno-test/ folders included).

    Exit 0 when every evaluated expectation holds, 1 when one failed or errored, when nothing was
    evaluated (no test, or every expectation skipped; --allow-empty accepts it) or, with --strict,
    when one was excluded; 3 on a tool error. Excluded expectations otherwise only warn, as
    Kyverno's CLI counts them as passes.
    """
    # a CLI edge: the engine (JMESPath, pattern matching) loads only for this command
    from ciso.engines.kyverno.testrunner import run_tests

    report = run_tests(list(paths))
    summary = report.summary()
    agreement = report.agreement()
    verdict = report.verdict(strict=strict, allow_empty=allow_empty)
    for warning in verdict.warnings:
        click.echo(f"warning: {warning}", err=True)
    if fmt == "json":
        click.echo(
            json.dumps(
                {
                    "summary": summary,
                    "evaluated": report.evaluated(),
                    "agreement": None if agreement is None else round(agreement, 6),
                    "verdict": {
                        "ok": verdict.ok,
                        "problems": list(verdict.problems),
                        "warnings": list(verdict.warnings),
                    },
                    "tests": [
                        {
                            "file": f.file,
                            **({"error": f.error} if f.error else {}),
                            "results": [
                                {
                                    "policy": e.policy,
                                    "rule": e.rule,
                                    "resource": e.resource,
                                    "kind": e.kind,
                                    "expected": e.expected,
                                    "actual": e.actual,
                                    "ok": e.ok,
                                    "outcome": e.outcome,
                                    "reason": e.reason,
                                }
                                for e in f.expectations
                            ],
                        }
                        for f in report.files
                    ],
                },
                indent=2,
            )
        )
    else:
        rows = [("FILE", "POLICY", "RULE", "RESOURCE", "EXPECTED", "ACTUAL", "OUTCOME")]
        for f in report.files:
            if f.error:
                rows.append((f.file, "-", "-", "-", "-", "-", f"error: {f.error}"))
            for e in f.expectations:
                if detailed or e.outcome != "passed":
                    rows.append(
                        (
                            Path(f.file).parent.parent.name,
                            e.policy,
                            e.rule,
                            f"{e.kind}/{e.resource}",
                            e.expected,
                            e.actual or "-",
                            e.outcome,
                        )
                    )
        widths = [max(len(str(r[i])) for r in rows) for i in range(len(rows[0]))]
        for row in rows:
            click.echo("  ".join(str(c).ljust(widths[i]) for i, c in enumerate(row)).rstrip())
        counts = (
            f"{summary['passed']} passed, {summary['failed']} failed, "
            f"{summary['excluded']} excluded, {summary['skipped']} skipped, "
            f"{summary['errors']} errors"
        )
        if agreement is None:
            click.echo(f"\n{counts}: nothing evaluated (agreement n/a)")
        else:
            click.echo(f"\n{counts} (agreement {agreement:.1%})")
    for problem in verdict.problems:
        click.echo(f"fail: {problem}", err=True)
    return ExitCode.OK if verdict.ok else ExitCode.FINDINGS


@kyverno.command()
@click.argument("policies", nargs=-1, required=True, type=click.Path(path_type=Path, exists=True))
@click.option(
    "--resource",
    "resources",
    multiple=True,
    required=True,
    type=click.Path(path_type=Path, exists=True),
    help="Resource manifest file or directory (repeatable).",
)
@click.option("--policy-report", is_flag=True, help="Print PolicyReports instead of rule results.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "json", "yaml"]),
    default="table",
    show_default=True,
)
def apply(
    policies: tuple[Path, ...], resources: tuple[Path, ...], policy_report: bool, fmt: str
) -> int:
    """Apply POLICIES (and any PolicyExceptions among them) to resources; exit 1 when a rule
    fails or errors."""
    from ciso.engines.kyverno.engine import Context, policy_id
    from ciso.engines.kyverno.engine import apply as apply_policies
    from ciso.engines.kyverno.reports import policy_reports
    from ciso.engines.kyverno.scope import as_the_cli_reads_it
    from itbench.cluster.manifests import load_manifests, load_manifests_by_file

    loaded: list[dict] = []
    sources: dict[str, str] = {}
    for path in policies:
        for file, obj in load_manifests_by_file(path):
            loaded.append(obj)
            sources.setdefault(policy_id(obj), str(file))
    objects = [as_the_cli_reads_it(obj) for r in resources for obj in load_manifests(r)]
    # PolicyExceptions may come along with the policies, as with Kyverno's --exceptions
    ctx = Context(
        objects=objects,
        exceptions=[o for o in loaded if o.get("kind") == "PolicyException"],
    )
    results = apply_policies(loaded, objects, ctx, sources=sources)
    if policy_report:
        document = policy_reports(loaded, objects, ctx)
        click.echo(
            yaml.safe_dump_all(document, sort_keys=False)
            if fmt == "yaml"
            else json.dumps(document, indent=2)
        )
    elif fmt in ("json", "yaml"):
        document = [r.__dict__ for r in results]
        click.echo(
            json.dumps(document, indent=2)
            if fmt == "json"
            else yaml.safe_dump(document, sort_keys=False)
        )
    else:
        for r in results:
            where = f"{r.kind}/{r.namespace + '/' if r.namespace else ''}{r.name}"
            click.echo(f"{r.status.upper():5}  {r.policy}/{r.rule}  {where}  {r.message}")
    bad = sum(1 for r in results if r.status in ("fail", "error"))
    click.echo(f"{len(results)} result(s), {bad} fail/error", err=True)
    return ExitCode.FINDINGS if bad else ExitCode.OK
