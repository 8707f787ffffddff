"""``itbench kyverno test|apply``: Kyverno's CLI commands on the Python engine."""

from __future__ import annotations

import collections
import concurrent.futures
import concurrent.futures.process
import itertools
import json
import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import click
import yaml

from itbench.errors import InputError, ItbenchError
from itbench.exitcodes import ExitCode

if TYPE_CHECKING:  # the engine loads only when a command runs
    from ciso.engines.kyverno.model import Context
    from itbench.cluster.manifests import StderrProgress
    from itbench.yamlsafe import Progress


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
    from ciso.engines.kyverno import budget
    from ciso.engines.kyverno.engine import Context, policy_id
    from ciso.engines.kyverno.engine import apply as apply_policies

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
    tally = _Tally()
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
    # a large input is read by the workers themselves, a range of documents each
    ranges = None if whole or _workers() < 2 else _ranges(resources)
    if ranges is not None:
        ctx = Context(exceptions=exceptions, params=params, targets=targets)
        apply_policies(loaded, [], ctx, sources=sources)  # a malformed policy fails first
        evaluated = _evaluated_ranges(loaded, ranges, ctx, sources, fmt, tally, progress)
        return _print(evaluated, fmt, loaded, tally, policies, resources, fail_on_empty)
    if whole:
        # reports aggregate over every resource, and generate rules clone from any of them:
        # these read the whole input at once
        objects = list(stream)
        ctx = Context(objects=objects, exceptions=exceptions, params=params, targets=targets)
        batches: Iterable[list[dict]] = [objects]
    else:
        # resources are independent: read, evaluate and print them a batch at a time
        ctx = Context(exceptions=exceptions, params=params, targets=targets)
        batches = _batches(stream, BATCH)
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
    evaluated = _evaluated(loaded, batches, ctx, sources, fmt)
    return _print(evaluated, fmt, loaded, tally, policies, resources, fail_on_empty)


def _print(
    evaluated: Iterable[tuple[str, int, int]],
    fmt: str,
    loaded: list[dict],
    tally: _Tally,
    policies: tuple[Path, ...],
    resources: tuple[Path, ...],
    fail_on_empty: bool,
) -> int:
    """Print the rendered batches as one document, the summary on stderr; the exit code."""
    total = bad = 0
    first = True
    if fmt == "json":
        click.echo("[", nl=False)
    for text, count, failing in evaluated:
        total += count
        bad += failing
        if fmt == "json" and count:
            # one array written piece by piece, indented as json.dumps(indent=2) writes it
            click.echo(("\n  " if first else ",\n  ") + text, nl=False)
            first = False
        elif text:
            click.echo(text, nl=False)
    if fmt == "json":
        click.echo("]" if first else "\n]")
    elif fmt == "yaml" and total == 0:
        click.echo("[]")
    click.echo(f"{total} result(s), {bad} fail/error", err=True)
    empty = _warn_if_empty(loaded, tally.count, total, policies, resources)
    return ExitCode.FINDINGS if bad or (empty and fail_on_empty) else ExitCode.OK


class _Tally:
    """Counts what passes through a stream (the resources are read once, lazily)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, items: Iterable[dict]) -> Iterator[dict]:
        for item in items:
            self.count += 1
            yield item


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


#: Resources evaluated and printed together when streaming.
BATCH = 2000


def _batches(items: Iterable[dict], size: int) -> Iterator[list[dict]]:
    batch: list[dict] = []
    for item in items:
        batch.append(item)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def _generates(policies: list[dict]) -> bool:
    return any(
        "generate" in rule for p in policies for rule in (p.get("spec") or {}).get("rules") or []
    )


#: Most worker processes ``kyverno apply`` evaluates batches in (never more than the CPUs).
MAX_WORKERS = 4
#: Batches handed out ahead of the one being printed, per worker: keeps the workers busy while
#: bounding what is held in memory (the input is read lazily, so a large file stays streamed).
AHEAD_PER_WORKER = 2


def _render(rows: list[tuple], fmt: str) -> tuple[str, int, int]:
    """A batch's results (``engine.apply_rows``) as printed (JSON: its array items joined,
    without the leading separator), with the number of results and of fail/error ones. The
    text is what rendering each RuleResult's ``__dict__`` gives: its fields, in order."""
    from ciso.engines.kyverno.engine import ROW_FIELDS

    status = ROW_FIELDS.index("status")
    bad = sum(1 for r in rows if r[status] in ("fail", "error"))
    if fmt == "json":
        text = ",\n  ".join(
            json.dumps(dict(zip(ROW_FIELDS, r, strict=True)), indent=2).replace("\n", "\n  ")
            for r in rows
        )
    elif fmt == "yaml":
        text = (
            yaml.safe_dump([dict(zip(ROW_FIELDS, r, strict=True)) for r in rows], sort_keys=False)
            if rows
            else ""
        )
    else:
        text = "".join(
            f"{s.upper():5}  {policy}/{rule}  {kind}/{ns + '/' if ns else ''}{name}  {message}\n"
            for policy, rule, kind, ns, name, s, message, *_ in rows
        )
    return text, len(rows), bad


# what a worker process evaluates every batch with (set once per worker by _start_worker)
_WORKER: dict = {}


def _start_worker(policies: list[dict], ctx: Context, sources: dict[str, str], fmt: str) -> None:
    _WORKER.update(policies=policies, ctx=ctx, sources=sources, fmt=fmt)


def _work(batch: list[dict]) -> tuple[str, int, int]:
    from ciso.engines.kyverno.engine import apply_rows

    rows = apply_rows(_WORKER["policies"], batch, _WORKER["ctx"], sources=_WORKER["sources"])
    return _render(rows, _WORKER["fmt"])


def _workers() -> int:
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, MAX_WORKERS))


def _evaluated(
    policies: list[dict],
    batches: Iterable[list[dict]],
    ctx: Context,
    sources: dict[str, str],
    fmt: str,
) -> Iterator[tuple[str, int, int]]:
    """Every batch evaluated and rendered, in input order. Resources are independent, so with
    more than one batch and more than one CPU the batches go to a pool of worker processes (this
    process keeps reading the input); a single batch is evaluated here, sparing the pool's
    start-up."""
    from ciso.engines.kyverno.engine import apply_rows

    pending = iter(batches)
    head = list(itertools.islice(pending, 2))
    workers = _workers()
    if len(head) < 2 or workers < 2:
        for batch in itertools.chain(head, pending):
            yield _render(apply_rows(policies, batch, ctx, sources=sources), fmt)
        return
    with concurrent.futures.ProcessPoolExecutor(
        max_workers=workers,
        initializer=_start_worker,
        initargs=(policies, ctx, sources, fmt),
    ) as pool:
        ahead: collections.deque[concurrent.futures.Future] = collections.deque()
        for batch in itertools.chain(head, pending):
            ahead.append(pool.submit(_work, batch))
            if len(ahead) >= workers * AHEAD_PER_WORKER:
                yield _result(ahead.popleft())
        while ahead:
            yield _result(ahead.popleft())


#: Inputs smaller than this are read here, in one pass, as they always were.
SPLIT_BYTES = 1 << 20
#: A range to read, evaluate and render: (file, first byte, end byte, documents).
Range = tuple[Path, int, int, int]


def _ranges(resources: tuple[Path, ...]) -> list[Range] | None:
    """The resource files cut into ranges of BATCH documents that the workers read themselves,
    sparing this process the parsing and the pickling of every object; None (read here, as a
    stream) for a small input or a file that cannot be cut (see ``file_ranges``)."""
    from itbench.cluster.manifests import file_ranges, manifest_files

    files = [path for source in resources for path in manifest_files(source)]
    if sum(path.stat().st_size for path in files) < SPLIT_BYTES:
        return None
    ranges: list[Range] = []
    for path in files:
        cut = file_ranges(path, BATCH)
        if cut is None:
            return None
        ranges += [(path, *piece) for piece in cut]
    # the streamed batches run across files: only full ranges keep them aligned
    return ranges if all(task[3] == BATCH for task in ranges[:-1]) else None


def _work_range(task: Range) -> tuple[str, int, int, int] | None:
    """A worker's range read, evaluated and rendered, with the number of resources read; None
    when the range is not BATCH resources of one document each (the batches, and so the
    order of the results, would differ from the streamed reading's)."""
    from ciso.engines.kyverno.engine import apply_rows
    from ciso.engines.kyverno.scope import as_the_cli_reads_it
    from itbench.cluster.manifests import objects_in_range

    found = objects_in_range(*task)
    if found is None:
        return None
    objects = [as_the_cli_reads_it(obj) for obj in found]
    rows = apply_rows(_WORKER["policies"], objects, _WORKER["ctx"], sources=_WORKER["sources"])
    return (*_render(rows, _WORKER["fmt"]), len(objects))


def _evaluated_ranges(
    policies: list[dict],
    ranges: list[Range],
    ctx: Context,
    sources: dict[str, str],
    fmt: str,
    tally: _Tally,
    progress: StderrProgress,
) -> Iterator[tuple[str, int, int]]:
    """As ``_evaluated``, each worker reading its own ranges of the input, in input order. Every
    range is a batch of BATCH resources (the last one of a file may hold fewer), so the results
    come in the streamed reading's order; from a range that is not (a List, a null document),
    the rest is read here as a stream, in batches that are again aligned."""
    from ciso.engines.kyverno.scope import as_the_cli_reads_it
    from itbench.cluster.manifests import iter_file

    reporters: dict[Path, Progress] = {}
    documents: collections.Counter[Path] = collections.Counter()
    rest: list[Range] = []
    with concurrent.futures.ProcessPoolExecutor(
        max_workers=_workers(),
        initializer=_start_worker,
        initargs=(policies, ctx, sources, fmt),
    ) as pool:
        ahead: collections.deque[tuple[Range, concurrent.futures.Future]] = collections.deque()
        pending = iter(ranges)
        while True:
            for task in itertools.islice(pending, _workers() * AHEAD_PER_WORKER - len(ahead)):
                ahead.append((task, pool.submit(_work_range, task)))
            if not ahead:
                break
            task, future = ahead.popleft()
            path = task[0]
            try:
                done = _result(future)
            except InputError:
                _reread(path)
                raise
            if done is None:
                rest = [task, *(t for t, _ in ahead), *pending]
                for _, later in ahead:
                    later.cancel()
                break
            text, count, failing, read = done
            tally.count += read
            documents[path] += read
            if path not in reporters:
                reporters[path] = progress.for_file(path)
            reporters[path](task[2], path.stat().st_size, documents[path])
            yield text, count, failing
    if not rest:
        return
    # the streamed reading from the first range that could not be read apart, in batches
    path, start = rest[0][0], rest[0][1]
    files = [path, *dict.fromkeys(t[0] for t in rest if t[0] != path)]

    def stream() -> Iterator[dict]:
        for number, file in enumerate(files):
            try:
                yield from iter_file(file, progress, start if number == 0 else 0)
            except InputError:
                _reread(file)
                raise

    batches = _batches(tally(as_the_cli_reads_it(obj) for obj in stream()), BATCH)
    yield from _evaluated(policies, batches, ctx, sources, fmt)


def _reread(path: Path) -> None:
    """Read ``path`` as a whole, for the error message naming the document and the line within
    the file (a range's or a partial reading's would count from where it started)."""
    from itbench.cluster.manifests import iter_file

    for _ in iter_file(path):
        pass


def _result(batch: concurrent.futures.Future) -> tuple:
    try:
        return batch.result()
    except concurrent.futures.process.BrokenProcessPool:
        raise ItbenchError(
            "kyverno apply: a worker process evaluating resources ended abruptly (killed, or out "
            "of memory); nothing after the results printed so far was evaluated"
        ) from None
