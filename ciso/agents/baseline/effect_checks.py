"""Check kinds of Kubernetes controls stated by their effect that no field check can say: a value
the API derives when the field is unset (the image pull policy from the image's tag), address
ranges judged by containment, and host names judged by their shape. Frozen dataclasses like the
rest of the intent (``intent.py`` lists them among the Kubernetes checks)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class ImagePullPolicyCheck:
    """Every container's EFFECTIVE imagePullPolicy is ``required``: its own, else the API's
    default (Always for an image tagged ``latest`` or with neither tag nor digest, IfNotPresent
    otherwise)."""

    required: str = "Always"
    concept: str = "image-pull-policy"
    collects: tuple[str, ...] = ()
    kind: Literal["image-pull-policy"] = "image-pull-policy"


@dataclass(frozen=True)
class ImageTagCheck:
    """Every container image names a fixed version: a tag other than ``latest``, or a digest
    (an image with neither is ``latest``)."""

    concept: str = "image-tag"
    collects: tuple[str, ...] = ()
    kind: Literal["image-tag"] = "image-tag"


@dataclass(frozen=True)
class VolumeTypesCheck:
    """Every volume of a pod is of one of ``allowed`` types (the key beside ``name``)."""

    allowed: tuple[str, ...]
    concept: str = "volume-types"
    collects: tuple[str, ...] = ()
    kind: Literal["volume-types"] = "volume-types"


@dataclass(frozen=True)
class LoadBalancerSourcesCheck:
    """Every Service of type LoadBalancer admits clients only from ``allowed`` (CIDRs): each of
    its effective source ranges (``spec.loadBalancerSourceRanges``, else the comma-separated
    ``annotation``) lies inside one of them; no range at all admits everyone and violates. With
    no ``allowed``, any range but one that admits everyone (a ``/0``) complies; an empty
    ``annotation``: the annotation does not count."""

    allowed: tuple[str, ...]
    annotation: str = "service.beta.kubernetes.io/load-balancer-source-ranges"
    concept: str = "load-balancer-source-ranges"
    collects: tuple[str, ...] = ("services",)
    kind: Literal["lb-source-ranges"] = "lb-source-ranges"


@dataclass(frozen=True)
class IngressNamedHostsCheck:
    """Every Ingress rule names a host, no host is a wildcard (``*`` or ``*.domain``), and no
    ``defaultBackend`` takes the requests for names the Ingress does not list."""

    concept: str = "ingress-named-hosts"
    collects: tuple[str, ...] = ("ingresses",)
    kind: Literal["ingress-named-hosts"] = "ingress-named-hosts"


@dataclass(frozen=True)
class RequiredListItemCheck:
    """Every pod template of a workload of ``kinds`` (in namespaces carrying all of
    ``namespace_labels``) has an item in its pod spec's list ``list_field`` whose fields hold
    every (key, value) of ``item``: one zone spread that is a hard rule, not two half ones."""

    list_field: str
    item: tuple[tuple[str, str], ...]
    kinds: tuple[str, ...]
    namespace_labels: tuple[tuple[str, str], ...] = ()
    concept: str = "required-list-item"
    collects: tuple[str, ...] = ()
    kind: Literal["required-list-item"] = "required-list-item"


@dataclass(frozen=True)
class NodeLabelSelectionCheck:
    """No pod asks to run on nodes carrying a label of ``keys``: its ``nodeSelector`` names the
    key, or a node-affinity term (required or preferred) matches it with ``In`` or ``Exists``
    (``NotIn`` and ``DoesNotExist`` keep pods AWAY from those nodes)."""

    keys: tuple[str, ...]
    concept: str = "node-label-selection"
    collects: tuple[str, ...] = ()
    kind: Literal["node-label-selection"] = "node-label-selection"


EFFECT_CHECKS = (
    NodeLabelSelectionCheck,
    ImagePullPolicyCheck,
    ImageTagCheck,
    VolumeTypesCheck,
    LoadBalancerSourcesCheck,
    IngressNamedHostsCheck,
    RequiredListItemCheck,
)
EffectCheck = (
    NodeLabelSelectionCheck
    | ImagePullPolicyCheck
    | ImageTagCheck
    | VolumeTypesCheck
    | LoadBalancerSourcesCheck
    | IngressNamedHostsCheck
    | RequiredListItemCheck
)
