"""Autogen: a Pod rule also checks the Pod templates of controllers, as rules named
``autogen-<rule>`` (Deployment, DaemonSet, StatefulSet, Job, ReplicaSet, ReplicationController)
and ``autogen-cronjob-<rule>`` (CronJob)."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

ANNOTATION = "pod-policies.kyverno.io/autogen-controllers"
POD_CONTROLLERS = (
    "DaemonSet",
    "Deployment",
    "Job",
    "StatefulSet",
    "ReplicaSet",
    "ReplicationController",
)
ALL_CONTROLLERS = (*POD_CONTROLLERS, "CronJob")
MAX_NAME = 63


def _filters(block: dict[str, Any] | None) -> list[dict[str, Any]]:
    if not block:
        return []
    if block.get("any") or block.get("all"):
        return [f.get("resources") or {} for f in (block.get("any") or block.get("all") or [])]
    return [block.get("resources") or {}]


def _is_pod(kind: Any) -> bool:
    return isinstance(kind, str) and kind.split("/")[-1] == "Pod"


def _kinds(block: dict[str, Any] | None) -> list[Any]:
    return [k for f in _filters(block) for k in (f.get("kinds") or [])]


def _policy_can_autogen(policy: dict[str, Any]) -> bool:
    """Kyverno's policy-level test: no rule may select by name, selector or annotations, nor mix
    Pod with other kinds in one filter, and some rule must be about Pods or their controllers."""
    needed = False
    for rule in (policy.get("spec") or {}).get("rules") or []:
        for flt in _filters(rule.get("match")) + _filters(rule.get("exclude")):
            if flt.get("name") or flt.get("names") or flt.get("selector") or flt.get("annotations"):
                return False
            kinds = flt.get("kinds") or []
            if len(kinds) > 1 and any(_is_pod(k) for k in kinds):
                return False
            needed = needed or any(
                isinstance(k, str) and k.split("/")[-1] in (*ALL_CONTROLLERS, "Pod") for k in kinds
            )
    return needed


def _can_autogen(rule: dict[str, Any]) -> bool:
    """A rule gets controller rules when it matches Pods and excludes nothing but Pods."""
    excluded = _kinds(rule.get("exclude"))
    if not any(_is_pod(k) for k in _kinds(rule.get("match"))):
        return False
    if excluded and not any(_is_pod(k) for k in excluded):
        return False
    return any(k in rule for k in ("validate", "mutate", "verifyImages"))


def controllers(policy: dict[str, Any]) -> tuple[str, ...]:
    value = ((policy.get("metadata") or {}).get("annotations") or {}).get(ANNOTATION)
    if value is None:
        return ALL_CONTROLLERS
    if value.strip().lower() == "none":
        return ()
    return tuple(v.strip() for v in value.split(",") if v.strip())


def _rewrite_text(text: str, prefix: str) -> str:
    return (
        text.replace("request.object.spec", f"request.object.{prefix}.spec")
        .replace("request.object.metadata", f"request.object.{prefix}.metadata")
        .replace("request.oldObject.spec", f"request.oldObject.{prefix}.spec")
        .replace("request.oldObject.metadata", f"request.oldObject.{prefix}.metadata")
    )


_CEL_PATHS = re.compile(r"\b(object|oldObject)\.(spec|metadata)\b")


def _rewrite_cel_text(text: str, prefix: str) -> str:
    """``object.spec`` and ``object.metadata`` (and oldObject's) under the pod template."""
    return _CEL_PATHS.sub(lambda m: f"{m.group(1)}.{prefix}.{m.group(2)}", text)


def _wrap_pattern(pattern: Any, cronjob: bool) -> Any:
    template = {"template": pattern}
    if cronjob:
        return {"spec": {"jobTemplate": {"spec": template}}}
    return {"spec": template}


def _convert(rule: dict[str, Any], kinds: list[str], name: str, cronjob: bool) -> dict[str, Any]:
    prefix = "spec.jobTemplate.spec.template" if cronjob else "spec.template"
    text = json.dumps({k: v for k, v in rule.items() if k not in ("name", "match", "exclude")})
    converted = json.loads(_rewrite_text(text, prefix))
    mutate = converted.get("mutate") or {}
    if mutate.get("patchStrategicMerge") is not None:
        mutate["patchStrategicMerge"] = _wrap_pattern(mutate["patchStrategicMerge"], cronjob)
    for entry in mutate.get("foreach") or []:
        if isinstance(entry, dict) and entry.get("patchStrategicMerge") is not None:
            entry["patchStrategicMerge"] = _wrap_pattern(entry["patchStrategicMerge"], cronjob)
    validate = converted.get("validate") or {}
    if "cel" in validate or "celPreconditions" in converted:
        # Kyverno moves CEL's object paths under the pod template by the same text rewrite
        cel_text = _rewrite_cel_text(
            json.dumps([validate.get("cel"), converted.get("celPreconditions")]), prefix
        )
        validate["cel"], celpre = json.loads(cel_text)
        if celpre is not None:
            converted["celPreconditions"] = celpre
        if validate["cel"] is None:
            del validate["cel"]
    if "pattern" in validate:
        validate["pattern"] = _wrap_pattern(validate["pattern"], cronjob)
    if "anyPattern" in validate:
        validate["anyPattern"] = [_wrap_pattern(p, cronjob) for p in validate["anyPattern"]]
    new = {"name": name[:MAX_NAME], **converted}
    for clause in ("match", "exclude"):
        block = copy.deepcopy(rule.get(clause))
        if not block:
            continue
        entries = (
            (block.get("any") or block.get("all"))
            if (block.get("any") or block.get("all"))
            else [block]
        )
        for entry in entries:
            resources = entry.get("resources")
            if resources and resources.get("kinds"):
                resources["kinds"] = list(kinds)
        new[clause] = block
    return new


def _policy_blocks_autogen(policy: dict[str, Any]) -> bool:
    """Kyverno generates no controller rules at all for a policy with a generate rule or a JSON
    patch (its paths cannot be moved under a pod template)."""
    for rule in (policy.get("spec") or {}).get("rules") or []:
        mutate = rule.get("mutate") or {}
        if "generate" in rule or mutate.get("patchesJson6902"):
            return True
        if any((f or {}).get("patchesJson6902") for f in mutate.get("foreach") or []):
            return True
    return False


def autogen_rules(policy: dict[str, Any]) -> list[dict[str, Any]]:
    """The rules Kyverno would add to ``policy`` (its own rules are not included)."""
    if _policy_blocks_autogen(policy) or not _policy_can_autogen(policy):
        return []
    wanted = controllers(policy)
    out = []
    for rule in (policy.get("spec") or {}).get("rules") or []:
        if not _can_autogen(rule):
            continue
        pod_controllers = [c for c in POD_CONTROLLERS if c in wanted]
        if pod_controllers:
            out.append(_convert(rule, pod_controllers, f"autogen-{rule['name']}", False))
        if "CronJob" in wanted:
            out.append(_convert(rule, ["CronJob"], f"autogen-cronjob-{rule['name']}", True))
    return out
