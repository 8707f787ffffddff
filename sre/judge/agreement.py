"""How often our deterministic entity match agrees with the original LLM judge's ``matches_gt``.

The original judge's results document (``evaluation_results.json``) records, per trial, each
predicted root cause and whether the judge matched it to the ground truth. We re-judge the same
entity strings, in the same order, against the same ground truths and compare verdict by verdict.
Each disagreement gets a reason:

- ``opaque id``: the entity is not ``namespace/Kind/name`` (no kind or namespace to match on);
- ``alias``: we credit it through an alias set and the judge did not (or the other way round);
- ``regex``: we match it by a group's ``filter`` regex and the judge did not;
- ``kind``: the judge credited an object of a kind the ground truth has no group of (a
  Deployment for a Pod group); the contract requires the kinds to agree, so we do not;
- ``judge error``: the name equals a root-cause group's ``name`` and the judge said no, or the
  judge said yes to an entity that matches no group at all.

Where every verdict of a trial agrees, our ``root_cause_entity`` scores must equal the judge's;
where every trial of an incident agrees, so must the incident's statistics.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from itbench import jsonsafe
from itbench.errors import InputError
from itbench.scoring.aggregate import compute_statistics
from sre.groundtruth import LoadedTruth
from sre.judge import metrics
from sre.judge.matching import Matcher, app_name
from sre.outputs import EntityRef, PredictedEntity, parse_entity

#: Statistics we reproduce: the ones computed from entity verdicts alone.
ENTITY_STATS = tuple(
    f"root_cause_entity{s}_{m}" for s in ("", "_k") for m in ("precision", "recall", "f1")
)


@dataclass(frozen=True)
class Disagreement:
    incident_id: str
    trial_id: str
    entity: str
    judge: bool
    ours: bool
    reason: str
    explanation: str


@dataclass(frozen=True)
class TrialComparison:
    incident_id: str
    trial_id: str
    verdicts: int
    agreed: int
    scores_equal: bool


@dataclass(frozen=True)
class AgreementReport:
    verdicts: int
    agreed: int
    trials: tuple[TrialComparison, ...]
    disagreements: tuple[Disagreement, ...]
    #: (incident, statistic) -> (ours, judge's) for incidents whose every trial agrees.
    reproduced: Mapping[tuple[str, str], tuple[float, float]] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        return self.agreed / self.verdicts if self.verdicts else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "verdicts": self.verdicts,
            "agreed": self.agreed,
            "agreement_rate": self.rate,
            "trials": [t.__dict__ for t in self.trials],
            "disagreements": [d.__dict__ for d in self.disagreements],
            "reproduced_statistics": [
                {"incident_id": i, "statistic": s, "ours": o, "judge": j}
                for (i, s), (o, j) in self.reproduced.items()
            ],
        }


def _reason(matcher: Matcher, ref: EntityRef, judge: bool, judge_to: str | None) -> tuple[str, str]:
    m = matcher.match(ref)
    if ref.kind is None or ref.namespace is None:
        return "opaque id", f"{ref.raw!r} is not namespace/Kind/name; kind or namespace unknown"
    if not judge:  # we said yes
        assert m is not None
        if m.via_alias:
            return "alias", f"group {m.group_id} is in an alias set with root cause {m.root_cause}"
        if m.how.startswith("filter"):
            return "regex", f"group {m.group_id}'s filter {m.how.split(' ', 1)[1]}"
        return "judge error", f"the name equals root-cause group {m.group_id}'s name"
    # the judge said yes, we said no
    target = matcher.groups.get(judge_to or "")
    if target is not None and target.kind.lower() != ref.kind.lower():
        component = matcher.group_component(target.id)
        same_app = component[0] == "app" and component[2] == app_name(ref.kind, ref.name)
        return "kind", (
            f"the judge matched a {ref.kind} to {target.kind} group {target.id}"
            + (" of the same app" if same_app else "")
            + "; kinds must agree and no group of its kind matches it"
        )
    if m is not None and m.root_cause is None:
        return (
            "judge error",
            f"matches group {m.group_id}, which is no root cause nor an alias of one",
        )
    return "judge error", "matches no ground-truth group"


def _entity_list(trial: Mapping[str, Any], where: str) -> list[dict[str, Any]]:
    entity = (trial.get("scores") or {}).get("root_cause_entity")
    if not isinstance(entity, Mapping) or not isinstance(entity.get("predicted_entities"), list):
        raise InputError(f"{where}: scores.root_cause_entity.predicted_entities missing")
    return entity["predicted_entities"]


def compare(
    results: Mapping[str, Any], truths: Mapping[str, LoadedTruth], source: str
) -> AgreementReport:
    raw = results.get("raw_results")
    if not isinstance(raw, list):
        raise InputError(f"{source}: no raw_results list")
    disagreements: list[Disagreement] = []
    trials: list[TrialComparison] = []
    ours_raw: list[dict[str, Any]] = []
    total = agreed = 0
    for index, trial in enumerate(raw):
        where = f"{source}: raw_results[{index}]"
        if not trial.get("scores"):
            continue
        incident, trial_id = str(trial.get("incident_id")), str(trial.get("trial_id"))
        loaded = truths.get(incident)
        if loaded is None:
            raise InputError(f"{where}: no ground truth for incident {incident!r}")
        matcher = Matcher(loaded.truth, loaded.source)
        listed = _entity_list(trial, where)
        predicted = [PredictedEntity(parse_entity(str(p["entity"])), True, "", "") for p in listed]
        vs = metrics.verdicts(matcher, predicted)
        trial_agreed = 0
        for p, v, e in zip(listed, vs, predicted, strict=True):
            judge = bool(p.get("matches_gt"))
            total += 1
            if judge == v.matches_gt:
                agreed += 1
                trial_agreed += 1
                continue
            reason, why = _reason(matcher, e.ref, judge, p.get("matched_to"))
            disagreements.append(
                Disagreement(incident, trial_id, str(p["entity"]), judge, v.matches_gt, reason, why)
            )
        ours = {
            "root_cause_entity": metrics.root_cause_entity(matcher, vs),
            "root_cause_entity_k": metrics.root_cause_entity_at_k(matcher, vs, _k(results)),
        }
        for n in metrics.K_VALUES:
            ours[f"root_cause_entity_k@{n}"] = metrics.root_cause_entity_at_k(matcher, vs, n)
        equal = _same_scores(ours, trial["scores"])
        trials.append(TrialComparison(incident, trial_id, len(listed), trial_agreed, equal))
        ours_raw.append({"incident_id": incident, "trial_id": trial_id, "scores": ours})
    reproduced = _reproduced(results, ours_raw, trials)
    return AgreementReport(total, agreed, tuple(trials), tuple(disagreements), reproduced)


def _same_scores(ours: Mapping[str, Any], theirs: Mapping[str, Any]) -> bool:
    """Every entity score the judge recorded equals ours (k@n only where the judge has it)."""
    for metric, score in ours.items():
        if metric not in theirs and metric != "root_cause_entity":
            continue
        for key in ("calculation_precision", "calculation_recall", "calculation_f1"):
            if not math.isclose(float(score[key]), float(theirs[metric][key]), abs_tol=1e-9):
                return False
    return True


def _k(results: Mapping[str, Any]) -> int:
    return int((results.get("config") or {}).get("k", metrics.DEFAULT_K))


def _reproduced(
    results: Mapping[str, Any], ours_raw: list[dict[str, Any]], trials: list[TrialComparison]
) -> dict[tuple[str, str], tuple[float, float]]:
    stats = compute_statistics(ours_raw)["per_incident"]
    theirs = (results.get("statistics") or {}).get("per_incident") or {}
    clean = {t.incident_id for t in trials} - {
        t.incident_id for t in trials if t.agreed != t.verdicts
    }
    out = {}
    for incident in sorted(clean):
        for stat in ENTITY_STATS:
            if stat in stats.get(incident, {}) and stat in theirs.get(incident, {}):
                out[(incident, stat)] = (
                    stats[incident][stat]["mean"],
                    theirs[incident][stat]["mean"],
                )
    return out


def load_results(path: Path) -> dict[str, Any]:
    try:
        doc = jsonsafe.load_file(path)
    except (OSError, ValueError) as exc:  # UnicodeDecodeError, JSONDecodeError, TooDeep
        raise InputError(f"{path}: cannot read the judge's results: {exc}") from exc
    if not isinstance(doc, dict):
        raise InputError(f"{path}: a results document must be an object")
    return doc
