"""Instances of the placement controls: judged by the namespace an object lives in, whatever its
kind, not by its pod spec or rules.

A naive policy looks at Pods only; here the violations are workloads of every controller kind,
Services, ConfigMaps, Secrets, ServiceAccounts and claims. The compliant side holds the same kinds
in other namespaces, what Kubernetes itself creates in the forbidden namespace, lookalike
namespace names and labels, and a violation of another control elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from ciso.generator.instance import Instance, namespace_objects, ref, violating_spec
from ciso.generator.model import Control
from ciso.generator.workloads import KINDS, clean_pod_spec, fresh_name, fresh_namespace, wrap

Manifest = dict[str, Any]


@dataclass(frozen=True)
class PlacementControl:
    cis_id: str
    builtin_id: str
    #: The control's meaning: does this object (of any kind) violate it?
    violates: Callable[[Mapping[str, Any]], bool]
    #: The namespace the control forbids.
    forbidden: str
    #: Objects Kubernetes creates there itself (kind, name): exempt.
    built_in: tuple[tuple[str, str], ...]
    phrasings: tuple[str, ...]


def plain_object(kind: str, name: str, namespace: str, rng: Random) -> Manifest:
    """A namespaced object of a kind without a pod template."""
    meta = {"name": name, "namespace": namespace}
    if kind == "Service":
        spec = {"selector": {"app": name}, "ports": [{"port": 80, "targetPort": 8080}]}
        return {"apiVersion": "v1", "kind": kind, "metadata": meta, "spec": spec}
    if kind == "ConfigMap":
        return {"apiVersion": "v1", "kind": kind, "metadata": meta, "data": {"LOG_LEVEL": "info"}}
    if kind == "Secret":
        data = {"token": rng.choice(("not-a-real-token", "placeholder"))}
        return {"apiVersion": "v1", "kind": kind, "metadata": meta, "stringData": data}
    if kind == "ServiceAccount":
        return {"apiVersion": "v1", "kind": kind, "metadata": meta}
    assert kind == "PersistentVolumeClaim"
    spec = {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}
    return {"apiVersion": "v1", "kind": kind, "metadata": meta, "spec": spec}


PLAIN_KINDS = ("Service", "ConfigMap", "Secret", "ServiceAccount", "PersistentVolumeClaim")


def _any(kind: str, name: str, namespace: str, rng: Random) -> Manifest:
    if kind in KINDS:
        return wrap(kind, name, namespace, clean_pod_spec(rng))
    return plain_object(kind, name, namespace, rng)


def flagged(control: PlacementControl, objects: Sequence[Manifest]) -> list[str]:
    return sorted(ref(o) for o in objects if control.violates(o))


def build_placement_instance(
    control: PlacementControl, others: Sequence[Control], rng: Random
) -> Instance:
    names: set[str] = set()
    taken: set[str] = {control.forbidden}
    namespaces = [fresh_namespace(rng, taken) for _ in range(2)]
    violating: list[Manifest] = []
    hidden: list[str] = []
    # never a bare Pod (what a naive policy checks); always a CronJob and a non-workload kind
    kinds = ["CronJob", rng.choice(PLAIN_KINDS)]
    pool = [k for k in (*KINDS, *PLAIN_KINDS) if k not in kinds and k != "Pod"]
    kinds += rng.sample(pool, 2)
    for kind in kinds:
        name = fresh_name(rng, names)
        violating.append(_any(kind, name, control.forbidden, rng))
        hidden.append(f"{kind} {name} in {control.forbidden}")
    for kind in rng.sample((*KINDS, *PLAIN_KINDS), 3):
        violating.append(_any(kind, fresh_name(rng, names), rng.choice(namespaces), rng))
    compliant: list[Manifest] = []
    kept: list[str] = []
    for kind in (*KINDS, *PLAIN_KINDS):
        compliant.append(_any(kind, fresh_name(rng, names), rng.choice(namespaces), rng))
    for kind, name in control.built_in:
        compliant.append(plain_object(kind, name, control.forbidden, rng))
    kept.append(f"built-in objects of {control.forbidden} (exempt)")
    lookalike = f"{control.forbidden}-apps"
    name = fresh_name(rng, names)
    compliant.append(_any(rng.choice(("Deployment", "Secret")), name, lookalike, rng))
    labelled = _any("ConfigMap", fresh_name(rng, names), namespaces[0], rng)
    labelled["metadata"]["labels"] = {"namespace": control.forbidden}
    labelled["data"] = {"TARGET_NAMESPACE": control.forbidden}
    compliant.append(labelled)
    kept.append(
        f"near-misses: namespace {lookalike}, a ConfigMap labelled namespace={control.forbidden}"
    )
    for other in rng.sample(list(others), 2):
        spec = violating_spec(other, rng)
        kind, name = rng.choice(KINDS), fresh_name(rng, names)
        compliant.append(wrap(kind, name, rng.choice(namespaces), spec))
        kept.append(f"{kind} {name} violates CIS {other.cis_id}, another control")
    truth, wrongly = flagged(control, violating), flagged(control, compliant)
    if len(truth) != len(hidden) or wrongly:
        raise AssertionError(f"CIS {control.cis_id}: generated truth {truth}, compliant {wrongly}")
    return Instance(
        violating=tuple(namespace_objects(violating) + violating),
        compliant=tuple(namespace_objects(compliant) + compliant),
        violating_resources=tuple(truth),
        requirement=rng.choice(control.phrasings),
        notes="Violations: " + "; ".join(hidden) + ". Compliant side: " + "; ".join(kept) + ".",
    )
