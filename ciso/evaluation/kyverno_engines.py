"""Kyverno background scans for evaluation: PolicyReports of policies over one environment.

``itbench`` (default) is our engine, run in a forked child with a time limit, with apiCall context
entries answered from the environment's own objects. ``kyverno-cli`` runs a ``kyverno`` executable
found on PATH (chosen when ITBENCH_KYVERNO_ENGINE=kyverno-cli, or automatically when one is on
PATH and the variable is unset).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import yaml

from ciso.evaluation.deadline import call_with_deadline
from itbench.errors import UsageError

ENGINE_VARIABLE = "ITBENCH_KYVERNO_ENGINE"
TIME_LIMIT_S = 60.0
#: Seconds one policy may spend on one resource in an evaluation's scan (see kyverno budget).
SCAN_BUDGET_S = 1.0


class ScanFailed(Exception):
    """The scan itself failed (time limit, crash, an unusable CLI answer). ``index``: which scan
    of a ``reports_many`` batch failed (None when it is not known or there was one)."""

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index


Scan = tuple[Sequence[dict[str, Any]], Sequence[dict[str, Any]]]


class KyvernoScanner(Protocol):
    # read-only: the scanners are frozen dataclasses or compute them
    @property
    def name(self) -> str: ...
    @property
    def version(self) -> str: ...

    def reports(
        self, policies: Sequence[dict[str, Any]], objects: Sequence[dict[str, Any]]
    ) -> list[dict[str, Any]]: ...

    def reports_many(self, scans: Sequence[Scan]) -> list[list[dict[str, Any]]]:
        """``reports`` of each (policies, objects) pair, in order; ScanFailed with the failed
        scan's ``index``."""
        ...


def one_by_one(scanner: KyvernoScanner, scans: Sequence[Scan]) -> list[list[dict[str, Any]]]:
    """``reports_many`` of a scanner that has no cheaper way than one ``reports`` per scan."""
    out = []
    for index, (policies, objects) in enumerate(scans):
        try:
            out.append(scanner.reports(policies, objects))
        except ScanFailed as exc:
            raise ScanFailed(str(exc), index) from None
    return out


def _our_scan(
    policies: list[dict[str, Any]], objects: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    from ciso.engines.kyverno import budget
    from ciso.engines.kyverno.reports import policy_reports
    from ciso.environments.api_calls import context_for
    from ciso.environments.kubernetes import cluster_view

    # a scenario's policy checks a handful of small objects in milliseconds; a hostile one must
    # not spend the trial's time limit over its environments
    with budget.limited(SCAN_BUDGET_S):
        resources = cluster_view(objects)
        return policy_reports(policies, resources, context_for(objects))


def _load_scan_modules() -> None:
    """Import the engine here, in the long-lived process, before each scan forks its child: what
    the child imports dies with it, and the engine's import (about 0.3 s) would be paid again by
    every scan of every trial."""
    import ciso.engines.kyverno.reports
    import ciso.environments.api_calls
    import ciso.environments.kubernetes  # noqa: F401 - imported for its side effect: it registers the Kubernetes kinds


def _our_scans(
    scans: list[tuple[list[dict[str, Any]], list[dict[str, Any]]]], progress: Any
) -> list[list[dict[str, Any]]]:
    """Each scan in turn; ``progress`` (shared with the parent) holds the index of the scan
    running, so a failure or a time limit names its scan."""
    out = []
    for index, (policies, objects) in enumerate(scans):
        progress.value = index
        out.append(_our_scan(policies, objects))
    return out


@dataclass(frozen=True)
class ItbenchScanner:
    #: None: the module's TIME_LIMIT_S when the scan starts.
    timeout_s: float | None = None
    name: str = "itbench-kyverno"

    @property
    def version(self) -> str:
        from itbench import __version__

        return __version__

    def reports(
        self, policies: Sequence[dict[str, Any]], objects: Sequence[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        from ciso.evaluation.deadline import ChildFailed, DeadlineExceeded

        _load_scan_modules()
        try:
            return call_with_deadline(
                _our_scan, list(policies), list(objects), timeout_s=self.timeout_s or TIME_LIMIT_S
            )
        except DeadlineExceeded as exc:
            raise ScanFailed(f"the policy scan {exc}") from None
        except ChildFailed as exc:
            raise ScanFailed(f"the policy scan failed: {exc}") from None

    def reports_many(self, scans: Sequence[Scan]) -> list[list[dict[str, Any]]]:
        """``reports`` of each (policies, objects) pair, in one forked child: a trial that scans
        a dozen environments pays one fork, not a dozen. Each scan keeps its own time limit (the
        child's limit is their sum) and its per-resource budget."""
        from ciso.evaluation.deadline import ChildFailed, DeadlineExceeded

        if not scans:
            return []
        _load_scan_modules()
        limit = (self.timeout_s or TIME_LIMIT_S) * len(scans)
        # shared memory the forked child writes: the scan it is on when it fails or runs out
        progress = multiprocessing.get_context("fork").Value("i", 0, lock=False)
        try:
            return call_with_deadline(
                _our_scans,
                [(list(p), list(o)) for p, o in scans],
                progress,
                timeout_s=limit,
            )
        except DeadlineExceeded as exc:
            raise ScanFailed(f"the policy scans {exc}", progress.value) from None
        except ChildFailed as exc:
            raise ScanFailed(f"the policy scan failed: {exc}", progress.value) from None


@dataclass(frozen=True)
class KyvernoCliScanner:
    """``kyverno apply <policies> --resource <resources> --policy-report`` per scan."""

    executable: str
    timeout_s: float = TIME_LIMIT_S
    name: str = "kyverno-cli"

    @property
    def version(self) -> str:
        try:
            out = subprocess.run(
                [self.executable, "version"], capture_output=True, text=True, timeout=10
            )
        except (OSError, subprocess.TimeoutExpired):
            return "unknown"
        return out.stdout.strip().splitlines()[0] if out.stdout.strip() else "unknown"

    def reports(
        self, policies: Sequence[dict[str, Any]], objects: Sequence[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        from ciso.environments.kubernetes import cluster_view

        with tempfile.TemporaryDirectory(prefix="itbench-kyverno-cli-") as scratch:
            policy_file = Path(scratch) / "policies.yaml"
            resource_file = Path(scratch) / "resources.yaml"
            policy_file.write_text(yaml.safe_dump_all(list(policies), sort_keys=True))
            resource_file.write_text(yaml.safe_dump_all(cluster_view(objects), sort_keys=True))
            argv = [
                self.executable,
                "apply",
                str(policy_file),
                "--resource",
                str(resource_file),
                "--policy-report",
            ]
            try:
                out = subprocess.run(
                    argv, capture_output=True, text=True, timeout=self.timeout_s, cwd=scratch
                )
            except subprocess.TimeoutExpired:
                raise ScanFailed(
                    f"kyverno apply did not finish within {self.timeout_s:g} s"
                ) from None
        # kyverno apply exits non-zero when policies fail: the report decides, not the exit code
        items = _report_documents(out.stdout)
        if items is None:
            raise ScanFailed(
                f"kyverno apply exited {out.returncode} without a report: "
                f"{(out.stderr or out.stdout).strip()[:500]}"
            )
        return [r for r in items if isinstance(r, dict)]

    def reports_many(self, scans: Sequence[Scan]) -> list[list[dict[str, Any]]]:
        return one_by_one(self, scans)


def _report_documents(stdout: str) -> list[Any] | None:
    """The report(s) ``kyverno apply --policy-report`` printed: JSON, or YAML after the CLI's
    progress lines ("Applying 1 policy rule(s) to 3 resource(s)...")."""
    try:
        document: Any = json.loads(stdout)
    except json.JSONDecodeError:
        lines = stdout.splitlines()
        start = next(
            (i for i, line in enumerate(lines) if line.startswith(("apiVersion:", "---"))), None
        )
        if start is None:
            return None
        try:
            documents = [d for d in yaml.safe_load_all("\n".join(lines[start:])) if d]
        except yaml.YAMLError:
            return None
        document = documents
    if isinstance(document, dict):
        document = (
            document.get("items", [document]) if document.get("kind") == "List" else [document]
        )
    if not isinstance(document, list):
        return None
    return [r for r in document if isinstance(r, dict)]


def select_scanner(preference: str | None = None) -> KyvernoScanner:
    choice = preference or os.environ.get(ENGINE_VARIABLE) or ""
    if choice in ("", "auto"):
        found = shutil.which("kyverno")
        return KyvernoCliScanner(found) if found else ItbenchScanner()
    if choice == "itbench":
        return ItbenchScanner()
    if choice == "kyverno-cli":
        found = shutil.which("kyverno")
        if found is None:
            raise UsageError(f"{ENGINE_VARIABLE}=kyverno-cli but no kyverno executable is on PATH")
        return KyvernoCliScanner(found)
    raise UsageError(f"{ENGINE_VARIABLE}={choice!r}: engines are itbench, kyverno-cli")
