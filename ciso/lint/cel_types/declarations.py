"""What an expression may name, by where it lives: the variables each policy kind binds (as
Kyverno's compilers and Kubernetes' admission CEL declare them), their types where those are
declared (``request``, ``namespaceObject``; ``object`` is dyn), and which result type the
field expects (a validation is a bool, a message a string)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ciso.engines.kyverno.cel.syntax import NAMESPACES
from ciso.lint.cel_types.types import (
    BOOL,
    DYN,
    INT,
    STRING,
    TIMESTAMP,
    CelType,
    list_of,
    map_of,
    object_type,
)

_GVK = object_type("kubernetes.GroupVersionKind", group=STRING, version=STRING, kind=STRING)
_GVR = object_type("kubernetes.GroupVersionResource", group=STRING, version=STRING, resource=STRING)
_USER = object_type(
    "kubernetes.UserInfo",
    username=STRING,
    uid=STRING,
    groups=list_of(STRING),
    extra=map_of(STRING, list_of(STRING)),
)
#: Kubernetes' AdmissionRequest as admission CEL declares it; Kyverno adds object and oldObject
REQUEST = object_type(
    "kubernetes.AdmissionRequest",
    kind=_GVK,
    resource=_GVR,
    subResource=STRING,
    requestKind=_GVK,
    requestResource=_GVR,
    requestSubResource=STRING,
    name=STRING,
    namespace=STRING,
    operation=STRING,
    userInfo=_USER,
    dryRun=BOOL,
    options=DYN,
    object=DYN,
    oldObject=DYN,
)
_LABELS = map_of(STRING, STRING)
NAMESPACE = object_type(
    "kubernetes.Namespace",
    metadata=object_type(
        "kubernetes.NamespaceMetadata",
        name=STRING,
        generateName=STRING,
        namespace=STRING,
        labels=_LABELS,
        annotations=_LABELS,
        UID=STRING,
        creationTimestamp=TIMESTAMP,
        deletionGracePeriodSeconds=INT,
        deletionTimestamp=TIMESTAMP,
        generation=INT,
        resourceVersion=STRING,
        finalizers=list_of(STRING),
    ),
    spec=object_type("kubernetes.NamespaceSpec", finalizers=list_of(STRING)),
    status=object_type(
        "kubernetes.NamespaceStatus",
        conditions=list_of(
            object_type(
                "kubernetes.NamespaceCondition",
                status=STRING,
                type=STRING,
                lastTransitionTime=TIMESTAMP,
                message=STRING,
                reason=STRING,
            )
        ),
        phase=STRING,
    ),
)

_ADMISSION = {"object": DYN, "oldObject": DYN, "request": REQUEST, "namespaceObject": NAMESPACE}
#: ClusterPolicy validate.cel and ValidatingAdmissionPolicy: Kubernetes' admission CEL
_KUBERNETES = {**_ADMISSION, "params": DYN, "authorizer": DYN}
#: Kyverno's libraries reached through a namespace (``resource.Get``) and its exceptions
_KYVERNO = {**_ADMISSION, "exceptions": DYN, **dict.fromkeys(NAMESPACES - {"generator"}, DYN)}
#: per policy kind, the names every expression of it may use (besides ``variables``)
BINDINGS: dict[str, dict[str, CelType]] = {
    "ClusterPolicy": _KUBERNETES,
    "Policy": _KUBERNETES,
    "ValidatingAdmissionPolicy": _KUBERNETES,
    "ValidatingPolicy": _KYVERNO,
    "NamespacedValidatingPolicy": _KYVERNO,
    "MutatingPolicy": _KYVERNO,
    "NamespacedMutatingPolicy": _KYVERNO,
    "GeneratingPolicy": {**_KYVERNO, "generator": DYN},
    "NamespacedGeneratingPolicy": {**_KYVERNO, "generator": DYN},
    "DeletingPolicy": _KYVERNO,
    "NamespacedDeletingPolicy": _KYVERNO,
    "ImageValidatingPolicy": {
        **_KYVERNO,
        "images": map_of(STRING, list_of(STRING)),
        "attestors": map_of(STRING, DYN),
        "attestations": map_of(STRING, STRING),
    },
}
BINDINGS["NamespacedImageValidatingPolicy"] = BINDINGS["ImageValidatingPolicy"]
#: an image reference's match expression (matchImageReferences) sees only the reference
IMAGE_REFERENCE = {"ref": STRING}

#: list fields whose expressions decide something, so must be bool
BOOLEAN_LISTS = frozenset(
    ("validations", "expressions", "matchConditions", "celPreconditions", "conditions")
)


@dataclass(frozen=True, slots=True)
class Declarations:
    """The names one expression may use."""

    identifiers: Mapping[str, CelType]
    #: the policy's (or rule's) variables by name, typed as far as their expressions say
    variables: Mapping[str, CelType] = field(default_factory=dict)


def expected_type(path: tuple[str | int, ...]) -> CelType | None:
    """The result type the field at ``path`` requires; None when any type will do."""
    key = path[-1] if path else None
    if key == "messageExpression":
        return STRING
    if key == "expression" and len(path) >= 3 and path[-3] in BOOLEAN_LISTS:
        return BOOL
    return None


def identifiers_for(kind: str, path: tuple[str | int, ...]) -> Mapping[str, CelType]:
    """The names bound for an expression of a ``kind`` policy at ``path``."""
    if "matchImageReferences" in path:
        return IMAGE_REFERENCE
    return BINDINGS.get(kind, _KYVERNO)
