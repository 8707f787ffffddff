"""PodDisruptionBudgets: their ``status`` as the disruption controller computes it, and the
Eviction API's answer (``pods/NAME/eviction``, what ``kubectl drain`` sends) when a budget
guards the pod.

Semantics after Kubernetes' ``pkg/controller/disruption`` and the eviction REST handler
(written here, not copied):

- the budget's pods: the pods of its namespace its selector matches (``policy/v1``: an empty
  selector matches every pod of the namespace, a missing one none);
- ``minAvailable`` as an integer: ``desiredHealthy`` is that number, ``expectedPods`` the pods
  matched; ``minAvailable`` as a percent, or ``maxUnavailable`` (integer or percent): the
  expected count is the sum of the scales (``spec.replicas``) of the pods' controllers (a
  Deployment for its ReplicaSets' pods, else the ReplicaSet, StatefulSet or
  ReplicationController), percents rounded up; ``desiredHealthy`` = the percent of it, or the
  expected count less ``maxUnavailable`` (never below 0). Pods without a controller are left
  out of the count; a controller of another kind makes the status fail safe (no disruption
  allowed, condition ``SyncFailed``);
- ``currentHealthy``: the matched pods that are Ready and not being deleted;
  ``disruptionsAllowed`` = current - desired, 0 when negative or when no pod is expected;
- an eviction: a pod Pending, Succeeded, Failed or being deleted is deleted at once; one guarded
  by more than one budget is refused (500); one not Ready is deleted when its budget is
  satisfied (``currentHealthy >= desiredHealthy > 0``) or its ``unhealthyPodEvictionPolicy`` is
  ``AlwaysAllow``; otherwise a budget that allows no disruption refuses with 429 and
  Kubernetes' message.

The offline cluster deletes an evicted pod at once, and the next read recomputes the status, so
the budget needs no ``disruptedPods`` bookkeeping.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterable, Mapping
from typing import Any

from itbench.cluster.resources import default_registry
from itbench.cluster.selectors import selects as selector_matches

GROUP, PLURAL = "policy", "poddisruptionbudgets"
#: the Status message the API server refuses an eviction with (kubectl drain prints it)
REFUSED = "Cannot evict pod as it would violate the pod's disruption budget."
#: kinds whose scale (``spec.replicas``) counts a budget's expected pods, by API group
#: the kinds whose scale (``spec.replicas``) counts a budget's expected pods, by (group, plural)
_SCALED = {
    t.kind: (t.group, t.plural)
    for t in default_registry().types
    if t.kind in ("ReplicaSet", "StatefulSet", "ReplicationController", "Deployment")
}

Objects = Mapping[tuple[str, str, str, str], Mapping[str, Any]]


class Refusal(Exception):
    """An eviction the API server refuses: HTTP code, Status reason, message, and the cause
    (``DisruptionBudget``) it names."""

    def __init__(self, code: int, reason: str, message: str, cause: str = "") -> None:
        self.code, self.reason, self.cause = code, reason, cause
        super().__init__(message)


def selects(budget: Mapping[str, Any], pod: Mapping[str, Any]) -> bool:
    """Whether the budget guards the pod (same namespace, its selector matches)."""
    b_meta, p_meta = budget.get("metadata") or {}, pod.get("metadata") or {}
    if b_meta.get("namespace") != p_meta.get("namespace"):
        return False
    selector = (budget.get("spec") or {}).get("selector")
    if not isinstance(selector, Mapping):
        return False  # a missing selector matches no pod
    return selector_matches(selector, p_meta.get("labels") or {})


def pod_ready(pod: Mapping[str, Any]) -> bool:
    conditions = (pod.get("status") or {}).get("conditions") or ()
    return any(
        isinstance(c, Mapping) and c.get("type") == "Ready" and c.get("status") == "True"
        for c in conditions
    )


def _scaled(value: object, total: int) -> int | None:
    """An int-or-percent against ``total``, a percent rounded up; None when unreadable."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.endswith("%") and value[:-1].isdigit():
        return math.ceil(int(value[:-1]) * total / 100)
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return None


def _controller(ref: Mapping[str, Any], namespace: str, objects: Objects) -> tuple[str, int] | None:
    """(uid, scale) of the controller a pod's controllerRef names, as the controller's finders
    resolve it (a ReplicaSet of a Deployment counts as the Deployment); None: no such object."""
    kind = str(ref.get("kind", ""))
    if kind not in _SCALED:
        return None
    obj = objects.get((*_SCALED[kind], namespace, str(ref.get("name", ""))))
    if obj is None:
        return None
    meta = obj.get("metadata") or {}
    if ref.get("uid") and meta.get("uid") and ref.get("uid") != meta.get("uid"):
        return None  # another object of that name: the pod's owner is gone
    if kind == "ReplicaSet":
        for owner in meta.get("ownerReferences") or ():
            if (
                isinstance(owner, Mapping)
                and owner.get("controller")
                and owner.get("kind") == "Deployment"
            ):
                found = _controller(owner, namespace, objects)
                if found is not None:
                    return found
    replicas = (obj.get("spec") or {}).get("replicas", 1)
    return str(meta.get("uid") or (kind, meta.get("name"))), int(replicas or 0)


def _expected_scale(pods: list[Mapping[str, Any]], namespace: str, objects: Objects) -> int:
    """The sum of the scales of the pods' controllers; ValueError names a pod whose controller
    has no scale the controller knows."""
    scales: dict[str, int] = {}
    for pod in pods:
        meta = pod.get("metadata") or {}
        refs = [
            r
            for r in meta.get("ownerReferences") or ()
            if isinstance(r, Mapping) and r.get("controller")
        ]
        if not refs:
            continue  # an unmanaged pod: left out of the count
        found = _controller(refs[0], namespace, objects)
        if found is None:
            raise ValueError(f'found no controllers for pod "{meta.get("name", "")}"')
        scales[found[0]] = found[1]
    return sum(scales.values())


def budget_status(budget: Mapping[str, Any], objects: Objects) -> dict[str, Any]:
    """The budget's ``status`` over ``objects`` (the cluster as read: pods, their controllers)."""
    meta = budget.get("metadata") or {}
    namespace = str(meta.get("namespace", ""))
    spec = budget.get("spec") or {}
    pods = [
        o for k, o in objects.items() if k[:3] == ("", "pods", namespace) and selects(budget, o)
    ]
    generation = int(meta.get("generation", 1) or 1)
    try:
        if spec.get("maxUnavailable") is not None:
            expected = _expected_scale(pods, namespace, objects)
            unavailable = _scaled(spec["maxUnavailable"], expected)
            if unavailable is None:
                raise ValueError(f"invalid maxUnavailable {spec['maxUnavailable']!r}")
            desired = max(0, expected - unavailable)
        elif spec.get("minAvailable") is not None:
            value = spec["minAvailable"]
            if isinstance(value, int) and not isinstance(value, bool):
                desired, expected = value, len(pods)
            else:
                expected = _expected_scale(pods, namespace, objects)
                scaled = _scaled(value, expected)
                if scaled is None:
                    raise ValueError(f"invalid minAvailable {value!r}")
                desired = scaled
        else:
            desired, expected = 0, len(pods)
    except ValueError as exc:
        # the controller's fail-safe: nothing may be disrupted while it cannot count
        return {
            "observedGeneration": generation,
            "disruptionsAllowed": 0,
            "currentHealthy": 0,
            "desiredHealthy": 0,
            "expectedPods": 0,
            "conditions": [_condition(False, "SyncFailed", str(exc), generation)],
        }
    healthy = sum(
        1 for p in pods if pod_ready(p) and not (p.get("metadata") or {}).get("deletionTimestamp")
    )
    allowed = healthy - desired
    if expected <= 0 or allowed <= 0:
        allowed = 0
    return {
        "observedGeneration": generation,
        "disruptionsAllowed": allowed,
        "currentHealthy": healthy,
        "desiredHealthy": desired,
        "expectedPods": expected,
        "conditions": [
            _condition(allowed > 0, "SufficientPods" if allowed > 0 else "InsufficientPods", "",
                       generation)
        ],
    }  # fmt: skip


def _condition(allowed: bool, reason: str, message: str, generation: int) -> dict[str, Any]:
    return {
        "type": "DisruptionAllowed",
        "status": "True" if allowed else "False",
        "reason": reason,
        "message": message,
        "observedGeneration": generation,
        "lastTransitionTime": "1970-01-01T00:00:00Z",
    }


def with_budget_status(objects: dict[tuple[str, str, str, str], dict[str, Any]]) -> None:
    """Give every budget among ``objects`` its status (in place, on copies of the budgets)."""
    keys = [k for k in objects if k[:2] == (GROUP, PLURAL)]
    for key in keys:
        budget = copy.deepcopy(objects[key])
        budget["status"] = budget_status(budget, objects)
        objects[key] = budget


def check_eviction(pod: Mapping[str, Any], budgets: Iterable[Mapping[str, Any]]) -> None:
    """Raise :class:`Refusal` when the API server would refuse to evict ``pod`` (``budgets``
    as read, with their status); return when the pod may be deleted."""
    status = pod.get("status") or {}
    if status.get("phase") in ("Pending", "Succeeded", "Failed") or (
        (pod.get("metadata") or {}).get("deletionTimestamp")
    ):
        return  # no disruption to guard: it serves nothing yet, or any more
    guarding = [b for b in budgets if selects(b, pod)]
    if len(guarding) > 1:
        raise Refusal(
            500,
            "InternalError",
            "This pod has more than one PodDisruptionBudget, which the eviction subresource "
            "does not support.",
        )
    if not guarding:
        return
    budget = guarding[0]
    name = (budget.get("metadata") or {}).get("name", "")
    spec, state = budget.get("spec") or {}, budget.get("status") or {}
    current, desired = int(state.get("currentHealthy", 0)), int(state.get("desiredHealthy", 0))
    if not pod_ready(pod):
        if spec.get("unhealthyPodEvictionPolicy") == "AlwaysAllow":
            return
        if current >= desired > 0:
            return  # an unhealthy pod of an undisrupted application
    # the status is computed afresh on every read, so it is never stale (the API server's 429
    # "still being processed") nor negative (its 403): only an exhausted budget refuses here
    if int(state.get("disruptionsAllowed", 0)) <= 0:
        raise Refusal(
            429, "TooManyRequests", REFUSED,
            f"The disruption budget {name} needs {desired} healthy pods and has {current} "
            "currently",
        )  # fmt: skip
