"""The infrastructure-namespace post-filter of ITBench-Evaluations (formats doc §3).

The observability stack and the cluster's own system namespaces watch the application; a
diagnosis that blames the collector or Prometheus is not penalised for it when the filter is on:
the predictions in those namespaces are dropped before the root-cause entity metrics are
computed, as the original's post-filter drops them from ``predicted_entities`` and recomputes
``root_cause_entity`` and ``root_cause_entity_k@1..5``. Off by default, as in the original.
"""

from __future__ import annotations

from collections.abc import Iterable

from sre.outputs import PredictedEntity

#: The original's default exclusion list, unchanged.
INFRASTRUCTURE_NAMESPACES = frozenset(
    {
        "kube-system",
        "data-recorders",
        "clickhouse",
        "clickhouse-operator",
        "prometheus",
        "opentelemetry-operator",
        "opentelemetry-collectors",
        "metrics-server",
        "opensearch",
    }
)


def split_by_namespace(
    predicted: Iterable[PredictedEntity], excluded: frozenset[str]
) -> tuple[list[PredictedEntity], list[PredictedEntity]]:
    """(kept, dropped) in the agent's order. An entity without a namespace (an old-schema output,
    a cluster-scoped object) is kept: there is nothing to say it is infrastructure."""
    kept: list[PredictedEntity] = []
    dropped: list[PredictedEntity] = []
    for entity in predicted:
        (dropped if entity.ref.namespace in excluded else kept).append(entity)
    return kept, dropped
