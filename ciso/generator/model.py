"""What one generated control is made of: a predicate on a pod spec (the control's meaning, written
once), the places its violations hide, its near-misses and its phrasings."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from random import Random
from typing import Any

#: A pod spec (``spec`` of a Pod, ``spec.template.spec`` of a controller), mutable while built.
PodSpec = dict[str, Any]
#: Changes a clean pod spec in place; the Random picks names and values.
Mutation = Callable[[PodSpec, Random], None]

#: Namespaces every pod-security control of the suite exempts.
EXEMPT_NAMESPACES = ("kube-system", "kube-public", "kube-node-lease")

#: Which container lists a hiding place puts the violation in.
CONTAINER_LISTS = ("containers", "initContainers", "ephemeralContainers")


def containers(spec: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """Every container of a pod spec: regular, init and ephemeral."""
    for key in CONTAINER_LISTS:
        yield from spec.get(key) or ()


def security_context(container: Mapping[str, Any]) -> Mapping[str, Any]:
    return container.get("securityContext") or {}


@dataclass(frozen=True)
class Control:
    """One CIS control the generator can instantiate."""

    cis_id: str
    #: The built-in scenario whose reference answers answer this control too.
    builtin_id: str
    #: The control's meaning: does this pod spec violate it (namespace exemptions aside)?
    violates: Callable[[Mapping[str, Any]], bool]
    #: Makes one container violate (container-level controls); None for pod-level controls.
    break_container: Callable[[dict[str, Any], Random], None] | None
    #: Makes the pod spec violate at pod level; None for container-level controls.
    break_pod: Mutation | None
    #: Changes that look like the violation and are not (the compliant environment keeps them).
    near_misses: tuple[Mutation, ...]
    #: Requirement texts with the same meaning: an operator's voice, an auditor's, a CIS paragraph.
    phrasings: tuple[str, ...]
    #: Whether a violation may hide in an ephemeral container (no ports there, for one).
    ephemeral: bool = True
