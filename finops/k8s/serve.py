"""The offline cluster of one Kubernetes cost scenario, its twin reconciling every write."""

from __future__ import annotations

import json
from pathlib import Path

from finops.k8s.objects import manifests
from finops.k8s.scenario import INCIDENT_DAY, K8sScenario
from finops.k8s.twin import CostTwin, at
from itbench.cluster import RunningCluster, SimClock, start_cluster
from itbench.errors import InputError

__all__ = ["WRITE_STEP_S", "serve_scenario"]

WRITE_STEP_S = 5.0


def serve_scenario(
    s: K8sScenario, kubeconfig: Path | None = None, read_only: bool = False
) -> tuple[RunningCluster, CostTwin]:
    """The cluster as the agent finds it: the end of the incident day, the alert firing;
    ``read_only`` (the diagnose task) refuses every write with RBAC's 403 Forbidden."""
    twin = CostTwin(s)
    created = SimClock(at(0)).iso()
    if s.manifests_json:  # a scenario folder's objects, as its author wrote them
        objects = json.loads(s.manifests_json)
        for obj in objects:
            obj["metadata"].setdefault("creationTimestamp", created)
    else:
        objects = manifests(s, s.incident, created)
    try:
        cluster = start_cluster(
            objects,
            kubeconfig=kubeconfig,
            extensions=[],
            reconciler=twin,
            clock=SimClock(at(INCIDENT_DAY + 1), WRITE_STEP_S),
            read_only=read_only,
        )
    except OSError as exc:
        raise InputError(f"cannot start the scenario's cluster: {exc}") from exc
    return cluster, twin
