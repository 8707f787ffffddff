"""The SRE judge: an agent's diagnosis scored against a ground truth, deterministically by default.

:func:`judge` returns the scores under ITBench-Evaluations' key names; an optional
:class:`~sre.judge.llm.ReasoningJudge` adds the metrics only a reader of the reasoning can give
(``root_cause_reasoning``, and ``root_cause_reasoning_partial`` where it needs reading).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sre.generator.ground_truth import GroundTruth
from sre.judge import metrics, ntam
from sre.judge.matching import Matcher
from sre.judge.namespaces import split_by_namespace
from sre.outputs import AgentDiagnosis

if TYPE_CHECKING:
    from sre.judge.llm import ReasoningJudge


def judge(
    truth: GroundTruth,
    diagnosis: AgentDiagnosis,
    k: int = metrics.DEFAULT_K,
    reasoning_judge: ReasoningJudge | None = None,
    matcher: Matcher | None = None,
    exclude_namespaces: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    """The scores of one diagnosis. ``exclude_namespaces`` (e.g.
    :data:`~sre.judge.namespaces.INFRASTRUCTURE_NAMESPACES`) drops the predicted root causes in
    those namespaces from the root-cause entity metrics and the AA score, as the original's
    post-filter does; the chain and proximity metrics still see every prediction."""
    matcher = matcher or Matcher(truth)
    predicted = metrics.predicted_root_causes(diagnosis)
    kept, dropped = split_by_namespace(predicted, exclude_namespaces)
    vs = metrics.verdicts(matcher, kept)
    gt_path = matcher.gt_path()
    path = metrics.model_path(matcher, diagnosis)
    scores: dict[str, Any] = {
        "root_cause_entity": metrics.root_cause_entity(matcher, vs),
        "root_cause_entity_k": metrics.root_cause_entity_at_k(matcher, vs, k),
    }
    if exclude_namespaces:
        scores["root_cause_entity"]["namespace_filter"] = {
            "excluded_namespaces": sorted(exclude_namespaces),
            "removed_entities": [e.ref.raw for e in dropped],
        }
    for n in metrics.K_VALUES:
        scores[f"root_cause_entity_k@{n}"] = metrics.root_cause_entity_at_k(matcher, vs, n)
    scores[metrics.AA_METRIC] = metrics.average_precision_at_full_recall(matcher, vs)
    scores["propagation_chain"] = metrics.propagation_chain(matcher, gt_path, path)
    # the paper's Table-4 diagnosis scores (App. C.6.3); every prediction, as the chain metrics
    scores["ntam_fault_localisation"] = ntam.fault_localisation(matcher, predicted)
    scores["ntam_propagation_chain"] = ntam.propagation_chain(matcher, gt_path, path)
    located = metrics.fault_localization(matcher, path)
    if located is not None:
        scores["fault_localization_component_identification"] = located
    scores["root_cause_proximity_no_fp"] = metrics.proximity(matcher, predicted, gt_path, False)
    scores["root_cause_proximity_with_fp"] = metrics.proximity(matcher, predicted, gt_path, True)
    partial = metrics.reasoning_partial(matcher, predicted, vs, gt_path)
    if reasoning_judge is not None:
        scores.update(reasoning_judge.score(matcher, predicted, vs, gt_path))
    elif partial is not None:
        scores["root_cause_reasoning_partial"] = partial
    return scores


__all__ = ["judge"]
