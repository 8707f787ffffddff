"""Kubernetes controls on what an object is tied to rather than on how it runs: the backend a
Service keeps a client on (sessionAffinity), the runtime a pod asks for in namespaces of one
label (runtimeClassName), the storage class a claim is provisioned from, and who may ask the API
server to vouch for someone else's token (TokenReview).

Each concept keys on the effect as well as on the field name ("the same pod for a period of
time", "run under the gVisor sandbox", "whether somebody else's bearer token is valid").

Defaults that matter: ``sessionAffinity`` unset is None; ``runtimeClassName`` unset is the
node's default runtime; a claim without ``storageClassName`` is provisioned from the default
class, and ``""`` binds to a volume without a class: neither is a class the text names.
"""

from __future__ import annotations

import re

from ciso.agents.baseline.effect_checks import RequiredListItemCheck
from ciso.agents.baseline.intent import BindingCheck, FieldValueCheck, RbacRuleCheck
from ciso.agents.baseline.knowledge import Concept, negated, words
from ciso.agents.baseline.knowledge.k8s_workloads import namespace_labels

#: the sessionAffinity value that pins a client address to one backend (the other is None)
CLIENT_IP_AFFINITY = "ClientIP"


def _session_affinity(text: str) -> FieldValueCheck:
    # every Service type has the field, headless ones included: no only_when on the type
    return FieldValueCheck(
        concept="service-session-affinity",
        level="object",
        kinds=("Service",),
        paths=(("spec", "sessionAffinity"),),
        forbidden=(CLIENT_IP_AFFINITY,),
    )


#: "the RuntimeClass named gvisor", "runtimeClassName: kata", "runtime class `gvisor`"
_RUNTIME_NAMED = re.compile(
    r"\b(?:runtimeClassName|runtime\s*class(?:\s+named|\s+called)?)\s*[:=]?\s*[`'\"]?"
    r"([a-z0-9](?:[a-z0-9.-]*[a-z0-9])?)",  # a name ends in a letter or digit, not the full stop
    re.I,
)
#: words after "runtime class" that are not its name
_NOT_RUNTIME_NAMES = {"named", "called", "means", "is", "of", "the", "a", "that", "must", "may"}


def _runtime_class(text: str) -> FieldValueCheck | None:
    # each name with the words of its clause before it: a negation there ("must not select
    # runtime class kata") names a class to keep out, not the one to require; one after it
    # ("gvisor, never the default runc") is about another runtime
    named = [
        (m.group(1), negated(re.split(r"[,;.:]\s", text[: m.start()])[-1]))
        for m in _RUNTIME_NAMED.finditer(text)
        if m.group(1).lower() not in _NOT_RUNTIME_NAMES
    ]
    if not named:
        return None
    required = [name for name, forbids in named if not forbids]
    if required:
        # the name the text requires is the first it gives; any other (the default, runc) is
        # what the text warns of
        return FieldValueCheck(
            concept="runtime-class",
            level="pod",
            paths=(("runtimeClassName",),),
            allowed=(required[0],),
            must_be_set=True,
            namespace_labels=namespace_labels(text),
        )
    # only prohibitions: unset (the node's default runtime) complies
    return FieldValueCheck(
        concept="runtime-class",
        level="pod",
        paths=(("runtimeClassName",),),
        forbidden=tuple(dict.fromkeys(name for name, _ in named)),
        namespace_labels=namespace_labels(text),
    )


#: resource and API group of the review that vouches for a bearer token
TOKEN_REVIEWS = "tokenreviews"


def _token_reviews(text: str) -> RbacRuleCheck:
    # create is the only verb the API serves on tokenreviews; "*" verbs and resources count
    # through the RBAC rule's own wildcard handling
    return RbacRuleCheck(
        concept="rbac-token-reviews", verbs=("create",), resources=(TOKEN_REVIEWS,)
    )


#: a storage class the text names: quoted, or a hyphenated name ("gold-encrypted")
_CLASS_NAME = re.compile(
    r"[`'\"]([a-z0-9][a-z0-9.-]*[a-z0-9])[`'\"]|\b([a-z0-9]+(?:-[a-z0-9]+)+)\b"
)
#: hyphenated words of plain English that are no class name
_NOT_CLASS_NAMES = {"built-in", "hand-made", "pre-provisioned", "so-called", "well-known"}
_OBLIGED = re.compile(r"\b(must|may|only|has\s+to|have\s+to|needs?\s+to|shall)\b", re.I)


def _claim_classes(text: str) -> tuple[FieldValueCheck, ...] | None:
    """Claims (PersistentVolumeClaims, a StatefulSet's volumeClaimTemplates) on the classes
    the obligation names. A claim without a class is provisioned from the default class and
    ``""`` binds to a volume without one: neither is a named class, so with an allow-list
    both violate."""
    # a colon introduces the list of the clause before it ("one of the approved classes:
    # gold or silver"), so it does not end the sentence
    for sentence in re.split(r"(?<=[.;!?])\s+", text):
        if not (_OBLIGED.search(sentence) and _CLASS.search(sentence)):
            continue
        names = tuple(
            dict.fromkeys(
                n
                for m in _CLASS_NAME.finditer(sentence)
                for n in [m.group(1) or m.group(2)]
                if n.lower() not in _NOT_CLASS_NAMES
            )
        )
        if not names:
            continue
        forbids = negated(sentence)
        allowed, forbidden = ((), names) if forbids else (names, ())
        path = ("spec", "storageClassName")
        return (
            FieldValueCheck(
                "claim-storage-class", "object", (path,), kinds=("PersistentVolumeClaim",),
                allowed=allowed, forbidden=forbidden, must_be_set=not forbids,
            ),
            # a template without a class is not seen here (must_be_set counts any template)
            FieldValueCheck(
                "claim-template-storage-class", "object",
                (("spec", "volumeClaimTemplates", "*", *path),), kinds=("StatefulSet",),
                allowed=allowed, forbidden=forbidden,
            ),
        )  # fmt: skip
    return None


#: the well-known node label of a node's availability zone
ZONE_LABEL = "topology.kubernetes.io/zone"
#: the workload kinds a text about spreading names ("every Deployment and every StatefulSet")
_SPREAD_KINDS = {
    "Deployment": r"\bDeployments?\b",
    "StatefulSet": r"\bStatefulSets?\b",
    "ReplicaSet": r"\bReplicaSets?\b",
}


def _zone_spread(text: str) -> RequiredListItemCheck | None:
    """A hard zone spread: one topologySpreadConstraint over the zone label with
    whenUnsatisfiable DoNotSchedule (ScheduleAnyway is best effort; a hostname spread or a pod
    anti-affinity spreads nothing over zones)."""
    obliged = " ".join(s for s in re.split(r"(?<=[.;!?])\s+", text) if _OBLIGED.search(s))
    kinds = tuple(k for k, p in _SPREAD_KINDS.items() if re.search(p, obliged))
    if not kinds:
        return None
    return RequiredListItemCheck(
        concept="zone-spread",
        list_field="topologySpreadConstraints",
        item=(("topologyKey", ZONE_LABEL), ("whenUnsatisfiable", "DoNotSchedule")),
        kinds=kinds,
        namespace_labels=namespace_labels(text),
        collects=(*(k.lower() + "s" for k in kinds), "namespaces"),
    )


_SERVICE = words(r"\bservices?\b")
_STICKY = words(
    r"\bsessionAffinity\b",
    r"\bsession\s+affinity\b",
    r"\bsticky\b|\bstickiness\b",
    r"\bClientIP\b",
    r"\b(client|source)\s+(address|IP)\b.{0,80}\bsame\s+(pod|backend|endpoint)",
    r"\bsame\s+(pod|backend|endpoint)\b.{0,80}\b(client|source)\s+(address|IP)\b",
)
_RUNTIME = words(r"\bruntimeClassName\b", r"\bruntime\s*class(es)?\b", r"\bgVisor\b", r"\bkata\b")
_CLAIM = words(
    r"\bpersistent\s*volume\s*claims?\b",
    r"\bPVCs?\b",
    r"\bvolumeClaimTemplates\b",
    r"\bclaim\s+templates?\b",
    r"\b(volume|storage)\s+claims?\b",
)
_CLASS = re.compile(r"\bstorageClassName\b|\bstorage\s*class(es)?\b", re.I)
_SPREAD = words(r"\btopologySpreadConstraints?\b", r"\bspread\w*\b")
_ZONES = words(r"\bzones?\b", r"\btopology\.kubernetes\.io/zone\b")
_HARD = words(
    r"\bDoNotSchedule\b",
    r"\bhard\b",
    r"\b(stay|remain)s?\s+pending\b",
    r"\bnot\s+(be\s+)?schedul\w*\b",
    r"\brequired\b",
)
_TOKEN_REVIEW = words(
    r"\btoken\s*reviews?\b",
    r"\btokenreviews\b",
    r"\b(whether|if)\b.{0,60}\btokens?\b.{0,20}\b(is|are)\s+valid\b",
)
_WHO_MAY = words(
    r"\broles?\b", r"\bRBAC\b", r"\bgrant\w*\b", r"\ballow\w*\b", r"\bpermi\w+\b", r"\bmay\b"
)

#: a RoleBinding's ServiceAccount subjects and the binding's own namespace: "only ServiceAccounts
#: of the RoleBinding's own namespace", "a ServiceAccount from another namespace"
_BINDING_NAMESPACE = (
    words(r"\brole\s*bindings?\b"),
    words(r"\bservice\s*accounts?\b"),
    words(
        r"\b(its|their|the\s+\w+'s)\s+own\s+namespace\b",
        r"\b(same|another|other|different|foreign)\s+namespaces?\b",
    ),
)


def _foreign_accounts(text: str) -> BindingCheck:
    return BindingCheck(
        concept="rolebinding-foreign-service-accounts", foreign_service_accounts=True
    )


CONCEPTS: tuple[Concept, ...] = (
    Concept("service-session-affinity", all_of=(_SERVICE, _STICKY), build=_session_affinity),
    Concept("runtime-class", all_of=(_RUNTIME,), build=_runtime_class),
    Concept("claim-storage-class", all_of=(_CLAIM, (_CLASS,)), build=_claim_classes),
    Concept("zone-spread", all_of=(_SPREAD, _ZONES, _HARD), build=_zone_spread),
    Concept("rbac-token-reviews", all_of=(_TOKEN_REVIEW, _WHO_MAY), build=_token_reviews),
    Concept(
        "rolebinding-foreign-service-accounts", all_of=_BINDING_NAMESPACE, build=_foreign_accounts
    ),
)
