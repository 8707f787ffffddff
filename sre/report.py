"""The SRE results table, in the paper's Table-4 layout: diagnosis pass@1, NTAM for fault
localisation and for the propagation chain, MTTD; mitigation pass@1, MTTR — overall, by
complexity (Easy / Medium / Hard, ``sre.complexity``) and by class, beside gpt-4o's published row.

pass@1 is per scenario the share of its trials that passed (an errored trial passed nothing),
averaged over the scenarios; a diagnosis passes when it names every root cause (recall 1). NTAM
means count an errored trial as 0 (no diagnosis); MTTD and MTTR are means over the trials that
found or repaired (the paper counts the others infinite), "—" when there are none. A run of one
task shows "—" for the other half.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: gpt-4o's row of the ITBench paper's Table 4 (arXiv 2502.05352): diagnosis pass@1 %, NTAM FL,
#: NTAM FPC, MTTD s; mitigation pass@1 %, MTTR s.
PUBLISHED_GPT_4O = (13.81, 0.39, 0.34, 72.44, 11.43, 282.47)
COMPLEXITIES = ("Easy", "Medium", "Hard")


@dataclass(frozen=True)
class Trial:
    scenario: str
    scenario_class: str
    complexity: str | None
    errored: bool
    scores: Mapping[str, Any]


def _calc(value: Any) -> float | None:
    if isinstance(value, dict):
        value = value.get("calculation")
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def trials(document: Any) -> tuple[list[Trial], dict[str, Any]]:
    if isinstance(document, Mapping):
        raw = document.get("raw_results") or []
        config = dict(document.get("config") or {})
    else:
        raw = document.raw_results
        config = document.config.model_dump()
    classes = config.get("scenario_classes") or {}
    complexity = config.get("complexity") or {}
    out = []
    for entry in raw:
        sid = str(entry["incident_id"])
        level = complexity.get(sid)
        out.append(
            Trial(
                sid,
                str(classes.get(sid) or "-"),
                level.get("complexity") if isinstance(level, dict) else None,
                "error" in entry,
                entry.get("scores") or {},
            )
        )
    return out, config


def _pass_at_1(rows: Sequence[Trial], passed) -> float | None:
    per: dict[str, list[float]] = {}
    for r in rows:
        per.setdefault(r.scenario, []).append(0.0 if r.errored else float(bool(passed(r.scores))))
    if not per:
        return None
    return 100 * math.fsum(sum(v) / len(v) for v in per.values()) / len(per)


def _mean(rows: Sequence[Trial], key: str, errored_as: float | None) -> float | None:
    values = []
    for r in rows:
        v = errored_as if r.errored else _calc(r.scores.get(key))
        if v is not None:
            values.append(v)
    return math.fsum(values) / len(values) if values else None


def _diagnosed(scores: Mapping[str, Any]) -> bool:
    entity = scores.get("root_cause_entity")
    return isinstance(entity, dict) and entity.get("calculation_recall") == 1.0


def _halves(rows: Sequence[Trial], task: str) -> tuple[float | None, ...]:
    if task == "mitigate":
        diagnosis: tuple[float | None, ...] = (None, None, None, None)
        mitigation = (
            _pass_at_1(rows, lambda s: s.get("mitigation_pass")),
            # offline: the twin's simulated seconds; live mode (no simulated clock): wall seconds
            _mean(rows, "mttr_sim_s", None) or _mean(rows, "mttr_wall_s", None),
        )
    else:
        diagnosis = (
            _pass_at_1(rows, _diagnosed),
            _mean(rows, "ntam_fault_localisation", 0.0),
            _mean(rows, "ntam_propagation_chain", 0.0),
            _mean(rows, "mttd_s", None),
        )
        mitigation = (None, None)
    return (*diagnosis, *mitigation)


def _fmt(value: float | None, digits: int) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


_DIGITS = (2, 2, 2, 2, 2, 2)
HEADER = (
    "group",
    "scenarios",
    "trials",
    "diag pass@1 %",
    "NTAM FL",
    "NTAM FPC",
    "MTTD s",
    "mitig pass@1 %",
    "MTTR s",
)


def task_of(config: Mapping[str, Any], rows: Sequence[Trial]) -> str:
    task = config.get("task")
    if task in ("diagnose", "mitigate"):
        return str(task)
    # a document from before the task was recorded: a mitigation verdict says which
    return "mitigate" if any("mitigation_pass" in r.scores for r in rows) else "diagnose"


def table4(document: Any) -> str:
    rows, config = trials(document)
    task = task_of(config, rows)
    groups: list[tuple[str, list[Trial]]] = [("overall", rows)]
    for level in COMPLEXITIES:
        picked = [r for r in rows if r.complexity == level]
        if picked:
            groups.append((level, picked))
    for cls in sorted({r.scenario_class for r in rows}):
        groups.append((cls, [r for r in rows if r.scenario_class == cls]))
    lines: list[tuple[str, ...]] = [HEADER]
    for name, group in groups:
        values = _halves(group, task)
        lines.append(
            (
                name,
                str(len({r.scenario for r in group})),
                str(len(group)),
                *(_fmt(v, d) for v, d in zip(values, _DIGITS, strict=True)),
            )
        )
    lines.append(
        (
            "gpt-4o (published, ITBench paper Table 4)",
            "42",
            "420",
            *(_fmt(v, d) for v, d in zip(PUBLISHED_GPT_4O, _DIGITS, strict=True)),
        )
    )
    widths = [max(len(line[i]) for line in lines) for i in range(len(HEADER))]
    text = [
        "  ".join(
            cell.ljust(w) if i == 0 else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(line, widths, strict=True))
        ).rstrip()
        for line in lines
    ]
    text.insert(1, "  ".join("-" * w for w in widths))
    hidden = config.get("hide")
    notes = [
        f"task: {task}" + (f"; hidden from the agents: {', '.join(hidden)}" if hidden else ""),
        "gpt-4o: arXiv 2502.05352, 42 scenarios x 10 runs on a "
        "live cluster, wall seconds. Ours: MTTD in wall seconds, MTTR in "
        + (
            "wall seconds on a live cluster (--kubeconfig)"
            if config.get("cluster") == "live"
            else "the twin's simulated seconds"
        )  # fmt: skip
        + "; NTAM with our hyper-parameters (docs/sre/judge.md); complexity by Equation 6 "
        "(docs/sre/run.md).",
    ]
    return "\n".join([*text, "", *notes]) + "\n"


def render(document: Any) -> str:
    """Table 4, then the generic per-scenario and per-metric tables (``itbench report``'s)."""
    from itbench.report.model import summarize
    from itbench.report.text_formats import render_table

    return table4(document) + "\n" + render_table([summarize(document, "run", "")])
