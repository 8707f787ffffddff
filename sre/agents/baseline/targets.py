"""The applications a changed object acts on through a selector, resolved against the pods the
snapshot shows: a Chaos Mesh experiment's ``selector`` (``namespaces``, ``labelSelectors``,
``expressionSelectors``, ``fieldSelectors``, ``pods``) and a NetworkChaos's ``target``; a
NetworkPolicy's ``podSelector``; a Service's ``selector``. A Chaos Mesh ``fieldSelectors`` on
the pod's name or namespace picks the pods with those fields. Whatever label key the selector uses
(``app.kubernetes.io/component``, ``tier``, ...) picks pods, and the pods name their
application."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from fnmatch import fnmatchcase
from typing import Any

from sre.agents.baseline.evidence import PodLabels, app_of
from sre.agents.baseline.states.objects import selects


def chaos_selectors(kind: str, spec: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """Every selector of a Chaos Mesh experiment (or of the experiment a Schedule creates, held
    under the field its ``type`` names: ``type: NetworkChaos`` -> ``networkChaos``): the
    victims' and, for a NetworkChaos, its ``target``'s (a partition cuts both sides)."""
    _, spec = experiment(kind, spec)
    for holder in (spec, spec.get("target")):
        if isinstance(holder, dict) and isinstance(holder.get("selector"), dict):
            yield holder["selector"]


def experiment(kind: str, spec: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]]:
    """The experiment's kind and spec: a Schedule's own, held under the field its ``type`` names
    in lower camel case (``NetworkChaos`` -> ``networkChaos``, ``DNSChaos`` -> ``dnsChaos``,
    ``IOChaos`` -> ``ioChaos``): the field is matched whatever the case of its leading acronym."""
    if kind != "Schedule":
        return kind, spec
    inner_kind = str(spec.get("type") or "")
    inner = next(
        (v for k, v in spec.items() if inner_kind and str(k).lower() == inner_kind.lower()), None
    )
    return inner_kind, inner if isinstance(inner, dict) else {}


def dns_names(kind: str, spec: Mapping[str, Any], apps: Iterable[str]) -> set[str]:
    """The ``apps`` whose names a DNSChaos breaks: its ``patterns`` (``email``,
    ``email.shop.svc.cluster.local``, ``pay*``; Chaos Mesh's ``*`` and ``?`` wildcards) are the
    names whose lookups fail or answer at random, so the calls to those applications are what it
    acts on, whichever pods it selects (often a whole namespace: every caller)."""
    kind, spec = experiment(kind, spec)
    patterns = spec.get("patterns") if kind == "DNSChaos" else None
    if not isinstance(patterns, list):
        return set()
    # a Service is looked up by its name, alone or followed by its namespace and cluster domain
    hosts = {str(p).split(".", 1)[0].lower() for p in patterns if str(p).strip()}
    # a pattern of wildcards alone (``*``) breaks every name: it names no application in
    # particular, as a selector of a whole namespace picks none
    hosts = {h for h in hosts if h.strip("*?")}
    return {app for app in apps for host in hosts if fnmatchcase(app.lower(), host)}


def chaos_picks(selector: Mapping[str, Any], namespace: str, pods: Iterable[PodLabels]) -> set[str]:
    """The applications of the pods a Chaos Mesh selector picks (its own namespace when it names
    none)."""
    pods = list(pods)
    named = selector.get("pods")
    if isinstance(named, dict):  # {namespace: [pod names]} picks those pods and no others
        out = set()
        for ns, names in named.items():
            for name in names or ():
                match = [p.app for p in pods if p.namespace == ns and p.name == name]
                out |= set(match) or {app_of("Pod", str(name))}
        return out
    spaces = selector.get("namespaces") or [namespace]
    labels = selector.get("labelSelectors") or {}
    expressions = selector.get("expressionSelectors") or []
    fields = selector.get("fieldSelectors") or {}
    fields = fields if isinstance(fields, dict) else {}
    if not labels and not expressions and not fields:
        return set()  # a whole namespace: no application in particular
    if set(fields) - set(_POD_FIELDS):
        return set()  # a field the snapshot's pods do not carry here: cannot be resolved
    wanted = {"matchLabels": labels, "matchExpressions": expressions}
    return {
        p.app
        for p in pods
        if p.namespace in spaces
        and selects(wanted, dict(p.labels))
        and all(_POD_FIELDS[f](p) == str(v) for f, v in fields.items())
    }


#: the pod fields a Chaos Mesh ``fieldSelectors`` may test that a pod's labels view holds
_POD_FIELDS: dict[str, Callable[[PodLabels], str]] = {
    "metadata.name": lambda p: p.name,
    "metadata.namespace": lambda p: p.namespace,
}


def label_picks(selector: Any, namespace: str, pods: Iterable[PodLabels]) -> set[str]:
    """The applications of the pods of ``namespace`` a Kubernetes label selector picks (a
    Service's plain map, a NetworkPolicy's ``matchLabels`` / ``matchExpressions``)."""
    if not isinstance(selector, dict) or not selector:
        return set()
    return {p.app for p in pods if p.namespace == namespace and selects(selector, dict(p.labels))}
