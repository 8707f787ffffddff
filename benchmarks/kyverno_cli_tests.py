"""Agreement on material the project has never seen: the Kyverno repository's own CLI tests.

Give it a checkout of Kyverno's ``test/cli`` folder (they are never copied into this project):

    mkdir -p /tmp/kyverno-cli
    git -C <kyverno clone> archive HEAD test/cli | tar -x -C /tmp/kyverno-cli
    .venv/bin/python benchmarks/kyverno_cli_tests.py /tmp/kyverno-cli/test/cli

Every ``kyverno-test.yaml`` under the folder is run on its own with ``itbench kyverno test
<file> --format json`` in a subprocess with a timeout, as a user would run it. Prints one JSON
document: per test folder the expectations passed / failed / excluded / skipped / errors (or why
the run gave no document), the totals, and every non-passing outcome grouped by its reason with
a few concrete examples (folder, policy, rule, resource, expected, actual).

Kyverno's own CI expects three tests under ``test-fail/`` to fail (its check-cli-tests workflow
runs them with ``&& exit 1``): they are reported apart, and "agrees" there means our run failed
too. The other ``test-fail/`` folders are not run by that CI and count as ordinary tests.
The ``registry`` and ``scenarios_to_cli`` tests run with ``--registry`` in Kyverno's CI (image
data fetched from registries): offline they are expected to miss what the network would give.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

OUTCOMES = ("passed", "failed", "excluded", "skipped", "errors")
TEST_FILE = "kyverno-test.yaml"
#: test folders Kyverno's CI expects to fail (.github/workflows/check-cli-tests.yaml)
EXPECTED_TO_FAIL = frozenset(
    {"test-fail/missing-policy", "test-fail/missing-rule", "test-fail/missing-resource"}
)
#: top-level folders Kyverno's CI runs with ``--registry`` (network image data)
NEEDS_REGISTRY = frozenset({"registry", "scenarios_to_cli"})


@dataclass(frozen=True)
class FolderRun:
    """One test file's run: its counts, or the reason it gave no document."""

    folder: str
    exit_code: int | None
    seconds: float
    counts: dict[str, int] = field(default_factory=dict)
    results: list[dict[str, Any]] = field(default_factory=list)
    problem: str | None = None

    @property
    def top(self) -> str:
        return self.folder.split("/", 1)[0]


def itbench_command() -> list[str]:
    """The itbench next to this interpreter (the project's venv), else the one on PATH."""
    candidate = Path(sys.executable).parent / "itbench"
    return [str(candidate) if candidate.exists() else "itbench"]


def run_one(root: Path, test_file: Path, timeout: float) -> FolderRun:
    folder = str(test_file.parent.relative_to(root)) or "."
    started = time.perf_counter()
    try:
        proc = subprocess.run(
            [*itbench_command(), "kyverno", "test", str(test_file), "--format", "json"],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return FolderRun(folder, None, round(time.perf_counter() - started, 2), problem="timeout")
    seconds = round(time.perf_counter() - started, 2)
    try:
        document = json.loads(proc.stdout)
    except json.JSONDecodeError:
        lines = [line for line in proc.stderr.splitlines() if line.strip()]
        last = lines[-1] if lines else "(nothing on stderr)"
        return FolderRun(folder, proc.returncode, seconds, problem=f"no JSON document: {last}")
    results = [
        {**result, "folder": folder}
        for test in document.get("tests") or []
        for result in test.get("results") or []
    ]
    counts = {name: int((document.get("summary") or {}).get(name, 0)) for name in OUTCOMES}
    return FolderRun(folder, proc.returncode, seconds, counts, results)


_PATH = re.compile(r"(?:/[\w.@+-]+)+/?")
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
_WANT = re.compile(r"^(Want \w+, got \w+)(?::.*)?$", re.S)
_NUMBER = re.compile(r"\b\d+\b")
#: where an engine message names the policy file, policy and rule (before or after the problem)
_LOCATION_BEFORE = re.compile(r"^<root>\S*: policy [^,]+, rule [^:]+: ")
_LOCATION_AFTER = re.compile(r"\s*\(<root>[^()]*\)$")


def reason_group(reason: str, root: Path) -> str:
    """The reason with what varies per test (paths, quoted names, numbers, the message after
    "Want x, got y") taken out, so like problems count together."""
    text = reason.replace(str(root), "<root>")
    want = _WANT.match(text)
    if want:
        return want.group(1)
    text = _LOCATION_AFTER.sub("", _LOCATION_BEFORE.sub("", text))
    text = _PATH.sub("<path>", text)
    text = _QUOTED.sub("'…'", text)
    text = _NUMBER.sub("N", text)
    return " ".join(text.split())[:160]


def group_reasons(
    runs: list[FolderRun], root: Path, examples: int
) -> dict[str, list[dict[str, Any]]]:
    """outcome -> [{reason, count, examples}] over every non-passing expectation, largest first."""
    grouped: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for run in runs:
        for result in run.results:
            outcome = result.get("outcome", "")
            if outcome == "passed":
                continue
            reason = str(result.get("reason", ""))
            key = reason_group(reason, root)
            grouped.setdefault(outcome, {}).setdefault(key, []).append(
                {
                    "folder": run.folder,
                    **{
                        name: result.get(name)
                        for name in ("policy", "rule", "kind", "resource", "expected", "actual")
                    },
                    "reason": reason.replace(str(root), "<root>")[:300],
                }
            )
    report: dict[str, list[dict[str, Any]]] = {}
    for outcome in OUTCOMES[1:]:
        groups = grouped.get(outcome, {})
        report[outcome] = [
            {"reason": key, "count": len(items), "examples": _spread(items, examples)}
            for key, items in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
        ]
    return report


def _spread(items: list[dict[str, Any]], limit: int) -> list[dict[str, Any]]:
    """Up to ``limit`` examples, from different folders first."""
    chosen: list[dict[str, Any]] = []
    seen: set[str] = set()
    for item in items:
        if item["folder"] not in seen and len(chosen) < limit:
            chosen.append(item)
            seen.add(item["folder"])
    for item in items:
        if len(chosen) >= limit:
            break
        if item not in chosen:
            chosen.append(item)
    return chosen


def totals(runs: list[FolderRun]) -> dict[str, Any]:
    counts = Counter({name: 0 for name in OUTCOMES})
    for run in runs:
        counts.update(run.counts)
    evaluated = counts["passed"] + counts["failed"] + counts["excluded"] + counts["errors"]
    # errors the engine declares as features it does not have ("unsupported: ..."), apart from
    # wrong answers: the second agreement figure leaves them out of the denominator
    unsupported = sum(
        result.get("outcome") == "errors"
        and str(result.get("reason", "")).startswith("unsupported")
        for run in runs
        for result in run.results
    )
    supported = evaluated - unsupported
    return {
        "folders": len(runs),
        "folders_without_document": sum(run.problem is not None for run in runs),
        # a document with nothing counted: expectations the runner could not read as any
        "folders_without_expectations": sum(
            run.problem is None and not any(run.counts.values()) for run in runs
        ),
        **{name: counts[name] for name in OUTCOMES},
        "evaluated": evaluated,
        "agreement": round(counts["passed"] / evaluated, 4) if evaluated else None,
        "errors_unsupported": unsupported,
        "agreement_on_supported": round(counts["passed"] / supported, 4) if supported else None,
    }


def folder_row(run: FolderRun) -> dict[str, Any]:
    row: dict[str, Any] = {"folder": run.folder, "exit_code": run.exit_code, **run.counts}
    if run.folder in EXPECTED_TO_FAIL:
        row["kyverno_expects"] = "fail"
        row["agrees"] = run.exit_code not in (0, None)
    if run.top in NEEDS_REGISTRY:
        row["kyverno_runs_with"] = "--registry"
    if run.problem:
        row["problem"] = run.problem
    row["seconds"] = run.seconds
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path, help="a checkout of the Kyverno repository's test/cli")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per test (120)")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="tests run at once (2)")
    parser.add_argument("--examples", type=int, default=3, help="examples per reason (3)")
    args = parser.parse_args(argv)
    root: Path = args.root.resolve()
    if not root.is_dir():
        print(f"{args.root}: not a folder (give a checkout of Kyverno's test/cli)", file=sys.stderr)
        return 2
    test_files = sorted(root.rglob(TEST_FILE))
    if not test_files:
        print(f"{args.root}: no {TEST_FILE} under it", file=sys.stderr)
        return 2
    if args.jobs < 1 or args.timeout <= 0:
        parser.error("--jobs and --timeout must be positive")
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        runs = list(pool.map(lambda f: run_one(root, f, args.timeout), test_files))
    expected_pass = [run for run in runs if run.folder not in EXPECTED_TO_FAIL]
    expected_fail = [run for run in runs if run.folder in EXPECTED_TO_FAIL]
    print(
        json.dumps(
            {
                "benchmark": "kyverno_cli_tests",
                "root": str(root),
                "timeout_s": args.timeout,
                "wall_s": round(time.perf_counter() - started, 2),
                "totals": totals(expected_pass),
                "by_top_folder": {
                    top: totals([run for run in expected_pass if run.top == top])
                    for top in sorted({run.top for run in expected_pass})
                },
                "expected_to_fail": {
                    "folders": len(expected_fail),
                    "failed_as_kyverno_does": sum(
                        run.exit_code not in (0, None) for run in expected_fail
                    ),
                },
                "reasons": group_reasons(expected_pass, root, args.examples),
                "folders": [folder_row(run) for run in runs],
            },
            indent=2,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
