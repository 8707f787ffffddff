"""CIS 5.7.4: nothing of ours lives in the default namespace."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ciso.generator.placement import PlacementControl
from ciso.generator.workloads import KINDS

_CHECKED = (
    *KINDS,
    "ReplicationController",
    "Service",
    "ConfigMap",
    "Secret",
    "ServiceAccount",
    "PersistentVolumeClaim",
)
_BUILT_IN = (
    ("Service", "kubernetes"),
    ("ServiceAccount", "default"),
    ("ConfigMap", "kube-root-ca.crt"),
)


def violates(obj: Mapping[str, Any]) -> bool:
    meta = obj.get("metadata") or {}
    return (
        obj.get("kind") in _CHECKED
        and meta.get("namespace", "default") == "default"
        and (obj.get("kind"), meta.get("name")) not in _BUILT_IN
    )


_KINDS_TEXT = (
    "Pods, Deployments, StatefulSets, DaemonSets, ReplicaSets, ReplicationControllers, Jobs, "
    "CronJobs, Services, ConfigMaps, Secrets, ServiceAccounts and PersistentVolumeClaims"
)
_BUILT_IN_TEXT = (
    "the Service kubernetes, the ServiceAccount default and the ConfigMap kube-root-ca.crt"
)

CONTROL = PlacementControl(
    cis_id="5.7.4",
    builtin_id="cis-k8s-5.7.4-default-namespace",
    violates=violates,
    forbidden="default",
    built_in=_BUILT_IN,
    phrasings=(
        f"Nothing of ours may live in the default namespace: flag any of our {_KINDS_TEXT} "
        f"there. What Kubernetes puts there itself ({_BUILT_IN_TEXT}) is fine, and so is a "
        "namespace that merely starts with default.",
        f"Finding criteria: an object fails when it is one of {_KINDS_TEXT} and its namespace is "
        f"default. Exempt: {_BUILT_IN_TEXT}. Labels or data mentioning default are irrelevant.",
        "Resources in the default namespace escape the policies and quotas attached to "
        f"dedicated namespaces. Flag every one of {_KINDS_TEXT} in namespace default, except "
        f"what Kubernetes creates there itself ({_BUILT_IN_TEXT}).",
    ),
)
