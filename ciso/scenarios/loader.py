"""Finding and loading CISO scenarios: the built-in suite, a directory of scenarios in any of the
three layouts, or ids of the built-in suite.

A scenario directory is recognised by its marker file: ``scenario.yaml`` (ours), ``info.json``
(an ITBench live bundle) or ``problem.md`` beside ``static-resources/`` (ITBench-Lite). Below a
scenario directory nothing more is searched (its environments hold manifests, not scenarios). A
malformed scenario is reported with its file and field and the others still load.
"""

from __future__ import annotations

import contextlib
import dataclasses
import difflib
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ciso.scenarios.bundles import is_bundle, load_bundle
from ciso.scenarios.format import SCENARIO_FILE, load_scenario_dir
from ciso.scenarios.lite import is_lite, load_lite
from ciso.scenarios.model import CisoScenario
from ciso.scenarios.public import to_benchmark_scenario
from ciso.scenarios.reference import builtin_solution
from itbench.errors import InputError, UsageError
from itbench.models import Scenario

#: Origins as ``itbench ciso scenarios`` shows them.
BUILTIN = "itbench-ciso"
USER = "user"
_SKIPPED_DIRS = {"__pycache__", "node_modules"}


@dataclass(frozen=True)
class LoadProblem:
    """A scenario directory that did not load, and why (the message names file and field)."""

    directory: Path
    message: str
    duplicate: bool = False


@dataclass(frozen=True)
class LoadResult:
    scenarios: tuple[CisoScenario, ...]
    problems: tuple[LoadProblem, ...]


def suite_dir() -> Path:
    """The built-in suite, beside the installed ``ciso`` package (a checkout or a wheel)."""
    return Path(__file__).resolve().parent.parent / "suite"


def _reader(directory: Path) -> Callable[[Path], list[CisoScenario]] | None:
    if (directory / SCENARIO_FILE).is_file():
        return load_scenario_dir
    if is_bundle(directory):
        return load_bundle
    if is_lite(directory):
        return load_lite
    return None


def discover(root: Path) -> list[Path]:
    """Scenario directories under ``root`` (``root`` itself included), sorted, recursively."""
    found: list[Path] = []
    for current, dirs, _files in os.walk(root):
        here = Path(current)
        if _reader(here) is not None:
            found.append(here)
            dirs[:] = []  # a scenario's own folders are environments, not scenarios
            continue
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIPPED_DIRS)
    return sorted(found)


def load_directory(
    root: Path, adjust: Callable[[CisoScenario], CisoScenario] | None = None
) -> LoadResult:
    """Every scenario under ``root``; problems are collected, not raised."""
    scenarios: list[CisoScenario] = []
    problems: list[LoadProblem] = []
    first_seen: dict[str, Path] = {}
    for directory in discover(root.resolve()):
        reader = _reader(directory)
        assert reader is not None  # discover() returned it for that reason
        try:
            loaded = reader(directory)
        except InputError as exc:
            problems.append(LoadProblem(directory, str(exc)))
            continue
        base_id = loaded[0].base_id
        if base_id in first_seen:
            problems.append(
                LoadProblem(
                    directory,
                    f"duplicate scenario id {base_id!r}: {first_seen[base_id]} and {directory}",
                    duplicate=True,
                )
            )
            continue
        first_seen[base_id] = directory
        scenarios.extend(adjust(s) if adjust else s for s in loaded)
    return LoadResult(tuple(scenarios), tuple(problems))


def _as_builtin(scenario: CisoScenario) -> CisoScenario:
    # built-in answers live in the reference packages, not in a solution/ folder
    solution = builtin_solution(
        scenario.base_id, scenario.scenario_class, scenario.migration_target
    )
    metadata = {k: v for k, v in scenario.metadata.items() if k != "reference_note"}
    if not solution:
        metadata["reference_note"] = "its reference files are missing from the reference packages"
    return dataclasses.replace(scenario, solution=solution, origin=BUILTIN, metadata=metadata)


def _as_user(scenario: CisoScenario) -> CisoScenario:
    if scenario.origin == BUILTIN:  # our scenario.yaml format, written by a user
        return dataclasses.replace(scenario, origin=USER)
    return scenario


def load_builtin() -> LoadResult:
    return load_directory(suite_dir(), _as_builtin)


def _select(result: LoadResult, selection: str) -> LoadResult:
    wanted = [w.strip() for w in selection.split(",") if w.strip()]
    if not wanted:
        raise UsageError("--scenarios: no scenario id given")
    known_ids = [s.id for s in result.scenarios]
    known_bases = sorted({s.base_id for s in result.scenarios})
    chosen: list[CisoScenario] = []
    for word in wanted:
        matches = [s for s in result.scenarios if word in (s.id, s.base_id)]
        if not matches:
            close = difflib.get_close_matches(word, known_bases + known_ids, n=5, cutoff=0.5)
            hint = f"; did you mean: {', '.join(close)}" if close else ""
            raise UsageError(
                f"unknown CISO scenario {word!r} (not a directory, not a built-in id){hint}; "
                "`itbench ciso scenarios` lists the built-in suite; for your own scenarios: "
                "--scenarios DIR --select ID.CLASS"
            )
        chosen.extend(s for s in matches if s not in chosen)
    return LoadResult(tuple(chosen), ())


def load_ciso_scenarios(selection: str | None) -> LoadResult:
    """(scenarios, problems) for ``--scenarios``: None -> the built-in suite; a directory ->
    everything under it; otherwise comma-separated built-in ids (``<id>`` or ``<id>.<class>``)."""
    if selection is None:
        return load_builtin()
    path = Path(selection).expanduser()
    if _is_dir(path):
        # A folder inside the built-in suite (`--scenarios ciso/suite/rhel9`) is still built-in:
        # its answers are in the reference packages, not in solution/ folders.
        suite = suite_dir().resolve()
        inside_suite = path.resolve() == suite or suite in path.resolve().parents
        return load_directory(path, _as_builtin if inside_suite else _as_user)
    if _exists(path):
        raise UsageError(f"{selection}: not a directory (give a folder of scenarios or ids)")
    if os.sep in selection or selection.startswith("."):
        raise UsageError(f"{selection}: no such directory")
    builtin = load_builtin()
    _warn(builtin.problems)
    return _select(builtin, selection)


def _is_dir(path: Path) -> bool:
    # A long list of ids is no path: the OS refuses it ("File name too long"), which is an answer.
    try:
        return path.is_dir()
    except OSError:
        return False


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except OSError:
        return False


def _warn(problems: Sequence[LoadProblem]) -> None:
    for problem in problems:
        print(f"warning: skipped scenario: {problem.message}", file=sys.stderr)


def load_benchmark_scenarios(selection: str | None) -> list[Scenario]:
    """The benchmark scenarios the runner uses (one per scenario and class); malformed scenarios
    are warnings on stderr, duplicate ids an error."""
    result = load_ciso_scenarios(selection)
    duplicates = [p for p in result.problems if p.duplicate]
    if duplicates:
        raise InputError(duplicates[0].message)
    if selection is not None and not result.scenarios and not result.problems:
        raise UsageError(
            f"{selection}: no CISO scenario found (looked for scenario.yaml, info.json with "
            "scenario_type, problem.md beside static-resources/)"
        )
    _warn(result.problems)
    scenarios = _with_valid_names(result.scenarios)
    _warn_refusals(scenarios)
    return [to_benchmark_scenario(s) for s in scenarios]


def _with_valid_names(scenarios: Sequence[CisoScenario]) -> list[CisoScenario]:
    """The scenarios whose environments hold only objects a cluster can hold: one with an
    invalid object name (``Bad_Name``) is skipped with a warning naming the file, the object and
    the field, as a real API server refuses it (the offline cluster refuses to load it too)."""
    from ciso.environments.kubernetes import invalid_names
    from ciso.scenarios.model import Platform

    kept = []
    for scenario in scenarios:
        problems: list[str] = []
        if scenario.platform is Platform.KUBERNETES:
            for source in dict.fromkeys(s for s in (scenario.violating, scenario.compliant) if s):
                # an unreadable environment: the evaluation reports it itself
                with contextlib.suppress(InputError):
                    problems += invalid_names(source)
        if problems:
            extra = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            message = f"{scenario.base_id}: {problems[0]}{extra}"
            print(f"warning: skipped scenario: {message}", file=sys.stderr)
            continue
        kept.append(scenario)
    return kept


def _warn_refusals(scenarios: Sequence[CisoScenario]) -> None:
    """Warn about objects of a Kubernetes environment a real API server would refuse (live mode
    could not deploy them; the offline cluster serves them all the same)."""
    from ciso.environments.kubernetes import real_cluster_refusals
    from ciso.scenarios.model import Platform
    from itbench.cluster import load_manifests

    seen: set[Path] = set()
    for scenario in scenarios:
        if scenario.platform is not Platform.KUBERNETES:
            continue
        for label, source in (("violating", scenario.violating), ("compliant", scenario.compliant)):
            if source is None or source in seen:
                continue
            seen.add(source)
            try:
                objects = load_manifests(source)
            except InputError:
                continue  # the evaluation reports an unreadable environment itself
            for line in real_cluster_refusals(objects):
                print(f"warning: scenario {scenario.base_id} ({label}): {line}", file=sys.stderr)
