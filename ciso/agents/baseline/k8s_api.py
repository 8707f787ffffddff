"""The Kubernetes API as a requirement names it: built-in resources (plural name, API group, kind)
and the verbs of RBAC, each with the words people use for them.

General knowledge, not per control: the generic RBAC reading finds any of these in a text it has
no concept for. Its own module (no knowledge import): the renderers read the groups too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class ApiResource:
    """A resource of the API: ``plural`` as RBAC rules name it (``a/sub`` for a subresource),
    its API ``group`` ("" is the core group) and its ``kind``."""

    plural: str
    group: str
    kind: str
    #: how a text names a subresource in words ("the approval of a CSR")
    spoken: str = ""

    def pattern(self) -> re.Pattern[str]:
        """The resource as a text names it: its plural, its kind ("NetworkPolicy"), or the kind's
        words ("network policy", "network policies")."""
        if "/" in self.plural:
            words = f"|{self.spoken}" if self.spoken else ""
            return re.compile(rf"\b({re.escape(self.plural)}{words})\b", re.I)
        spoken = r"\s*-?".join(re.findall(r"[A-Z][a-z0-9]*", self.kind))
        spoken = re.sub(r"y$", "(y|ies)", spoken) if spoken.endswith("y") else spoken + "(e?s)?"
        return re.compile(rf"\b({re.escape(self.plural)}|{spoken})\b", re.I)


def _table(group: str, kinds: str) -> tuple[ApiResource, ...]:
    """``kinds``: "Kind:plural ..." of one group."""
    return tuple(
        ApiResource(plural, group, kind)
        for kind, plural in (item.split(":") for item in kinds.split())
    )


RESOURCES: tuple[ApiResource, ...] = (
    *_table(
        "",
        "Namespace:namespaces Pod:pods Secret:secrets ConfigMap:configmaps Service:services "
        "ServiceAccount:serviceaccounts Node:nodes PersistentVolume:persistentvolumes "
        "PersistentVolumeClaim:persistentvolumeclaims Endpoints:endpoints Event:events "
        "ResourceQuota:resourcequotas LimitRange:limitranges "
        "ReplicationController:replicationcontrollers",
    ),
    *_table(
        "apps",
        "Deployment:deployments StatefulSet:statefulsets DaemonSet:daemonsets "
        "ReplicaSet:replicasets",
    ),
    *_table("batch", "Job:jobs CronJob:cronjobs"),
    *_table("networking.k8s.io", "NetworkPolicy:networkpolicies Ingress:ingresses"),
    *_table("networking.k8s.io", "IngressClass:ingressclasses"),
    *_table(
        "rbac.authorization.k8s.io",
        "Role:roles ClusterRole:clusterroles RoleBinding:rolebindings "
        "ClusterRoleBinding:clusterrolebindings",
    ),
    *_table("certificates.k8s.io", "CertificateSigningRequest:certificatesigningrequests"),
    *_table(
        "admissionregistration.k8s.io",
        "ValidatingWebhookConfiguration:validatingwebhookconfigurations "
        "MutatingWebhookConfiguration:mutatingwebhookconfigurations",
    ),
    *_table("apiextensions.k8s.io", "CustomResourceDefinition:customresourcedefinitions"),
    *_table("storage.k8s.io", "StorageClass:storageclasses"),
    *_table("policy", "PodDisruptionBudget:poddisruptionbudgets"),
    *_table("scheduling.k8s.io", "PriorityClass:priorityclasses"),
    *_table("", "PodTemplate:podtemplates ComponentStatus:componentstatuses"),
    *_table("apps", "ControllerRevision:controllerrevisions"),
    *_table("autoscaling", "HorizontalPodAutoscaler:horizontalpodautoscalers"),
    *_table("coordination.k8s.io", "Lease:leases"),
    *_table("discovery.k8s.io", "EndpointSlice:endpointslices"),
    *_table("node.k8s.io", "RuntimeClass:runtimeclasses"),
    *_table(
        "storage.k8s.io",
        "CSIDriver:csidrivers CSINode:csinodes VolumeAttachment:volumeattachments",
    ),
    *_table(
        "admissionregistration.k8s.io",
        "ValidatingAdmissionPolicy:validatingadmissionpolicies "
        "ValidatingAdmissionPolicyBinding:validatingadmissionpolicybindings",
    ),
    *_table("authentication.k8s.io", "TokenReview:tokenreviews"),
    *_table("authorization.k8s.io", "SubjectAccessReview:subjectaccessreviews"),
    *_table("apiregistration.k8s.io", "APIService:apiservices"),
    ApiResource("pods/exec", "", "Pod"),
    ApiResource("pods/attach", "", "Pod"),
    ApiResource("pods/portforward", "", "Pod"),
    ApiResource("pods/ephemeralcontainers", "", "Pod"),
    ApiResource("pods/log", "", "Pod", r"(pod|container)\s+logs?"),
    ApiResource("pods/eviction", "", "Pod", r"evict\w*\s+(of\s+)?(a\s+|the\s+)?pods?"),
    ApiResource("services/proxy", "", "Service"),
    ApiResource("nodes/status", "", "Node"),
    ApiResource("namespaces/finalize", "", "Namespace"),
    ApiResource("nodes/proxy", "", "Node"),
    ApiResource("serviceaccounts/token", "", "ServiceAccount"),
    ApiResource(
        "certificatesigningrequests/approval",
        "certificates.k8s.io",
        "CertificateSigningRequest",
        r"approv\w*\s+(of\s+)?(an?\s+|the\s+)?(certificate\s+signing\s+requests?|CSRs?)",
    ),
)

#: API group of each resource above
API_GROUPS = {r.plural: r.group for r in RESOURCES}

#: RBAC verbs and the words a requirement uses for them (a verb may have several words; a word
#: may stand for several verbs: "change" is update or patch)
VERB_WORDS: dict[str, tuple[str, ...]] = {
    "create": (r"creat\w*", r"add\w*", r"mak(e|es|ing)", r"writ\w*"),
    "update": (r"updat\w*", r"chang\w*", r"modif\w*", r"edit\w*", r"alter\w*", r"writ\w*"),
    "patch": (r"patch\w*", r"chang\w*", r"modif\w*", r"edit\w*", r"alter\w*", r"writ\w*"),
    "delete": (r"delet\w*", r"remov\w*", r"destroy\w*", r"writ\w*"),
    "deletecollection": (r"deletecollection", r"delet\w*", r"remov\w*", r"writ\w*"),
    "get": (r"get", r"read\w*", r"view\w*"),
    "list": (r"list\w*", r"read\w*", r"view\w*", r"enumerat\w*"),
    "watch": (r"watch\w*", r"read\w*", r"view\w*"),
    "approve": (r"approv\w*",),
    "escalate": (r"escalat\w*",),
    "bind": (r"bind",),
    "impersonate": (r"impersonat\w*",),
}


def verbs_in(text: str) -> tuple[str, ...]:
    """The RBAC verbs ``text`` names, in the table's order."""
    return tuple(
        verb
        for verb, patterns in VERB_WORDS.items()
        if any(re.search(rf"\b{p}\b", text, re.I) for p in patterns)
    )


def resources_in(text: str) -> tuple[ApiResource, ...]:
    """The resources ``text`` names, subresources first (they are the more precise reading)."""
    found = [r for r in RESOURCES if r.pattern().search(text)]
    return tuple(sorted(found, key=lambda r: "/" not in r.plural))
