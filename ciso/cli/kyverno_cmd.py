"""``itbench kyverno test|apply``: Kyverno's CLI commands on the Python engine."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import click
import yaml

from itbench import yamlsafe
from itbench.exitcodes import ExitCode

if TYPE_CHECKING:  # the engine loads only when a command runs
    from ciso.engines.kyverno.bulk import Rendered, Tally
    from ciso.engines.kyverno.values_file import Values


@click.group()
def kyverno() -> None:
    """Kyverno policies offline: run kyverno-test.yaml suites, apply policies to resources."""


@kyverno.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path, exists=True))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "json", "junit", "sarif"]),
    default="table",
    show_default=True,
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
    from ciso.cli.kyverno_test_formats import junit, sarif, shown_file
    from ciso.engines.kyverno.testrunner import run_tests

    report = run_tests(list(paths))
    summary = report.summary()
    agreement = report.agreement()
    verdict = report.verdict(strict=strict, allow_empty=allow_empty)
    for warning in verdict.warnings:
        click.echo(f"warning: {warning}", err=True)
    for f in report.files:
        if not f.error and not f.expectations:
            click.echo(f"warning: {f.file}: no expectation to check (results: is empty)", err=True)
    if fmt in ("junit", "sarif"):
        click.echo((junit if fmt == "junit" else sarif)(report, paths), nl=False)
    elif fmt == "json":
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
        header = ("FILE", "POLICY", "RULE", "RESOURCE", "EXPECTED", "ACTUAL", "OUTCOME", "REASON")
        rows: list[tuple[str, ...]] = []
        for f in report.files:
            shown = shown_file(f.file, paths)
            if f.error:
                rows.append((shown, "-", "-", "-", "-", "-", "error", f.error))
            for e in f.expectations:
                if detailed or e.outcome != "passed":
                    rows.append(
                        (
                            shown,
                            e.policy,
                            e.rule,
                            f"{e.kind}/{e.resource}",
                            e.expected,
                            e.actual or "-",
                            e.outcome,
                            table_reason(e.reason),
                        )
                    )
        if rows:
            # the reason comes last: it is the long column, and a terminal wraps only it
            table = [header, *rows]
            widths = [max(len(str(r[i])) for r in table) for i in range(len(header))]
            for row in table:
                click.echo("  ".join(str(c).ljust(widths[i]) for i, c in enumerate(row)).rstrip())
            click.echo()
        elif summary["passed"]:
            # an empty table would read as "nothing ran": say what did
            click.echo(
                f"all {summary['passed']} expectation(s) passed, in {len(report.files)} "
                "test file(s)"
            )
        counts = (
            f"{summary['passed']} passed, {summary['failed']} failed, "
            f"{summary['excluded']} excluded, {summary['skipped']} skipped, "
            f"{summary['errors']} errors"
        )
        if agreement is None:
            click.echo(f"{counts}: nothing evaluated (agreement n/a)")
        else:
            click.echo(f"{counts} (agreement {agreement:.1%})")
    for problem in verdict.problems:
        click.echo(f"fail: {problem}", err=True)
    return ExitCode.OK if verdict.ok else ExitCode.FINDINGS


_WANT_GOT = re.compile(r"^Want \S+, got \S+: ")


def table_reason(reason: str) -> str:
    """An expectation's reason for the table, on one line; "Want X, got Y: " is dropped, as the
    EXPECTED and ACTUAL columns say it."""
    return " ".join(_WANT_GOT.sub("", reason).split())


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
@click.option(
    "--parameter-resource",
    "parameter_resources",
    multiple=True,
    type=click.Path(path_type=Path, exists=True),
    help="Parameter objects a ValidatingAdmissionPolicyBinding's paramRef selects (repeatable).",
)
@click.option(
    "--target-resource",
    "target_resources",
    multiple=True,
    type=click.Path(path_type=Path, exists=True),
    help="Existing objects that mutate rules' targets (a MutatingPolicy's "
    "targetMatchConstraints) select: file or directory (repeatable).",
)
@click.option(
    "--values-file",
    "-f",
    "values_file",
    type=click.Path(path_type=Path, exists=True, dir_okay=False),
    help="Kyverno CLI values file: variables (globalValues, policies[].rules[].values, "
    "policies[].resources[].values; a rule's win over a resource's, a resource's over the "
    "global ones) and the labels of namespaces (its namespaceSelector and namespaces lists) that "
    "namespaceSelector filters read, over those of the Namespace objects among the resources.",
)
@click.option("--policy-report", is_flag=True, help="Print PolicyReports instead of rule results.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "json", "yaml"]),
    default="table",
    show_default=True,
)
@click.option(
    "--fail-on-empty",
    is_flag=True,
    help="Exit 1 when there is no policy, no resource, or no rule matched any resource.",
)
@click.option(
    "--budget",
    "budget_s",
    type=click.FloatRange(min=0.1),
    default=5.0,
    show_default=True,
    metavar="SECONDS",
    help="Time one policy may spend on one resource; past it the rule being evaluated and the "
    "policy's other rules on that resource are errors (every other result is kept).",
)
def apply(
    policies: tuple[Path, ...],
    resources: tuple[Path, ...],
    parameter_resources: tuple[Path, ...],
    target_resources: tuple[Path, ...],
    values_file: Path | None,
    policy_report: bool,
    fmt: str,
    fail_on_empty: bool,
    budget_s: float,
) -> int:
    """Apply POLICIES (and any PolicyExceptions among them) to resources; exit 1 when a rule
    fails or errors.

    No policy, no resource or nothing matched is a warning on stderr (a typo in a kind, or the
    wrong folder, would otherwise pass silently); --fail-on-empty makes it exit 1.
    """
    from ciso.engines.kyverno import budget, bulk, namespaces
    from ciso.engines.kyverno.engine import Context, policy_id
    from ciso.engines.kyverno.engine import apply as apply_policies
    from ciso.engines.kyverno.matching import Facts

    # before the workers fork (they read it too); restored when the command ends, so a caller
    # running the CLI in its own process keeps its budget
    click.get_current_context().with_resource(budget.limited(budget_s))
    from ciso.engines.kyverno.reports import policy_reports
    from ciso.engines.kyverno.scope import as_the_cli_reads_it
    from itbench.cluster.manifests import StderrProgress, iter_manifests, load_manifests_by_file

    loaded: list[dict] = []
    sources: dict[str, str] = {}
    for path in policies:
        for file, obj in load_manifests_by_file(path):
            loaded.append(obj)
            sources.setdefault(policy_id(obj), str(file))
    progress = StderrProgress()
    tally = bulk.Tally()
    stream = tally(
        as_the_cli_reads_it(obj) for r in resources for obj in iter_manifests(r, progress=progress)
    )
    # PolicyExceptions may come along with the policies, as with Kyverno's --exceptions
    exceptions = [o for o in loaded if o.get("kind") == "PolicyException"]
    params = [obj for path in parameter_resources for _, obj in load_manifests_by_file(path)]
    targets = [
        as_the_cli_reads_it(obj)
        for path in target_resources
        for _, obj in load_manifests_by_file(path)
    ]
    whole = policy_report or _generates(loaded)
    values = _values(values_file) if values_file else None
    given = dict(values.namespace_labels) if values else {}
    if whole:
        # reports aggregate over every resource, and generate rules clone from any of them:
        # these read the whole input at once
        objects = list(stream)
        labels = {**namespaces.from_objects(objects), **given}
        ctx = Context(objects=objects, exceptions=exceptions, params=params, targets=targets)
    else:
        # resources are independent: read, evaluate and print them a batch at a time; the
        # namespaces' labels are read first, only when a policy selects by them
        labels = dict(given)
        if _selects_namespaces(loaded):
            found = namespaces.from_objects(
                as_the_cli_reads_it(obj)
                for r in resources
                for obj in iter_manifests(r)
                if namespaces.is_namespace(obj)
            )
            labels = {**found, **given}
        ctx = Context(exceptions=exceptions, params=params, targets=targets)
    ctx.facts = Facts(namespace_labels=labels)
    if values is not None:
        ctx.global_values = dict(values.global_values)
        ctx.rule_values = dict(values.rule_values)
        ctx.resource_values = dict(values.resource_values)
    if policy_report:
        results = apply_policies(loaded, objects, ctx, sources=sources)
        document = policy_reports(loaded, objects, ctx)
        click.echo(
            yaml.safe_dump_all(document, sort_keys=False)
            if fmt == "yaml"
            else json.dumps(document, indent=2)
        )
        bad = sum(1 for r in results if r.status in ("fail", "error"))
        click.echo(f"{len(results)} result(s), {bad} fail/error", err=True)
        empty = _warn_if_empty(loaded, len(objects), len(results), policies, resources)
        return ExitCode.FINDINGS if bad or (empty and fail_on_empty) else ExitCode.OK
    apply_policies(loaded, [], ctx, sources=sources)  # a malformed policy fails before output
    job = bulk.BulkApply(loaded, ctx, sources, fmt)
    if whole:
        evaluated = bulk.evaluated(job, [objects])
    else:
        evaluated = bulk.evaluate_resources(job, resources, stream, tally, progress)
    return _print(evaluated, fmt, loaded, tally, policies, resources, fail_on_empty)


def _values(path: Path) -> Values:
    """A Kyverno CLI values file's values; a file that is not one is a usage error naming it,
    the entry and the field."""
    from ciso.engines.kyverno import values_file

    try:
        data = yamlsafe.load_one(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise click.UsageError(f"{path}: not a readable values file: {exc}") from None
    try:
        return values_file.read(data)
    except values_file.ValuesFileError as exc:
        raise click.UsageError(f"{path}: {exc}") from None


def _selects_namespaces(policies: list[dict]) -> bool:
    """Some policy has a namespaceSelector (the only reader of namespace labels)."""
    return "namespaceSelector" in json.dumps(policies, default=str)


def _print(
    evaluated: Iterable[Rendered],
    fmt: str,
    loaded: list[dict],
    tally: Tally,
    policies: tuple[Path, ...],
    resources: tuple[Path, ...],
    fail_on_empty: bool,
) -> int:
    """Print the rendered batches as one document, the summary on stderr; the exit code."""
    total = bad = 0
    first = True
    if fmt == "json":
        click.echo("[", nl=False)
    for batch in evaluated:
        total += batch.results
        bad += batch.failing
        if fmt == "json" and batch.results:
            # one array written piece by piece, indented as json.dumps(indent=2) writes it
            click.echo(("\n  " if first else ",\n  ") + batch.text, nl=False)
            first = False
        elif batch.text:
            click.echo(batch.text, nl=False)
    if fmt == "json":
        click.echo("]" if first else "\n]")
    elif fmt == "yaml" and total == 0:
        click.echo("[]")
    click.echo(f"{total} result(s), {bad} fail/error", err=True)
    empty = _warn_if_empty(loaded, tally.count, total, policies, resources)
    return ExitCode.FINDINGS if bad or (empty and fail_on_empty) else ExitCode.OK


def _warn_if_empty(
    loaded: list[dict],
    resource_count: int,
    result_count: int,
    policies: tuple[Path, ...],
    resources: tuple[Path, ...],
) -> bool:
    """Warn, naming the paths, when the apply checked nothing (a typo in a kind, or the wrong
    folder, would otherwise pass silently); True when it did."""
    from ciso.engines.kyverno.engine import EVALUATED_POLICY_KINDS

    policy_count = sum(1 for o in loaded if o.get("kind") in EVALUATED_POLICY_KINDS)
    if not policy_count:
        problem = f"no Kyverno policy ({', '.join(EVALUATED_POLICY_KINDS)}) in {_paths(policies)}"
    elif not resource_count:
        problem = f"no resource in {_paths(resources)}"
    elif not result_count:
        problem = (
            f"no rule of {policy_count} policy(ies) matched any of {resource_count} resource(s)"
            " (check match/exclude kinds, namespaces and selectors)"
        )
    else:
        return False
    click.echo(f"warning: {problem}", err=True)
    return True


def _paths(paths: tuple[Path, ...]) -> str:
    return ", ".join(str(p) for p in paths)


def _generates(policies: list[dict]) -> bool:
    return any(
        "generate" in rule for p in policies for rule in (p.get("spec") or {}).get("rules") or []
    )
