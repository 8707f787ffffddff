"""Kubernetes controls on single scalar fields of pod specs, containers and Services that the
other families do not name: Service aliases (type ExternalName), mount propagation back to the
node, the Service environment variables (enableServiceLinks), the reserved system priority
classes and the pod's resolver (dnsPolicy / dnsConfig).

Each concept keys on the effect as well as on the field name, so that a text which only
describes what the setting does ("a CNAME to another host", "mounts never flow back out",
"the *_SERVICE_HOST variables") is read as the same control.

Defaults that matter: ``enableServiceLinks`` unset means true (the variables are injected);
``dnsPolicy`` unset means ClusterFirst; ``mountPropagation`` unset means None.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ciso.agents.baseline.intent import FieldValueCheck, Scope
from ciso.agents.baseline.knowledge import Concept, words

#: the Service field whose value makes cluster DNS answer with a CNAME
SERVICE_ALIAS_TYPE = "ExternalName"
#: the only propagation mode that carries a container's mounts back to the host
BIDIRECTIONAL = "Bidirectional"
#: the dnsPolicy values that resolve through the cluster DNS service (unset is ClusterFirst)
CLUSTER_DNS_POLICIES = ("ClusterFirst", "ClusterFirstWithHostNet")
#: the priority classes Kubernetes creates itself and reserves for the control plane
SYSTEM_PRIORITY_CLASSES = ("system-node-critical", "system-cluster-critical")


def _external_name(text: str) -> FieldValueCheck:
    return FieldValueCheck(
        concept="service-external-name",
        level="object",
        kinds=("Service",),
        paths=(("spec", "type"),),
        forbidden=(SERVICE_ALIAS_TYPE,),
    )


def _mount_propagation(text: str) -> FieldValueCheck:
    return FieldValueCheck(
        concept="bidirectional-mount-propagation",
        level="container",
        paths=(("volumeMounts", "*", "mountPropagation"),),
        forbidden=(BIDIRECTIONAL,),
    )


def _service_links(text: str) -> FieldValueCheck:
    # unset injects the variables: only an explicit false complies
    return FieldValueCheck(
        concept="service-links",
        level="pod",
        paths=(("enableServiceLinks",),),
        allowed=(False,),
        must_be_set=True,
    )


def _system_priority(text: str) -> FieldValueCheck:
    return FieldValueCheck(
        concept="system-priority-class",
        level="pod",
        paths=(("priorityClassName",),),
        forbidden=SYSTEM_PRIORITY_CLASSES,
    )


#: an IPv4 or IPv6 address written in the text ("the cluster DNS address 10.96.0.10")
_ADDRESS = re.compile(
    r"(?<![\w.:])(\d{1,3}(?:\.\d{1,3}){3}|[0-9a-f]{1,4}(?::[0-9a-f]{0,4}){2,7})(?![\w:])", re.I
)


def _cluster_dns(text: str) -> tuple[FieldValueCheck, ...]:
    addresses = tuple(dict.fromkeys(_ADDRESS.findall(text)))
    if addresses:
        # the text names the cluster DNS service's address: a nameserver the pod lists is
        # judged against it, item by item (the cluster's address itself is no finding, under
        # any dnsPolicy)
        return (
            FieldValueCheck(
                concept="cluster-dns-nameservers",
                level="pod",
                paths=(("dnsConfig", "nameservers", "*"),),
                allowed=addresses,
            ),
        )
    # a resolver of the pod's own choosing is either a policy that bypasses the cluster DNS
    # service (Default, None) or an extra nameserver in dnsConfig; search domains and options
    # do not change which server answers
    return (
        FieldValueCheck(
            concept="cluster-dns-policy",
            level="pod",
            paths=(("dnsPolicy",),),
            allowed=CLUSTER_DNS_POLICIES,
        ),
        FieldValueCheck(
            concept="cluster-dns-nameservers",
            level="pod",
            paths=(("dnsConfig", "nameservers"),),
            any_value=True,
        ),
    )


_SERVICE = words(r"\bservices?\b")
_ALIAS = words(r"\bExternalName\b", r"\bCNAME\b", r"\b(DNS\s+)?alias(es)?\b")
_MOUNT_BACK = words(
    r"\bmountPropagation\b",
    r"\bmount\s+propagation\b",
    r"\bBidirectional\b",
    r"\bmounts?\b.{0,120}\b(back\s+out|back\s+to\s+the\s+(host|node)|appear\s+on\s+the\s+(node|host)"
    r"|propagat\w*\s+(back|to\s+the\s+(host|node)))",
)
_SERVICE_ENV = words(
    r"\benableServiceLinks\b",
    r"\bservice\s+links\b",
    r"_SERVICE_HOST\b",
    r"\bdocker[- ]links\b",
    r"\b(environment|env)\s+variables?\b.{0,80}\bservices?\b",
    r"\bservices?\b.{0,80}\b(environment|env)\s+variables?\b",
)
#: secrets or config handed over in variables are another control (SecretEnvCheck)
_NOT_SERVICE_ENV = words(r"\bsecrets?\b", r"\bconfig\s*maps?\b", r"\bcredentials?\b")
_PRIORITY = words(r"\bpriorityClassName\b", r"\bpriority\s+class(es)?\b")
_SYSTEM_CLASS = words(
    r"\bsystem-(node|cluster)-critical\b", r"\bsystem-\*", r"\bbuilt-?in\s+priority\s+class"
)
_RESOLVER = words(
    r"\bdnsPolicy\b",
    r"\bDNS\s+polic(y|ies)\b",
    r"\bnameservers?\b",
    r"\bdnsConfig\b",
    r"\bresolvers?\b",
)
_CLUSTER_DNS = words(r"\bcluster\s+DNS\b", r"\bClusterFirst\b", r"\bkube-dns\b", r"\bCoreDNS\b")

CONCEPTS: tuple[Concept, ...] = (
    Concept("service-external-name", all_of=(_SERVICE, _ALIAS), build=_external_name),
    Concept("bidirectional-mount-propagation", all_of=(_MOUNT_BACK,), build=_mount_propagation),
    Concept(
        "service-links",
        all_of=(_SERVICE_ENV,),
        build=_service_links,
        none_of=_NOT_SERVICE_ENV,
    ),
    Concept("system-priority-class", all_of=(_PRIORITY, _SYSTEM_CLASS), build=_system_priority),
    Concept("cluster-dns", all_of=(_RESOLVER, _CLUSTER_DNS), build=_cluster_dns),
)

#: "only pods in kube-system may use them", "reserved to kube-system": the namespace that keeps
#: the right is exempt, though the text states no exemption in so many words
_RESERVED_TO = re.compile(
    r"\b(only|reserved\s+(to|for)|except|outside(\s+of)?|other\s+than|apart\s+from)\b"
    r"[^.;]{0,40}?\b(kube-system|kube-public|kube-node-lease)\b",
    re.I,
)


def scope_for(text: str, scope: Scope) -> Scope:
    """The namespaces a text reserves the setting to are exempt from its check."""
    named = [m.group(m.lastindex or 0) for m in _RESERVED_TO.finditer(text)]
    if not named:
        return scope
    return replace(
        scope, exempt_namespaces=tuple(dict.fromkeys([*scope.exempt_namespaces, *named]))
    )
