"""What a real API server refuses when a built-in object is created or updated, beyond its
schema: the main rules of Kubernetes' own validation, worded as it words them, so that what the
offline cluster accepts a real cluster accepts too.

From k8s.io/kubernetes ``pkg/apis/core/validation/validation.go``: ``ValidatePodCreate`` (a Pod
may not declare ephemeral containers on create: they are added through the ``ephemeralcontainers``
subresource), ``ValidatePodUpdate`` (only container images, ``activeDeadlineSeconds``,
additions to ``tolerations`` and a negative ``terminationGracePeriodSeconds`` set to 1 may change),
``ValidatePodEphemeralContainersUpdate`` (ephemeral containers may be added, never removed or
changed), ``ValidateServiceUpdate`` (``clusterIP`` may not change once set),
``ValidateConfigMapUpdate`` / ``ValidateSecretUpdate`` (``immutable: true`` freezes the data);
``pkg/apis/batch/validation/validation.go`` ``ValidateJobSpecUpdate`` (selector and pod template
are immutable); ``pkg/apis/apps/validation/validation.go`` (a Deployment's, ReplicaSet's,
DaemonSet's or StatefulSet's selector is immutable; ``spec.replicas`` is not negative);
``ValidateResourceRequirements`` (a container's requests and limits are quantities, not
negative, a request no higher than its limit); ``pkg/apis/autoscaling/validation`` (a
HorizontalPodAutoscaler's ``minReplicas`` at least 1 and at most ``maxReplicas``, utilisation
targets above 0). These last hold on create and update.

Each function returns field errors as the API server prints them
(``spec.ephemeralContainers: Forbidden: cannot be set on create``); empty when allowed.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from itbench.cluster.quantity import parse_quantity

Obj = dict[str, Any]

#: The subresource through which ephemeral containers are added to a running Pod.
EPHEMERAL_SUBRESOURCE = "ephemeralcontainers"
IMMUTABLE = "field is immutable"
POD_UPDATABLE = (
    "`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,"
    "`spec.tolerations` (only additions to existing tolerations),"
    "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)"
)
_SELECTOR_IMMUTABLE = {
    ("apps", "Deployment"),
    ("apps", "ReplicaSet"),
    ("apps", "DaemonSet"),
    ("apps", "StatefulSet"),
}


def _spec(obj: Obj) -> Obj:
    spec = obj.get("spec")
    return spec if isinstance(spec, dict) else {}


def _shown(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


_TEMPLATED = {
    ("apps", "Deployment"),
    ("apps", "ReplicaSet"),
    ("apps", "DaemonSet"),
    ("apps", "StatefulSet"),
    ("batch", "Job"),
    ("", "ReplicationController"),
}


#: Workloads with a ``spec.replicas`` count (a Job's parallelism is another field).
_REPLICATED = {
    ("apps", "Deployment"),
    ("apps", "ReplicaSet"),
    ("apps", "StatefulSet"),
    ("", "ReplicationController"),
}


def _resources_errors(pod_spec: Obj, path: str) -> list[str]:
    errors: list[str] = []
    for list_name in ("initContainers", "containers"):
        containers = pod_spec.get(list_name)
        if not isinstance(containers, list):
            continue
        for i, ctr in enumerate(containers):
            res = ctr.get("resources") if isinstance(ctr, dict) else None
            if not isinstance(res, dict):
                continue
            at = f"{path}.{list_name}[{i}].resources"
            parsed: dict[str, dict[str, float]] = {}
            for part in ("limits", "requests"):
                values = res.get(part)
                if not isinstance(values, dict):
                    continue
                for name, raw in values.items():
                    q = parse_quantity(raw)
                    if q is None:
                        errors.append(
                            f'{at}.{part}[{name}]: Invalid value: "{raw}": must be a quantity'
                        )
                    elif q < 0:
                        errors.append(
                            f'{at}.{part}[{name}]: Invalid value: "{raw}": must be greater than or equal to 0'
                        )
                    else:
                        parsed.setdefault(part, {})[name] = q
            for name, request in parsed.get("requests", {}).items():
                limit = parsed.get("limits", {}).get(name)
                if limit is not None and request > limit:
                    raw = res["requests"][name]
                    errors.append(
                        f'{at}.requests: Invalid value: "{raw}": must be less than or equal to '
                        f"{name} limit of {res['limits'][name]}"
                    )
    return errors


def _hpa_errors(spec: Obj) -> list[str]:
    errors: list[str] = []
    lo, hi = spec.get("minReplicas", 1), spec.get("maxReplicas")
    if isinstance(lo, int) and lo < 1:
        errors.append(f"spec.minReplicas: Invalid value: {lo}: must be greater than or equal to 1")
    if isinstance(hi, int):
        if hi < 1:
            errors.append(f"spec.maxReplicas: Invalid value: {hi}: must be greater than 0")
        if isinstance(lo, int) and hi < lo:
            errors.append(
                f"spec.maxReplicas: Invalid value: {hi}: must be greater than or equal to `minReplicas`"
            )
    for i, metric in enumerate(spec.get("metrics") or []):
        if not isinstance(metric, dict):
            continue
        for source in ("resource", "containerResource"):
            target = (
                (metric.get(source) or {}).get("target")
                if isinstance(metric.get(source), dict)
                else None
            )
            if isinstance(target, dict):
                value = target.get("averageUtilization")
                if isinstance(value, int) and value <= 0:
                    errors.append(
                        f"spec.metrics[{i}].{source}.target.averageUtilization: "
                        f"Invalid value: {value}: must be greater than 0"
                    )
    return errors


def object_errors(group: str, kind: str, obj: Obj) -> list[str]:
    """Why a real API server refuses this object on create or update, whatever it replaces."""
    spec = _spec(obj)
    if (group, kind) == ("autoscaling", "HorizontalPodAutoscaler"):
        return _hpa_errors(spec)
    if (group, kind) == ("", "Pod"):
        return _resources_errors(spec, "spec")
    if (group, kind) in _TEMPLATED:
        errors = []
        replicas = spec.get("replicas")
        if (group, kind) in _REPLICATED and isinstance(replicas, int) and replicas < 0:
            # ValidateNonnegativeField on spec.replicas (apps and core validation)
            errors.append(
                f"spec.replicas: Invalid value: {replicas}: must be greater than or equal to 0"
            )
        template = spec.get("template")
        pod_spec = template.get("spec") if isinstance(template, dict) else None
        if isinstance(pod_spec, dict):
            errors += _resources_errors(pod_spec, "spec.template.spec")
        return errors
    return []


def create_errors(group: str, kind: str, obj: Obj) -> list[str]:
    """Why a real API server refuses to create this object (empty: it does not)."""
    if (group, kind) == ("", "Pod") and _spec(obj).get("ephemeralContainers"):
        return ["spec.ephemeralContainers: Forbidden: cannot be set on create"]
    return object_errors(group, kind, obj)


def update_errors(
    group: str, kind: str, old: Obj, new: Obj, subresource: str | None = None
) -> list[str]:
    """Why a real API server refuses to replace ``old`` with ``new`` (empty: it does not);
    ``subresource`` is the one written through (``status``, ``ephemeralcontainers``)."""
    if subresource == "status":
        return []  # a status write keeps the stored spec
    errors = object_errors(group, kind, new)
    if errors:
        return errors
    if (group, kind) == ("", "Pod"):
        if subresource == EPHEMERAL_SUBRESOURCE:
            return ephemeral_update_errors(old, new)
        return _pod_update_errors(old, new)
    if (group, kind) == ("", "Service"):
        before, after = _spec(old).get("clusterIP"), _spec(new).get("clusterIP")
        if before and after is not None and after != before:
            return [f'spec.clusterIPs[0]: Invalid value: "{after}": may not change once set']
        return []
    if (group, kind) in (("", "ConfigMap"), ("", "Secret")) and old.get("immutable") is True:
        errors = []
        if new.get("immutable") is not True:
            errors.append(f"immutable: Forbidden: {IMMUTABLE} when `immutable` is set")
        for field in ("data", "binaryData") if kind == "ConfigMap" else ("data", "stringData"):
            if (old.get(field) or {}) != (new.get(field) or {}):
                errors.append(f"{field}: Forbidden: {IMMUTABLE} when `immutable` is set")
        return errors
    if (group, kind) == ("batch", "Job"):
        return [
            f"spec.{field}: Invalid value: {_shown(_spec(new).get(field))}: {IMMUTABLE}"
            for field in ("selector", "template")
            if _spec(new).get(field) != _spec(old).get(field)
        ]
    selector = _spec(new).get("selector")
    if (group, kind) in _SELECTOR_IMMUTABLE and selector != _spec(old).get("selector"):
        return [f"spec.selector: Invalid value: {_shown(selector)}: {IMMUTABLE}"]
    return []


def _pod_update_errors(old: Obj, new: Obj) -> list[str]:
    before, after = _spec(old), copy.deepcopy(_spec(new))
    # what may change, taken over from the stored pod before comparing
    for group in ("containers", "initContainers"):
        olds, news = before.get(group) or [], after.get(group) or []
        if len(olds) == len(news):
            for was, now in zip(olds, news, strict=True):
                if isinstance(was, dict) and isinstance(now, dict) and "image" in was:
                    now["image"] = was["image"]
    for field in ("activeDeadlineSeconds",):
        if field in before:
            after[field] = before[field]
        else:
            after.pop(field, None)
    old_tolerations = before.get("tolerations") or []
    new_tolerations = after.get("tolerations") or []
    if all(t in new_tolerations for t in old_tolerations):
        if old_tolerations:
            after["tolerations"] = old_tolerations
        else:
            after.pop("tolerations", None)
    grace = before.get("terminationGracePeriodSeconds")
    if isinstance(grace, int) and grace < 0 and after.get("terminationGracePeriodSeconds") == 1:
        after["terminationGracePeriodSeconds"] = grace
    if after == before:
        return []
    return [f"spec: Forbidden: pod updates may not change fields other than {POD_UPDATABLE}"]


def ephemeral_update_errors(old: Obj, new: Obj) -> list[str]:
    """Through the ``ephemeralcontainers`` subresource: only ``spec.ephemeralContainers`` is
    written, and an existing ephemeral container may be neither removed nor changed."""
    olds = {c.get("name"): c for c in _spec(old).get("ephemeralContainers") or []}
    news = _spec(new).get("ephemeralContainers") or []
    by_name = {c.get("name"): (i, c) for i, c in enumerate(news) if isinstance(c, dict)}
    errors = []
    for name, was in olds.items():
        if name not in by_name:
            errors.append(
                f'spec.ephemeralContainers: Forbidden: existing ephemeral containers "{name}" '
                "may not be removed"
            )
        elif by_name[name][1] != was:
            errors.append(
                f"spec.ephemeralContainers[{by_name[name][0]}]: Forbidden: existing ephemeral "
                f'containers "{name}" may not be changed'
            )
    taken = {
        c.get("name")
        for group in ("containers", "initContainers")
        for c in _spec(old).get(group) or []
        if isinstance(c, dict)
    }
    for index, container in enumerate(news):
        if not isinstance(container, dict) or not container.get("name"):
            errors.append(f"spec.ephemeralContainers[{index}].name: Required value")
            continue
        if container["name"] in taken:
            errors.append(
                f'spec.ephemeralContainers[{index}].name: Duplicate value: "{container["name"]}"'
            )
        if not container.get("image"):
            errors.append(f"spec.ephemeralContainers[{index}].image: Required value")
    return errors


def with_ephemeral_containers(current: Obj, written: Obj) -> Obj:
    """The stored Pod with the ``spec.ephemeralContainers`` of what was written through the
    subresource (everything else of the written body is ignored, as Kubernetes does)."""
    updated = copy.deepcopy(current)
    containers = _spec(written).get("ephemeralContainers")
    spec = updated.setdefault("spec", {})
    if containers:
        spec["ephemeralContainers"] = copy.deepcopy(containers)
    else:
        spec.pop("ephemeralContainers", None)
    return updated
