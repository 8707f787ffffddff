"""Kubernetes controls stated by their EFFECT, with no field name to anchor on ("must not see one
another's processes", "cap the node-local storage", "a drain must always be able to evict").

Each concept ties phrases of an effect to the field(s) that produce it, their polarity, the API
default that decides an unset value and every place the field occurs (the check kinds already
step into every container list and every pod-template kind). What the fields do:

- ``shareProcessNamespace: true`` puts a pod's containers in one PID namespace: they see and
  signal each other's processes and read each other's ``/proc/<pid>/environ`` and root files.
- ``resources.limits.ephemeral-storage`` is the kubelet's cap on a container's logs, writable
  layer and emptyDir use (a request only schedules); ephemeral containers take no resources.
- ``hostPort`` binds a port on the node; ``containerPort`` alone stays inside the pod.
- ``capabilities.add`` adds to the runtime's default set (AUDIT_WRITE, CHOWN, DAC_OVERRIDE,
  FOWNER, FSETID, KILL, MKNOD, NET_BIND_SERVICE, SETFCAP, SETGID, SETPCAP, SETUID, SYS_CHROOT);
  runtimes accept the names with or without ``CAP_`` and in any case.
- ``seccompProfile.type: Unconfined`` (pod or container) turns syscall filtering off; the Pod
  Security Standards Baseline forbids only that explicit value (unset is allowed).
- a PodDisruptionBudget with ``maxUnavailable`` 0 / "0%" or ``minAvailable`` "100%" lets no
  eviction through, so a node drain never ends.
- RBAC: ``pods/ephemeralcontainers`` (update/patch) is how ``kubectl debug`` adds a container to
  a running pod; writes on Roles/ClusterRoles/(Cluster)RoleBindings change who may do what;
  cordon, label and taint are patches of a Node, its conditions ``nodes/status``.
- ingress-nginx and NGINX Inc take raw nginx configuration from ``*-snippet(s)`` annotations.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ciso.agents.baseline.effect_checks import (
    ImagePullPolicyCheck,
    ImageTagCheck,
    IngressNamedHostsCheck,
    LoadBalancerSourcesCheck,
    NodeLabelSelectionCheck,
    VolumeTypesCheck,
)
from ciso.agents.baseline.intent import (
    CapabilityCheck,
    ContainerFieldCheck,
    FieldValueCheck,
    HostPortCheck,
    NamespaceLabelCheck,
    PodFieldCheck,
    RbacRuleCheck,
    RunAsNonRootCheck,
    Scope,
)
from ciso.agents.baseline.knowledge import Concept, digest_is_an_alternative, words

WRITE_VERBS = ("create", "update", "patch", "delete", "deletecollection")

#: the capabilities container runtimes (containerd, CRI-O, Docker) grant by default
RUNTIME_DEFAULT_CAPABILITIES = (
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
)
#: every Linux capability (capabilities(7)), so that only real names are read from a text
LINUX_CAPABILITIES = frozenset(
    [
        "AUDIT_CONTROL",
        "AUDIT_READ",
        "AUDIT_WRITE",
        "BLOCK_SUSPEND",
        "BPF",
        "CHECKPOINT_RESTORE",
        "CHOWN",
        "DAC_OVERRIDE",
        "DAC_READ_SEARCH",
        "FOWNER",
        "FSETID",
        "IPC_LOCK",
        "IPC_OWNER",
        "KILL",
        "LEASE",
        "LINUX_IMMUTABLE",
        "MAC_ADMIN",
        "MAC_OVERRIDE",
        "MKNOD",
        "NET_ADMIN",
        "NET_BIND_SERVICE",
        "NET_BROADCAST",
        "NET_RAW",
        "PERFMON",
        "SETFCAP",
        "SETGID",
        "SETPCAP",
        "SETUID",
        "SYS_ADMIN",
        "SYS_BOOT",
        "SYS_CHROOT",
        "SYS_MODULE",
        "SYS_NICE",
        "SYS_PACCT",
        "SYS_PTRACE",
        "SYS_RAWIO",
        "SYS_RESOURCE",
        "SYS_TIME",
        "SYS_TTY_CONFIG",
        "SYSLOG",
        "WAKE_ALARM",
    ]
)
#: names as texts write them, upper-case (a lower-case "kill" is a word)
_CAPABILITY = re.compile(r"\b(?:CAP_)?([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)\b")

#: ingress controllers' annotations that paste raw nginx configuration into a block
SNIPPET_ANNOTATIONS = (
    "nginx.ingress.kubernetes.io/configuration-snippet",
    "nginx.ingress.kubernetes.io/server-snippet",
    "nginx.ingress.kubernetes.io/auth-snippet",
    "nginx.ingress.kubernetes.io/stream-snippet",
    "nginx.ingress.kubernetes.io/modsecurity-snippet",
    "nginx.org/location-snippets",
    "nginx.org/server-snippets",
    "nginx.org/stream-snippets",
    "nginx.org/http-snippets",
    "nginx.com/location-snippets",
    "nginx.com/server-snippets",
)

#: windows wider than this are not enumerated (the check lists every allowed value)
_MAX_WINDOW = 4096


def _spellings(capability: str) -> tuple[str, ...]:
    """The usual spellings of a capability name: with or without ``CAP_``, upper, lower,
    capitalised per word or once (the runtimes compare them case-insensitively)."""
    name = capability.upper()
    forms = {
        name,
        name.lower(),
        name.capitalize(),
        "_".join(w.capitalize() for w in name.split("_")),
    }
    prefixes = ("", "CAP_", "cap_", "Cap_")
    return tuple(sorted({p + f for p in prefixes for f in forms}))


def _allowed_capabilities(text: str) -> tuple[str, ...]:
    """The capabilities the text lists as allowed (upper-case names), else the runtime default
    set when it says "the runtime would grant anyway"."""
    listed = [m.group(1).upper() for m in _CAPABILITY.finditer(text)]
    known = [c for c in listed if c in LINUX_CAPABILITIES]
    return tuple(dict.fromkeys(known)) or RUNTIME_DEFAULT_CAPABILITIES


def _capability_allow_list(text: str) -> FieldValueCheck:
    allowed = tuple(s for c in _allowed_capabilities(text) for s in _spellings(c))
    return FieldValueCheck(
        concept="capabilities-allow-list",
        level="container",
        paths=(("securityContext", "capabilities", "add", "*"),),
        allowed=allowed,
    )


_WINDOW = re.compile(
    r"\b(?:between|from)\s+(\d{1,5})\s+(?:and|to|-)\s+(\d{1,5})\b|\b(\d{1,5})\s*(?:-|–|to)\s*(\d{1,5})\b",
    re.I,
)


def _host_port_window(text: str) -> FieldValueCheck | None:
    """hostPort within an inclusive window; 0 (the API's "not set") always complies."""
    match = _WINDOW.search(text)
    if match is None:
        return None
    low, high = sorted(int(g) for g in match.groups() if g is not None)
    if high - low > _MAX_WINDOW:
        return None
    return FieldValueCheck(
        concept="host-port-window",
        level="container",
        paths=(("ports", "*", "hostPort"),),
        allowed=(0, *range(low, high + 1)),
    )


_LABEL_VALUES = re.compile(
    r"\blabel\s+[`'\"]?([a-z0-9][a-z0-9./-]*)[`'\"]?\s+whose\s+value\s+(?:is\s+|must\s+be\s+)?"
    r"(?:exactly|one\s+of|either)\s+((?:(?!\blabels?\b)[^.;(])+)",
    re.I,
)
_LABEL_NAMED = re.compile(r"\blabel\s+[`'\"]?([a-z0-9][a-z0-9./-]*)[`'\"]?", re.I)
_VALUE_WORD = re.compile(r"[`'\"]?\b([a-z0-9][a-z0-9-]*)\b[`'\"]?")
_NOT_VALUE_WORDS = {"or", "and", "in", "lower", "upper", "case", "names", "the", "owning", "team",
                    "it", "may", "not", "be", "empty", "a", "of", "one", "value", "must"}  # fmt: skip


def _namespace_labels(text: str) -> tuple[NamespaceLabelCheck, ...] | None:
    """Labels every namespace must carry: with the values listed ("whose value is exactly prod,
    staging or dev"), or any non-empty value."""
    checks: list[NamespaceLabelCheck] = []
    for match in _LABEL_NAMED.finditer(text):
        label = match.group(1)
        if label.lower() in {"key", "keys", "whose", "with", "value", "values"}:
            continue
        valued = _LABEL_VALUES.match(text, match.start())
        allowed: tuple[str, ...] = ()
        if valued is not None:
            words_ = re.split(r",|\bor\b", valued.group(2))
            allowed = tuple(
                w.group(1).lower()
                for part in words_
                for w in [_VALUE_WORD.search(part.strip())]
                if w is not None and w.group(1).lower() not in _NOT_VALUE_WORDS
            )
        checks.append(
            NamespaceLabelCheck(concept=f"namespace-label-{label}", label=label, allowed=allowed)
        )
    unique = {c.label: c for c in checks}
    return tuple(unique.values()) or None


def _disk_cap(text: str) -> ContainerFieldCheck:
    return ContainerFieldCheck(
        concept="ephemeral-storage-limit",
        path=("resources", "limits", "ephemeral-storage"),
        must_be_set=True,
    )


def _memory_volume_cap(text: str) -> FieldValueCheck:
    """Each emptyDir volume kept in the node's memory (medium Memory, a tmpfs) sets a
    sizeLimit; a disk-backed one is not judged."""
    return FieldValueCheck(
        "memory-volume-size-limit", "pod", (("volumes", "*", "emptyDir", "sizeLimit"),),
        must_be_set=True, each_item=True, item_when=(("emptyDir", "medium"), ("Memory",)),
    )  # fmt: skip


def _drainable_budget(text: str) -> tuple[FieldValueCheck, ...]:
    pdb = ("PodDisruptionBudget",)
    return (
        FieldValueCheck(
            concept="pdb-max-unavailable",
            level="object",
            kinds=pdb,
            paths=(("spec", "maxUnavailable"),),
            forbidden=(0, "0", "0%"),
        ),
        FieldValueCheck(
            concept="pdb-min-available",
            level="object",
            kinds=pdb,
            paths=(("spec", "minAvailable"),),
            forbidden=("100%",),
        ),
    )


def _seccomp_not_unconfined(text: str) -> tuple[FieldValueCheck, ...]:
    path = ("securityContext", "seccompProfile", "type")
    return (
        FieldValueCheck("seccomp-not-unconfined", "pod", (path,), forbidden=("Unconfined",)),
        FieldValueCheck("seccomp-not-unconfined", "container", (path,), forbidden=("Unconfined",)),
    )


def _rbac(concept: str, verbs: tuple[str, ...], resources: tuple[str, ...]) -> RbacRuleCheck:
    return RbacRuleCheck(concept=concept, verbs=verbs, resources=resources)


_CIDR = re.compile(r"\b(\d{1,3}(?:\.\d{1,3}){3}/\d{1,2})\b")


#: the older annotation named only to be set aside ("the legacy annotation does not count")
_ANNOTATION_SET_ASIDE = re.compile(
    r"\bannotations?\b[^.;]{0,40}\b(?:(?:does|do)\s*(?:not|n't)\s+count|is\s+not\s+(?:enough|"
    r"honou?red|considered|accepted)|(?:is|are)\s+ignored)\b",
    re.I,
)


def _annotation_set_aside(text: str) -> bool:
    """The text says the annotation never counts; "when the field is set the annotation is
    ignored" only orders the two."""
    for m in _ANNOTATION_SET_ASIDE.finditer(text):
        clause = re.split(r"[.;,]", text[: m.start()])[-1]
        if not re.search(r"\b(?:when|if|once|unless|while|where)\b", clause, re.I):
            return True
    return False


#: a range that admits everyone, in either family ("0.0.0.0/0", "::/0"), or said in words
#: ("ranges that admit the whole internet", "open to the world", "any source address")
_EVERYONE = re.compile(
    r"(?<![\w:.])(?:0\.0\.0\.0|::)/0\b"
    r"|\b(?:the\s+)?(?:whole|entire|public|open)\s+(?:internet|world)\b"
    r"|\b(?:open\s+to|reachable\s+from)\s+(?:the\s+)?(?:internet|world|everyone|anyone)\b"
    r"|\b(?:any|every)\s+(?:source\s+|client\s+)?(?:address|ip)(?:es)?\b",
    re.I,
)


def _load_balancer_sources(text: str) -> LoadBalancerSourcesCheck | None:
    """The address space the text allows (CIDRs it names; "everyone" is never a range). A text
    that names only "everyone" (``0.0.0.0/0``, ``::/0``: "treated as unrestricted") allows any
    range but those (``allowed`` empty); the annotation counts unless the text sets it aside."""
    allowed = tuple(dict.fromkeys(c for c in _CIDR.findall(text) if not c.endswith("/0")))
    if not allowed and not _EVERYONE.search(text):
        return None
    annotation = "" if _annotation_set_aside(text) else LoadBalancerSourcesCheck.annotation
    return LoadBalancerSourcesCheck(allowed=allowed, annotation=annotation)


_MAY = words(r"\bmay\b", r"\bmust\b", r"\bnobody\b", r"\bno\s+(other\s+)?(cluster)?roles?\b")
_ROLES = words(r"\b(cluster\s*)?roles?\b")


#: the volume types of the Pod Security Standards' Restricted profile
RESTRICTED_VOLUME_TYPES = ("configMap", "csi", "downwardAPI", "emptyDir", "ephemeral",
                           "persistentVolumeClaim", "projected", "secret")  # fmt: skip
_VOLUME_TYPES = ("awsElasticBlockStore", "azureDisk", "azureFile", "cephfs", "cinder",
                 "configMap", "csi", "downwardAPI", "emptyDir", "ephemeral", "fc", "flexVolume",
                 "flocker", "gcePersistentDisk", "gitRepo", "glusterfs", "hostPath", "image",
                 "iscsi", "nfs", "persistentVolumeClaim", "photonPersistentDisk",
                 "portworxVolume", "projected", "quobyte", "rbd", "scaleIO", "secret",
                 "storageos", "vsphereVolume")  # fmt: skip


def _volume_types(text: str) -> VolumeTypesCheck:
    named = tuple(t for t in _VOLUME_TYPES if re.search(rf"\b{t}\b", text, re.I))
    return VolumeTypesCheck(allowed=named if len(named) >= 2 else RESTRICTED_VOLUME_TYPES)


#: host namespaces by what sharing them exposes, named after the host or node they belong to
_HOST_NAMESPACES = (
    ("hostNetwork", r"\bnetwork(\s+stack|\s+namespace|\s+interfaces?)?\b"),
    ("hostPID", r"\b(process(\s+table|\s+namespace|\s+ids?)|pids?)\b"),
    ("hostIPC", r"\b(ipc|inter-?process\s+communication|shared\s+memory)\b"),
)
_HOST_SPAN = re.compile(r"\b(host|node)('s|s)?\s+[^.;]{0,60}", re.I)


def _host_namespaces_named(text: str) -> list[str]:
    spans = " ".join(m.group(0) for m in _HOST_SPAN.finditer(text))
    return [f for f, pattern in _HOST_NAMESPACES if re.search(pattern, spans, re.I)]


def _host_namespaces(text: str) -> tuple[PodFieldCheck, ...]:
    return tuple(
        PodFieldCheck(concept=f"host-namespace-{f.lower()}", field=f, forbidden=True)
        for f in _host_namespaces_named(text)
    )


_LIMIT_WORDS = re.compile(r"\b(limit\w*|cap(ped)?|ceiling|most|exceed|bound\w*|maximum)\b", re.I)
_REQUEST_WORDS = re.compile(
    r"\b(request\w*|declare\w*|reserve\w*|needs?|scheduler|guarantee\w*)\b", re.I
)


def _compute_resources(text: str) -> tuple[ContainerFieldCheck, ...]:
    kinds = [k for k in ("memory", "cpu") if re.search(rf"\b{k}\b", text, re.I)]
    sections = []
    if _LIMIT_WORDS.search(text):
        sections.append("limits")
    if _REQUEST_WORDS.search(text) and not re.search(r"\brequests?\s+alone\b", text, re.I):
        sections.append("requests")
    return tuple(
        ContainerFieldCheck(
            concept=f"{k}-{section[:-1]}", path=("resources", section, k), must_be_set=True
        )  # fmt: skip
        for section in sections or ["limits"]
        for k in kinds
    )


def _drop_all_add_only(text: str) -> tuple[CapabilityCheck | FieldValueCheck, ...]:
    return (
        CapabilityCheck(concept="drop-all-capabilities", must_drop=("ALL",)),
        _capability_allow_list(text),
    )


#: RBAC subresources by what they let a caller do, with the verbs that do it
_SUBRESOURCE_EFFECTS = (
    (r"\bport-?forward\w*|\bforward\w*\s+(local\s+)?ports?\b", "pods/portforward", ("create", "get")),
    (r"\battach\w*\s+to\s+(a\s+)?running\s+containers?\b|\bkubectl\s+attach\b", "pods/attach",
     ("create", "get")),
    (r"\bevict\w*\s+pods?\b|\beviction\b", "pods/eviction", ("create",)),
    # pod logs are left to the generic reading (pods/log with */log and the read verbs)
    (r"\bscal(e|es|ing)\b\s+(deployments?|statefulsets?|replicasets?|workloads?)", "SCALE",
     ("update", "patch")),
)  # fmt: skip
_SCALE_TARGETS = ("deployments/scale", "statefulsets/scale", "replicasets/scale")


def _rbac_subresources(text: str) -> RbacRuleCheck | None:
    resources: list[str] = []
    verbs: list[str] = []
    # a sentence that says an access stays allowed names what is NOT the finding
    asked = " ".join(
        sentence
        for sentence in re.split(r"(?<=[.;!?])\s+", text)
        if not re.search(r"\b(allowed|fine|permitted|not\s+a\s+finding)\b", sentence, re.I)
    )
    for pattern, resource, resource_verbs in _SUBRESOURCE_EFFECTS:
        if re.search(pattern, asked, re.I):
            resources += list(_SCALE_TARGETS) if resource == "SCALE" else [resource]
            verbs += resource_verbs
    if not resources:
        return None
    return RbacRuleCheck(concept="rbac-subresources", verbs=tuple(dict.fromkeys(verbs)),
                         resources=tuple(resources))  # fmt: skip


#: what a capability lets a process do, in the words a requirement uses for it
CAPABILITY_EFFECTS = (
    (r"\b(set|change|write\s+to|adjust)\w*\s+(the\s+)?(node'?s?\s+|system\s+)?(clock|time)\b", "SYS_TIME"),
    (r"\b(load|insert|unload)\w*\s+(kernel\s+)?modules?\b", "SYS_MODULE"),
    (r"\bbypass\w*\s+(file\s+)?(permission|access)\s+checks?\b", "DAC_OVERRIDE"),
    (r"\bbypass\w*\s+(file\s+)?(permission|access)\s+checks?\b", "DAC_READ_SEARCH"),
    (r"\braw\s+(access\s+to\s+the\s+network|sockets?|packets?)\b|\bcraft\w*\s+packets?\b", "NET_RAW"),
    (r"\b(reconfigure|change|administer)\w*\s+(the\s+)?(node'?s?\s+)?network(ing)?\s*(config\w*|interfaces?|routes?)?\b", "NET_ADMIN"),
    # tracing other processes (SYS_PTRACE) is left out: "trace processes on the node" is
    # hostPID and "trace each other's processes" shareProcessNamespace
    (r"\bmount\w*\s+file\s*systems?\b|\bsystem\s+administration\b", "SYS_ADMIN"),
    (r"\b(read|access)\w*\s+(the\s+)?kernel('s)?\s+(log|ring\s+buffer)\b", "SYSLOG"),
    (r"\b(reboot|boot)\w*\s+the\s+(node|host|machine)\b", "SYS_BOOT"),
    (r"\braw\s+(i/?o|access\s+to\s+devices?)\b", "SYS_RAWIO"),
    (r"\bbpf\b|\bebpf\b", "BPF"),
)  # fmt: skip
_ADDED = words(r"\b(add|added|adding|grant\w*|gain\w*|give\w*|may|can|able)\b")


def _capabilities_by_effect(text: str) -> tuple[str, ...]:
    return tuple(
        dict.fromkeys(c for pattern, c in CAPABILITY_EFFECTS if re.search(pattern, text, re.I))
    )


def _forbidden_capabilities(text: str) -> FieldValueCheck | None:
    """The capabilities that would give the effects the text forbids; adding ALL gives them all."""
    capabilities = _capabilities_by_effect(text)
    if not capabilities:
        return None
    return FieldValueCheck(
        concept="capabilities-by-effect",
        level="container",
        paths=(("securityContext", "capabilities", "add", "*"),),
        forbidden=tuple(v for c in (*capabilities, "ALL") for v in _spellings(c)),
    )


#: RBAC verbs by their effect on whom a caller can be or what it can hand out
_IMPERSONATE = words(r"\bact\s+as\s+(another|other|any)\b", r"\bimpersonat\w*\b",
                     r"\bpose\s+as\b", r"\bassume\s+the\s+identity\b")  # fmt: skip
_ESCALATE = words(r"\bpermissions?\s+(its\s+holder|they|it|the\s+holder)\s+(does|do)\s*(not|n't)\s+"
                  r"(already\s+)?(have|hold)\b", r"\bescalat\w*\b")  # fmt: skip
_BIND = words(r"\bbind\w*\s+(roles?|clusterroles?|permissions?)\s+to\b", r"\bbind\s+verb\b")


def _identity_rbac(text: str) -> tuple[RbacRuleCheck, ...] | None:
    checks = []
    if any(p.search(text) for p in _IMPERSONATE):
        checks.append(RbacRuleCheck(concept="rbac-impersonate", verbs=("impersonate",),
                                    resources=("users", "groups", "serviceaccounts", "uids")))  # fmt: skip
    verbs = [
        v for v, ps in (("escalate", _ESCALATE), ("bind", _BIND)) if any(p.search(text) for p in ps)
    ]
    if verbs:
        checks.append(RbacRuleCheck(concept="rbac-escalate-bind", verbs=tuple(verbs),
                                    resources=("roles", "clusterroles")))  # fmt: skip
    return tuple(checks) or None


_MORE: tuple[Concept, ...] = (
    Concept(
        "capabilities-by-effect",
        (words(*(p for p, _ in CAPABILITY_EFFECTS)), words(r"\bcontainers?\b", r"\bpods?\b")),
        _forbidden_capabilities,
        # a capability named outright is read by the capability concepts
        none_of=words(
            r"\b(CAP_)?(SYS|NET|DAC)_[A-Z]+\b",
            r"\bcapabilit(y|ies)\b",
            r"\bhost(Network|PID|IPC)\b",
            r"\bprivileged\b",
            r"\bhost\s*path\b",
            r"\bnamespaces?\b",
            r"\bseccomp\b",
            r"\bapparmor\b",
        ),  # fmt: skip
    ),
    Concept(
        "rbac-identity",
        (words(*(p.pattern for p in (*_IMPERSONATE, *_ESCALATE, *_BIND))), _ROLES),
        _identity_rbac,
        # the verbs spelled out are k8s_rbac's bind-escalate-impersonate
        none_of=words(r"\bservice\s*account\s+tokens?\b", r"\bimpersonat\w*\b", r"\bescalat\w*\b"),
    ),
    Concept(
        "restricted-volume-types",
        (
            words(r"\bvolumes?\b"),
            words(
                r"\b(types?|kinds?)\s+of\s+volumes?\b",
                r"\bvolume\s+(types?|kinds?)\b",
                r"\bvolumes?\s+of\s+(these|the\s+following)\s+(types?|kinds?)\b",
            ),  # fmt: skip
            words(r"\bonly\b", r"\ballow\w*\b", r"\bpermitted\b"),
        ),
        _volume_types,
    ),
    Concept(
        "host-namespaces",
        (
            words(r"\b(host|node)('s|s)?\b"),
            words(r"\b(share|join|use|enter)\w*\b", r"\bmust\s+not\b"),
        ),
        _host_namespaces,
        # a field spelled out is read by the field's own concept
        none_of=words(r"\bhost(IPC|PID|Network)\b"),
        accepts=lambda text: len(_host_namespaces_named(text)) >= 2,
    ),
    Concept(
        "drop-all-add-only",
        (
            words(r"\bcapabilit(y|ies)\b"),
            words(r"\bdrop\w*\s+(all|every)\b"),
            words(
                r"\badd\w*\s+(back\s+)?(only|at\s+most)\b",
                r"\bonly\b[^.;]{0,40}\badd",
                # an allowance without "only": "the one capability a container may add back",
                # "NET_BIND_SERVICE may be added", "is allowed to add"
                r"\b(one|single|sole)\s+capabilit(y|ies)\b[^.;]{0,40}\badd",
                r"\b(may|can)\s+(still\s+)?(be\s+)?add(ed)?\b",
                r"\b(allowed|permitted)\s+to\s+add\b",
            ),
        ),
        _drop_all_add_only,
    ),
    Concept(
        "proc-mount",
        (words(r"\bproc\s*mount\b", r"\bunmask\w*\b[^.;]{0,30}/proc"),),
        lambda text: FieldValueCheck(
            concept="proc-mount",
            level="container",
            paths=(("securityContext", "procMount"),),
            allowed=("Default",),
        ),
        # "an unmasked /proc", procMount: k8s_pod's proc-mount reads them
        none_of=words(r"\bunmasked\b", r"\bprocMount\b"),
    ),
    Concept(
        "windows-host-process",
        (words(r"\bwindows\b"), words(r"\bhost\s*process(es)?\b")),
        lambda text: ContainerFieldCheck(
            concept="windows-host-process",
            path=("securityContext", "windowsOptions", "hostProcess"),
            forbidden=True,
            pod_level_too=True,
        ),
    ),
    Concept(
        "compute-resources",
        (
            words(r"\b(memory|cpu)\b"),
            words(
                r"\b(cap|limit\w*|ceiling|bound\w*|most)\b[^.;]{0,40}\b(memory|cpu)\b",
                r"\b(memory|cpu)\b[^.;]{0,40}\b(may|can)\s+(use|consume)\b",
                r"\b(declare|reserve|request)\w*\b[^.;]{0,40}\b(memory|cpu)\b",
                r"\bhow\s+much\s+(memory|cpu)\b",
            ),
        ),
        _compute_resources,
        # a bound on the amount ("more than 4Gi") is a value check, not a presence check; the
        # phrasings k8s_pod's resource-limit reads stay its own
        none_of=words(
            r"\bmore\s+than\s+\d",
            r"\b\d+(\.\d+)?\s*(Gi|Mi|Ki|G|M|m)\b",
            r"\b(memory|cpu)\s+(limit|request)s?\b",
            r"resources\.(limits|requests)",
            r"\b(most|maximum|max)\s+(amount\s+of\s+)?(memory|cpu)\b",
            r"\b(memory|cpu)\s+(ceiling|cap|maximum|bound)s?\b",
        ),
    ),
    Concept(
        "run-as-non-root",
        (
            words(
                r"\b(as|with)\s+(a\s+)?(user|uid)\s+other\s+than\s+root\b",
                r"\bnever\s+(run\s+)?as\s+root\b",
                r"\b(root|superuser)\s+(privileges\s+)?inside\s+the\s+container\b",
            ),
        ),
        lambda text: RunAsNonRootCheck(),
    ),
    Concept(
        "read-only-root-filesystem",
        (
            words(
                r"\bwrite\w*\s+(to|into)\s+(their|its)\s+own\s+(image'?s?|root)\s+(file\s*system|layer)\b",
                r"\bimage'?s?\s+file\s*system\b[^.;]{0,30}\bread-?only\b",
                r"\bwritable\s+root\s+file\s*system\b",
            ),
        ),
        lambda text: ContainerFieldCheck(
            concept="read-only-root-filesystem",
            path=("securityContext", "readOnlyRootFilesystem"),
            required=True,
        ),
    ),
    Concept(
        "image-tag",
        (
            words(r"\blatest\b", r"\bmutable\s+tags?\b"),
            words(r"\bno\s+tag\b", r"\buntagged\b", r"\bwithout\s+a\s+tag\b", r"\btag\w*\b"),
        ),
        lambda text: ImageTagCheck(),
        none_of=words(
            r"\bpull\w*\b[^.;]{0,40}\bevery\s+time\b",
            r"\bpull\s*policy\b",
            r"\bimagePullPolicy\b",
        ),  # fmt: skip
        # a digest the text requires is the image-digest control; one it accepts is a version
        accepts=lambda text: "digest" not in text.lower() or digest_is_an_alternative(text),
    ),
    Concept(
        "node-port-service",
        (
            words(r"\bservices?\b"),
            words(
                r"\bports?\s+on\s+(every|each|all(\s+the)?)\s+nodes?\b",
                r"\bevery\s+node('s)?\s+(ip|address)",
            ),  # fmt: skip
        ),
        lambda text: FieldValueCheck(
            concept="service-type",
            level="object",
            kinds=("Service",),
            paths=(("spec", "type"),),
            forbidden=("NodePort",),
        ),
    ),
    Concept(
        # an emptyDir with medium Memory said by where it lives: "scratch volumes that live in
        # the node's RAM must carry a size cap", "tmpfs volumes need an upper size"
        "memory-volume-size-limit",
        (
            words(
                r"\bvolumes?\b[^.;]{0,40}\b(live|lives|kept|held|stored|backed|resid\w*)\s+"
                r"(in|by)\s+(the\s+)?(node'?s?\s+)?(RAM|memory)\b",
                r"\b(RAM|memory)[- ]backed\s+(\w+\s+)?volumes?\b",
                r"\btmpfs\b",
            ),
            words(r"\bsize\b", r"\bsizeLimit\b", r"\bcap(ped)?\b", r"\bbound(ed)?\b"),
        ),
        _memory_volume_cap,
    ),
    Concept(
        "host-port",
        (
            words(
                r"\b(listen|bind)\w*\s+on\s+(a\s+)?port\s+of\s+the\s+node\b",
                r"\bports?\s+(of|on)\s+the\s+node\s+itself\b",
            ),  # fmt: skip
        ),
        lambda text: HostPortCheck(),
        none_of=words(r"\bbetween\s+\d+\s+and\s+\d+\b", r"\b\d+\s*(-|–|to)\s*\d+\b"),
    ),
    Concept(
        "rbac-subresources",
        (words(*(p for p, _, _ in _SUBRESOURCE_EFFECTS)), _MAY, _ROLES),
        _rbac_subresources,
        # a shell or a command in a container is k8s_rbac's pod-exec
        none_of=words(r"\bshell\b", r"\bexec\b", r"\brun\w*\s+(a\s+)?commands?\b"),
    ),
)

#: a node label key as the text spells it ("node-role.kubernetes.io/control-plane")
_NODE_LABEL_KEY = re.compile(
    r"(?<![\w./-])([a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9-]+)+/[A-Za-z0-9][A-Za-z0-9_.-]*[A-Za-z0-9])"
)


def _node_label_selection(text: str) -> NodeLabelSelectionCheck | None:
    """Pods must not be steered onto the nodes carrying the label keys the text spells."""
    keys = tuple(dict.fromkeys(m.group(1) for m in _NODE_LABEL_KEY.finditer(text)))
    return NodeLabelSelectionCheck(keys) if keys else None


def _webhook_fail_open(text: str) -> FieldValueCheck:
    """Admission webhooks that let requests through when their backend fails: ``failurePolicy:
    Ignore`` (admissionregistration/v1 defaults to Fail), on the kinds of webhook the text
    names (validating, mutating; both when it names neither)."""
    kinds = tuple(
        kind
        for word, kind in (
            ("validating", "ValidatingWebhookConfiguration"),
            ("mutating", "MutatingWebhookConfiguration"),
        )
        if re.search(rf"\b{word}\b", text, re.I)
    ) or ("ValidatingWebhookConfiguration", "MutatingWebhookConfiguration")
    return FieldValueCheck(
        concept="webhook-failure-policy", level="object", kinds=kinds,
        paths=(("webhooks", "*", "failurePolicy"),), forbidden=("Ignore",),
    )  # fmt: skip


CONCEPTS: tuple[Concept, ...] = (
    Concept(
        # a pod shares the node's user namespace unless hostUsers is false (unset is true):
        # then its UIDs and GIDs are the node's, root in the pod is root on the node; by its
        # effect only: a text that spells hostUsers is read by the schema reader with the rest
        "own-user-namespace",
        (
            words(
                r"\b(?:its|their)\s+own\s+(?:linux\s+)?user\s+namespaces?\b",
                r"\bnode'?s\s+(?:own\s+)?user\s+(?:and\s+group\s+)?IDs\b",
                r"\bhost\s+user\s+namespaces?\b",
            ),
        ),
        lambda text: PodFieldCheck(concept="own-user-namespace", field="hostUsers", required=False),
        none_of=words(r"\b(cluster\s*)?roles?\b", r"\bhostUsers\b"),
    ),
    Concept(
        # a webhook whose backend is down either rejects (Fail) or lets the request through
        # unchecked (Ignore): "fail open" is the second
        "webhook-fail-open",
        (
            words(r"\bwebhooks?\b"),
            words(
                r"\blet\w*\s+(?:\w+\s+){0,2}through\b",
                r"\bfail(?:s|ing)?[\s-]+open\b",
                r"\b(?:admit|allow|accept)\w*\b[^.;]{0,30}\b(?:unchecked|anyway|regardless)\b",
            ),
            words(
                r"\b(?:down|unavailable|unreachable|times?\s+out|timed\s+out|fails?|failure|errors?)\b"
            ),
        ),
        _webhook_fail_open,
        none_of=words(r"\b(cluster\s*)?roles?\b", r"\bgrant\w*\b"),
    ),
    Concept(
        # a pod lands on labelled nodes by a nodeSelector or a node affinity that selects the
        # label (In, Exists): both are how a workload is steered onto a node pool
        "node-label-selection",
        (
            words(
                r"\bnodeSelector\b",
                r"\bnode\s+selectors?\b",
                r"\bnode\s*affinity\b",
                r"\b(steer|schedul|plac|pinn?|land)\w*\b[^.;]{0,30}\b(on|onto|to)\b[^.;]{0,40}\bnodes?\b",
            ),
            (_NODE_LABEL_KEY,),
            words(r"\bnodes?\b"),
        ),
        _node_label_selection,
        # a text about tolerating a node's taints is about tolerations, not selection
        none_of=words(r"\btolerat\w*\b", r"\btaints?\b"),
    ),
    Concept(
        # the kubelet pulls (checks the registry) at every start only with policy Always
        "image-pull-policy",
        (
            words(
                r"\b(pull\w*|check\w*\s+with\s+the\s+registry)\b[^.;]{0,40}\bevery\s+time\b",
                r"\bcached\s+(copy|image)",
                r"\bimage\s+(copy|copies)\b[^.;]{0,40}\bcached\b",
                r"\b(image\s*)?pull\s*policy\b",
            ),
            words(r"\balways\b", r"\bevery\s+time\b", r"\bnever\b"),
        ),
        lambda text: ImagePullPolicyCheck(),
        # the field spelled out is the generic reading's (with whatever else the text spells)
        none_of=words(r"\bimagePullSecrets?\b", r"\bpull\s+secrets?\b", r"\bimagePullPolicy\b"),
    ),
    Concept(
        # loadBalancerSourceRanges (else the older annotation) restricts the cloud load balancer
        "load-balancer-source-ranges",
        (
            words(r"\bload\s*balancers?\b", r"\bloadBalancerSourceRanges\b"),
            words(
                r"\bsource\s+ranges?\b",
                r"\baddress\s+(space|ranges?)\b",
                r"\bclients?\s+only\s+from\b",
                r"\bCIDRs?\b",
                r"\bloadBalancerSourceRanges\b",
            ),
        ),
        _load_balancer_sources,
    ),
    Concept(
        # a rule without host, a wildcard host or a defaultBackend answers for unlisted names
        "ingress-named-hosts",
        (
            words(r"\bingress(es)?\b"),
            words(
                r"\bwildcard\s+host",
                r"\bevery\s+host\s*name\b",
                r"\b(whole\s+)?family\s+of\s+subdomains\b",
                r"\bcatch-?all\b",
                r"\bdefault\s*backend\b",
                r"\bhost\s*names?\b[^.;]{0,40}\b(in\s+full|spelled\s+out|explicit\w*)\b",
                r"\b(spelled|spelt|written)\s+out\s+in\s+full\b",
            ),
        ),
        lambda text: IngressNamedHostsCheck(),
        none_of=words(r"\btls\b(?![^.;]*\b(separate|another|other|not)\b)"),
    ),
    Concept(
        "share-process-namespace",
        (
            words(
                r"\b(see|signal|view|kill|trace)\w*\b[^.;]{0,40}\b(one\s+another'?s?|each\s+other'?s?|"
                r"other\s+containers'?|sibling)\b[^.;]{0,20}\bprocess",
                r"\bprocess\s+(view|namespace|table)s?\b[^.;]{0,40}\bshar",
                r"\bshar\w*\b[^.;]{0,40}\bprocess\s+(view|namespace|table)s?\b",
                r"\bown\s+process\s+view\b",
            ),
        ),
        lambda text: FieldValueCheck(
            concept="share-process-namespace",
            level="pod",
            paths=(("shareProcessNamespace",),),
            forbidden=(True,),
        ),
        # the node's process table is hostPID, another field
        none_of=words(
            r"\b(host|node)'?s?\b[^.;]{0,60}\bprocess",
            # "the process namespace of the node", "processes on the host"
            r"\bprocess\w*\b[^.;]{0,40}\b(of|on|from)\s+the\s+(underlying\s+)?(host|node|machine)\b",
            r"\bhostPID\b",
        ),
    ),
    Concept(
        "ephemeral-storage-limit",
        (
            words(
                r"\b(node-?local|local|ephemeral|scratch)\s+(disk|storage)\b",
                r"\bephemeral-storage\b",
                r"\bfill\w*\b[^.;]{0,30}\bdisk\b",
            ),
            words(r"\b(cap|limit|bound|ceiling|maximum)s?\b"),
        ),
        _disk_cap,
        none_of=words(r"\bpersistent\s*volume", r"\bhostPath\b"),
    ),
    Concept(
        "drainable-disruption-budget",
        (
            words(r"\bdisruption\s*budgets?\b", r"\bPodDisruptionBudgets?\b", r"\bPDBs?\b"),
            words(r"\bevict\w*\b", r"\bdrain\w*\b", r"\bunavailable\b", r"\b100\s*%"),
        ),
        _drainable_budget,
    ),
    Concept(
        "namespace-labels",
        (
            words(r"\bnamespaces?\b"),
            words(r"\b(carry|have|bear|with)\b[^.;]{0,20}\blabels?\b", r"\blabel\s+[`'\"]?\w+"),
            words(
                r"\bowner\w*\b", r"\bteam\b", r"\benvironment\b", r"\bcost[- ]?cent", r"\bpurpose\b"
            ),
        ),
        _namespace_labels,
        none_of=words(r"pod-security\.kubernetes\.io", r"\bpod\s+security\b"),
    ),
    Concept(
        "seccomp-not-unconfined",
        (
            words(r"\bseccomp\b"),
            words(r"\bunconfined\b"),
            words(
                r"\b(unset|undefined|left\s+unset|not\s+set)\b[^.;]{0,40}\b(allowed|fine|compl)",
                r"\bundefined\b",
                r"\bexplicitly\s+set\s+to\s+unconfined\b",
            ),
        ),
        _seccomp_not_unconfined,
    ),
    Concept(
        "capabilities-allow-list",
        (
            words(r"\bcapabilit(y|ies)\b"),
            # an allow-list: "may add back only ...", "only those the runtime grants anyway"
            words(
                r"\b(add|added|adding)\s+(back\s+)?only\b",
                r"\bonly\b[^.;]{0,60}\b(runtime|grant\w*|listed|following|these)\b",
            ),
        ),
        _capability_allow_list,
        # "nothing on top of the runtime's default set": no add at all (another reading)
        none_of=words(
            r"\bmust\s+drop\b", r"\bdrop\s+all\b", r"\bon\s+top\s+of\b", r"\b(absent|empty)\b"
        ),  # fmt: skip
    ),
    Concept(
        "host-port-window",
        (
            words(
                r"\bhost\s*ports?\b",
                r"\bports?\s+on\s+the\s+nodes?\b",
                r"\bnode\s+ports?\b",
                r"\bport\s+on\s+the\s+node\b",
            ),  # fmt: skip
            words(r"\bbetween\s+\d+\s+and\s+\d+\b", r"\b\d+\s*(-|–|to)\s*\d+\b"),
        ),
        _host_port_window,
        none_of=words(r"\bNodePort\b", r"\bservices?\s+of\s+type\b"),
    ),
    Concept(
        "rbac-ephemeral-containers",
        (
            words(
                r"\bdebug(ging)?\s+containers?\b",
                r"\bephemeral\s*containers?\b",
                r"\bkubectl\s+debug\b",
            ),
            _MAY,
            _ROLES,
        ),
        lambda text: _rbac(
            "rbac-ephemeral-containers",
            ("update", "patch"),
            ("pods/ephemeralcontainers", "pods/*"),
        ),
    ),
    Concept(
        "rbac-authorization-writers",
        (
            words(r"\b(cluster\s*)?role\s*bindings\b|\brolebindings\b", r"\bRBAC\s+objects\b"),
            words(
                r"\b(create|creat\w+|modify|modif\w+|change|chang\w+|delet\w+|writ\w+|edit\w*)\b"
            ),
            _ROLES,
        ),
        lambda text: _rbac(
            "rbac-authorization-writers",
            WRITE_VERBS,
            ("roles", "clusterroles", "rolebindings", "clusterrolebindings"),
        ),
        # the privilege-granting verbs themselves are k8s_rbac's bind-escalate-impersonate
        none_of=words(
            # a text about who a binding names as its subject is about the binding's holders
            r"\bas\s+(a|its|their)\s+subjects?\b",
            r"\bbind\s+(or|and)\s+escalate\b(?![^.;]*\b(separate|another|other)\b)",
            r"\bbind,\s*escalate\b",
            r"\bimpersonat\w*\b",
        ),
    ),
    Concept(
        "rbac-node-writers",
        (
            words(r"\bnodes?\b|\bNode\s+objects\b"),
            words(r"\bcordon\w*\b", r"\btaint\w*\b", r"\bstatus\s+of\b"),
            _ROLES,
        ),
        lambda text: _rbac("rbac-node-writers", WRITE_VERBS, ("nodes", "nodes/status")),
    ),
    Concept(
        "ingress-snippet-annotations",
        (
            words(r"\bingress(es)?\b"),
            words(r"\bsnippets?\b"),
        ),
        lambda text: FieldValueCheck(
            concept="ingress-snippet-annotations",
            level="object",
            kinds=("Ingress",),
            paths=tuple(("metadata", "annotations", a) for a in SNIPPET_ANNOTATIONS),
            any_value=True,
        ),
    ),
    *_MORE,
)

#: "every other Role", "other than platform-admins": the text names the holders that keep a right
_OTHERS = re.compile(
    r"\b(every|all|any|no)\s+other\b|\bother\s+than\b|\bexcept\b|\bapart\s+from\b|"
    r"\bnobody\s+but\b|\bonly\s+(the|our)\b",
    re.I,
)
#: "the sre-oncall ClusterRole" (not "our break-glass ClusterRole sre-break-glass", where the
#: word before the kind describes the role named after it, nor "built-in roles", a plural)
_HOLDER_BEFORE_KIND = re.compile(
    r"\b([a-z0-9]+(?:[.-][a-z0-9]+)+)\s+(?:cluster\s*)?role\b(?!\s+[`'\"]?[a-z0-9]+[.:-][a-z0-9])",
    re.I,
)
_HOLDER_AFTER_EXCEPT = re.compile(
    r"\b(?:other\s+than|except(?:\s+for)?|apart\s+from|but)\s+(?:the\s+|our\s+)?[`'\"]?"
    r"([a-z0-9]+(?:[.-][a-z0-9]+)+)\b[`'\"]?"
    # a holder's name, not an adjective ("except the on-call SREs")
    r"(?=\s*[,;.)]|\s+(?:may|can|might|is|are|and|or|(?:cluster\s*)?roles?)\b)",
    re.I,
)
_DEFAULT_EXEMPT = re.compile(r"\(\s*default\s*,|\bdefault\s+namespace\b[^.;]{0,40}\bexempt", re.I)


def scope_for(text: str, scope: Scope) -> Scope:
    """What an effect reading adds to the scope: ``default`` among the exempt namespaces, and the
    roles that keep a right ("the sre-oncall ClusterRole may; every other Role must not")."""
    namespaces = scope.exempt_namespaces
    if _DEFAULT_EXEMPT.search(text) and "default" not in namespaces:
        namespaces = (*namespaces, "default")
    roles = scope.exempt_role_names
    if _OTHERS.search(text):
        named = [
            m.group(1)
            for p in (_HOLDER_BEFORE_KIND, _HOLDER_AFTER_EXCEPT)
            for m in p.finditer(text)
        ]
        roles = tuple(dict.fromkeys([*roles, *(n for n in named if not n.startswith("system:"))]))
    return replace(scope, exempt_namespaces=namespaces, exempt_role_names=roles)
