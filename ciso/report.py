"""The CISO results table, shaped like the paper's: pass@1 per class (ITBench rule and strict) and
overall, mean time per scenario, beside the paper's best published figures.

pass@1 is the unbiased estimator with k = 1, i.e. per scenario the share of its trials that
passed (an errored trial passed nothing), averaged over the class's scenarios.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from itbench.scoring.document import ResultsDocument

#: Row order of the table (the paper's four classes, then ITBench-Lite's offline class, then
#: ours: the migration between Kyverno dialects, which no paper publishes).
CLASSES = (
    "kyverno",
    "kubectl-opa",
    "rhel9-ansible-opa",
    "kyverno-update",
    "opa-static",
    "kyverno-migrate",
)

#: The paper's pass@1 (%) per class, ITBench paper (arXiv 2502.05352): gpt-4o / gpt-4o-mini.
PAPER_BEST: Mapping[str, tuple[float, float]] = {
    "kyverno": (40.28, 16.18),
    "kubectl-opa": (39.34, 43.10),
    "rhel9-ansible-opa": (7.61, 30.38),
    "kyverno-update": (17.74, 9.43),
    "overall": (24.74, 25.19),
}


#: The ``baseline`` agent on fresh generated instances of the 45 controls (30 Kubernetes, 15 RHEL 9;
#: ``benchmarks/ciso_fresh.py --seeds 1111,2222,3333``, 2026-11-27, mean pass@1 % per class: ITBench
#: rule, strict; 342 trials). Nobody looked at those seeds' instances while improving the baseline
#: (its wording and migration work used seeds 11, 22, 33 and 101, 202, 303; its RHEL 9 reading
#: also 404, 505, 606; its reading of unseen texts 707, and a regression it caused was found on
#: 909, so 707, 808 and 909 no longer count as unseen). Shown beside its built-in figure: the agent
#: was written with the built-in suite in view, so that figure says little on its own. Classes the
#: generator has no instances of yet are absent.
#: the seeds BASELINE_FRESH was measured on
FRESH_SEEDS = (1111, 2222, 3333)
BASELINE_FRESH: Mapping[str, tuple[float, float]] = {
    "kyverno": (100.00, 98.89),
    "kubectl-opa": (100.00, 98.89),
    "opa-static": (98.89, 98.89),
    "rhel9-ansible-opa": (100.00, 97.78),
    "kyverno-migrate": (100.00, 100.00),
    "overall": (99.71, 98.83),
}
BASELINE_LABEL = "baseline: written with the built-in suite in view"


@dataclass(frozen=True)
class Trial:
    scenario: str
    scenario_class: str
    itbench_pass: float
    strict_pass: float
    duration_s: float | None


def trials(document: Any) -> list[Trial]:
    """The document's trials (a ResultsDocument or the plain dict it is written as)."""
    if isinstance(document, Mapping):
        raw = document.get("raw_results") or []
        classes = (document.get("config") or {}).get("scenario_classes") or {}
    else:
        raw, classes = document.raw_results, document.config.scenario_classes
    found = []
    for entry in raw:
        scenario = str(entry["incident_id"])
        scores = entry.get("scores") or {}
        duration = entry.get("duration_s")
        found.append(
            Trial(
                scenario,
                str(classes.get(scenario) or scenario.rsplit(".", 1)[-1]),
                float(scores.get("itbench_pass") or 0) if "error" not in entry else 0.0,
                float(scores.get("strict_pass") or 0) if "error" not in entry else 0.0,
                float(duration) if isinstance(duration, int | float) else None,
            )
        )
    return found


def pass_at_1(rows: Iterable[Trial], metric: str) -> float | None:
    per_scenario: dict[str, list[float]] = {}
    for row in rows:
        per_scenario.setdefault(row.scenario, []).append(getattr(row, metric))
    if not per_scenario:
        return None
    return 100 * math.fsum(sum(v) / len(v) for v in per_scenario.values()) / len(per_scenario)


def mean_time(rows: list[Trial]) -> float | None:
    times = [r.duration_s for r in rows if r.duration_s is not None]
    return math.fsum(times) / len(times) if times else None


def _cell(value: float | None, suffix: str = "") -> str:
    return "—" if value is None else f"{value:.2f}{suffix}"


def _agent(document: Any) -> str | None:
    if isinstance(document, Mapping):
        return (document.get("config") or {}).get("agent")
    return getattr(document.config, "agent", None)


def _on_builtin_suite(rows: list[Trial]) -> bool:
    """Every trial is a scenario of the built-in suite (fresh instances carry a tag in their id)."""
    from ciso.scenarios.loader import suite_dir

    names = {p.name for p in suite_dir().glob("*/*") if p.is_dir()}
    return bool(rows) and all(r.scenario.rsplit(".", 1)[0] in names for r in rows)


def class_table(document: ResultsDocument | Mapping[str, Any]) -> str:
    rows = trials(document)
    # the baseline's built-in figures stand beside its figures on instances it has never seen
    beside_fresh = _agent(document) == "baseline" and _on_builtin_suite(rows)
    header: tuple[str, ...] = (
        "class",
        "scenarios",
        "trials",
        "ITBench pass@1 %",
        "strict pass@1 %",
        *(("fresh-seed ITBench / strict %",) if beside_fresh else ()),
        "mean time/scenario",
        "paper gpt-4o %",
        "paper gpt-4o-mini %",
    )
    lines: list[tuple[str, ...]] = [header]
    present = [c for c in CLASSES if any(r.scenario_class == c for r in rows)]
    present += sorted({r.scenario_class for r in rows} - set(CLASSES))
    for name in [*present, "overall"]:
        group = rows if name == "overall" else [r for r in rows if r.scenario_class == name]
        paper = PAPER_BEST.get(name)
        fresh = BASELINE_FRESH.get(name)
        fresh_cell = f"{fresh[0]:.2f} / {fresh[1]:.2f}" if fresh else "—"
        lines.append(
            (
                name,
                str(len({r.scenario for r in group})),
                str(len(group)),
                _cell(pass_at_1(group, "itbench_pass")),
                _cell(pass_at_1(group, "strict_pass")),
                *((fresh_cell,) if beside_fresh else ()),
                _cell(mean_time(group), " s"),
                _cell(paper[0]) if paper else "—",
                _cell(paper[1]) if paper else "—",
            )
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    text = [
        "  ".join(
            cell.ljust(w) if i == 0 else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(line, widths, strict=True))
        )
        for line in lines
    ]
    text.insert(1, "  ".join("-" * w for w in widths))
    note = (
        "paper: ITBench (arXiv 2502.05352) pass@1; opa-static is ITBench-Lite's offline class "
        "(no published pass@1). strict: every violating resource caught and nothing compliant flagged."
    )
    if beside_fresh:
        text.insert(0, BASELINE_LABEL)
        note += (
            " fresh-seed: the baseline on generated instances it has never seen "
            f"(benchmarks/ciso_fresh.py, seeds {', '.join(map(str, FRESH_SEEDS))}, never looked at "
            "while the baseline was "
            "improved; itbench ciso run --fresh SEED; the "
            "generator covers the 30 Kubernetes controls and the 15 RHEL 9 ones, no "
            "kyverno-update one, so its overall leaves kyverno-update out): a floor and a pipeline "
            "check, not a competitor."
        )
    return "\n".join([*text, "", note]) + "\n"
