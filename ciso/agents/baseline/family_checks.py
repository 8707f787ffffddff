"""Check kinds of field FAMILIES on pods and containers that no field-value check can say: a
number in every entry of a container's list within bounds (each declared containerPort), a
field a container must carry when it carries another (a preStop hook on a container that
declares ports), and labels every pod must carry with a value. Frozen like the rest of the
intent (``intent.py`` lists them among the Kubernetes checks)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

#: the container lists of a pod spec (``intent.ContainerList`` without the import circle)
ContainerListName = Literal["containers", "initContainers", "ephemeralContainers"]


@dataclass(frozen=True)
class ContainerNumberBoundCheck:
    """Every number at ``path`` (``*`` steps into list items) of every container lies in
    [``minimum``, ``maximum``] (either may be None); a container without the field is not
    judged."""

    concept: str
    path: tuple[str, ...]
    minimum: int | None = None
    maximum: int | None = None
    kind: Literal["container-number-bound"] = "container-number-bound"


@dataclass(frozen=True)
class ContainerRequiresCheck:
    """A container of ``lists`` that has a value at ``when`` (empty tuple: every container) must
    have one at ``required`` (an empty map or list is none). ``kinds``: only pods of these
    kinds (empty: every pod-carrying kind)."""

    concept: str
    required: tuple[str, ...]
    when: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    lists: tuple[ContainerListName, ...] = ("containers",)
    kind: Literal["container-requires"] = "container-requires"


@dataclass(frozen=True)
class PodLabelsCheck:
    """Every pod (a bare Pod, or the pod template of a workload) carries each of ``keys`` as a
    label with a non-empty value; the controller's own labels and annotations do not count."""

    concept: str
    keys: tuple[str, ...]
    kind: Literal["pod-labels"] = "pod-labels"


@dataclass(frozen=True)
class QuantityBoundCheck:
    """Every Kubernetes quantity at the (kind, path) pairs of ``fields`` (``*`` steps into list
    items: a StatefulSet's claim templates) lies within [``minimum``, ``maximum``] bytes, the
    units converted (``G`` powers of 1000, ``Gi`` of 1024, a bare number bytes)."""

    concept: str
    fields: tuple[tuple[str, tuple[str, ...]], ...]
    minimum: int | None = None
    maximum: int | None = None
    kind: Literal["quantity-bound"] = "quantity-bound"


@dataclass(frozen=True)
class ListLengthCheck:
    """How many items a list field holds lies in [``minimum``, ``maximum``] (either may be
    None; an absent list has none): the list at ``path`` below every container (``container``),
    every pod spec (``pod``) or objects of ``kinds`` (``object``), e.g. "no container may
    declare more than three ports"."""

    concept: str
    level: Literal["object", "pod", "container"]
    path: tuple[str, ...]
    kinds: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    #: further lists or maps counted together with the one at ``path`` ("ten keys, counting
    #: data and binaryData together")
    also: tuple[tuple[str, ...], ...] = ()
    kind: Literal["list-length"] = "list-length"


FAMILY_CHECKS = (
    ContainerNumberBoundCheck,
    ContainerRequiresCheck,
    PodLabelsCheck,
    QuantityBoundCheck,
    ListLengthCheck,
)
FamilyCheck = (
    ContainerNumberBoundCheck
    | ContainerRequiresCheck
    | PodLabelsCheck
    | QuantityBoundCheck
    | ListLengthCheck
)
