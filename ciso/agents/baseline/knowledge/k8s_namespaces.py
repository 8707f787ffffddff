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

#: the namespaced kinds a user would put in default (CIS 5.7.4)
USER_KINDS = (
    "Pod",
    "Deployment",
    "StatefulSet",
    "DaemonSet",
    "ReplicaSet",
    "ReplicationController",
    "Job",
    "CronJob",
    "Service",
    "ConfigMap",
    "Secret",
    "ServiceAccount",
    "PersistentVolumeClaim",
)
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
        lambda text: DefaultNamespaceCheck(kinds=USER_KINDS),
    ),
)
