"""The applications an object of a kind no other rule reads acts on: what it names and what it
selects.

A service mesh's routing rule, a broker's user and its rights, an admission webhook, a
disruption budget: each kind holds its link to the workloads differently, and no list of kinds
is ever complete. What they share is that the link is written in the object. It names the
applications it is about, as a host (``reviews``, ``reviews.shop.svc.cluster.local``,
``http://reviews:9080``), a target (``scaleTargetRef.name: checkout``), a principal (a
``KafkaUser`` called ``accounting`` is the credentials the ``accounting`` service connects
with), or it picks their pods by labels (``selector``, ``podSelector``, ``workloadSelector``).
An edit of such an object changes what those applications get, so it acts on them; an
application is matched only by a whole name or host, never a word inside a longer string. One
that names and selects nothing applies to its whole namespace (``namespace_wide``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from sre.agents.baseline.evidence import PodLabels
from sre.agents.baseline.targets import label_picks

#: keys under which an object picks pods by their labels (a plain map or ``matchLabels``); a
#: subset's ``labels`` only narrows the pods another object (the host's Service) picks, so it
#: names nothing by itself
SELECTOR_KEYS = ("selector", "podSelector", "workloadSelector")
#: strings longer than this are content (a script, a certificate), not a name
MAX_NAME = 253


def referenced_apps(
    name: str,
    namespace: str,
    spec: Any,
    apps: Iterable[str],
    pods: Iterable[PodLabels],
) -> frozenset[str]:
    """The ``apps`` an object called ``name`` names (by its own name or a host or name in its
    spec), and the applications of the pods of ``namespace`` a label selector in its spec
    picks."""
    wanted = {a.lower(): a for a in apps if a}
    named = {
        wanted[h] for h in (host_label(name), *map(host_label, spec_strings(spec))) if h in wanted
    }
    pods = list(pods)
    picked = {app for s in _selectors(spec) for app in label_picks(s, namespace, pods)}
    return frozenset(named | picked)


#: keys by which an object narrows what it applies to: label selectors, a reference to the object
#: it attaches to (Gateway API and Istio's ``targetRef``/``targetRefs``), a pod template (an object
#: that runs pods acts through them)
_NARROWING = (*SELECTOR_KEYS, "targetRef", "targetRefs", "template", "jobTemplate")


def namespace_wide(spec: Any) -> bool:
    """A spec that narrows what it applies to by nothing: a mesh policy without a ``selector``
    (mutual TLS, authorization, a sidecar's egress) applies, by the API's own rule, to every pod
    of its namespace, as a NetworkPolicy with an empty ``podSelector`` does."""
    return isinstance(spec, dict) and bool(spec) and not _narrows(spec)


def _narrows(value: Any) -> bool:
    if isinstance(value, dict):
        return any(k in _NARROWING or _narrows(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_narrows(v) for v in value)
    return False


def host_label(text: str) -> str:
    """The first label of the host a name, DNS name or URL spells (``http://cart:80/x`` ->
    ``cart``; ``cart.shop.svc.cluster.local`` -> ``cart``), lower case."""
    text = text.strip().lower()
    if "://" in text:
        text = text.split("://", 1)[1]
    return text.split("/", 1)[0].split(":", 1)[0].split(".", 1)[0]


def spec_strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        if len(value) <= MAX_NAME:
            yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from spec_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from spec_strings(item)


def _selectors(value: Any) -> Iterator[dict[str, Any]]:
    """Every label selector held under a selector key, at any depth (an Istio
    ``workloadSelector`` wraps its labels in ``labels``; a Kubernetes one in ``matchLabels``)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key in SELECTOR_KEYS and isinstance(item, dict):
                labels = item.get("labels") if set(item) == {"labels"} else item
                if isinstance(labels, dict) and labels:
                    yield labels
            else:
                yield from _selectors(item)
    elif isinstance(value, list):
        for item in value:
            yield from _selectors(item)
