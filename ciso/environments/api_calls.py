"""Kyverno ``apiCall`` context entries answered from the environment being evaluated.

A policy such as "the Pod's ServiceAccount must not automount its token" reads
``/api/v1/namespaces/{ns}/serviceaccounts/{name}`` from the cluster. Offline, the answer comes from
the same objects the offline cluster serves, through its own state and route parsing, so a policy
sees what ``kubectl get --raw`` would show it during the trial.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from urllib.parse import parse_qs, urlsplit

from ciso.engines.kyverno.model import Context
from ciso.environments.kubernetes import is_policy, state_of
from itbench.cluster import ClusterError, ClusterState
from itbench.cluster.selectors import field_selector, label_selector
from itbench.cluster.server import parse_route, status


class ClusterAnswers(dict):
    """The engine's ``api_responses`` lookup (``get("METHOD:url")`` then ``get(url)``), resolved
    lazily against a cluster state instead of a fixed table."""

    def __init__(self, state: ClusterState) -> None:
        super().__init__()
        self._state = state

    def __bool__(self) -> bool:  # the engine consults it only when it is "non-empty"
        return True

    def get(self, key: str, default: Any = None) -> Any:  # noqa: D102 - dict protocol
        # keys are "METHOD:/path" or "/path" (see rule_context._mocked_api_call)
        method, url = ("GET", key) if key.startswith("/") else key.split(":", 1)
        if method != "GET":
            return default  # POST calls (SubjectAccessReviews ...) have no offline answer
        return answer(self._state, url)


def answer(state: ClusterState, url: str) -> tuple[int, Any]:
    """(HTTP status, body) for a GET of ``url`` on ``state``: an object, a list (label and field
    selectors honoured), or a ``Status`` for what does not exist."""
    parts = urlsplit(url)
    route = parse_route(parts.path.rstrip("/"))
    if route is None:
        return 404, status(404, "NotFound", f"{url}: not a resource path")
    rtype = state.registry.by_plural(route.group, route.plural)
    if rtype is None or route.sub is not None:
        return 404, status(404, "NotFound", f"{url}: not served offline")
    try:
        if route.name is not None:
            return 200, state.get(rtype, route.namespace or "", route.name)
    except ClusterError as exc:
        return exc.code, status(exc.code, exc.reason, str(exc))
    query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
    labels = label_selector(query.get("labelSelector"))
    fields = field_selector(query.get("fieldSelector"))
    items = [
        obj
        for obj in state.list(rtype, route.namespace if rtype.namespaced else None)
        if labels(obj["metadata"].get("labels") or {}) and fields(obj)
    ]
    return 200, {
        "kind": f"{rtype.kind}List",
        "apiVersion": rtype.group_version,
        "metadata": {"resourceVersion": state.resource_version},
        "items": items,
    }


def context_for(objects: Sequence[dict[str, Any]]) -> Context:
    """An engine context whose apiCall entries read ``objects`` (with what the cluster derives)."""
    ctx = Context()
    ctx.api_responses = ClusterAnswers(state_of([o for o in objects if not is_policy(o)]))
    ctx.config_maps = {
        (str(o["metadata"].get("namespace") or "default"), str(o["metadata"]["name"])): o
        for o in objects
        if o.get("kind") == "ConfigMap" and isinstance(o.get("metadata"), dict)
    }
    return ctx


def context_for_state(state: ClusterState) -> Context:
    ctx = Context()
    ctx.api_responses = ClusterAnswers(state)
    return ctx
