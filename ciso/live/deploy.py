"""One environment deployed on the live cluster for as long as a ``with`` block runs, and removed
afterwards whatever happened inside it.

Before deploying, leftovers of an interrupted run of the same trial (objects carrying its label)
are removed, so a rerun starts from nothing. On exit every object created is deleted in reverse
order (policies, then namespaced objects, then namespaces and cluster-scoped objects) and the
block waits until the cluster has really let them go, so the next environment of the trial can
reuse the same names.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ciso.live import LiveSettings
from ciso.live.client import LiveCluster, LiveError
from ciso.live.naming import TRIAL_LABEL, DeployPlan, live_policy, plan_deployment
from ciso.scenarios.model import ResourceRef
from ciso.scenarios.objects import identity, without_ephemeral_containers

Manifest = dict[str, Any]
POLICY_KINDS = (("kyverno.io/v1", "ClusterPolicy"), ("kyverno.io/v1", "Policy"))


@dataclass
class Deployment:
    """What one ``deployed`` block created (in order) and how its names map back."""

    cluster: LiveCluster
    plan: DeployPlan
    created: list[tuple[str, ResourceRef]] = field(default_factory=list)
    #: Live names of the Kyverno policies deployed with ``add_policies``.
    policy_names: list[str] = field(default_factory=list)

    def add_policies(self, policies: Sequence[Manifest]) -> list[str]:
        """Deploy an agent's policies into this environment; the refusals, one line each (a
        policy Kyverno's admission refuses never reports, as on a real cluster)."""
        refused = []
        for policy in policies:
            live = live_policy(policy, self.plan)
            try:
                self.cluster.create(live)
            except LiveError as exc:
                refused.append(str(exc))
                continue
            ref = identity(live)
            self.created.append((str(live.get("apiVersion", "kyverno.io/v1")), ref))
            # reports name a namespaced Policy "<namespace>/<name>" (some Kyverno releases: the
            # bare name); a ClusterPolicy by its name
            self.policy_names.append(ref.name)
            if ref.namespace:
                self.policy_names.append(f"{ref.namespace}/{ref.name}")
        return refused


def _sweep(
    cluster: LiveCluster, kinds: set[tuple[str, str]], suffix: str, timeout_s: float
) -> None:
    """Delete whatever an earlier, interrupted run of this trial left behind."""
    leftovers = []
    for api_version, kind in sorted(kinds):
        try:
            found = cluster.list(api_version, kind, label_selector=f"{TRIAL_LABEL}={suffix}")
        except LiveError:
            continue  # a kind this cluster does not serve has no leftovers
        leftovers += [(api_version, identity(obj)) for obj in found]
    for api_version, ref in sorted(leftovers, key=lambda item: item[1].kind == "Namespace"):
        cluster.delete(api_version, ref)
    still = cluster.wait_gone(leftovers, timeout_s)
    if still:
        raise LiveError(f"leftovers of an earlier run are still being deleted: {', '.join(still)}")


@contextmanager
def deployed(
    cluster: LiveCluster, objects: Sequence[Manifest], suffix: str, settings: LiveSettings
) -> Iterator[Deployment]:
    """Deploy ``objects`` under the trial's names; everything is deleted when the block ends."""
    kinds = {(str(o.get("apiVersion", "")), str(o.get("kind", ""))) for o in objects}
    kinds |= set(POLICY_KINDS) | {("v1", "Namespace")}
    _sweep(cluster, kinds, suffix, settings.delete_timeout_s)
    plan = plan_deployment(
        objects,
        suffix,
        lambda ref, obj: cluster.exists(str(obj.get("apiVersion", "")), ref),
    )
    deployment = Deployment(cluster, plan)
    try:
        for obj in plan.objects:
            plain, ephemeral = without_ephemeral_containers(obj)
            cluster.create(plain)
            deployment.created.append((str(obj.get("apiVersion", "")), identity(obj)))
            if ephemeral:
                cluster.add_ephemeral_containers(plain, ephemeral)
        yield deployment
    except BaseException as failure:
        # the failure that ended the block is the one to report; a cleanup problem joins it
        try:
            remove(deployment, settings.delete_timeout_s)
        except LiveError as cleanup:
            failure.add_note(str(cleanup))
        raise
    remove(deployment, settings.delete_timeout_s)


def remove(deployment: Deployment, timeout_s: float) -> None:
    """Delete what the deployment created, newest first, and wait until it is gone. Every object
    is attempted even when one deletion fails; the failures are raised together at the end."""
    problems = []
    order = list(reversed(deployment.created))
    # namespaces last: deleting one first would leave its objects to the cluster's slow cascade
    order.sort(key=lambda item: item[1].kind == "Namespace")
    for api_version, ref in order:
        try:
            deployment.cluster.delete(api_version, ref)
        except LiveError as exc:
            problems.append(str(exc))
    still = deployment.cluster.wait_gone(order, timeout_s)
    if still:
        problems.append(f"still present after {timeout_s:g} s: {', '.join(still)}")
    if problems:
        raise LiveError("cleanup: " + "; ".join(problems))
