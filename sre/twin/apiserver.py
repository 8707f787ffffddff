"""The API server under a request surge: a client workload calling the Kubernetes API faster than
its priority level admits.

Model: API Priority and Fairness gives the workloads' requests (``workload-low``) a share of the
server; ``CAPACITY_RPS`` stands for it. A pod of a client workload sends ``REQUESTS_PER_SECOND``
(its environment variable, how the twin reads a client's rate) while it runs. Above the capacity
the server rejects the excess with 429 Too Many Requests (KubeAPITerminatedRequests) and its
queues hold everything else back: pods created while the surge lasts are not bound to a node
(they stay Pending); pods running before keep running. When the rate falls back under the
capacity the held pods are placed at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sre.twin.model import Pod, container

RATE_VARIABLE = "REQUESTS_PER_SECOND"
#: requests per second the workloads' priority level admits
CAPACITY_RPS = 100.0
HELD_MESSAGE = (
    'Binding rejected: Post "https://kubernetes.default.svc/api/v1/namespaces/{ns}/pods/{pod}'
    '/binding": 429 Too Many Requests (the server is currently unable to handle the request)'
)


def client_rate(template: Mapping[str, Any]) -> float:
    for env in container(template).get("env") or ():
        if isinstance(env, Mapping) and env.get("name") == RATE_VARIABLE:
            try:
                return max(0.0, float(env.get("value", 0)))
            except (TypeError, ValueError):
                return 0.0
    return 0.0


def request_rate(pods: Iterable[Pod]) -> float:
    """Requests per second the running pods send to the API server."""
    return sum(client_rate(p.template) for p in pods if p.state == "Running" and p.node)


def saturated(pods: Iterable[Pod]) -> bool:
    return request_rate(pods) > CAPACITY_RPS


def is_client(template: Mapping[str, Any]) -> bool:
    return client_rate(template) > 0
