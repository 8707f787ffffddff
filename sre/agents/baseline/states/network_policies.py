"""NetworkPolicies that keep an application's callers out (or its calls in).

A pod selected by a policy of type ``Ingress`` accepts only what the union of the ingress rules
of every such policy admits (likewise for ``Egress``); a rule with no ``from`` admits every
source, a rule with no ``ports`` every port, and a peer's ``podSelector`` and
``namespaceSelector`` together must both match. An application is cut off when no other
application pod of the snapshot is admitted on the port its Service targets: a deny-all policy,
an allow-list naming a label no caller carries, a rule open only on another port. Likewise a
pod whose egress admits no other application is cut off from the services it calls. The pods
stay healthy and no event says anything: only the callers' client spans fail, so the state
needs the trace signals to blame the application before it counts."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sre.agents.baseline.evidence import Change, FailingState
from sre.agents.baseline.states.objects import (
    APP_LABELS,
    ObjectView,
    meta,
    pod_app,
    selects,
)


@dataclass(frozen=True)
class Endpoint:
    """One application's pods as a policy sees them: labels, namespace and the ports it serves
    (by number and by name)."""

    app: str
    namespace: str
    labels: dict[str, str]
    ports: frozenset[int | str]


#: how a cut-off state says which way the policy shuts (what ``answered`` reads it by: only
#: an ingress cut-off is refuted by the target's own server spans)
_ADMITS_NONE = {"Ingress": "admits no ingress", "Egress": "admits no egress"}


def find(view: ObjectView) -> Iterable[FailingState]:
    endpoints = _endpoints(view)
    namespaces = _namespace_labels(view)
    for ts, policy in view.kind("NetworkPolicy"):
        namespace, name, _ = meta(policy)
        spec = policy.get("spec") or {}
        selected = [
            e
            for e in endpoints
            if e.namespace == namespace and selects(spec.get("podSelector"), e.labels)
        ]
        if not selected:
            selected = _named_by_selector(spec.get("podSelector"), namespace)
        for direction in _types(spec):
            for target in selected:
                others = [e for e in endpoints if e.app != target.app or e.namespace != namespace]
                verdict = _cut_off(view, direction, target, others, namespaces)
                if verdict is None:
                    continue
                yield FailingState(
                    namespace, "NetworkPolicy", name, target.app,
                    f"NetworkPolicy {name} {_ADMITS_NONE[direction]} "
                    f"{'to' if direction == 'Ingress' else 'from'} {target.app or 'the pods it selects'}"
                    + (f" ({verdict})" if verdict else ""),
                    1.0, ts, needs_blame=True,
                )  # fmt: skip


#: a policy takes effect within seconds; connections made before it may live a little longer
SETTLES = timedelta(minutes=2)
#: this many server spans of an application after the policy settled show callers reaching it
STILL_SERVED = 5


def answered(
    states: Iterable[FailingState],
    changes: Iterable[Change],
    served: Mapping[str, list[tuple[datetime, int]]],
) -> list[FailingState]:
    """The ingress cut-offs the traces contradict, to be dropped: the application went on
    answering requests (its own server spans, failing or not) after the policy was made or
    edited. A policy selecting every pod of a namespace with a narrow allow-list reads as a
    cut-off of each, yet the spans show which applications its callers still reach (an added
    policy unions with the others; a plug-in may not enforce it): only those it did cut off
    tell what it did. When the spans refute half or more of a policy's cut-offs, they refute the
    reading of its rules itself: none of its cut-offs is kept."""
    made: dict[str, datetime] = {}
    for c in changes:
        if c.kind == "NetworkPolicy" and c.change in ("created", "modified"):
            at = (c.since or c.time).replace(tzinfo=None)
            made[c.entity] = max(made.get(c.entity, at), at)
    claimed: dict[str, list[FailingState]] = {}
    refuted: dict[str, list[FailingState]] = {}
    for state in states:
        if state.kind != "NetworkPolicy" or not _shuts_ingress(state):
            continue
        claimed.setdefault(state.entity, []).append(state)
        since = made.get(state.entity) or (state.time.replace(tzinfo=None) if state.time else None)
        if since is None:
            continue
        after = sum(n for minute, n in served.get(state.app, ()) if minute >= since + SETTLES)
        if after >= STILL_SERVED:
            refuted.setdefault(state.entity, []).append(state)
    out = []
    for entity, wrong in refuted.items():
        out += claimed[entity] if 2 * len(wrong) >= len(claimed[entity]) else wrong
    return out


def _shuts_ingress(state: FailingState) -> bool:
    """A cut-off :func:`find` read from a policy's ingress rules (FailingState carries no
    direction of its own: its text, written above, says it)."""
    return state.what.startswith(f"NetworkPolicy {state.name} {_ADMITS_NONE['Ingress']} ")


def _types(spec: dict[str, Any]) -> list[str]:
    """The directions a policy isolates (``policyTypes``, else Ingress, and Egress when it has
    egress rules, as the API server defaults them)."""
    types = spec.get("policyTypes")
    if isinstance(types, list) and types:
        return [t for t in types if t in ("Ingress", "Egress")]
    return ["Ingress"] + (["Egress"] if "egress" in spec else [])


def _named_by_selector(selector: Any, namespace: str) -> list[Endpoint]:
    """When no pod or workload of the snapshot is selected: the application the selector's
    labels name, with nothing known about its ports."""
    if not isinstance(selector, dict):
        return []
    wanted = selector.get("matchLabels") or {}
    apps = sorted({str(v) for k, v in wanted.items() if k in APP_LABELS})
    return [Endpoint(app, namespace, dict(wanted), frozenset()) for app in apps] or [
        Endpoint("", namespace, dict(wanted), frozenset())
    ]


def _cut_off(
    view: ObjectView,
    direction: str,
    target: Endpoint,
    others: list[Endpoint],
    namespaces: dict[str, dict[str, str]],
) -> str | None:
    """None when the policies leave ``target`` reachable (or reaching) at least one other
    application; else what they admit ("" when nothing)."""
    policies = [
        p
        for _, p in view.kind("NetworkPolicy")
        if meta(p)[0] == target.namespace
        and direction in _types(p.get("spec") or {})
        and selects((p.get("spec") or {}).get("podSelector"), target.labels)
    ]
    rules = [
        r
        for p in policies
        for r in ((p.get("spec") or {}).get(direction.lower()) or [])
        if isinstance(r, dict)
    ]
    if not others:
        return "" if not rules else None
    peers_key = "from" if direction == "Ingress" else "to"
    for other in others:
        # ingress: the other application calls the target on the target's ports; egress: the
        # target calls the other on the other's ports
        ports = target.ports if direction == "Ingress" else other.ports
        if any(_admits(r, peers_key, other, namespaces, ports, target.namespace) for r in rules):
            return None
    return "; ".join(sorted({_describe(r, peers_key) for r in rules})) if rules else ""


def _admits(
    rule: dict[str, Any],
    peers_key: str,
    peer: Endpoint,
    namespaces: dict[str, dict[str, str]],
    ports: frozenset[int | str],
    home: str,
) -> bool:
    if not _port_open(rule.get("ports"), ports):
        return False
    peers = rule.get(peers_key)
    if not peers:
        return True
    return any(_peer_matches(p, peer, namespaces, home) for p in peers if isinstance(p, dict))


def _peer_matches(
    entry: dict[str, Any], peer: Endpoint, namespaces: dict[str, dict[str, str]], home: str
) -> bool:
    if "ipBlock" in entry:
        # pod addresses are not what ipBlock is for; only an everything-block admits them
        cidr = (entry.get("ipBlock") or {}).get("cidr", "")
        return str(cidr).endswith("/0")
    pods, spaces = entry.get("podSelector"), entry.get("namespaceSelector")
    if spaces is None and pods is None:
        return False
    if spaces is None:  # a podSelector alone selects in the policy's own namespace
        return peer.namespace == home and selects(pods, peer.labels)
    ns_labels = namespaces.get(peer.namespace) or {"kubernetes.io/metadata.name": peer.namespace}
    return selects(spaces, ns_labels) and (pods is None or selects(pods, peer.labels))


def _port_open(rule_ports: Any, ports: frozenset[int | str]) -> bool:
    """Whether a rule's ``ports`` admit one of ``ports`` (unknown ports: assumed admitted, a
    port that cannot be compared is no evidence of a block)."""
    if not rule_ports or not ports:
        return True
    for p in rule_ports:
        if not isinstance(p, dict):
            continue
        if p.get("protocol", "TCP") not in ("TCP", None):
            continue
        port = p.get("port")
        if port is None:
            return True
        if isinstance(port, str) and port.isdigit():
            port = int(port)
        end = p.get("endPort")
        if port in ports or (
            isinstance(port, int)
            and isinstance(end, int)
            and any(isinstance(x, int) and port <= x <= end for x in ports)
        ):
            return True
    return False


def _describe(rule: dict[str, Any], peers_key: str) -> str:
    parts = []
    for peer in rule.get(peers_key) or []:
        if isinstance(peer, dict):
            parts.append(", ".join(f"{k} {v}" for k, v in peer.items()))
    ports = [str(p.get("port")) for p in rule.get("ports") or [] if isinstance(p, dict)]
    return (
        f"only {peers_key} " + ("; ".join(parts) or "anywhere")
        + (f" on port {', '.join(ports)}" if ports else "")
    )  # fmt: skip


def _endpoints(view: ObjectView) -> list[Endpoint]:
    """Every application of the snapshot as a policy sees it: its pods' labels (a workload's
    template labels when the objects hold no pod) and the ports callers reach it on (the target
    ports of the Services selecting it, else its containers' ports)."""
    found: dict[tuple[str, str], Endpoint] = {}
    for _, pod in view.work.pods:
        namespace, _, labels = meta(pod)
        app = pod_app(pod)
        found.setdefault((namespace, app), Endpoint(app, namespace, labels, frozenset()))
    for _, workload in view.kind("Deployment", "StatefulSet", "DaemonSet"):
        namespace, name, labels = meta(workload)
        template = ((workload.get("spec") or {}).get("template") or {}).get("metadata") or {}
        labelled = template.get("labels")
        pod_labels: dict[str, str] = labelled if isinstance(labelled, dict) else {}
        if not any(e.namespace == namespace and e.labels == pod_labels for e in found.values()):
            app = name
            found.setdefault((namespace, app), Endpoint(app, namespace, pod_labels, frozenset()))
    out = []
    for (namespace, app), e in found.items():
        out.append(Endpoint(app, namespace, e.labels, _served_ports(view, namespace, e.labels)))
    return out


def _served_ports(view: ObjectView, namespace: str, labels: dict[str, str]) -> frozenset[int | str]:
    ports: set[int | str] = set()
    for _, svc in view.kind("Service"):
        spec = svc.get("spec") or {}
        selector = spec.get("selector")
        if meta(svc)[0] != namespace or not isinstance(selector, dict) or not selector:
            continue
        if not selects(selector, labels):
            continue
        for port in spec.get("ports") or []:
            target = port.get("targetPort", port.get("port"))
            if isinstance(target, str) and target.isdigit():
                target = int(target)
            if target is not None:
                ports.add(target)
    if ports:
        # a rule names a port by number or by the name the container gives it: both count
        for _, pod in view.work.pods:
            if meta(pod)[0] == namespace and meta(pod)[2] == labels:
                for c in (pod.get("spec") or {}).get("containers") or []:
                    for p in c.get("ports") or []:
                        number, name = p.get("containerPort"), p.get("name")
                        if name in ports and isinstance(number, int):
                            ports.add(number)
                        elif number in ports and name:
                            ports.add(str(name))
    return frozenset(ports)


def _namespace_labels(view: ObjectView) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for _, ns in view.kind("Namespace"):
        _, name, labels = meta(ns)
        out[name] = {"kubernetes.io/metadata.name": name, **labels}
    return out
