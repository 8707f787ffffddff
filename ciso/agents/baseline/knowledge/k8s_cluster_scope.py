"""Kubernetes controls on cluster-wide objects that no pod spec carries: the address ranges a
NetworkPolicy opens in one direction, the built-in roles a ClusterRole aggregates into, and when
a StorageClass binds a volume.

Each concept keys on the effect as well as on the field name ("open egress to the whole
internet", "fold its rules into the edit role", "wait until a pod using the claim is scheduled").

Defaults that matter: ``volumeBindingMode`` unset is Immediate (binds before any pod is
scheduled); a ClusterRole is aggregated only by a label whose value is the string ``"true"``.
"""

from __future__ import annotations

import re

from ciso.agents.baseline.intent import FieldValueCheck
from ciso.agents.baseline.knowledge import Concept, words

#: the ranges that stand for every address of a family
EVERY_ADDRESS = ("0.0.0.0/0", "::/0")
#: a CIDR written in the text (IPv4 or IPv6)
_CIDR = re.compile(
    r"(?<![\w:.])((?:\d{1,3}\.){3}\d{1,3}/\d{1,3}|[0-9a-f:]*::[0-9a-f:]*/\d{1,3})", re.I
)
#: a clause that takes a direction out of the control ("ingress rules are out of scope")
_NOT_JUDGED = re.compile(
    r"\b(out\s+of\s+scope|not\s+(judged|covered|in\s+scope)|allowed|permitted|fine|exempt)\b", re.I
)


def _clauses(text: str) -> list[str]:
    return [c for c in re.split(r"[.;()]\s*|\s+-\s+", text) if c.strip()]


def _directions(text: str) -> tuple[str, ...]:
    """The rule lists (``egress``, ``ingress``) the text judges: those it names in a clause
    that does not take them out of scope; both when it names neither."""
    named = []
    for direction in ("egress", "ingress"):
        clauses = [c for c in _clauses(text) if re.search(rf"\b{direction}\b", c, re.I)]
        if any(not _NOT_JUDGED.search(c) for c in clauses):
            named.append(direction)
    return tuple(named) or ("egress", "ingress")


def _open_to_everyone(text: str) -> FieldValueCheck:
    """An ``ipBlock`` of the forbidden ranges (those the text writes, else every address of both
    families) in a rule of the judged directions. The peer key differs by direction: ``to``
    for egress, ``from`` for ingress."""
    cidrs = tuple(dict.fromkeys(_CIDR.findall(text))) or EVERY_ADDRESS
    peer = {"egress": "to", "ingress": "from"}
    return FieldValueCheck(
        concept="network-policy-open-range",
        level="object",
        kinds=("NetworkPolicy",),
        paths=tuple(("spec", d, "*", peer[d], "*", "ipBlock", "cidr") for d in _directions(text)),
        forbidden=cidrs,
    )


#: the label prefix by which a ClusterRole's rules are folded into another role
AGGREGATE_LABEL = "rbac.authorization.k8s.io/aggregate-to-"
#: the user-facing roles Kubernetes builds by aggregation
AGGREGATED_ROLES = ("admin", "edit", "view")


def _aggregation(text: str) -> tuple[FieldValueCheck, ...] | None:
    """One check per built-in role the text forbids aggregating into: a role named in a clause
    that does not allow it ("aggregating into view is allowed" keeps view out)."""
    roles = [
        r
        for r in AGGREGATED_ROLES
        if any(
            re.search(rf"\b(aggregate-to-)?{r}\b", c, re.I) and not _NOT_JUDGED.search(c)
            for c in _clauses(text)
        )
    ]
    if not roles:
        return None
    return tuple(
        FieldValueCheck(
            concept=f"aggregate-to-{r}",
            level="object",
            kinds=("ClusterRole",),
            paths=(("metadata", "labels", AGGREGATE_LABEL + r),),
            forbidden=("true",),
        )
        for r in roles
    )


#: the binding mode that waits for a pod (the other, and the default, is Immediate)
WAIT_FOR_CONSUMER = "WaitForFirstConsumer"


def _binding_mode(text: str) -> FieldValueCheck:
    # unset binds at once: only the explicit mode complies
    return FieldValueCheck(
        concept="storage-class-binding-mode",
        level="object",
        kinds=("StorageClass",),
        paths=(("volumeBindingMode",),),
        allowed=(WAIT_FOR_CONSUMER,),
        must_be_set=True,
    )


_NETWORK_POLICY = words(r"\bNetworkPolic(y|ies)\b", r"\bnetwork\s+polic(y|ies)\b")
_EVERYONE = words(
    r"(?<![\w:.])0\.0\.0\.0/0\b",
    r"(?<![\w:.])::/0\b",
    r"\b(whole|entire|public|open)\s+internet\b",
    r"\b(any|every|all)\s+(address(es)?|destinations?|IPs?)\b",
    r"\banywhere\b",
)
_AGGREGATE = words(r"\baggregat\w*\b", r"\baggregate-to-\w+\b")
_CLUSTER_ROLE = words(r"\bClusterRoles?\b", r"\bcluster\s+roles?\b", r"\broles?\b")
_STORAGE_CLASS = words(r"\bStorageClass(es)?\b", r"\bstorage\s+class(es)?\b")
_WAITS = words(
    r"\bvolumeBindingMode\b",
    r"\bWaitForFirstConsumer\b",
    r"\b(delay|defer|postpone|wait)\w*\b.{0,80}\buntil\b.{0,60}\bpods?\b",
    r"\bpods?\b.{0,60}\b(is|are|has\s+been|have\s+been)\s+(scheduled|created)\b.{0,40}\bbefore\b",
)

CONCEPTS: tuple[Concept, ...] = (
    Concept(
        "network-policy-open-range", all_of=(_NETWORK_POLICY, _EVERYONE), build=_open_to_everyone
    ),
    Concept("aggregate-to-builtin", all_of=(_AGGREGATE, _CLUSTER_ROLE), build=_aggregation),
    Concept("storage-class-binding-mode", all_of=(_STORAGE_CLASS, _WAITS), build=_binding_mode),
)
