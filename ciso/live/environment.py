"""The agent's environment in live mode: the violating environment deployed on the live cluster
under the trial's names, a self-contained kubeconfig in the workspace, and afterwards the Kyverno
policies the agent applied, recorded for the evaluator and removed with everything else."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ciso.live import LiveSettings
from ciso.live.client import LiveCluster, LiveError
from ciso.live.deploy import Deployment, deployed
from ciso.live.kubeconfig import write_flattened
from ciso.live.naming import TRIAL_LABEL, trial_suffix
from ciso.scenarios.model import CisoScenario
from ciso.scenarios.objects import declared_objects, identity
from itbench.fsutil import atomic_write_json, real_directory

#: What the trial deployed (suffix, namespaces), for people and for ``itbench ciso eval``.
LIVE_RECORD = Path(".itbench") / "live.json"
_SERVER_META = ("uid", "resourceVersion", "creationTimestamp", "managedFields", "generation")


def _policies(cluster: LiveCluster, namespaces: list[str]) -> dict[tuple[str, str, str], Any]:
    """Kyverno policies the trial's agent can have applied: every ClusterPolicy, and the
    Policies of the trial's namespaces."""
    found = {}
    try:
        items = cluster.list("kyverno.io/v1", "ClusterPolicy")
        for ns in namespaces:
            items += cluster.list("kyverno.io/v1", "Policy", namespace=ns)
    except LiveError:
        return {}  # a cluster without Kyverno: nothing to record
    for obj in items:
        ref = identity(obj)
        found[(ref.kind, ref.namespace, ref.name)] = obj
    return found


def _as_applied(obj: dict[str, Any]) -> dict[str, Any]:
    meta = {k: v for k, v in (obj.get("metadata") or {}).items() if k not in _SERVER_META}
    return {k: v for k, v in obj.items() if k != "status"} | {"metadata": meta}


def _collect_agent_policies(
    deployment: Deployment, before: dict[tuple[str, str, str], Any], workspace: Path
) -> None:
    """Record the policies that appeared while the agent worked (not another trial's: those carry
    the trial label) and delete them."""
    cluster = deployment.cluster
    after = _policies(cluster, deployment.plan.live_namespaces())
    new = [
        obj
        for key, obj in after.items()
        if key not in before
        and TRIAL_LABEL not in ((obj.get("metadata") or {}).get("labels") or {})
    ]
    atomic_write_json(
        real_directory(workspace, ".itbench") / "cluster-applied.json",
        {"applied": [_as_applied(o) for o in new], "deleted": []},
    )
    for obj in new:
        cluster.delete(str(obj.get("apiVersion", "kyverno.io/v1")), identity(obj))


@contextmanager
def live_trial_environment(
    scenario: CisoScenario, workspace: Path, settings: LiveSettings
) -> Iterator[dict[str, str]]:
    cluster = LiveCluster.connect(settings.kubeconfig)
    suffix = trial_suffix(scenario.id, workspace)
    kubeconfig = write_flattened(settings.kubeconfig, workspace / "kubeconfig.yaml")
    with deployed(cluster, declared_objects(scenario), suffix, settings) as deployment:
        atomic_write_json(
            real_directory(workspace, LIVE_RECORD.parent) / LIVE_RECORD.name,
            {
                "suffix": suffix,
                "namespaces": deployment.plan.namespaces,
                "objects": [str(ref) for _, ref in deployment.created],
            },
        )
        before = _policies(cluster, deployment.plan.live_namespaces())
        try:
            yield {"KUBECONFIG": str(kubeconfig)}
        finally:
            _collect_agent_policies(deployment, before, workspace)
