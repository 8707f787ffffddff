"""``itbench leaderboard``: runs of several agents and models ranked side by side.

One :class:`LeaderRow` per run (agent/model) per domain, one per run and scenario class, and a
:class:`ScenarioReliability` per scenario. Runs are read with the report's reader
(:func:`itbench.report.model.summarize`) and pass@k is :mod:`itbench.scoring.passk`'s.

Choices a reader should know:

- **A trial passes** when the run's verdict metric (its primary metric, else the first pass@1 one)
  is exactly 1, the rule ``statistics`` uses for pass@1; an errored trial (bad run) fails.
- **The 95% interval of pass@1 is a Wilson score interval over scenarios**: p is the mean of the
  per-scenario pass rates and n the number of scenarios. Trials of one scenario are not
  independent (a hard scenario fails every time), so counting trials as n would claim a precision
  the suite does not have; Wilson rather than the normal interval because small suites often sit
  at 0% or 100%, where the normal interval collapses to a point. It is closed-form, so 20 runs of
  110 scenarios rank in milliseconds (a bootstrap would cost thousands of resamples per row).
- **Domains are never mixed in one table**: runs are grouped by ``config.domain``, one table per
  domain, since their primary metrics measure different things.
- **A run whose agent ran unsandboxed** (``--agent-sandbox off``: ``config.unsandboxed_trials``
  or an ``unsandboxed`` raw result) is refused: it could read the reference answers.
- **An LLM judge's cost** (``judge_usage`` of a raw result) is shown apart from the agent's.
- **Usage** comes from each raw result's ``usage`` (written by the runner since this command
  existed); a run with none of it is marked ``no LLM`` and counts zero cost, not a blank.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from itbench.errors import InputError, UsageError
from itbench.report.model import natural_key, summarize
from itbench.scoring.document import ResultsDocument
from itbench.scoring.passk import mean_pass_at_k
from itbench.scoring.results import load_results_file

#: z of a two-sided 95% interval.
_Z95 = 1.959963984540054


@dataclass(frozen=True)
class TrialOutcome:
    scenario: str
    scenario_class: str
    passed: bool
    errored: bool
    cost_usd: float
    judge_cost_usd: float
    tokens: int
    llm_calls: int
    tool_calls: int
    wall_s: float


@dataclass(frozen=True)
class Run:
    """One run as the leaderboard sees it."""

    name: str
    source: str
    domain: str
    agent: str
    model: str | None
    primary_metric: str | None
    #: the primary metric's mean over scenarios, bad runs counted as 0
    primary_value: float | None
    #: True when any trial reported usage (an LLM was called)
    has_usage: bool
    #: True when an LLM judge scored the trials (its cost is not the agent's)
    has_judge: bool
    outcomes: tuple[TrialOutcome, ...]


@dataclass(frozen=True)
class LeaderRow:
    """One run (or one class of a run) on the board."""

    run: str
    agent: str
    model: str | None
    domain: str
    scenario_class: str
    scenarios: int
    trials: int
    pass_at_1: float
    interval: tuple[float, float]
    #: k -> pass@k for k = 1 .. fewest trials of any scenario
    pass_at_k: dict[int, float]
    primary_metric: str | None
    primary_value: float | None
    has_usage: bool
    has_judge: bool
    cost_per_task: float
    #: what the LLM judge cost per task (evaluation, not the agent)
    judge_cost_per_task: float
    cost_per_success: float | None
    tokens_per_task: float
    turns_per_task: float
    tool_calls_per_task: float
    wall_s_per_task: float
    bad_runs: int


@dataclass(frozen=True)
class ScenarioReliability:
    domain: str
    scenario: str
    scenario_class: str
    #: run name -> (trials, passes)
    per_run: dict[str, tuple[int, int]]

    @property
    def flaky_runs(self) -> tuple[str, ...]:
        """Runs in which this scenario both passed and failed."""
        return tuple(r for r, (n, c) in self.per_run.items() if 0 < c < n)

    @property
    def solved_by_none(self) -> bool:
        return all(c == 0 for _, c in self.per_run.values())

    @property
    def solved_by_all(self) -> bool:
        return all(n > 0 and c == n for n, c in self.per_run.values())


@dataclass(frozen=True)
class Leaderboard:
    #: domain -> rows sorted by primary metric, then pass@1 (best first)
    overall: dict[str, tuple[LeaderRow, ...]]
    #: domain -> per-class rows, by class then rank
    by_class: dict[str, tuple[LeaderRow, ...]]
    reliability: dict[str, tuple[ScenarioReliability, ...]]
    min_trials: int
    notes: tuple[str, ...] = field(default=())


def wilson_interval(p: float, n: int, z: float = _Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion p observed over n units."""
    if n <= 0:
        return (0.0, 1.0)
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def results_path(path: Path) -> Path:
    """The results file of RUN_DIR (a run folder holding ``results.json``, or the file itself)."""
    if path.is_dir():
        candidate = path / "results.json"
        if not candidate.is_file():
            raise UsageError(f"{path}: not a run folder (no results.json in it)")
        return candidate
    if path.is_file():
        return path
    raise UsageError(f"{path}: no such run folder or results file")


def load_run(path: Path) -> list[Run]:
    """Every run in RUN_DIR (an AgentBeats file may hold several)."""
    file = results_path(path)
    loaded = load_results_file(file)
    return [_run(document, file, i) for i, document in enumerate(loaded.documents)]


def _run(document: ResultsDocument, file: Path, index: int) -> Run:
    config = document.config
    summary = summarize(document, str(file), str(file))
    where = f"{file}" + (f" (document {index})" if index else "")
    if not config.domain:
        raise InputError(f"{where}: config.domain is missing; cannot tell which table it joins")
    unsandboxed = (config.model_extra or {}).get("unsandboxed_trials") or sum(
        1 for entry in document.raw_results if isinstance(entry, dict) and entry.get("unsandboxed")
    )
    if unsandboxed:
        # the agent could read the reference answers: its scores prove nothing
        raise InputError(
            f"{where}: {unsandboxed} trial(s) ran with --agent-sandbox off (marked unsandboxed): "
            "a leaderboard does not rank them"
        )
    verdict = summary.verdict_metric()
    if verdict is None:
        raise InputError(f"{where}: no primary metric and no pass@1 metric to rank on")
    agent = config.agent or "unknown-agent"
    primary = config.primary_metric or verdict
    overall = document.statistics.overall.metrics.get(primary)
    primary_value = None
    if overall is not None:
        primary_value = (
            overall.mean_with_failures_as_zero
            if overall.mean_with_failures_as_zero is not None
            else overall.mean
        )
    outcomes = []
    has_usage = has_judge = False
    for trial, entry in zip(summary.trials, document.raw_results, strict=True):
        usage = entry.get("usage")
        usage = usage if isinstance(usage, dict) else {}
        has_usage = has_usage or bool(usage)
        judge = entry.get("judge_usage")
        judge = judge if isinstance(judge, dict) else {}
        has_judge = has_judge or bool(judge)
        duration = entry.get("duration_s")
        outcomes.append(
            TrialOutcome(
                scenario=trial.scenario,
                scenario_class=trial.scenario_class,
                passed=trial.error is None and trial.scores.get(verdict) == 1,
                errored=trial.error is not None,
                cost_usd=_num(usage.get("cost_usd")),
                judge_cost_usd=_num(judge.get("cost_usd")),
                tokens=int(_num(usage.get("prompt_tokens")) + _num(usage.get("completion_tokens"))),
                llm_calls=int(_num(usage.get("llm_calls"))),
                tool_calls=int(_num(usage.get("tool_calls"))),
                wall_s=_num(duration),
            )
        )
    name = f"{agent}/{config.model}" if config.model else agent
    return Run(
        name=name,
        source=str(file),
        domain=config.domain,
        agent=agent,
        model=config.model,
        primary_metric=primary,
        primary_value=primary_value,
        has_usage=has_usage,
        has_judge=has_judge,
        outcomes=tuple(outcomes),
    )


def _num(value: Any) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def build_leaderboard(paths: Sequence[Path], min_trials: int = 1) -> Leaderboard:
    runs = [run for path in paths for run in load_run(path)]
    runs = _distinct_names(runs)
    for run in runs:
        counts: dict[str, int] = {}
        for outcome in run.outcomes:
            counts[outcome.scenario] = counts.get(outcome.scenario, 0) + 1
        short = [s for s, n in counts.items() if n < min_trials]
        if short:
            raise InputError(
                f"{run.source}: scenario {sorted(short, key=natural_key)[0]} has "
                f"{counts[sorted(short, key=natural_key)[0]]} trial(s), fewer than "
                f"--min-trials {min_trials} ({len(short)} such scenario(s))"
            )
    domains: dict[str, list[Run]] = {}
    for run in runs:
        domains.setdefault(run.domain, []).append(run)
    overall: dict[str, tuple[LeaderRow, ...]] = {}
    by_class: dict[str, tuple[LeaderRow, ...]] = {}
    reliability: dict[str, tuple[ScenarioReliability, ...]] = {}
    for domain in sorted(domains):
        members = domains[domain]
        rows = [_row(run, run.outcomes, "all", run.primary_value) for run in members]
        overall[domain] = tuple(sorted(rows, key=_rank))
        order = {row.run: i for i, row in enumerate(overall[domain])}
        class_rows = []
        for run in members:
            classes: dict[str, list[TrialOutcome]] = {}
            for outcome in run.outcomes:
                classes.setdefault(outcome.scenario_class, []).append(outcome)
            for cls, outcomes in classes.items():
                class_rows.append(_row(run, outcomes, cls, None))
        by_class[domain] = tuple(
            sorted(class_rows, key=lambda r: (natural_key(r.scenario_class), order[r.run]))
        )
        reliability[domain] = _reliability(domain, members)
    return Leaderboard(overall, by_class, reliability, min_trials)


def _distinct_names(runs: list[Run]) -> list[Run]:
    """Two runs of one agent and model (two dates, two seeds) are told apart by their folder."""
    from dataclasses import replace

    names = [(r.domain, r.name) for r in runs]
    return [
        replace(r, name=f"{r.name} ({Path(r.source).parent.name or r.source})")
        if names.count((r.domain, r.name)) > 1
        else r
        for r in runs
    ]


def _rank(row: LeaderRow) -> tuple[float, float, str]:
    primary = row.primary_value if row.primary_value is not None else row.pass_at_1
    return (-primary, -row.pass_at_1, row.run)


def _row(
    run: Run, outcomes: Sequence[TrialOutcome], scenario_class: str, primary_value: float | None
) -> LeaderRow:
    per_scenario: dict[str, list[int]] = {}  # scenario -> [trials, passes]
    for outcome in outcomes:
        counts = per_scenario.setdefault(outcome.scenario, [0, 0])
        counts[0] += 1
        counts[1] += outcome.passed
    pairs = [(n, c) for n, c in per_scenario.values()]
    scenarios = len(pairs)
    trials = len(outcomes)
    fewest = min((n for n, _ in pairs), default=0)
    pass_at_k = {k: mean_pass_at_k(pairs, k) for k in range(1, fewest + 1)}
    pass_1 = pass_at_k.get(1, 0.0)
    successes = sum(o.passed for o in outcomes)
    cost = math.fsum(o.cost_usd for o in outcomes)
    if primary_value is None:  # a class: its primary metric is its pass@1
        primary_value = pass_1
    return LeaderRow(
        run=run.name,
        agent=run.agent,
        model=run.model,
        domain=run.domain,
        scenario_class=scenario_class,
        scenarios=scenarios,
        trials=trials,
        pass_at_1=pass_1,
        interval=wilson_interval(pass_1, scenarios),
        pass_at_k=pass_at_k,
        primary_metric=run.primary_metric,
        primary_value=primary_value,
        has_usage=run.has_usage,
        has_judge=run.has_judge,
        cost_per_task=cost / trials if trials else 0.0,
        judge_cost_per_task=(
            math.fsum(o.judge_cost_usd for o in outcomes) / trials if trials else 0.0
        ),
        cost_per_success=cost / successes if successes else None,
        tokens_per_task=sum(o.tokens for o in outcomes) / trials if trials else 0.0,
        turns_per_task=sum(o.llm_calls for o in outcomes) / trials if trials else 0.0,
        tool_calls_per_task=sum(o.tool_calls for o in outcomes) / trials if trials else 0.0,
        wall_s_per_task=math.fsum(o.wall_s for o in outcomes) / trials if trials else 0.0,
        bad_runs=sum(o.errored for o in outcomes),
    )


def _reliability(domain: str, runs: Sequence[Run]) -> tuple[ScenarioReliability, ...]:
    counts: dict[str, dict[str, list[int]]] = {}
    classes: dict[str, str] = {}
    for run in runs:
        for outcome in run.outcomes:
            per_run = counts.setdefault(outcome.scenario, {})
            pair = per_run.setdefault(run.name, [0, 0])
            pair[0] += 1
            pair[1] += outcome.passed
            classes[outcome.scenario] = outcome.scenario_class
    return tuple(
        ScenarioReliability(
            domain,
            scenario,
            classes[scenario],
            {name: (pair[0], pair[1]) for name, pair in counts[scenario].items()},
        )
        for scenario in sorted(counts, key=natural_key)
    )
