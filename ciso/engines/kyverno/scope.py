"""How the Kyverno CLI reads a resource file: a resource of a namespaced kind without a namespace
is in ``default`` (a kind the CLI does not know, such as a custom resource, counts as
namespaced), and null maps where Kubernetes expects maps (``labels:`` with no value) are empty
maps."""

from __future__ import annotations

from typing import Any

# (API group, kind) of the cluster-scoped kinds of Kubernetes and Kyverno
CLUSTER_SCOPED = frozenset(
    {
        ("", "Namespace"),
        ("", "Node"),
        ("", "PersistentVolume"),
        ("", "ComponentStatus"),
        ("rbac.authorization.k8s.io", "ClusterRole"),
        ("rbac.authorization.k8s.io", "ClusterRoleBinding"),
        ("storage.k8s.io", "StorageClass"),
        ("storage.k8s.io", "CSIDriver"),
        ("storage.k8s.io", "CSINode"),
        ("storage.k8s.io", "VolumeAttachment"),
        ("storage.k8s.io", "VolumeAttributesClass"),
        ("scheduling.k8s.io", "PriorityClass"),
        ("node.k8s.io", "RuntimeClass"),
        ("networking.k8s.io", "IngressClass"),
        ("networking.k8s.io", "IPAddress"),
        ("networking.k8s.io", "ServiceCIDR"),
        ("apiextensions.k8s.io", "CustomResourceDefinition"),
        ("apiregistration.k8s.io", "APIService"),
        ("admissionregistration.k8s.io", "ValidatingWebhookConfiguration"),
        ("admissionregistration.k8s.io", "MutatingWebhookConfiguration"),
        ("admissionregistration.k8s.io", "ValidatingAdmissionPolicy"),
        ("admissionregistration.k8s.io", "ValidatingAdmissionPolicyBinding"),
        ("admissionregistration.k8s.io", "MutatingAdmissionPolicy"),
        ("admissionregistration.k8s.io", "MutatingAdmissionPolicyBinding"),
        ("certificates.k8s.io", "CertificateSigningRequest"),
        ("certificates.k8s.io", "ClusterTrustBundle"),
        ("flowcontrol.apiserver.k8s.io", "FlowSchema"),
        ("flowcontrol.apiserver.k8s.io", "PriorityLevelConfiguration"),
        ("authentication.k8s.io", "TokenReview"),
        ("authentication.k8s.io", "SelfSubjectReview"),
        ("authorization.k8s.io", "SubjectAccessReview"),
        ("authorization.k8s.io", "SelfSubjectAccessReview"),
        ("authorization.k8s.io", "SelfSubjectRulesReview"),
        ("policy", "PodSecurityPolicy"),
        ("resource.k8s.io", "DeviceClass"),
        ("resource.k8s.io", "ResourceSlice"),
        ("kyverno.io", "ClusterPolicy"),
        ("kyverno.io", "ClusterCleanupPolicy"),
        ("kyverno.io", "GlobalContextEntry"),
        ("wgpolicyk8s.io", "ClusterPolicyReport"),
        ("reports.kyverno.io", "ClusterEphemeralReport"),
        ("policies.kyverno.io", "ValidatingPolicy"),
        ("policies.kyverno.io", "MutatingPolicy"),
        ("policies.kyverno.io", "GeneratingPolicy"),
        ("policies.kyverno.io", "DeletingPolicy"),
        ("policies.kyverno.io", "ImageValidatingPolicy"),
    }
)
_MAP_FIELDS = frozenset(
    {"annotations", "labels", "matchLabels", "nodeSelector", "data", "stringData"}
)


def is_cluster_scoped(resource: dict[str, Any]) -> bool:
    api_version = str(resource.get("apiVersion", ""))
    group = api_version.split("/")[0] if "/" in api_version else ""
    return (group, resource.get("kind")) in CLUSTER_SCOPED


def _empty_maps(value: Any) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            if item is None and key in _MAP_FIELDS:
                value[key] = {}
            else:
                _empty_maps(item)
    elif isinstance(value, list):
        for item in value:
            _empty_maps(item)


def as_the_cli_reads_it(resource: dict[str, Any]) -> dict[str, Any]:
    """Default the namespace and empty the null maps, in place; returns the resource."""
    meta = resource.get("metadata")
    if not isinstance(meta, dict):
        meta = resource["metadata"] = {}
    if not meta.get("namespace") and not is_cluster_scoped(resource):
        meta["namespace"] = "default"
    _empty_maps(resource)
    return resource
