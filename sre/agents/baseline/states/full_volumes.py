"""Volumes the metrics show full: a pod whose ``kubelet_volume_stats_used_bytes`` reached
:data:`FULL` of its ``kubelet_volume_stats_capacity_bytes``. A datastore on a full volume cannot
write (``No space left on device``) and its clients fail, while no pod restarts and no object
changes: the claim holding the volume is the fault (ITBench names the PersistentVolumeClaim).
The claim is the one the metric's ``persistentvolumeclaim`` label names, else the one a volume
alert of the pod's namespace names (``KubePersistentVolumeFillingUp`` carries the claim, not the
service), else the claim the pod's workload mounts."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from sre.agents.baseline.evidence import INFRA_NAMESPACES, AlertGroup, FailingState, app_of
from sre.snapshot import SourceKind, open_source

#: a volume this full refuses the next write that needs a new block
FULL = 0.95
#: stronger than the clients' errors: the claim says why the datastore cannot write
STRENGTH = 3.0
USED = "kubelet_volume_stats_used_bytes"
CAPACITY = "kubelet_volume_stats_capacity_bytes"


def full_pods(metrics_dir: Path) -> list[tuple[str, str, str, float]]:
    """(pod, namespace, claim or "", last used share) of every pod whose volume is full."""
    src = open_source(metrics_dir, SourceKind.METRICS)
    rows = (
        src.con.cursor()
        .execute(
            f"""SELECT coalesce(pod_name, attr(tags, 'pod'),
                                CASE WHEN object_kind = 'pod' THEN object_name END) AS pod,
                       any_value(coalesce(namespace, attr(tags, 'namespace'))),
                       coalesce(attr(tags, 'persistentvolumeclaim'), '') AS claim,
                       metric_name, arg_max(value, ts)
                FROM data WHERE metric_name IN ('{USED}', '{CAPACITY}')
                GROUP BY pod, claim, metric_name"""
        )
        .fetchall()
    )
    last: dict[tuple[str, str, str], dict[str, float]] = {}
    for pod, ns, claim, metric, value in rows:
        if pod is not None and value is not None:
            last.setdefault((pod, ns or "", claim), {})[metric] = float(value)
    out = []
    for (pod, ns, claim), values in sorted(last.items()):
        used, capacity = values.get(USED), values.get(CAPACITY)
        if used is not None and capacity and used / capacity >= FULL:
            out.append((pod, ns, claim, used / capacity))
    return out


def _alerted_claim(namespace: str, alerts: Iterable[AlertGroup]) -> str:
    """The claim a volume alert of the namespace names (its entity: the claim label)."""
    for a in alerts:
        if "PersistentVolume" in a.alertname and a.namespace == namespace and a.entity != namespace:
            return a.entity
    return ""


def find(
    full: Iterable[tuple[str, str, str, float]],
    alerts: Iterable[AlertGroup],
    claims_of: Mapping[tuple[str, str], str],
) -> list[FailingState]:
    """A state per full volume, on its claim (``claims_of``: (namespace, application) -> the
    claim its workload mounts)."""
    out: dict[str, FailingState] = {}
    for pod, namespace, claim, share in full:
        if namespace in INFRA_NAMESPACES:
            continue
        app = app_of("Pod", pod)
        name = claim or _alerted_claim(namespace, alerts) or claims_of.get((namespace, app), "")
        if not name:
            continue
        what = f"volume of pod {pod} {share:.0%} full (claim {name})"
        state = FailingState(namespace, "PersistentVolumeClaim", name, app, what, STRENGTH)
        out.setdefault(state.entity, state)
    return list(out.values())
