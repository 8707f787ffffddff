"""``kyverno`` on a live cluster: deploy the environment and the agent's policies, wait for
Kyverno's background scan, read the PolicyReports it wrote, and give them back in the scenario's
names so the offline evaluator scores them unchanged.

The scan is finished when the reports on this trial's objects from this trial's policies have
stayed the same for ``scan_settle_s``; after ``scan_timeout_s`` whatever is there is used. A report
about an object the cluster derived (a Pod of a Deployment, named by its ReplicaSet) is given to
the nearest declared owner, which is how the offline evaluator attributes it too.
"""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ciso.evaluation.kyverno_engines import Scan, ScanFailed, one_by_one
from ciso.live import LiveSettings
from ciso.live.client import LiveCluster, LiveError
from ciso.live.deploy import Deployment, deployed
from ciso.scenarios.model import ResourceRef

Manifest = dict[str, Any]
_OWNER_DEPTH = 5


@dataclass
class LiveScanner:
    """A ``KyvernoScanner`` whose reports come from the live cluster's Kyverno."""

    settings: LiveSettings
    suffix: str
    name: str = "live-cluster-kyverno"
    #: Policies the cluster refused, scans that ended at their time limit: for the evaluation's
    #: notes.
    notes: list[str] = field(default_factory=list)

    @property
    def version(self) -> str:
        """The cluster's Kubernetes version (Kyverno's own is not served by its API)."""
        try:
            found = LiveCluster.connect(self.settings.kubeconfig).version() or "unknown"
        except Exception:  # the version only labels the record: never fail a scan over it
            found = "unknown"
        return f"(Kubernetes {found})"

    def reports(self, policies: Sequence[Manifest], objects: Sequence[Manifest]) -> list[Manifest]:
        try:
            cluster = LiveCluster.connect(self.settings.kubeconfig)
            with deployed(cluster, objects, self.suffix, self.settings) as deployment:
                refused = deployment.add_policies(policies)
                self.notes.extend(f"refused by the cluster: {line}" for line in refused)
                if not deployment.policy_names:
                    raise ScanFailed("the live cluster refused every policy: " + "; ".join(refused))
                reports = self._wait(deployment)
                return [_in_scenario_names(r, deployment, _Owners(cluster)) for r in reports]
        except LiveError as exc:
            raise ScanFailed(f"live cluster: {exc}") from None

    def reports_many(self, scans: Sequence[Scan]) -> list[list[Manifest]]:
        return one_by_one(self, scans)

    def _wait(self, deployment: Deployment) -> list[Manifest]:
        started = time.monotonic()
        deadline = started + self.settings.scan_timeout_s
        last, stable_since = "", 0.0
        while True:
            reports = _ours(deployment)
            shown = json.dumps(reports, sort_keys=True, default=str)
            now = time.monotonic()
            if shown != last:
                last, stable_since = shown, now
            elif reports and now - stable_since >= self.settings.scan_settle_s:
                return reports
            if now > deadline:
                self.notes.append(
                    f"the background scan was still changing or silent after "
                    f"{self.settings.scan_timeout_s:g} s: scored on the reports found then"
                )
                return reports
            time.sleep(self.settings.poll_s)


def _ours(deployment: Deployment) -> list[Manifest]:
    """The trial's reports, holding only results of the trial's policies (a shared cluster has
    other policies, and other trials)."""
    created = {ref for _, ref in deployment.created}
    policies = set(deployment.policy_names)
    kept = []
    for report in deployment.cluster.policy_reports(deployment.plan.live_namespaces()):
        scope = report.get("scope") if isinstance(report.get("scope"), dict) else None
        cluster_wide = report.get("kind") == "ClusterPolicyReport"
        if cluster_wide and scope is not None and _ref(scope) not in created:
            continue
        results = [
            r
            for r in report.get("results") or []
            if isinstance(r, dict) and r.get("policy") in policies
        ]
        if report.get("kind") == "ClusterPolicyReport" and scope is None:
            # the CLI shape: each result lists its resources; keep results about our objects
            results = [
                r for r in results if any(_ref(x) in created for x in r.get("resources") or [])
            ]
        if results:
            kept.append({**report, "results": results})
    return kept


def _ref(entry: Any) -> ResourceRef:
    entry = entry if isinstance(entry, dict) else {}
    return ResourceRef(
        str(entry.get("kind", "")), str(entry.get("namespace") or ""), str(entry.get("name", ""))
    )


@dataclass
class _Owners:
    """Walks ownerReferences on the live cluster (cached per scan)."""

    cluster: LiveCluster
    seen: dict[ResourceRef, Manifest | None] = field(default_factory=dict)

    def parent(self, api_version: str, ref: ResourceRef) -> tuple[str, ResourceRef] | None:
        if ref not in self.seen:
            try:
                self.seen[ref] = self.cluster.get(api_version, ref)
            except LiveError:
                self.seen[ref] = None
        obj = self.seen[ref] or {}
        owners = (obj.get("metadata") or {}).get("ownerReferences") or []
        for owner in owners:
            if owner.get("controller") or len(owners) == 1:
                found = ResourceRef(str(owner.get("kind")), ref.namespace, str(owner.get("name")))
                return str(owner.get("apiVersion", "")), found
        return None


def _scenario_ref(entry: dict[str, Any], deployment: Deployment, owners: _Owners) -> dict[str, Any]:
    live = _ref(entry)
    plan = deployment.plan
    api_version = str(entry.get("apiVersion", ""))
    current: tuple[str, ResourceRef] | None = (api_version, live)
    for _ in range(_OWNER_DEPTH):
        if current is None:
            break
        if current[1] in plan.to_scenario:
            target = plan.to_scenario[current[1]]
            return {**entry, "apiVersion": current[0], "kind": target.kind} | _where(target)
        current = owners.parent(*current)
    return {**entry} | _where(plan.scenario_ref(live))


def _where(ref: ResourceRef) -> dict[str, str]:
    return {"namespace": ref.namespace, "name": ref.name} if ref.namespace else {"name": ref.name}


def _in_scenario_names(report: Manifest, deployment: Deployment, owners: _Owners) -> Manifest:
    out = copy.deepcopy(report)
    if isinstance(out.get("scope"), dict):
        out["scope"] = _scenario_ref(out["scope"], deployment, owners)
        if not out["scope"].get("namespace"):
            out["scope"].pop("namespace", None)
    for result in out.get("results") or []:
        result["resources"] = [
            _scenario_ref(r, deployment, owners) for r in result.get("resources") or []
        ]
        if not result["resources"]:
            result.pop("resources")
    return out
