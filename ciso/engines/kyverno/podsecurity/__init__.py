"""``validate.podSecurity``: the Pod Security Standards at a level and version, with Kyverno's
exclusions (by control, optionally by container image, restricted field and values).

An exclusion is evaluated as Kyverno does: without ``images`` it looks at the pod's own fields
only (the pod with a single placeholder container); with ``images`` at a pod made of the
matching containers only. Each field error found there that matches the exclusion's restricted
field and values exempts the same field error (for the same container, by name) of the real
pod; a check with no field errors left passes."""

from __future__ import annotations

import copy
import re
from typing import Any

from ciso.engines.kyverno import wildcard
from ciso.engines.kyverno.crd import POD_SECURITY_LEVELS
from ciso.engines.kyverno.errors import RuleError
from ciso.engines.kyverno.model import RuleOutcome, RuleStatus
from ciso.engines.kyverno.podsecurity.checks import BASELINE, FieldError, Violation, evaluate

#: Kyverno's control names and the checks each covers
CONTROLS: dict[str, tuple[str, ...]] = {
    "Capabilities": ("capabilities_baseline", "capabilities_restricted"),
    "Seccomp": ("seccompProfile_baseline", "seccompProfile_restricted"),
    "Privileged Containers": ("privileged",),
    "Host Ports": ("hostPorts",),
    "/proc Mount Type": ("procMount",),
    "HostProcess": ("windowsHostProcess",),
    "SELinux": ("seLinuxOptions",),
    "Host Namespaces": ("hostNamespaces",),
    "HostPath Volumes": ("hostPathVolumes",),
    "Sysctls": ("sysctls",),
    "AppArmor": ("appArmorProfile",),
    "Privilege Escalation": ("allowPrivilegeEscalation",),
    "Running as Non-root": ("runAsNonRoot",),
    "Running as Non-root user": ("runAsUser",),
    "Volume Types": ("restrictedVolumes",),
}
CONTROLLERS = (
    "DaemonSet",
    "Deployment",
    "Job",
    "StatefulSet",
    "ReplicaSet",
    "ReplicationController",
)
LATEST_MINOR = 10_000
_DIGITS = re.compile(r"\d+")
_WORDS = re.compile(r"[a-zA-Z]+")


def pod_of(resource: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(metadata, spec) of the pod a resource runs, as Kyverno reads them."""
    kind = resource.get("kind")
    raw_spec = resource.get("spec")
    spec = raw_spec if isinstance(raw_spec, dict) else {}
    if kind in CONTROLLERS:
        template = spec.get("template") or {}
        return template.get("metadata") or {}, template.get("spec") or {}
    if kind == "CronJob":
        job = spec.get("jobTemplate") or {}
        # Kyverno reads the job template's metadata here, not the pod template's
        return job.get("metadata") or {}, ((job.get("spec") or {}).get("template") or {}).get(
            "spec"
        ) or {}
    if kind == "Pod":
        return resource.get("metadata") or {}, spec
    raise RuleError(f"podSecurity applies to Pods and Pod controllers, not {kind}")


def parse_version(version: Any) -> int:
    """The Kubernetes minor version of ``latest`` or ``v1.N``."""
    if version in (None, "", "latest"):
        return LATEST_MINOR
    match = re.fullmatch(r"v1\.(\d+)", str(version))
    if not match:
        raise RuleError(f'version must be "latest" or "v1.x", not {version!r}').at("version")
    return int(match.group(1))


def _bad_values(error: FieldError) -> list[str]:
    value = error.bad_value
    if isinstance(value, bool):
        return ["true" if value else "false"]
    if isinstance(value, int):
        return [str(value)]
    if isinstance(value, list):
        return [str(v) for v in value]
    return [value] if isinstance(value, str) and value else []


def _container_field(field: str) -> tuple[str, int | None, str]:
    """(field with indexes as *, first index, the word after spec)."""
    words = _WORDS.findall(field)
    indexes = [int(d) for d in _DIGITS.findall(field)]
    return (
        _DIGITS.sub("*", field),
        (indexes[0] if indexes else None),
        (words[1] if len(words) > 1 else ""),
    )


def _container_name(spec: dict[str, Any], group: str, index: int | None) -> Any:
    items = spec.get(group) or []
    if index is None or index >= len(items):
        return None
    return (items[index] or {}).get("name")


def _exempt(
    remaining: dict[str, list[FieldError]],
    found: list[Violation],
    exclusion: dict[str, Any],
    pod_spec: dict[str, Any],
    matching_spec: dict[str, Any] | None,
) -> None:
    container_level = matching_spec is not None
    restricted_field = exclusion.get("restrictedField") or ""
    values = exclusion.get("values") or []
    for violation in found:
        if violation.check not in CONTROLS.get(exclusion.get("controlName", ""), ()):
            continue
        for error in violation.errors:
            field, index, group = (
                _container_field(error.field)
                if container_level
                else (_DIGITS.sub("*", error.field), None, "")
            )
            in_container = container_level and group in (
                "containers",
                "initContainers",
                "ephemeralContainers",
            )
            if restricted_field and field != restricted_field:
                continue
            if values and not all(wildcard.any_match(values, bad) for bad in _bad_values(error)):
                continue
            errors = remaining.get(violation.check)
            if not errors:
                continue
            # Go compares with the zero container's name ("") when the exemption is not a
            # container field
            name = _container_name(matching_spec or {}, group, index) if in_container else ""
            for i, candidate in enumerate(errors):
                if container_level:
                    c_field, c_index, c_group = _container_field(candidate.field)
                    if c_group in ("containers", "initContainers", "ephemeralContainers"):
                        matched = c_field == field and (
                            _container_name(pod_spec, c_group, c_index) or ""
                        ) == (name or "")
                    else:
                        matched = c_field == field
                else:
                    matched = _DIGITS.sub("*", candidate.field) == field
                if matched:
                    del errors[i]
                    break
            if not errors:
                del remaining[violation.check]


def check_pod(
    level: str,
    minor: int,
    exclusions: list[dict[str, Any]],
    meta: dict[str, Any],
    spec: dict[str, Any],
) -> list[Violation]:
    """The violations left after the exclusions (empty: the pod is allowed)."""
    return apply_exclusions(
        level, minor, exclusions, meta, spec, evaluate(level, minor, meta, spec)
    )


def apply_exclusions(
    level: str,
    minor: int,
    exclusions: list[dict[str, Any]],
    meta: dict[str, Any],
    spec: dict[str, Any],
    violations: list[Violation],
) -> list[Violation]:
    """``violations`` of the pod minus what ``exclusions`` exempt."""
    if not exclusions:
        return violations
    remaining = {v.check: list(v.errors) for v in violations}
    for exclusion in exclusions:
        if not isinstance(exclusion, dict):
            raise RuleError("an exclusion must be a map").at("exclude")
        images = exclusion.get("images") or []
        if not images:
            pod_only = {**copy.deepcopy(spec), "containers": [{"name": "fake"}]}
            pod_only.pop("initContainers", None)
            pod_only.pop("ephemeralContainers", None)
            _exempt(remaining, evaluate(level, minor, meta, pod_only), exclusion, spec, None)
            continue
        matching: dict[str, Any] = {}
        for group in ("containers", "initContainers", "ephemeralContainers"):
            chosen = [
                c
                for c in spec.get(group) or []
                if wildcard.any_match(images, str((c or {}).get("image", "")))
            ]
            if chosen:
                matching[group] = chosen
        _exempt(remaining, evaluate(level, minor, {}, matching), exclusion, spec, matching)
    # a violation whose field errors were all exempted is gone; one without field errors stays
    return [
        Violation(v.check, v.reason, tuple(remaining[v.check]))
        for v in violations
        if v.check in remaining and (remaining[v.check] or not v.errors)
    ]


def describe(violations: list[Violation]) -> str:
    return "".join(
        f"(Forbidden reason: {v.reason}, field error list: [{', '.join(str(e) for e in v.errors)}])"
        for v in violations
    )


def validate_pod_security(
    rule: dict[str, Any],
    resource: dict[str, Any],
    exception_exclusions: list[dict[str, Any]] | None = None,
    exception_names: str = "",
) -> RuleOutcome:
    """Pass, fail or skip of a podSecurity rule on a resource; RuleError when the
    rule or the resource cannot be evaluated. Exclusions from matching PolicyExceptions apply
    to what the rule's own exclusions leave: a pod they fully exempt is skipped."""
    settings = rule["validate"]["podSecurity"]
    if not isinstance(settings, dict):
        raise RuleError("must be a map").at("validate", "podSecurity")
    try:
        level = str(settings.get("level") or "")
        if level not in POD_SECURITY_LEVELS:
            raise RuleError(f"level must be privileged, baseline or restricted, not {level!r}").at(
                "level"
            )
        minor = parse_version(settings.get("version"))
        meta, spec = pod_of(resource)
        left = check_pod(level, minor, list(settings.get("exclude") or []), meta, spec)
        if left and exception_exclusions:
            left = apply_exclusions(level, minor, exception_exclusions, meta, spec, left)
            if not left:
                return RuleOutcome(
                    RuleStatus.SKIP, f"rule is skipped due to policy exceptions {exception_names}"
                )
    except RuleError as exc:
        raise exc.at("validate", "podSecurity") from None
    if not left:
        return RuleOutcome(RuleStatus.PASS, f"Validation rule '{rule['name']}' passed.")
    shown = describe(left)
    if resource.get("kind") in CONTROLLERS:
        shown = shown.replace("spec.", "spec.template.spec.")
    version = settings.get("version") or "latest"
    return RuleOutcome(
        RuleStatus.FAIL,
        f"Validation rule '{rule['name']}' failed. It violates PodSecurity \"{level}:{version}\": {shown}",
    )


__all__ = ["BASELINE", "CONTROLS", "check_pod", "validate_pod_security"]
