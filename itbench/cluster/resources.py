"""The kinds the offline API server knows: group, version, plural, scope, short names.

Core serves the built-in Kubernetes kinds; custom kinds are stored only when a domain registers
them through a ``ClusterExtension``, so a typo'd kind is rejected instead of silently kept.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass, field

VERBS = ("create", "delete", "get", "list", "patch", "update")


@dataclass(frozen=True)
class ResourceType:
    group: str
    version: str
    kind: str
    plural: str
    namespaced: bool
    short_names: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    #: Extra versions served for the same objects (a CRD may serve, say, v1 and v2beta1).
    also_versions: tuple[str, ...] = field(default=())

    @property
    def singular(self) -> str:
        return self.kind.lower()

    @property
    def group_version(self) -> str:
        return f"{self.group}/{self.version}" if self.group else self.version

    @property
    def api_version(self) -> str:
        return self.group_version

    def versions(self) -> tuple[str, ...]:
        return (self.version, *self.also_versions)


def _t(
    group: str,
    version: str,
    kind: str,
    plural: str,
    namespaced: bool,
    *short: str,
    cats: tuple[str, ...] = (),
) -> ResourceType:
    return ResourceType(group, version, kind, plural, namespaced, tuple(short), cats)


BUILTIN_TYPES: tuple[ResourceType, ...] = (
    _t("", "v1", "Namespace", "namespaces", False, "ns"),
    _t("", "v1", "Pod", "pods", True, "po", cats=("all",)),
    _t("", "v1", "Service", "services", True, "svc", cats=("all",)),
    _t("", "v1", "ConfigMap", "configmaps", True, "cm"),
    _t("", "v1", "Secret", "secrets", True),
    _t("", "v1", "ServiceAccount", "serviceaccounts", True, "sa"),
    _t("", "v1", "Node", "nodes", False, "no"),
    _t("", "v1", "Event", "events", True, "ev"),
    _t("", "v1", "PersistentVolume", "persistentvolumes", False, "pv"),
    _t("", "v1", "PersistentVolumeClaim", "persistentvolumeclaims", True, "pvc"),
    _t("", "v1", "Endpoints", "endpoints", True, "ep"),
    _t("", "v1", "LimitRange", "limitranges", True, "limits"),
    _t("", "v1", "ResourceQuota", "resourcequotas", True, "quota"),
    _t("", "v1", "ReplicationController", "replicationcontrollers", True, "rc", cats=("all",)),
    _t("apps", "v1", "Deployment", "deployments", True, "deploy", cats=("all",)),
    _t("apps", "v1", "ReplicaSet", "replicasets", True, "rs", cats=("all",)),
    _t("apps", "v1", "StatefulSet", "statefulsets", True, "sts", cats=("all",)),
    _t("apps", "v1", "DaemonSet", "daemonsets", True, "ds", cats=("all",)),
    _t("batch", "v1", "Job", "jobs", True, cats=("all",)),
    _t("batch", "v1", "CronJob", "cronjobs", True, "cj", cats=("all",)),
    _t("networking.k8s.io", "v1", "Ingress", "ingresses", True, "ing"),
    _t("networking.k8s.io", "v1", "NetworkPolicy", "networkpolicies", True, "netpol"),
    _t("networking.k8s.io", "v1", "IngressClass", "ingressclasses", False),
    _t("rbac.authorization.k8s.io", "v1", "Role", "roles", True),
    _t("rbac.authorization.k8s.io", "v1", "RoleBinding", "rolebindings", True),
    _t("rbac.authorization.k8s.io", "v1", "ClusterRole", "clusterroles", False),
    _t("rbac.authorization.k8s.io", "v1", "ClusterRoleBinding", "clusterrolebindings", False),
    _t("policy", "v1", "PodDisruptionBudget", "poddisruptionbudgets", True, "pdb"),
    # autoscaling/v1 is still served by every supported release (objects are kept as written:
    # no conversion between the versions' metric fields)
    ResourceType(
        "autoscaling",
        "v2",
        "HorizontalPodAutoscaler",
        "horizontalpodautoscalers",
        True,
        ("hpa",),
        also_versions=("v1",),
    ),  # fmt: skip
    _t("storage.k8s.io", "v1", "StorageClass", "storageclasses", False, "sc"),
    _t("scheduling.k8s.io", "v1", "PriorityClass", "priorityclasses", False, "pc"),
    _t("node.k8s.io", "v1", "RuntimeClass", "runtimeclasses", False),
    _t(
        "apiextensions.k8s.io",
        "v1",
        "CustomResourceDefinition",
        "customresourcedefinitions",
        False,
        "crd",
        "crds",
    ),
    _t(
        "admissionregistration.k8s.io",
        "v1",
        "ValidatingWebhookConfiguration",
        "validatingwebhookconfigurations",
        False,
    ),
    _t(
        "admissionregistration.k8s.io",
        "v1",
        "MutatingWebhookConfiguration",
        "mutatingwebhookconfigurations",
        False,
    ),
)


class Registry:
    """Lookups by kind, by (group, plural), and the group/version listing for discovery."""

    def __init__(self, types: Iterable[ResourceType]) -> None:
        self.types = tuple(types)
        self._by_kind: dict[tuple[str, str], ResourceType] = {}
        self._by_plural: dict[tuple[str, str], ResourceType] = {}
        for t in self.types:
            self._by_kind[(t.group, t.kind)] = t
            self._by_plural[(t.group, t.plural)] = t

    def by_api_version(self, api_version: str, kind: str) -> ResourceType | None:
        group = api_version.rpartition("/")[0] if "/" in api_version else ""
        t = self._by_kind.get((group, kind))
        if t is None:
            return None
        version = api_version.rpartition("/")[2]
        return t if version in t.versions() else None

    def by_kind(self, kind: str) -> ResourceType | None:
        for t in self.types:
            if t.kind == kind:
                return t
        return None

    def by_plural(self, group: str, plural: str) -> ResourceType | None:
        return self._by_plural.get((group, plural))

    def groups(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for t in self.types:
            if t.group:
                for v in t.versions():
                    if v not in out.setdefault(t.group, []):
                        out[t.group].append(v)
        return out

    def in_group_version(self, group: str, version: str) -> list[ResourceType]:
        return [t for t in self.types if t.group == group and version in t.versions()]


def default_registry() -> Registry:
    """The built-in kinds only; a cluster with extensions builds its registry from them too."""
    return Registry(BUILTIN_TYPES)


@functools.lru_cache(maxsize=1024)
def plural_of(kind: str) -> str:
    """The resource name of a kind: the built-in kinds' own (``NetworkPolicy`` ->
    ``networkpolicies``), else the kind lower-cased in English plural (the guess a client makes for
    a kind no discovery told it about)."""
    known = default_registry().by_kind(kind)
    if known is not None:
        return known.plural
    lower = kind.lower()
    if lower.endswith("y") and lower[-2:-1] not in ("a", "e", "i", "o", "u"):
        return lower[:-1] + "ies"
    if lower.endswith(("s", "x", "z", "ch", "sh")):
        return lower + "es"
    return lower + "s"
