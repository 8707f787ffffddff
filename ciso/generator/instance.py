"""One generated instance of one control: its two environments and its ground truth.

The violating environment hides every violation where a naive policy (one reading only
``spec.containers`` of bare Pods) does not look: a second container, an init or ephemeral container,
a controller's pod template, a CronJob's job template. The compliant environment holds clean
workloads of every kind, the control's near-misses, violations of *other* controls and a violation
in an exempt system namespace. ``violating_resources`` is not written by hand: it is every object
the control's predicate flags outside the exempt namespaces.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from ciso.generator.model import EXEMPT_NAMESPACES, Control
from ciso.generator.workloads import (
    KINDS,
    clean_container,
    clean_pod_spec,
    fresh_name,
    fresh_namespace,
    pod_spec_of,
    wrap,
)

Manifest = dict[str, Any]
#: Controllers only: a naive policy checks bare Pods, so a pod-level violation hides in templates.
_CONTROLLERS = tuple(k for k in KINDS if k != "Pod")
#: Where a container-level violation hides from a policy reading ``spec.containers[0]`` of Pods.
_HIDING_PLACES = ("second", "init", "ephemeral")


@dataclass(frozen=True)
class Instance:
    violating: tuple[Manifest, ...]
    compliant: tuple[Manifest, ...]
    violating_resources: tuple[str, ...]
    requirement: str
    notes: str


def violating_spec(other: Control, rng: Random) -> dict[str, Any]:
    """A clean pod spec broken as ``other`` breaks one: a violation of that control, put in a
    compliant environment so that a policy too broad for its own control flags it."""
    spec = clean_pod_spec(rng)
    if other.break_pod is not None:
        other.break_pod(spec, rng)
    else:
        assert other.break_container is not None
        other.break_container(spec["containers"][0], rng)
    return spec


def ref(obj: Mapping[str, Any]) -> str:
    meta = obj["metadata"]
    return f"{obj['kind']}/{meta.get('namespace', '')}/{meta['name']}"


def flagged(control: Control, objects: Sequence[Manifest]) -> list[str]:
    """What the control flags: every workload outside the exempt namespaces whose pod spec
    violates it (the ground truth, derived from the objects themselves)."""
    out = []
    for obj in objects:
        spec = pod_spec_of(obj)
        if spec is None or obj["metadata"].get("namespace") in EXEMPT_NAMESPACES:
            continue
        if control.violates(spec):
            out.append(ref(obj))
    return sorted(out)


def _hide_in_container(control: Control, kind: str, spec: dict, rng: Random) -> str:
    assert control.break_container is not None
    places = [
        p for p in _HIDING_PLACES if p != "ephemeral" or (kind == "Pod" and control.ephemeral)
    ]
    if kind != "Pod":
        places.append("first")  # a controller's template is already out of a naive policy's sight
    place = rng.choice(places)
    if place == "first":
        target = spec["containers"][0]
    elif place == "second":
        spec["containers"] = spec["containers"][:1] + [clean_container(rng, "sidecar")]
        target = spec["containers"][1]
    elif place == "init":
        spec["initContainers"] = [clean_container(rng, "init-setup")]
        target = spec["initContainers"][0]
    else:
        target = clean_container(rng, "debugger")
        target["targetContainerName"] = "app"
        spec["ephemeralContainers"] = [target]
    control.break_container(target, rng)
    return place


def _violating(control: Control, rng: Random, names: set[str], namespaces: Sequence[str]):
    objects: list[Manifest] = []
    notes: list[str] = []
    pod_level = control.break_pod is not None
    kinds = list(_CONTROLLERS if pod_level else KINDS)
    rng.shuffle(kinds)
    # always a CronJob (its template never becomes a Pod offline) and, for container-level
    # controls, a Pod (the ephemeral and init containers a naive policy skips)
    chosen = ["CronJob"] + (["Pod"] if not pod_level else [])
    chosen += [k for k in kinds if k not in chosen][: rng.randrange(2, 4)]
    for kind in chosen:
        spec = clean_pod_spec(rng)
        name = fresh_name(rng, names)
        if pod_level:
            assert control.break_pod is not None
            control.break_pod(spec, rng)
            notes.append(f"{kind} {name}: in its pod template")
        else:
            place = _hide_in_container(control, kind, spec, rng)
            notes.append(f"{kind} {name}: in the {place} container")
        objects.append(wrap(kind, name, rng.choice(namespaces), spec))
    for kind in rng.sample(KINDS, 2):  # clean neighbours
        objects.append(
            wrap(kind, fresh_name(rng, names), rng.choice(namespaces), clean_pod_spec(rng))
        )
    return objects, notes


def _compliant(
    control: Control,
    others: Sequence[Control],
    rng: Random,
    names: set[str],
    namespaces: Sequence[str],
):
    objects: list[Manifest] = []
    notes: list[str] = []
    for kind in KINDS:
        objects.append(
            wrap(kind, fresh_name(rng, names), rng.choice(namespaces), clean_pod_spec(rng))
        )
    for near_miss in control.near_misses:
        kind = rng.choice(KINDS)
        spec = clean_pod_spec(rng)
        near_miss(spec, rng)
        name = fresh_name(rng, names)
        objects.append(wrap(kind, name, rng.choice(namespaces), spec))
        notes.append(f"near-miss {kind} {name} ({near_miss.__name__})")
    # violations of other controls: a policy too broad for its control flags them
    for other in rng.sample(list(others), len(others)):
        spec = violating_spec(other, rng)
        if control.violates(spec):
            continue  # that violation is also one of this control's
        kind = rng.choice(KINDS)
        name = fresh_name(rng, names)
        objects.append(wrap(kind, name, rng.choice(namespaces), spec))
        notes.append(f"{kind} {name} violates CIS {other.cis_id}, another control")
        if sum("another control" in n for n in notes) >= 2:
            break
    # the control's own violation, in an exempt namespace
    spec = clean_pod_spec(rng)
    if control.break_pod is not None:
        control.break_pod(spec, rng)
    else:
        assert control.break_container is not None
        control.break_container(spec["containers"][0], rng)
    name = fresh_name(rng, names)
    objects.append(wrap("DaemonSet", name, "kube-system", spec))
    notes.append(f"DaemonSet {name} violates in kube-system (exempt)")
    return objects, notes


def namespace_objects(objects: Sequence[Manifest]) -> list[Manifest]:
    found = {o["metadata"].get("namespace") for o in objects} - {None, ""}
    names = sorted(found - set(EXEMPT_NAMESPACES))
    return [{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": n}} for n in names]


def build_instance(control: Control, others: Sequence[Control], rng: Random) -> Instance:
    names: set[str] = set()
    taken: set[str] = set()
    namespaces = [fresh_namespace(rng, taken) for _ in range(3)]
    violating, hidden = _violating(control, rng, names, namespaces)
    compliant, kept = _compliant(control, others, rng, names, namespaces)
    truth = flagged(control, violating)
    wrongly = flagged(control, compliant)
    # generator self-check: the hiding places and near-misses must mean what they say
    if len(truth) != len(hidden) or wrongly:
        raise AssertionError(f"CIS {control.cis_id}: generated truth {truth}, compliant {wrongly}")
    return Instance(
        violating=tuple(namespace_objects(violating) + violating),
        compliant=tuple(namespace_objects(compliant) + compliant),
        violating_resources=tuple(truth),
        requirement=rng.choice(control.phrasings),
        notes="Violations: " + "; ".join(hidden) + ". Compliant side: " + "; ".join(kept) + ".",
    )
