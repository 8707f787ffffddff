"""Kubernetes namespaces and what reaches them: network policies per namespace, Pod Security
labels, TLS of Ingress hosts, and the default namespace.

Kubernetes creates in ``default`` the Service ``kubernetes``, the ServiceAccount ``default`` and
the ConfigMap ``kube-root-ca.crt``; those are never the user's.
"""

from __future__ import annotations

import re

from ciso.agents.baseline.intent import (
    DefaultNamespaceCheck,
    IngressTlsCheck,
    NamespaceLabelCheck,
    NamespaceNetworkPolicyCheck,
)
from ciso.agents.baseline.knowledge import Concept, words
from ciso.agents.baseline.knowledge.k8s_workloads import namespace_labels
from itbench.cluster.resources import default_registry

#: a namespace that must hold an object of a kind: "must contain at least one LimitRange object",
#: "has to have its own ResourceQuota"
_HOLDS = re.compile(
    r"\b(?:must|has\s+to|have\s+to|needs?\s+to|shall|should)\s+(?:always\s+)?(?:contain|hold|have|"
    r"include|carry)\s+(?:at\s+least\s+one\s+|an?\s+|one\s+|its\s+own\s+|their\s+own\s+)?"
    r"([A-Z][a-z]+(?:[A-Z][a-z]+)+)\b"
)


def _namespace_holds(text: str) -> NamespaceNetworkPolicyCheck | None:
    """Each namespace (those carrying the labels the text names) holds an object of the
    namespaced kind the text spells the API's way; None for a kind the API does not know as
    namespaced."""
    m = _HOLDS.search(text)
    if m and re.match(r"\s*(?:objects?\s+)?(?:that|which|whose|with|where)\b", text[m.end() :]):
        return None  # "a ResourceQuota that caps pods at 50": a condition on it this cannot judge
    known = default_registry().by_kind(m.group(1)) if m else None
    if known is None or not known.namespaced or known.kind == "NetworkPolicy":
        return None  # a NetworkPolicy per namespace is the concept after this one
    prefix = f"/apis/{known.group}/{known.version}" if known.group else f"/api/{known.version}"
    return NamespaceNetworkPolicyCheck(
        concept=f"namespace-holds-{known.plural}", object_kind=known.kind, api_prefix=prefix,
        plural=known.plural, namespace_labels=namespace_labels(text),
    )  # fmt: skip


#: the kinds that run containers: a Pod and every controller that creates Pods
POD_KINDS = (
    "Pod",
    "Deployment",
    "StatefulSet",
    "DaemonSet",
    "ReplicaSet",
    "ReplicationController",
    "Job",
    "CronJob",
)
#: the namespaced kinds a user would put in default (CIS 5.7.4)
USER_KINDS = (
    *POD_KINDS,
    "Service",
    "ConfigMap",
    "Secret",
    "ServiceAccount",
    "PersistentVolumeClaim",
)
#: "nothing that runs containers", "no Pods or workloads": the text limits the control to kinds
#: that run something, so a ConfigMap or Service left in default is no finding
_RUNS_CONTAINERS = re.compile(
    r"\b(?:runs?|running|starts?|creates?)\s+(?:\w+\s+)?(?:containers?|pods?)\b"
    r"|\bworkloads?\b|\bpods?\s+or\s+(?:anything|any\s+controller|controllers?)\b",
    re.I,
)
#: the kinds besides workloads a text may name ("any workload, Service or Secret there")
_OTHER_KINDS = re.compile(
    r"\b(?:services?|config\s?maps?|secrets?|service\s?accounts?|"
    r"persistent\s?volume\s?claims?|pvcs?)\b",
    re.I,
)


def _kinds_named(text: str) -> tuple[str, ...]:
    """The kinds the default-namespace control judges: the workloads alone when the text limits
    it to what runs containers and names no other kind; every user kind otherwise ("any
    workload, Service or ConfigMap there" keeps the Service and the ConfigMap)."""
    if _RUNS_CONTAINERS.search(text) and not _OTHER_KINDS.search(text):
        return POD_KINDS
    return USER_KINDS


BUILTIN_IN_DEFAULT = (
    ("Service", "kubernetes"),
    ("ServiceAccount", "default"),
    ("ConfigMap", "kube-root-ca.crt"),
)

#: Pod Security Admission: the label that makes the API server reject pods breaking a level
#: (``warn`` and ``audit`` only report)
PSA_ENFORCE = "pod-security.kubernetes.io/enforce"


def _pod_security_level(text: str) -> NamespaceLabelCheck:
    """``baseline`` or stricter, or ``restricted`` alone when the text asks only for it;
    ``privileged`` enforces nothing."""
    baseline = re.search(r"\bbaseline\b", text, re.I)
    levels = ("baseline", "restricted") if baseline else ("restricted",)
    return NamespaceLabelCheck(concept="pod-security-enforce", label=PSA_ENFORCE, allowed=levels)


CONCEPTS: tuple[Concept, ...] = (
    Concept(
        # an Ingress serves a host over HTTPS only when its tls section lists the host
        "ingress-tls",
        (
            words(r"\bingress(es)?\b"),
            words(r"\btls\b", r"\bhttps\b", r"\bcertificates?\b", r"\bplain\s+http\b"),
        ),
        lambda text: IngressTlsCheck(),
    ),
    Concept(
        "pod-security-enforce",
        (
            words(
                r"pod-security\.kubernetes\.io",
                r"\bpod\s+security\s+(standards?|admission|levels?)\b",
                r"\b(baseline|restricted)\s+(pod\s+security\s+)?(standard|profile|level|policy)\b",
            ),
            words(r"\bnamespaces?\b"),
        ),
        _pod_security_level,
    ),
    Concept(
        # before the network-policy one: a text that names another kind is about that kind
        "namespace-holds-kind",
        (words(r"\bnamespaces?\b"), (_HOLDS,)),
        _namespace_holds,
    ),
    Concept(
        "namespace-network-policy",
        (words(r"network\s*polic"), words(r"\bnamespaces?\b")),
        lambda text: NamespaceNetworkPolicyCheck(),
    ),
    Concept(
        "default-namespace",
        (
            words(
                r"\b(the\s+)?['\"`]?default['\"`]?\s+namespace\b",
                r"\bnamespace\s+['\"`]?default\b",
                r"\bnamespace\s+(is|equals|=|of)\s+['\"`]?default\b(?!\s+service)",
                r"\bin\s+['\"`]default['\"`]",
            ),
        ),
        lambda text: DefaultNamespaceCheck(kinds=_kinds_named(text)),
    ),
)
