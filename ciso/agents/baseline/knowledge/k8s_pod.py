"""Kubernetes pod security: pod-spec fields, container securityContext fields, capabilities,
volumes, ports and secrets in environment variables.

Defaults that matter: ``allowPrivilegeEscalation`` unset means allowed; a pod mounts its service
account token unless ``automountServiceAccountToken: false``; containers keep the runtime's
default capabilities (NET_RAW among them) unless they drop them.
"""

from __future__ import annotations

import re

from ciso.agents.baseline.intent import (
    CapabilityCheck,
    ContainerFieldCheck,
    FieldValueCheck,
    HostPathVolumeCheck,
    HostPortCheck,
    ImageDigestCheck,
    ImageRegistryCheck,
    InheritedSettingCheck,
    PodAnnotationCheck,
    PodFieldCheck,
    RunAsNonRootCheck,
    SecretEnvCheck,
)
from ciso.agents.baseline.knowledge import (
    Concept,
    denied_alternative,
    digest_is_an_alternative,
    words,
)

#: "unset is a violation" / "set explicitly": the only compliant value must be written out.
EXPLICIT = words(
    r"\bexplicit(ly)?\b",
    r"\bunset\s+(counts|is|violates|means)",
    r"\b(left\s+)?(unset|missing|absent|omitted)\b.{0,40}\b(violat|allowed|fail|non-?compliant)",
    r"\bmust\s+(set|declare|specify)\b",
    # the effect of leaving it out, or the finding stated as a missing setting
    r"\ballow\w*\b.{0,40}\bwhen\s+(it\s+is\s+|it's\s+)?(unset|absent|missing|not\s+set)\b",
    r"\b(unset|absent|missing|omitted)\b.{0,40}\b(allows?|permits?|means)\b",
    r"\b(does|do)\s*(not|n't)\s+(set|declare|specify)\b",
    r"\b(needs?|requires?|has\s+to|have\s+to)\b.{0,60}\bfalse\b",
    r"\bunless\b.{0,60}\bset\b",
    # the default named as what does not comply: "relying on the runtime default is not
    # enough", "leaving it to the platform's default is a finding"
    r"\bdefault\b.{0,30}\b(is|are|does)\s*(not|n't)\s+(enough|sufficient|suffice|count)\b",
    r"\bdefault\b.{0,30}\b(is|counts\s+as)\s+(a\s+)?(finding|violation)\b",
)


def _explicit(text: str) -> bool:
    return any(p.search(text) for p in EXPLICIT)


def _host_namespace(field: str, concept: str):
    return lambda text: PodFieldCheck(concept=concept, field=field, forbidden=True)


def _privilege_escalation(text: str) -> ContainerFieldCheck:
    # Kubernetes allows escalation when the field is unset: "explicitly" means unset violates.
    if _explicit(text):
        return ContainerFieldCheck(
            concept="allow-privilege-escalation",
            path=("securityContext", "allowPrivilegeEscalation"),
            required=False,
        )
    return ContainerFieldCheck(
        concept="allow-privilege-escalation",
        path=("securityContext", "allowPrivilegeEscalation"),
        forbidden=True,
    )


#: container securityContext fields a requirement may list together ("a restrictive security
#: context": runAsNonRoot, allowPrivilegeEscalation: false, readOnlyRootFilesystem: true ...)
CONTAINER_FIELDS = {
    "allowprivilegeescalation": "allowPrivilegeEscalation",
    "readonlyrootfilesystem": "readOnlyRootFilesystem",
    "privileged": "privileged",
    "runasnonroot": "runAsNonRoot",
}
_FIELD_VALUE = re.compile(
    r"\b(allowPrivilegeEscalation|readOnlyRootFilesystem|privileged|runAsNonRoot)\b\s*[:=]\s*"
    r"(true|false)\b",
    re.I,
)


def _listed_fields(text: str) -> dict[str, bool]:
    return {
        CONTAINER_FIELDS[m.group(1).lower()]: m.group(2).lower() == "true"
        for m in _FIELD_VALUE.finditer(text)
    }


def _security_context_bundle(text: str) -> tuple[object, ...]:
    """Several fields each container must set: every one is required (unset violates), and
    runAsNonRoot keeps its pod-level inheritance."""
    checks: list[object] = []
    for field, value in _listed_fields(text).items():
        if field == "runAsNonRoot" and value:
            checks.append(RunAsNonRootCheck())
        else:
            checks.append(
                ContainerFieldCheck(
                    concept=f"container-{field}", path=("securityContext", field), required=value
                )
            )
    return tuple(checks)


_REGISTRY = re.compile(
    r"\b(?:registry|registries|repository)\b[^.]*?\b([a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)+(?::\d+)?)",
    re.I,
)
_RESOURCE_KINDS = {"memory": "memory", "cpu": "cpu", "ephemeral-storage": "ephemeral-storage"}


def _registry(text: str) -> ImageRegistryCheck | None:
    found = [m.group(1).rstrip("/") for m in _REGISTRY.finditer(text)]
    if not found:
        return None
    return ImageRegistryCheck(prefixes=tuple(dict.fromkeys(f"{r}/" for r in found)))


#: a sentence that says something is NOT what the control asks ("a CPU limit is not a ceiling",
#: "namespace defaults do not count")
_DENIES = re.compile(
    r"\b(is|are)\s*(not|n't)\b|\bdo(es)?\s*(not|n't)\s+(count|suffice|qualify)\b|\bnot\s+enough\b",
    re.I,
)


def _asked_for(kind: str, text: str) -> bool:
    """The text mentions ``kind`` in a sentence that does not deny it."""
    sentences = re.split(r"(?<=[.!?;])\s+", text)
    return any(re.search(rf"\b{kind}\b", s, re.I) and not _DENIES.search(s) for s in sentences)


def _resource_limit(text: str) -> tuple[ContainerFieldCheck, ...]:
    mentioned = [k for k in _RESOURCE_KINDS if re.search(rf"\b{k}\b", text, re.I)]
    # a resource named only to say it does not count is not asked for
    kinds = [k for k in mentioned if _asked_for(k, text)] or mentioned
    section = (
        "requests"
        if re.search(r"\brequest", text, re.I) and not re.search(r"\blimit", text, re.I)
        else "limits"
    )
    return tuple(
        ContainerFieldCheck(
            concept=f"{k}-{section[:-1]}",
            path=("resources", section, k),
            must_be_set=True,
        )
        for k in kinds
    )


#: "or a runAsUser other than 0": a non-zero user id is as good as runAsNonRoot
_NONZERO_UID = re.compile(
    r"\brunAsUser\s+(other\s+than|not|!=|different\s+from|above|greater\s+than)\s+(0|zero)\b|"
    r"\bnon-?zero\s+(runAsUser|uid|user\s+id)\b",
    re.I,
)


def _nonzero_uid_counts(text: str) -> bool:
    """The text accepts a non-zero runAsUser as a non-root user, and does not say in the same
    breath that it is not enough ("a non-zero runAsUser alone does not satisfy this")."""
    return any(not denied_alternative(text, m) for m in _NONZERO_UID.finditer(text))


#: the SELinux types Pod Security's Baseline level allows (its documentation's list)
BASELINE_SELINUX_TYPES = (
    "container_t",
    "container_init_t",
    "container_kvm_t",
    "container_engine_t",
)
_SELINUX_TYPE = re.compile(r"\b([a-z][a-z0-9_]*_t)\b")
#: "another type such as spc_t", "e.g. unconfined_t": an example of what is forbidden
_EXAMPLE_OF = re.compile(
    r"\b(?:such\s+as|like|e\.g\.|for\s+example|for\s+instance|namely)\s+[`'\"]?([a-z][a-z0-9_]*_t)\b",
    re.I,
)


def _selinux(text: str) -> InheritedSettingCheck:
    """The type each container runs under (its own seLinuxOptions.type, else the pod's) is one the
    text allows; unset leaves the choice to the runtime, which complies. The allowed types are
    those the text names, except one it gives as an example of what is forbidden; without any,
    Pod Security's Baseline list."""
    examples = {m.group(1) for m in _EXAMPLE_OF.finditer(text)}
    named = [t for t in dict.fromkeys(_SELINUX_TYPE.findall(text)) if t not in examples]
    return InheritedSettingCheck(
        concept="selinux-type",
        path=("securityContext", "seLinuxOptions", "type"),
        allowed=tuple(named) or BASELINE_SELINUX_TYPES,
        unset_allowed=True,
    )


def _apparmor(text: str) -> tuple[object, ...]:
    """AppArmor is switched off by ``appArmorProfile.type: Unconfined`` (container or pod) or,
    before Kubernetes 1.30, by the pod annotation
    ``container.apparmor.security.beta.kubernetes.io/<container>: unconfined``; the runtime's
    default and Localhost profiles keep it on."""
    return (
        ContainerFieldCheck(
            concept="apparmor-profile",
            path=("securityContext", "appArmorProfile", "type"),
            forbidden="Unconfined",
            pod_level_too=True,
        ),
        PodAnnotationCheck(
            concept="apparmor-annotation",
            key_prefix="container.apparmor.security.beta.kubernetes.io/",
            forbidden="unconfined",
        ),
    )


#: where container runtimes put their API socket on a node
RUNTIME_SOCKETS = (
    "/run/docker.sock",
    "/run/containerd/containerd.sock",
    "/run/crio/crio.sock",
    "/run/cri-dockerd.sock",
    "/run/dockershim.sock",
    "/run/k3s/containerd/containerd.sock",
)
_RUNTIME_SOCKET = re.compile(
    r"\b(container\s+)?runtime\b.{0,80}\bsocket|\bsocket\b.{0,80}\bruntime\b|"
    r"\b(docker|containerd|cri-?o)\b.{0,60}\bsocket|docker\.sock",
    re.I,
)


def runtime_socket_paths() -> tuple[str, ...]:
    """Every hostPath that reaches a runtime socket: the socket, or a directory holding it (with
    or without a trailing slash), under /run and under /var/run (a link to /run that the node
    resolves when it mounts it; /var itself holds only the link, which a container resolves in
    its own root)."""
    paths: list[str] = ["/"]
    for socket in RUNTIME_SOCKETS:
        for root in ("/run", "/var/run"):
            full = root + socket.removeprefix("/run")
            parts = full.strip("/").split("/")
            paths.append(full)
            for depth in range(len(root.strip("/").split("/")), len(parts)):
                directory = "/" + "/".join(parts[:depth])
                paths += [directory, directory + "/"]
    return tuple(dict.fromkeys(paths))


def _host_path(text: str) -> HostPathVolumeCheck | FieldValueCheck:
    """Any hostPath volume, or, when the text is about the container runtime's socket, the
    hostPaths that reach one."""
    if not _RUNTIME_SOCKET.search(text):
        return HostPathVolumeCheck()
    return FieldValueCheck(
        concept="runtime-socket",
        level="pod",
        paths=(("volumes", "*", "hostPath", "path"),),
        forbidden=runtime_socket_paths(),
    )


CONCEPTS: tuple[Concept, ...] = (
    Concept(
        "security-context-bundle",
        (words(r"\bsecurity\s*context\b"),),
        _security_context_bundle,
        # only when two or more fields are spelled out with their values
        accepts=lambda text: len(_listed_fields(text)) >= 2,
    ),
    Concept(
        "secret-env",
        (
            words(r"\bsecrets?\b", r"secretKeyRef", r"secretRef"),
            # ("env=prod" is a label, not the environment)
            words(r"\benv(ironment)?\b(?!\s*[=:])", r"\benvFrom\b", r"\bvariables?\b"),
        ),
        lambda text: SecretEnvCheck(),
        none_of=words(r"\b(role|clusterrole|rbac)s?\b"),
    ),
    Concept(
        "seccomp-profile",
        (words(r"seccomp"),),
        lambda text: InheritedSettingCheck(
            concept="seccomp-profile",
            path=("securityContext", "seccompProfile", "type"),
            allowed=tuple(
                v
                for v in ("RuntimeDefault", "Localhost")
                if re.search(v, text, re.I) or not re.search("RuntimeDefault|Localhost", text, re.I)
            ),
        ),
    ),
    Concept(
        # the image reference names its content: "repo@sha256:<digest>"; a tag can be moved
        "image-digest",
        (
            words(
                r"\bdigests?\b",
                r"\bsha256\b",
                r"\bimmutable\s+(image\s+)?(references?|refs?|tags?)\b",
                r"\bpinned\b.{0,30}\bcontent\b",
            ),
            words(r"\bimages?\b"),
        ),
        lambda text: ImageDigestCheck(),
        # a text that accepts a digest as one way to pin a version asks for a version
        accepts=lambda text: not digest_is_an_alternative(text),
    ),
    Concept(
        "selinux-type",
        (words(r"\bse\s*linux\b", r"seLinuxOptions"),),
        _selinux,
    ),
    Concept(
        "apparmor",
        (words(r"\bapp\s*armor\b", r"appArmorProfile"),),
        _apparmor,
    ),
    Concept(
        "image-registry",
        (words(r"\bregistr(y|ies)\b"), words(r"\bimages?\b", r"\bpulled\b")),
        _registry,
    ),
    Concept(
        "resource-limit",
        (
            words(
                r"\b(memory|cpu)\s+(limit|request)s?\b",
                r"resources\.(limits|requests)",
                # stated by its effect: the most a container may use, its ceiling or cap
                r"\b(most|maximum|max)\s+(amount\s+of\s+)?(memory|cpu)\b",
                r"\b(memory|cpu)\s+(ceiling|cap|maximum|bound)s?\b",
            ),
        ),
        _resource_limit,
    ),
    Concept(
        "read-only-root-filesystem",
        (
            words(
                r"readOnlyRootFilesystem",
                r"\bread-?\s*only\s+root\s+file\s*-?system\b",
                r"\broot\s+file\s*-?system\b.{0,40}\bread-?\s*only\b",
                # stated by its effect: nothing writes to the filesystem the image provides
                r"\bwrit\w*\s+(to|into|on)\s+(the\s+|its\s+|their\s+)?(container('s)?\s+)?"
                r"(image('s)?|root|own)\s+(own\s+)?file\s*-?system\b",
                r"\b(immutable|unwritable|non-?writable)\s+(root\s+|container\s+)?file\s*-?systems?\b",
            ),
        ),
        lambda text: ContainerFieldCheck(
            concept="read-only-root-filesystem",
            path=("securityContext", "readOnlyRootFilesystem"),
            required=True,
        ),
    ),
    Concept(
        # Kubernetes' procMount: Default keeps the runtime's masked and read-only /proc paths,
        # Unmasked (the only other value) removes them
        "proc-mount",
        (
            words(
                r"procMount",
                r"\bunmasked\b.{0,20}/proc\b",
                r"\bmask\w*\b.{0,40}/proc\b",
                r"/proc\b.{0,40}\bmask",
            ),
        ),
        lambda text: ContainerFieldCheck(
            concept="proc-mount", path=("securityContext", "procMount"), forbidden="Unmasked"
        ),
    ),
    Concept(
        "windows-host-process",
        (words(r"hostProcess", r"\bwindows\b.{0,40}\bhost\s*process\b"),),
        lambda text: ContainerFieldCheck(
            concept="windows-host-process",
            path=("securityContext", "windowsOptions", "hostProcess"),
            forbidden=True,
            pod_level_too=True,
        ),
    ),
    Concept(
        "host-network",
        (
            words(
                r"hostNetwork",
                r"\b(host|node)('s)?\s+network(ing)?\b",
                # stated by its effect: the pod uses the node's interfaces, addresses or traffic
                r"\b(host|node)('s)?\s+(own\s+)?(network\s+)?(interfaces?|ip\s+address(es)?|traffic)\b",
                r"\b(interfaces?|loopback|ip\s+address(es)?)\s+of\s+the\s+(node|host)\b",
            ),
        ),
        _host_namespace("hostNetwork", "host-network"),
    ),
    Concept(
        "host-pid",
        (
            words(
                r"hostPID",
                r"\b(host|node)('s)?\s+(pid|process(es)?)(\s+(id\s+)?namespace)?\b",
                r"\bprocess\s+(id\s+)?namespace\s+of\s+the\s+(underlying\s+|worker\s+)?(host|node|machine)\b",
                # stated by its effect: the pod sees (or signals) the node's processes
                r"\b(see|view|list|signal|inspect|kill|trace|ptrace)\b.{0,40}\bprocess(es)?\b.{0,40}"
                r"\b(on|of)\s+the\s+(node|host|machine)\b",
                r"\bprocess(es)?\s+(table|tree|list)\s+of\s+the\s+(node|host)\b",
            ),
        ),
        _host_namespace("hostPID", "host-pid"),
    ),
    Concept(
        "host-ipc",
        (
            words(
                r"hostIPC",
                r"\b(host|node)('s)?\s+ipc\b",
                r"\bipc\s+namespace\b",
                r"\binter-?process\s+communication\b",
                r"\bshared\s+memory\b",
                r"\b(semaphores|message\s+queues)\b",
            ),
        ),
        _host_namespace("hostIPC", "host-ipc"),
    ),
    Concept(
        "host-path",
        (
            words(
                r"hostPath",
                r"\bhost\s*path\b",
                r"\b(directories|folders|files|filesystem)\s+(of|from)\s+the\s+(node|host)\b",
                r"\b(node|host)('s)?\s+(directories|folders|file\s*system)\b",
            ),
        ),
        lambda text: _host_path(text),
    ),
    Concept(
        "host-port",
        (words(r"hostPort", r"\bhost\s+ports?\b", r"\bports?\s+on\s+the\s+(node|host)\b"),),
        lambda text: HostPortCheck(),
    ),
    Concept(
        "allow-privilege-escalation",
        (
            words(
                r"allowPrivilegeEscalation",
                r"\bprivilege\s+escalation\b",
                r"\bescalat\w+\s+(its\s+|their\s+)?privileges?\b",
                # stated by its effect, in the words of the field's documentation: a process
                # gaining more privileges than its parent (setuid binaries, no_new_privs)
                r"\bgain\w*\s+(more|additional|extra|higher|greater|new|elevated)\s+privileges?\b",
                r"\bmore\s+privileges?\s+than\s+(its|their|the)\s+parent\b",
                r"\bno_new_privs\b",
                r"\bsetuid\b[^.;]{0,60}\b(raise|elevat|gain|escalat)\w*",
            ),
        ),
        _privilege_escalation,
    ),
    Concept(
        "privileged",
        (
            words(
                r"\bprivileged\b",
                # stated by its effect: every device and capability of the node
                r"\b(all|every)\s+(of\s+)?(the\s+)?(host|node)('s)?\s+devices\b",
                r"\b(unrestricted|full|root)\s+access\s+to\s+the\s+(host|node)\b",
            ),
        ),
        lambda text: ContainerFieldCheck(
            concept="privileged", path=("securityContext", "privileged"), forbidden=True
        ),
    ),
    Concept(
        "run-as-non-root",
        (
            words(
                r"runAsNonRoot",
                r"\b(run|runs|running|execute|executing)\s+as\s+(the\s+)?root\b",
                r"\b(uid|user\s+id)\s+0\b",
                r"\broot\s+user\b",
                r"\bnon-?root\b",
            ),
        ),
        lambda text: RunAsNonRootCheck(nonzero_uid_counts=_nonzero_uid_counts(text)),
    ),
    Concept(
        "net-raw",
        (words(r"NET_RAW", r"\braw\s+sockets?\b"),),
        lambda text: CapabilityCheck(
            concept="net-raw", must_drop=("NET_RAW", "ALL"), forbid_add=("NET_RAW",)
        ),
    ),
    Concept(
        "added-capabilities",
        (
            words(
                r"capabilities\.add",
                r"\badd(s|ed|ing)?\s+(any\s+|extra\s+|additional\s+)?(linux\s+)?capabilit",
                r"\b(extra|additional|added)\s+(linux\s+)?capabilit",
            ),
        ),
        lambda text: CapabilityCheck(concept="added-capabilities", forbid_add=("*",)),
    ),
    Concept(
        "drop-all-capabilities",
        (
            words(r"capabilit"),
            words(r"\bdrop", r"\bdefault\b", r"\bALL\b"),
        ),
        lambda text: CapabilityCheck(concept="drop-all-capabilities", must_drop=("ALL",)),
    ),
)
