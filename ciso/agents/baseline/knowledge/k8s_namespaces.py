"""Kubernetes namespaces: network policies per namespace, and the default namespace.

Kubernetes creates in ``default`` the Service ``kubernetes``, the ServiceAccount ``default`` and
the ConfigMap ``kube-root-ca.crt``; those are never the user's.
"""

from __future__ import annotations

from ciso.agents.baseline.intent import DefaultNamespaceCheck, NamespaceNetworkPolicyCheck
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

CONCEPTS: tuple[Concept, ...] = (
    Concept(
        "namespace-network-policy",
        (words(r"network\s*polic"), words(r"\bnamespaces?\b")),
        lambda text: NamespaceNetworkPolicyCheck(),
    ),
    Concept(
        "default-namespace",
        (
            words(
                r"\b(the\s+)?default\s+namespace\b",
                r"\bnamespace\s+['\"`]?default\b",
                r"\bnamespace\s+(is|equals|=|of)\s+['\"`]?default\b(?!\s+service)",
                r"\bin\s+['\"`]default['\"`]",
            ),
        ),
        lambda text: DefaultNamespaceCheck(kinds=USER_KINDS),
    ),
)
