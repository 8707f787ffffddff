"""Instances of the namespace-coverage control (CIS 5.3.2): a Namespace is judged by the
NetworkPolicies that live in it, not by any policy's name, selectors or labels.

A naive policy credits a namespace with a NetworkPolicy named after it, or one selecting it from
elsewhere; here one uncovered namespace is always named and selected by a policy that lives (and
protects) another namespace, and the others hide behind labels, workloads or a ConfigMap holding
a policy's text. The compliant side covers every namespace with policies named after nothing in
particular (allow-all, empty or narrow pod selectors, a policy named after another namespace),
leaves kube-system uncovered (exempt) and holds violations of other controls.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from ciso.generator.instance import Instance, violating_spec
from ciso.generator.model import Control
from ciso.generator.workloads import KINDS, clean_pod_spec, fresh_name, fresh_namespace, wrap

Manifest = dict[str, Any]
_NET = "networking.k8s.io/v1"


@dataclass(frozen=True)
class NamespaceControl:
    cis_id: str
    builtin_id: str
    #: The control's meaning: the Namespaces (by name) these objects leave uncovered.
    uncovered: Callable[[Sequence[Manifest]], list[str]]
    phrasings: tuple[str, ...]


def namespace(name: str, labels: dict[str, str] | None = None) -> Manifest:
    meta: dict[str, Any] = {"name": name}
    if labels:
        meta["labels"] = labels
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": meta}


def network_policy(name: str, lives_in: str, spec: dict[str, Any]) -> Manifest:
    meta = {"name": name, "namespace": lives_in}
    return {"apiVersion": _NET, "kind": "NetworkPolicy", "metadata": meta, "spec": spec}


def _deny_all() -> dict[str, Any]:
    return {"podSelector": {}, "policyTypes": ["Ingress"]}


def _covering(rng: Random, lives_in: str, names: set[str]) -> Manifest:
    """A policy of the namespace that says nothing of it in its name."""
    choice = rng.randrange(4)
    if choice == 0:
        return network_policy("deny-by-default", lives_in, _deny_all())
    if choice == 1:  # any NetworkPolicy counts, even one allowing everything
        spec = {"podSelector": {}, "ingress": [{}], "policyTypes": ["Ingress"]}
        return network_policy("allow-all", lives_in, spec)
    if choice == 2:  # a narrow one counts too: the control asks for one, not for isolation
        app = fresh_name(rng, names)
        spec = {
            "podSelector": {"matchLabels": {"app": app}},
            "ingress": [{"from": [{"podSelector": {}}]}],
        }
        return network_policy(f"{app}-ingress", lives_in, spec)
    spec = {"podSelector": {}, "egress": [{"to": [{"ipBlock": {"cidr": "10.0.0.0/8"}}]}]}
    return network_policy("egress-internal", lives_in, {**spec, "policyTypes": ["Egress"]})


def flagged(control: NamespaceControl, objects: Sequence[Manifest]) -> list[str]:
    return sorted(f"Namespace//{n}" for n in control.uncovered(objects))


def _hide(way: str, ns: str, covered: str, rng: Random, names: set[str]) -> list[Manifest]:
    if way == "named-elsewhere":
        # named after ns and selecting it, but living in (and protecting) another namespace
        spec = {
            "podSelector": {},
            "policyTypes": ["Ingress"],
            "ingress": [{"from": [{"namespaceSelector": {"matchLabels": {"team": ns}}}]}],
        }
        return [namespace(ns, {"team": ns}), network_policy(f"{ns}-deny-all", covered, spec)]
    if way == "labelled":
        labels = rng.choice(
            ({"network-policy": "default-deny"}, {"networkpolicy.example.com/isolated": "true"})
        )
        return [namespace(ns, labels)]
    if way == "policy-text-in-a-configmap":
        text = f"kind: NetworkPolicy\nmetadata:\n  name: deny-all\n  namespace: {ns}\n"
        meta = {"name": "network-policy", "namespace": ns}
        config = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta}
        return [namespace(ns), {**config, "data": {"policy.yaml": text}}]
    assert way == "workloads-only"
    kind = rng.choice(KINDS)
    return [namespace(ns), wrap(kind, fresh_name(rng, names), ns, clean_pod_spec(rng))]


_WAYS = ("labelled", "policy-text-in-a-configmap", "workloads-only")


def build_namespace_instance(
    control: NamespaceControl, others: Sequence[Control], rng: Random
) -> Instance:
    names: set[str] = set()
    taken: set[str] = {"default"}
    default = [namespace("default"), network_policy("default-deny", "default", _deny_all())]
    violating: list[Manifest] = list(default)
    hidden: list[str] = []
    covered = [fresh_namespace(rng, taken) for _ in range(2)]
    for ns in covered:
        violating += [namespace(ns), _covering(rng, ns, names)]
    ways = ["named-elsewhere", *rng.sample(_WAYS, 2)]
    for way in ways:
        ns = fresh_namespace(rng, taken)
        violating += _hide(way, ns, rng.choice(covered), rng, names)
        hidden.append(f"namespace {ns} ({way})")
    compliant: list[Manifest] = list(default)
    kept: list[str] = []
    spaces = [fresh_namespace(rng, taken) for _ in range(4)]
    for ns in spaces:
        compliant += [namespace(ns), _covering(rng, ns, names)]
    # a policy named after another namespace, living in its own
    name = f"{spaces[0]}-ingress"
    compliant.append(network_policy(name, spaces[1], _deny_all()))
    kept.append(f"near-miss: {spaces[1]} holds {name}, named after {spaces[0]}")
    compliant.append(namespace("kube-system"))
    kept.append("kube-system has no policy (exempt)")
    labelled = namespace(rng.choice(spaces))
    for obj in compliant:
        if obj["kind"] == "Namespace" and obj["metadata"]["name"] == labelled["metadata"]["name"]:
            obj["metadata"]["labels"] = {"network-policy": "none"}
            kept.append(f"near-miss: {obj['metadata']['name']} labelled network-policy=none")
    for other in rng.sample(list(others), 2):
        spec = violating_spec(other, rng)
        kind, name = rng.choice(KINDS), fresh_name(rng, names)
        compliant.append(wrap(kind, name, rng.choice(spaces), spec))
        kept.append(f"{kind} {name} violates CIS {other.cis_id}, another control")
    truth, wrongly = flagged(control, violating), flagged(control, compliant)
    if len(truth) != len(hidden) or wrongly:
        raise AssertionError(f"CIS {control.cis_id}: generated truth {truth}, compliant {wrongly}")
    return Instance(
        violating=tuple(violating),
        compliant=tuple(compliant),
        violating_resources=tuple(truth),
        requirement=rng.choice(control.phrasings),
        notes="Violations: " + "; ".join(hidden) + ". Compliant side: " + "; ".join(kept) + ".",
    )
