"""The SRE metrics, one function each, under ITBench-Evaluations' key names (formats doc §3).

Every function takes the :class:`Matcher` of the ground truth and the agent's diagnosis and returns
the score dict the original judge writes (``calculation`` / ``calculation_precision|recall|f1``
plus details), so ``itbench stats`` aggregates our documents exactly like theirs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from itbench.scoring.chains import chain_score
from itbench.scoring.proximity import proximity_score
from itbench.scoring.ranking import precision_at_full_recall
from itbench.scoring.sets import SetScore, f1_of
from sre.judge.matching import Component, Matcher, component_label, ordered_components
from sre.outputs import AgentDiagnosis, PredictedEntity

#: ``root_cause_entity_k`` is reported at this k (the original's default config); @1..@5 always.
DEFAULT_K = 3
K_VALUES = (1, 2, 3, 4, 5)
AA_METRIC = "precision_at_full_recall"
#: Effects that are failure symptoms, for fault localization (errors, latency, saturation,
#: unavailability, crashes); the original judge's "Priority 1" rule reads the same words.
_SYMPTOM = re.compile(
    r"error|latenc|slow|saturat|exhaust|unavailab|crash|backoff|fail|timeout|timed out|oom|"
    r"not ready|pending|unreachable|refused|down\b|5\d\d",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Verdict:
    """One predicted root cause judged: the record ``predicted_entities`` holds."""

    entity: str
    matches_gt: bool
    matched_to: str | None
    group: str | None
    how: str | None
    credited: bool

    def as_record(self) -> dict[str, Any]:
        record: dict[str, Any] = {
            "entity": self.entity,
            "matches_gt": self.matches_gt,
            "matched_to": self.matched_to,
        }
        if self.group is not None:
            record["matched_group"] = self.group
            record["match"] = self.how
        if self.matches_gt and not self.credited:
            record["credited"] = False  # its root cause was already credited to an earlier one
        return record


def predicted_root_causes(diagnosis: AgentDiagnosis) -> list[PredictedEntity]:
    """``contributing_factor: true`` entities in the agent's order, each entity once."""
    seen: set[str] = set()
    out = []
    for e in diagnosis.entities:
        if e.contributing_factor and e.ref.key not in seen:
            seen.add(e.ref.key)
            out.append(e)
    return out


def verdicts(matcher: Matcher, predicted: list[PredictedEntity]) -> list[Verdict]:
    credited: set[str] = set()
    out = []
    for e in predicted:
        m = matcher.match(e.ref)
        rc = m.root_cause if m else None
        fresh = rc is not None and rc not in credited
        if fresh:
            credited.add(rc)  # type: ignore[arg-type]  # fresh implies rc is not None (mypy does not narrow through the flag)
        out.append(
            Verdict(
                e.ref.raw,
                rc is not None,
                rc,
                m.group_id if m else None,
                m.how if m else None,
                fresh,
            )
        )
    return out


def _entity_score(vs: list[Verdict], n_true: int) -> SetScore:
    tp = sum(v.credited for v in vs)
    precision = tp / len(vs) if vs else 0.0
    recall = tp / n_true if n_true else 0.0
    return SetScore(precision, recall, f1_of(precision, recall), tp, len(vs), n_true)


def root_cause_entity(matcher: Matcher, vs: list[Verdict]) -> dict[str, Any]:
    score = _entity_score(vs, len(matcher.root_causes))
    return {
        "gt_entities": list(matcher.root_causes),
        "predicted_entities": [v.as_record() for v in vs],
        **score.as_calculation(),
    }


def root_cause_entity_at_k(matcher: Matcher, vs: list[Verdict], k: int) -> dict[str, Any]:
    # credit is re-decided on the first k alone: a duplicate beyond k cannot steal it
    first = vs[:k]
    seen: set[str] = set()
    rescored = []
    for v in first:
        fresh = v.matched_to is not None and v.matched_to not in seen
        if fresh:
            seen.add(v.matched_to)  # type: ignore[arg-type]  # fresh implies matched_to is not None (mypy does not narrow through the flag)
        rescored.append(Verdict(v.entity, v.matches_gt, v.matched_to, v.group, v.how, fresh))
    return _entity_score(rescored, len(matcher.root_causes)).as_calculation()


def average_precision_at_full_recall(matcher: Matcher, vs: list[Verdict]) -> float:
    """ITBench-AA: 0 unless every root cause is found, else the precision."""
    predicted = [v.matched_to if v.credited else f"miss:{i}" for i, v in enumerate(vs)]
    return precision_at_full_recall(predicted, matcher.root_causes)


def model_path(matcher: Matcher, diagnosis: AgentDiagnosis) -> list[Component]:
    edges = [
        (matcher.entity_component(p.source), matcher.entity_component(p.target))
        for p in diagnosis.propagations
    ]
    return ordered_components(edges)


def propagation_chain(
    matcher: Matcher, gt_path: list[Component], path: list[Component]
) -> dict[str, Any]:
    score = chain_score(path, gt_path)
    return {
        "calculation": score.f1,
        "precision": score.precision if path else None,
        "recall": score.recall,
        "details": {
            "contracted_gt_path": [component_label(c) for c in gt_path],
            "contracted_model_path": [component_label(c) for c in path],
            "true_positives_TP": score.true_positives,
            "model_path_length": len(path),
            "gt_path_length": len(gt_path),
        },
    }


def fault_localization(matcher: Matcher, path: list[Component]) -> dict[str, Any] | None:
    """1 iff the first GT component showing a failure symptom is in the model's chain; None when
    the ground truth has no propagation to read it from."""
    props = matcher._props
    if not props:
        return None
    first = next((p for p in props if _SYMPTOM.search(p.effect)), None)
    rule = "first failure symptom"
    if first is None:
        first, rule = props[0], "no symptom word: first propagation target"
    component = matcher.group_component(first.target)
    found = component in path
    return {
        "calculation": int(found),
        "details": {
            "gt_first_impacted_component": component_label(component),
            "effect_used": first.effect,
            "rule_applied": rule,
            "found_in_model_path": found,
        },
    }


def _predicted_components(matcher: Matcher, vs_entities: list[PredictedEntity]) -> list[Any]:
    # an entity in no GT component is off the path: a unique key scores it 0
    return [matcher.entity_component(e.ref) or ("unmapped", e.ref.raw) for e in vs_entities]


def proximity(
    matcher: Matcher,
    predicted: list[PredictedEntity],
    gt_path: list[Component],
    with_fp: bool,
) -> dict[str, Any]:
    roots = list(dict.fromkeys(matcher.group_component(r) for r in matcher.root_causes))
    path = gt_path or roots  # no propagations: the root causes alone are the path
    pred = _predicted_components(matcher, predicted)
    score = proximity_score(pred, roots, path, with_fp=with_fp)
    out: dict[str, Any] = score.as_calculation()
    if with_fp:
        out["gt_path_length"] = len(path)
    position = {c: i for i, c in enumerate(path)}
    out["precision_details"] = [
        {
            "entity": e.ref.raw,
            "is_on_path": c in position,
            "hop_away": min(
                (abs(position[c] - position[r]) for r in roots if r in position), default=None
            )
            if c in position
            else None,
        }
        for e, c in zip(predicted, pred, strict=True)
    ]
    return out


def reasoning_partial(
    matcher: Matcher,
    predicted: list[PredictedEntity],
    vs: list[Verdict],
    gt_path: list[Component],
) -> dict[str, Any] | None:
    """Partial credit for a missed root cause whose named component is on the GT path. Only the
    case with nothing to read is deterministic: no credited root cause and no prediction on the
    path scores 0. Otherwise the reasoning must be read (``--judge``), so it is left out."""
    if any(v.matches_gt for v in vs):
        return None
    on_path = set(gt_path)
    comps = _predicted_components(matcher, predicted)
    if any(c in on_path for c in comps):
        return None
    return {
        "calculation": 0,
        "details": [
            {"entity": e.ref.raw, "metric1_is_correct": False, "hop_away": None, "entity_score": 0}
            for e in predicted
        ],
    }
