"""The Pod Security Standards checks, one function each, as Kyverno evaluates them (its fork of
Kubernetes' pod-security-admission library, with field errors): each returns None when the pod
is allowed, else a ``Violation`` whose field errors name the offending fields and values (the
exclusions of a ``podSecurity`` rule are matched against those)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ciso.engines.kyverno.errors import RuleError

FORBIDDEN, REQUIRED = "Forbidden", "Required"
BASELINE, RESTRICTED = "baseline", "restricted"


@dataclass(frozen=True)
class FieldError:
    type: str  # Forbidden or Required
    field: str  # spec.containers[0].securityContext.privileged
    bad_value: Any = ""

    def __str__(self) -> str:
        if self.type == REQUIRED:
            return f"{self.field}: Required value"
        if self.bad_value in ("", None):
            return f"{self.field}: Forbidden"
        return f"{self.field} is forbidden, forbidden values found: {_go_print(self.bad_value)}"


def _go_print(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + " ".join(str(v) for v in value) + "]"
    return str(value)


@dataclass(frozen=True)
class Violation:
    check: str  # the check's id, e.g. capabilities_baseline
    reason: str
    errors: tuple[FieldError, ...]


Spec = dict[str, Any]
Meta = dict[str, Any]


def _map(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def containers(spec: Spec) -> Iterator[tuple[dict[str, Any], str]]:
    """Every container with its field path: init containers, containers, ephemeral ones."""
    for group in ("initContainers", "containers", "ephemeralContainers"):
        for i, container in enumerate(spec.get(group) or []):
            if isinstance(container, dict):
                yield container, f"spec.{group}[{i}]"


def _security(obj: dict[str, Any]) -> dict[str, Any] | None:
    context = obj.get("securityContext")
    return context if isinstance(context, dict) else None


def _windows(spec: Spec) -> bool:
    return _map(spec.get("os")).get("name") == "windows"


def _user_namespace(spec: Spec) -> bool:
    return spec.get("hostUsers") is False


def _violation(check: str, reason: str, errors: list[FieldError]) -> Violation:
    return Violation(check, reason, tuple(errors))


# -- baseline ------------------------------------------------------------------------------------


def host_namespaces(meta: Meta, spec: Spec) -> Violation | None:
    errors = [
        FieldError(FORBIDDEN, f"spec.{key}", True)
        for key in ("hostNetwork", "hostPID", "hostIPC")
        if spec.get(key) is True
    ]
    return _violation("hostNamespaces", "host namespaces", errors) if errors else None


def privileged(meta: Meta, spec: Spec) -> Violation | None:
    errors = [
        FieldError(FORBIDDEN, f"{path}.securityContext.privileged", True)
        for c, path in containers(spec)
        if (_security(c) or {}).get("privileged") is True
    ]
    return _violation("privileged", "privileged", errors) if errors else None


BASELINE_CAPABILITIES = frozenset(
    {
        "AUDIT_WRITE",
        "CHOWN",
        "DAC_OVERRIDE",
        "FOWNER",
        "FSETID",
        "KILL",
        "MKNOD",
        "NET_BIND_SERVICE",
        "SETFCAP",
        "SETGID",
        "SETPCAP",
        "SETUID",
        "SYS_CHROOT",
    }
)


def capabilities_baseline(meta: Meta, spec: Spec) -> Violation | None:
    errors = []
    for c, path in containers(spec):
        added = _map(_map(_security(c)).get("capabilities")).get("add") or []
        bad = sorted({str(a) for a in added if a not in BASELINE_CAPABILITIES})
        if bad:
            errors.append(FieldError(FORBIDDEN, f"{path}.securityContext.capabilities.add", bad))
    return (
        _violation("capabilities_baseline", "non-default capabilities", errors) if errors else None
    )


def host_path_volumes(meta: Meta, spec: Spec) -> Violation | None:
    errors = [
        FieldError(
            FORBIDDEN, f"spec.volumes[{i}].hostPath", _map(v.get("hostPath")).get("path", "")
        )
        for i, v in enumerate(spec.get("volumes") or [])
        if isinstance(v, dict) and v.get("hostPath") is not None
    ]
    return _violation("hostPathVolumes", "hostPath volumes", errors) if errors else None


def host_ports(meta: Meta, spec: Spec) -> Violation | None:
    errors = []
    for c, path in containers(spec):
        for i, port in enumerate(c.get("ports") or []):
            host_port = _map(port).get("hostPort") or 0
            if isinstance(host_port, bool) or not isinstance(host_port, int):
                # Kyverno decodes the resource into a typed Pod first; an int32 field holding
                # anything else fails there, as a rule error rather than a verdict.
                raise RuleError(
                    f"resource field {path}.ports[{i}].hostPort: cannot decode "
                    f"{type(host_port).__name__} {host_port!r} as int32"
                )
            if host_port:
                errors.append(FieldError(FORBIDDEN, f"{path}.ports[{i}].hostPort", host_port))
    return _violation("hostPorts", "hostPort", errors) if errors else None


def _probe_hosts(handler: Any) -> list[Any]:  # as the manifest spells them (a str when valid)
    handler = _map(handler)
    return [
        _map(handler.get(kind)).get("host")
        for kind in ("httpGet", "tcpSocket")
        if _map(handler.get(kind)).get("host")
    ]


def host_probes_and_lifecycle(meta: Meta, spec: Spec) -> Violation | None:
    bad = False
    for c, _path in containers(spec):
        handlers = [c.get(p) for p in ("livenessProbe", "readinessProbe", "startupProbe")]
        handlers += [_map(c.get("lifecycle")).get(h) for h in ("postStart", "preStop")]
        bad |= any(_probe_hosts(h) for h in handlers)
    # this check carries no field errors, so no exclusion can exempt it
    return _violation("hostProbesAndHostLifecycle", "probe or lifecycle host", []) if bad else None


def _allowed_apparmor_annotation(value: str) -> bool:
    return value in ("", "runtime/default") or value.startswith("localhost/")


def app_armor_profile(meta: Meta, spec: Spec) -> Violation | None:
    errors = []
    pod_profile = _map(_map(_security(spec)).get("appArmorProfile"))
    if pod_profile and pod_profile.get("type") not in ("RuntimeDefault", "Localhost"):
        errors.append(
            FieldError(
                FORBIDDEN,
                "spec.securityContext.appArmorProfile.type",
                str(pod_profile.get("type", "")),
            )
        )
    for c, path in containers(spec):
        profile = _map(_map(_security(c)).get("appArmorProfile"))
        if profile and profile.get("type") not in ("RuntimeDefault", "Localhost"):
            errors.append(
                FieldError(
                    FORBIDDEN,
                    f"{path}.securityContext.appArmorProfile.type",
                    str(profile.get("type", "")),
                )
            )
    for key, value in _map(meta.get("annotations")).items():
        if key.startswith(
            "container.apparmor.security.beta.kubernetes.io/"
        ) and not _allowed_apparmor_annotation(str(value)):
            errors.append(FieldError(FORBIDDEN, f"metadata.annotations[{key}]", str(value)))
    return _violation("appArmorProfile", "forbidden AppArmor profile", errors) if errors else None


def _selinux_check(allowed_types: frozenset[str]) -> Callable[[Meta, Spec], Violation | None]:
    def se_linux_options(meta: Meta, spec: Spec) -> Violation | None:
        errors = []

        def check(options: dict[str, Any], prefix: str) -> None:
            if str(options.get("type", "")) not in allowed_types:
                errors.append(
                    FieldError(
                        FORBIDDEN, f"{prefix}.seLinuxOptions.type", str(options.get("type", ""))
                    )
                )
            if options.get("user"):
                errors.append(
                    FieldError(FORBIDDEN, f"{prefix}.seLinuxOptions.user", str(options["user"]))
                )
            if options.get("role"):
                errors.append(
                    FieldError(FORBIDDEN, f"{prefix}.seLinuxOptions.role", str(options["role"]))
                )

        pod_options = _map(_security(spec)).get("seLinuxOptions")
        if isinstance(pod_options, dict):
            check(pod_options, "spec.securityContext")
        for c, path in containers(spec):
            options = _map(_security(c)).get("seLinuxOptions")
            if isinstance(options, dict):
                check(options, f"{path}.securityContext")
        return _violation("seLinuxOptions", "seLinuxOptions", errors) if errors else None

    return se_linux_options


SELINUX_TYPES_1_0 = frozenset({"", "container_t", "container_init_t", "container_kvm_t"})
SELINUX_TYPES_1_31 = SELINUX_TYPES_1_0 | {"container_engine_t"}


def proc_mount(meta: Meta, spec: Spec) -> Violation | None:
    if _user_namespace(spec):
        return None
    errors = []
    for c, path in containers(spec):
        mount = _map(_security(c)).get("procMount")
        if mount is not None and mount != "Default":
            errors.append(FieldError(FORBIDDEN, f"{path}.securityContext.procMount", str(mount)))
    return _violation("procMount", "procMount", errors) if errors else None


def _valid_seccomp(kind: Any) -> bool:
    return kind in ("Localhost", "RuntimeDefault")


def _valid_seccomp_annotation(value: str) -> bool:
    return value in ("runtime/default", "docker/default") or value.startswith("localhost/")


def seccomp_baseline_1_0(meta: Meta, spec: Spec) -> Violation | None:
    annotations = _map(meta.get("annotations"))
    keys = ["seccomp.security.alpha.kubernetes.io/pod"] + [
        "container.seccomp.security.alpha.kubernetes.io/" + str(c.get("name", ""))
        for c, _ in containers(spec)
    ]
    errors = [
        FieldError(FORBIDDEN, f"metadata.annotations[{key}]", str(annotations[key]))
        for key in keys
        if key in annotations and not _valid_seccomp_annotation(str(annotations[key]))
    ]
    return _violation("seccompProfile_baseline", "seccompProfile", errors) if errors else None


def seccomp_baseline_1_19(meta: Meta, spec: Spec) -> Violation | None:
    errors = []
    pod_profile = _map(_security(spec)).get("seccompProfile")
    if isinstance(pod_profile, dict) and not _valid_seccomp(pod_profile.get("type")):
        errors.append(
            FieldError(
                FORBIDDEN,
                "spec.securityContext.seccompProfile.type",
                str(pod_profile.get("type", "")),
            )
        )
    for c, path in containers(spec):
        profile = _map(_security(c)).get("seccompProfile")
        if isinstance(profile, dict) and not _valid_seccomp(profile.get("type")):
            errors.append(
                FieldError(
                    FORBIDDEN,
                    f"{path}.securityContext.seccompProfile.type",
                    str(profile.get("type", "")),
                )
            )
    return _violation("seccompProfile_baseline", "seccompProfile", errors) if errors else None


SYSCTLS_1_0 = frozenset(
    {
        "kernel.shm_rmid_forced",
        "net.ipv4.ip_local_port_range",
        "net.ipv4.tcp_syncookies",
        "net.ipv4.ping_group_range",
        "net.ipv4.ip_unprivileged_port_start",
    }
)
SYSCTLS_1_27 = SYSCTLS_1_0 | {"net.ipv4.ip_local_reserved_ports"}
SYSCTLS_1_29 = SYSCTLS_1_27 | {
    "net.ipv4.tcp_keepalive_time",
    "net.ipv4.tcp_fin_timeout",
    "net.ipv4.tcp_keepalive_intvl",
    "net.ipv4.tcp_keepalive_probes",
}
SYSCTLS_1_32 = SYSCTLS_1_29 | {"net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem"}


def _sysctls_check(allowed: frozenset[str]) -> Callable[[Meta, Spec], Violation | None]:
    def sysctls(meta: Meta, spec: Spec) -> Violation | None:
        errors = [
            FieldError(
                FORBIDDEN, f"spec.securityContext.sysctls[{i}].name", str(_map(s).get("name", ""))
            )
            for i, s in enumerate(_map(_security(spec)).get("sysctls") or [])
            if _map(s).get("name") not in allowed
        ]
        return _violation("sysctls", "forbidden sysctls", errors) if errors else None

    return sysctls


def windows_host_process(meta: Meta, spec: Spec) -> Violation | None:
    errors = []
    if _map(_map(_security(spec)).get("windowsOptions")).get("hostProcess") is True:
        errors.append(
            FieldError(FORBIDDEN, "spec.securityContext.windowsOptions.hostProcess", True)
        )
    errors += [
        FieldError(FORBIDDEN, f"{path}.securityContext.windowsOptions.hostProcess", True)
        for c, path in containers(spec)
        if _map(_map(_security(c)).get("windowsOptions")).get("hostProcess") is True
    ]
    return _violation("windowsHostProcess", "hostProcess", errors) if errors else None


# -- restricted ----------------------------------------------------------------------------------


def _unless_windows(
    check: Callable[[Meta, Spec], Violation | None],
) -> Callable[[Meta, Spec], Violation | None]:
    def guarded(meta: Meta, spec: Spec) -> Violation | None:
        return None if _windows(spec) else check(meta, spec)

    guarded.__name__ = check.__name__
    return guarded


def allow_privilege_escalation(meta: Meta, spec: Spec) -> Violation | None:
    errors = []
    for c, path in containers(spec):
        field = f"{path}.securityContext.allowPrivilegeEscalation"
        context = _security(c)
        if context is None:
            errors.append(FieldError(REQUIRED, field))
        elif context.get("allowPrivilegeEscalation") is None:
            errors.append(FieldError(FORBIDDEN, field, "nil"))
        elif context["allowPrivilegeEscalation"] is True:
            errors.append(FieldError(FORBIDDEN, field, True))
    return (
        _violation("allowPrivilegeEscalation", "allowPrivilegeEscalation != false", errors)
        if errors
        else None
    )


def capabilities_restricted(meta: Meta, spec: Spec) -> Violation | None:
    missing_drop, adding = [], []
    for c, path in containers(spec):
        capabilities = _map(_security(c)).get("capabilities")
        field = f"{path}.securityContext.capabilities"
        if _security(c) is None or not isinstance(capabilities, dict):
            missing_drop.append(FieldError(REQUIRED, f"{field}.drop"))
            continue
        dropped = [str(d) for d in capabilities.get("drop") or []]
        if "ALL" not in dropped:
            missing_drop.append(
                FieldError(FORBIDDEN, f"{field}.drop", sorted(set(dropped)))
                if dropped
                else FieldError(REQUIRED, f"{field}.drop")
            )
        bad = sorted({str(a) for a in capabilities.get("add") or [] if a != "NET_BIND_SERVICE"})
        if bad:
            adding.append(FieldError(FORBIDDEN, f"{field}.add", bad))
    errors = missing_drop + adding
    return (
        _violation("capabilities_restricted", "unrestricted capabilities", errors)
        if errors
        else None
    )


KNOWN_VOLUME_TYPES = (
    "hostPath",
    "gcePersistentDisk",
    "awsElasticBlockStore",
    "gitRepo",
    "nfs",
    "iscsi",
    "glusterfs",
    "rbd",
    "flexVolume",
    "cinder",
    "cephfs",
    "flocker",
    "fc",
    "azureFile",
    "vsphereVolume",
    "quobyte",
    "azureDisk",
    "photonPersistentDisk",
    "portworxVolume",
    "scaleIO",
    "storageos",
)
ALLOWED_VOLUME_TYPES = (
    "configMap",
    "csi",
    "downwardAPI",
    "emptyDir",
    "ephemeral",
    "image",
    "persistentVolumeClaim",
    "projected",
    "secret",
)


def restricted_volumes(meta: Meta, spec: Spec) -> Violation | None:
    errors = []
    for i, volume in enumerate(spec.get("volumes") or []):
        volume = _map(volume)
        if any(volume.get(t) is not None for t in ALLOWED_VOLUME_TYPES):
            continue
        kind = next((t for t in KNOWN_VOLUME_TYPES if volume.get(t) is not None), "unknown")
        errors.append(FieldError(FORBIDDEN, f"spec.volumes[{i}].{kind}"))
    return _violation("restrictedVolumes", "restricted volume types", errors) if errors else None


def run_as_non_root(meta: Meta, spec: Spec) -> Violation | None:
    if _user_namespace(spec):
        return None
    explicit, implicit = [], []
    pod_value = _map(_security(spec)).get("runAsNonRoot")
    if pod_value is False:
        explicit.append(FieldError(FORBIDDEN, "spec.securityContext.runAsNonRoot", False))
    pod_non_root = pod_value is True
    for c, path in containers(spec):
        value = _map(_security(c)).get("runAsNonRoot")
        if value is not None:
            if value is False:
                explicit.append(
                    FieldError(FORBIDDEN, f"{path}.securityContext.runAsNonRoot", False)
                )
        elif not pod_non_root:
            implicit.append(FieldError(REQUIRED, f"{path}.securityContext.runAsNonRoot"))
    errors = explicit + implicit
    return _violation("runAsNonRoot", "runAsNonRoot != true", errors) if errors else None


def run_as_user(meta: Meta, spec: Spec) -> Violation | None:
    if _user_namespace(spec):
        return None
    errors = []
    if (
        _map(_security(spec)).get("runAsUser") == 0
        and _map(_security(spec)).get("runAsUser") is not False
    ):
        errors.append(FieldError(FORBIDDEN, "spec.securityContext.runAsUser", 0))
    errors += [
        FieldError(FORBIDDEN, f"{path}.securityContext.runAsUser", 0)
        for c, path in containers(spec)
        if _map(_security(c)).get("runAsUser") == 0
        and _map(_security(c)).get("runAsUser") is not False
    ]
    return _violation("runAsUser", "runAsUser=0", errors) if errors else None


def seccomp_restricted(meta: Meta, spec: Spec) -> Violation | None:
    explicit, implicit = [], []
    pod_profile = _map(_security(spec)).get("seccompProfile")
    pod_set = False
    if isinstance(pod_profile, dict):
        if _valid_seccomp(pod_profile.get("type")):
            pod_set = True
        else:
            explicit.append(
                FieldError(
                    FORBIDDEN,
                    "spec.securityContext.seccompProfile.type",
                    str(pod_profile.get("type", "")),
                )
            )
    for c, path in containers(spec):
        profile = _map(_security(c)).get("seccompProfile")
        field = f"{path}.securityContext.seccompProfile.type"
        if isinstance(profile, dict):
            if not _valid_seccomp(profile.get("type")):
                explicit.append(FieldError(FORBIDDEN, field, str(profile.get("type", ""))))
        elif not pod_set:
            implicit.append(FieldError(REQUIRED, field))
    # explicit bad values are reported alone; only without them do the implicit ones count
    errors = explicit or implicit
    return _violation("seccompProfile_restricted", "seccompProfile", errors) if errors else None


@dataclass(frozen=True)
class Check:
    id: str
    level: str
    #: (minimum Kubernetes minor version, check function), oldest first
    versions: tuple[tuple[int, Callable[[Meta, Spec], Violation | None]], ...]


CHECKS: tuple[Check, ...] = (
    Check(
        "allowPrivilegeEscalation",
        RESTRICTED,
        ((8, allow_privilege_escalation), (25, _unless_windows(allow_privilege_escalation))),
    ),
    Check("appArmorProfile", BASELINE, ((0, app_armor_profile),)),
    Check("capabilities_baseline", BASELINE, ((0, capabilities_baseline),)),
    Check(
        "capabilities_restricted",
        RESTRICTED,
        ((22, capabilities_restricted), (25, _unless_windows(capabilities_restricted))),
    ),
    Check("hostNamespaces", BASELINE, ((0, host_namespaces),)),
    Check("hostPathVolumes", BASELINE, ((0, host_path_volumes),)),
    Check("hostPorts", BASELINE, ((0, host_ports),)),
    Check("hostProbesAndHostLifecycle", BASELINE, ((34, host_probes_and_lifecycle),)),
    Check("privileged", BASELINE, ((0, privileged),)),
    Check("procMount", BASELINE, ((0, proc_mount),)),
    Check("restrictedVolumes", RESTRICTED, ((0, restricted_volumes),)),
    Check("runAsNonRoot", RESTRICTED, ((0, run_as_non_root),)),
    Check("runAsUser", RESTRICTED, ((23, run_as_user),)),
    Check(
        "seLinuxOptions",
        BASELINE,
        ((0, _selinux_check(SELINUX_TYPES_1_0)), (31, _selinux_check(SELINUX_TYPES_1_31))),
    ),
    Check(
        "seccompProfile_baseline",
        BASELINE,
        ((0, seccomp_baseline_1_0), (19, seccomp_baseline_1_19)),
    ),
    Check(
        "seccompProfile_restricted",
        RESTRICTED,
        ((19, seccomp_restricted), (25, _unless_windows(seccomp_restricted))),
    ),
    Check(
        "sysctls",
        BASELINE,
        (
            (0, _sysctls_check(SYSCTLS_1_0)),
            (27, _sysctls_check(SYSCTLS_1_27)),
            (29, _sysctls_check(SYSCTLS_1_29)),
            (32, _sysctls_check(SYSCTLS_1_32)),
        ),
    ),
    Check("windowsHostProcess", BASELINE, ((0, windows_host_process),)),
)


def evaluate(level: str, minor: int, meta: Meta, spec: Spec) -> list[Violation]:
    """Every failed check for a pod at ``level`` and Kubernetes version 1.``minor``. As in
    Kyverno, a check's first version is used even below its minimum version, and a baseline
    level skips only the restricted checks (any other level runs them all)."""
    violations = []
    for check in CHECKS:
        if level == BASELINE and check.level != BASELINE:
            continue
        selected = check.versions[0]
        for candidate in check.versions[1:]:
            if minor >= candidate[0] and selected[0] < candidate[0]:
                selected = candidate
        found = selected[1](meta, spec)
        if found is not None:
            violations.append(found)
    return violations
