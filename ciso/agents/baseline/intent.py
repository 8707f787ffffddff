"""The structured intent the baseline parses a requirement into, one kind per subject family.

Every kind is a small frozen dataclass; the renderers read nothing else, so what the agent
understood is exactly what it writes (and what the transcript records).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from ciso.agents.baseline.bound_checks import FieldBoundCheck, InheritedBoundCheck
from ciso.agents.baseline.effect_checks import EffectCheck
from ciso.agents.baseline.family_checks import FamilyCheck

#: Kubernetes' own namespaces; most CIS section 5 controls exempt them.
SYSTEM_NAMESPACES = ("kube-system", "kube-public", "kube-node-lease")

ContainerList = Literal["containers", "initContainers", "ephemeralContainers"]
ALL_CONTAINER_LISTS: tuple[ContainerList, ...] = (
    "containers",
    "initContainers",
    "ephemeralContainers",
)


@dataclass(frozen=True)
class Scope:
    """Where a Kubernetes check applies: exempt namespaces, exempt built-in RBAC objects, and
    which container lists of a pod spec are inspected."""

    exempt_namespaces: tuple[str, ...] = ()
    exempt_builtin_rbac: bool = False
    #: Roles and ClusterRoles the requirement names as the permitted holders ("only the
    #: ClusterRole sre-break-glass may ...")
    exempt_role_names: tuple[str, ...] = ()
    container_lists: tuple[ContainerList, ...] = ALL_CONTAINER_LISTS
    #: only objects in namespaces carrying all these labels (key, value) are judged ("in
    #: namespaces labelled tier=prod"), whatever the check
    namespace_labels: tuple[tuple[str, str], ...] = ()
    #: only pods (a bare Pod, a workload's pod template) carrying all these labels are judged
    #: ("pods that carry the label tier: gold"); objects without pods are not concerned
    pod_labels: tuple[tuple[str, str], ...] = ()
    #: only objects in these namespaces are judged ("workloads in namespace `sandbox`")
    only_namespaces: tuple[str, ...] = ()
    #: objects in namespaces carrying all these labels are not judged: the text permits there
    #: what it forbids elsewhere ("may run Windows only in namespaces labelled os=windows")
    permitting_namespace_labels: tuple[tuple[str, str], ...] = ()
    #: objects carrying all these labels of their own are not judged ("tolerated only on
    #: Services labelled approved=yes")
    permitting_object_labels: tuple[tuple[str, str], ...] = ()
    #: pods (a bare Pod, a workload's pod template) carrying all these labels are not judged
    #: ("pods labelled break-glass=true are exempt")
    exempt_pod_labels: tuple[tuple[str, str], ...] = ()
    #: only objects carrying all these labels of their own are judged ("autoscalers labelled
    #: team=payments"); read only when every check judges objects themselves, not pods
    object_labels: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class PodFieldCheck:
    """A field of the pod spec itself (hostNetwork, hostPID, automountServiceAccountToken).

    ``forbidden``: the value that violates. ``required``: the only compliant value (unset
    violates). Exactly one is set.
    """

    concept: str
    field: str
    forbidden: Any = None
    required: Any = None
    #: only pods on the default ServiceAccount are judged (CIS 5.1.5)
    default_service_account_only: bool = False
    #: a pod that leaves the field unset takes its ServiceAccount's value of the same field
    #: (automountServiceAccountToken: the pod's own setting wins, else the account's)
    service_account_fallback: bool = False
    kind: Literal["pod-field"] = "pod-field"


@dataclass(frozen=True)
class ContainerFieldCheck:
    """A field of each container's securityContext (path below the container)."""

    concept: str
    path: tuple[str, ...]
    forbidden: Any = None
    required: Any = None
    #: the same path under the pod's securityContext counts too (hostProcess)
    pod_level_too: bool = False
    #: any value will do, but the field must be set (resources.limits.memory)
    must_be_set: bool = False
    kind: Literal["container-field"] = "container-field"


@dataclass(frozen=True)
class InheritedSettingCheck:
    """A securityContext setting each container inherits from the pod unless it sets its own;
    the effective value must be one of ``allowed`` (seccompProfile.type)."""

    concept: str
    path: tuple[str, ...]
    allowed: tuple[str, ...]
    #: neither the container nor the pod setting it complies (the runtime chooses)
    unset_allowed: bool = False
    kind: Literal["inherited-setting"] = "inherited-setting"


@dataclass(frozen=True)
class ImageRegistryCheck:
    """Every container image comes from one of ``prefixes``."""

    prefixes: tuple[str, ...]
    concept: str = "image-registry"
    kind: Literal["image-registry"] = "image-registry"


@dataclass(frozen=True)
class ServiceAccountNameCheck:
    """No pod runs as the ServiceAccount ``forbidden``, named (``serviceAccountName`` or its
    deprecated alias ``serviceAccount``) or implied (neither set means ``default``)."""

    forbidden: str = "default"
    concept: str = "service-account-name"
    kind: Literal["service-account-name"] = "service-account-name"


@dataclass(frozen=True)
class ImageDigestCheck:
    """Every container image is pinned by its content digest (``name@sha256:...``); a tag
    beside the digest is allowed, a tag alone is not."""

    concept: str = "image-digest"
    kind: Literal["image-digest"] = "image-digest"


@dataclass(frozen=True)
class PodAnnotationCheck:
    """No annotation of the pod whose key starts with ``key_prefix`` has the value ``forbidden``
    (compared case-insensitively), e.g. the per-container AppArmor annotation."""

    concept: str
    key_prefix: str
    forbidden: str
    kind: Literal["pod-annotation"] = "pod-annotation"


@dataclass(frozen=True)
class NamespaceLabelCheck:
    """Every Namespace (not exempt) carries ``label`` with one of ``allowed`` (Pod Security
    Admission's enforce level)."""

    concept: str
    label: str
    allowed: tuple[str, ...]
    kind: Literal["namespace-label"] = "namespace-label"


@dataclass(frozen=True)
class RunAsNonRootCheck:
    """Every container runs with runAsNonRoot: true (the container's own setting overrides the
    pod's) and no securityContext sets runAsUser: 0."""

    concept: str = "run-as-non-root"
    #: a runAsUser other than 0 (the container's own, else the pod's) also guarantees a
    #: non-root user, when the requirement says so
    nonzero_uid_counts: bool = False
    kind: Literal["run-as-non-root"] = "run-as-non-root"


@dataclass(frozen=True)
class CapabilityCheck:
    """Linux capabilities of each container. ``must_drop``: one of these must be dropped
    (ALL always satisfies). ``forbid_add``: these may not be added (``("*",)``: none at all)."""

    concept: str
    must_drop: tuple[str, ...] = ()
    forbid_add: tuple[str, ...] = ()
    kind: Literal["capabilities"] = "capabilities"


@dataclass(frozen=True)
class HostPathVolumeCheck:
    concept: str = "host-path-volume"
    kind: Literal["host-path-volume"] = "host-path-volume"


@dataclass(frozen=True)
class HostPortCheck:
    concept: str = "host-port"
    kind: Literal["host-port"] = "host-port"


@dataclass(frozen=True)
class SecretEnvCheck:
    """No secret reaches a container through env[].valueFrom.secretKeyRef or envFrom[].secretRef."""

    concept: str = "secret-env"
    kind: Literal["secret-env"] = "secret-env"


@dataclass(frozen=True)
class RbacRuleCheck:
    """A Role/ClusterRole rule that grants any of ``verbs`` on any of ``resources`` (``*`` in
    the rule counts, and so do ``*/<sub>`` and core-group ``*`` resources) violates.
    ``any_wildcard``: a rule using ``*`` anywhere violates (CIS 5.1.3)."""

    concept: str
    verbs: tuple[str, ...] = ()
    resources: tuple[str, ...] = ()
    any_wildcard: bool = False
    kind: Literal["rbac-rule"] = "rbac-rule"


@dataclass(frozen=True)
class BindingCheck:
    """A RoleBinding/ClusterRoleBinding that refers to ``role_ref`` (a ClusterRole name) or has a
    subject ``subject_kind``/``subject_name`` violates."""

    concept: str
    role_ref: str | None = None
    subject_kind: str | None = None
    subject_name: str | None = None
    #: (kind, name) of the subjects the requirement allows to hold ``role_ref``: a binding
    #: violates only when it names another subject
    allowed_subjects: tuple[tuple[str, str], ...] = ()
    #: the bindings the requirement sets apart by name ("except the ClusterRoleBindings named
    #: system:discovery and system:basic-user"): exactly those, not every ``system:`` name
    exempt_names: tuple[str, ...] = ()
    #: a RoleBinding whose ServiceAccount subject lives in another namespace than the binding
    #: violates (a subject without a namespace is the binding's own)
    foreign_service_accounts: bool = False
    kind: Literal["binding"] = "binding"


@dataclass(frozen=True)
class IngressTlsCheck:
    """Every host an Ingress rule routes is listed in that Ingress's ``tls[].hosts``; a TLS entry
    ``*.example.com`` covers the names one label below it (``a.example.com``), not deeper."""

    concept: str = "ingress-tls"
    kind: Literal["ingress-tls"] = "ingress-tls"


@dataclass(frozen=True)
class NamespaceNetworkPolicyCheck:
    """Every Namespace (not exempt; with ``namespace_labels``, only those carrying them) holds
    an object of ``object_kind`` of its own: a NetworkPolicy by default, any namespaced kind a
    text names ("each namespace labelled env=prod must contain a LimitRange")."""

    concept: str = "namespace-network-policy"
    object_kind: str = "NetworkPolicy"
    #: the API path of the kind's collection, below ``namespaces/<name>/`` (Kyverno's apiCall)
    api_prefix: str = "/apis/networking.k8s.io/v1"
    plural: str = "networkpolicies"
    #: only Namespaces carrying all these labels (key, value) are judged
    namespace_labels: tuple[tuple[str, str], ...] = ()
    kind: Literal["namespace-network-policy"] = "namespace-network-policy"


@dataclass(frozen=True)
class DefaultNamespaceCheck:
    """Nothing of ours in namespace default, except what Kubernetes creates there itself."""

    concept: str = "default-namespace"
    kinds: tuple[str, ...] = ()
    kind: Literal["default-namespace"] = "default-namespace"


FieldLevel = Literal["object", "pod", "container"]


@dataclass(frozen=True)
class FieldValueCheck:
    """A field of the API schema, wherever it occurs: at ``paths`` below the object itself
    (``object``: objects of ``kinds``), below every pod spec of any workload (``pod``), or below
    every container of those pod specs (``container``). A path element ``*`` steps into every
    item of a list. A value in ``forbidden`` violates; with ``allowed``, a value outside it
    violates; with ``any_value``, any value set (not empty) violates. Several paths are the
    spellings of one setting (a field and the annotation it replaced)."""

    concept: str
    level: FieldLevel
    paths: tuple[tuple[str, ...], ...]
    kinds: tuple[str, ...] = ()
    forbidden: tuple[Any, ...] = ()
    allowed: tuple[Any, ...] = ()
    any_value: bool = False
    #: no path holding a value violates ("an Ingress that names no class at all")
    must_be_set: bool = False
    #: with ``must_be_set`` and one path through a list: EVERY item of the list (the path up
    #: to its last ``*``) must set the field ("each port declares its appProtocol"), not one
    each_item: bool = False
    #: the cluster writes the field into the pods a controller creates (the scheduler's
    #: nodeName): such a pod is judged through its controller's template, not by itself
    owned_pods_by_owner: bool = False
    #: only objects in namespaces carrying all these labels (key, value) are judged
    namespace_labels: tuple[tuple[str, str], ...] = ()
    #: objects of these names are exempt (the kube-root-ca.crt ConfigMap in every namespace)
    exempt_names: tuple[str, ...] = ()
    #: only objects whose field at this path (with its API default) is one of these values:
    #: (path, default, values), e.g. Services of type NodePort or LoadBalancer
    only_when: tuple[tuple[str, ...], str, tuple[str, ...]] | None = None
    #: a value that starts with none of these (and is not in ``allowed``) violates: a path
    #: "under /mnt/disks/" (the separator kept, so /mnt/disks-old is not under it)
    allowed_prefixes: tuple[str, ...] = ()
    #: a value that starts with one of these violates: a downward-API ``fieldPath`` of
    #: ``metadata.annotations`` or ``metadata.annotations['key']``
    forbidden_prefixes: tuple[str, ...] = ()
    #: a string value this regular expression (RE2, anchored by itself) does not match
    #: violates: a shape the text states in words ("a semantic version", "apps.example.com or
    #: a subdomain of it")
    allowed_pattern: str = ""
    #: a string value this regular expression matches violates ("a plain http:// URL", "sh or
    #: bash, by name or by path")
    forbidden_pattern: str = ""
    #: the list at the path must hold each of these ("its policyTypes must include Egress");
    #: an absent list holds ``default_items``, the API's default for it
    required_items: tuple[Any, ...] = ()
    default_items: tuple[Any, ...] = ()
    #: with ``each_item``: only the items whose sibling field (path below the item) holds one
    #: of these values must set the field ("every toleration with operator Exists must name
    #: a key")
    item_when: tuple[tuple[str, ...], tuple[str, ...]] | None = None
    kind: Literal["field-value"] = "field-value"

    @property
    def items(self) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
        """With ``each_item``: the path of the list's items and the field each must set."""
        if not self.each_item or len(self.paths) != 1 or "*" not in self.paths[0]:
            return None
        path = self.paths[0]
        last = len(path) - 1 - path[::-1].index("*")
        return path[: last + 1], path[last + 1 :]


#: ``excludes``: no comma-separated item of the value contains one of ``values`` (cipher lists)
#: "mode": an octal file mode with no permission bit outside values[0] ("0640 or stricter")
Comparison = Literal["eq", "le", "ge", "between", "excludes", "mode"]


@dataclass(frozen=True)
class ConfigSetting:
    """One setting of a RHEL configuration family (sshd, login.defs, auditd, sysctl).

    ``values`` holds the compliant value(s) for ``eq`` (compared case-insensitively) or the
    bounds for ``le``/``ge``/``between``. ``unset_complies``: the platform default is compliant.
    """

    family: str
    key: str
    comparison: Comparison
    values: tuple[Any, ...]
    unset_complies: bool
    #: PAM files that must call the module, whose ``key=`` argument overrides the files
    pam_files: tuple[str, ...] = ()
    #: every line setting the key must comply, not only the one in force ("on every line")
    every_value: bool = False
    #: values that comply besides the comparison (faillock's ``unlock_time = never``)
    also_complies: tuple[str, ...] = ()
    #: the colon-separated field of the value a bound applies to (sshd's MaxStartups
    #: start:rate:full); a value of one number is every field
    part: int | None = None
    #: another key of the family, and its values, that makes this one moot when in force
    #: (sshd's ``DisableForwarding yes`` turns off TCP forwarding whatever AllowTcpForwarding
    #: says): the setting then complies, set or not
    moot_when: tuple[str, tuple[str, ...]] | None = None
    kind: Literal["config-setting"] = "config-setting"


@dataclass(frozen=True)
class ModuleDisabledCheck:
    """A kernel module modprobe must not load: the FIRST ``install <module>`` rule modprobe reads
    runs one of ``install_commands``, and (``blacklisted``) a ``blacklist <module>`` line exists."""

    module: str
    install_commands: tuple[str, ...] = ("/bin/false", "/bin/true")
    blacklisted: bool = True
    kind: Literal["module-disabled"] = "module-disabled"


@dataclass(frozen=True)
class FilePermissionCheck:
    """Files that must exist (or, with ``only_if_present``, may be absent), owned by
    ``owner``:``group``, with no permission bit outside ``max_mode``."""

    paths: tuple[str, ...]
    max_mode: int
    owner: str = "root"
    group: str = "root"
    #: shell globs of extra files (sshd_config.d/*.conf), judged when present
    globs: tuple[str, ...] = ()
    #: the listed paths must exist (a missing file violates)
    must_exist: bool = False
    #: other groups that may own the files ("apart from the ssh_keys group")
    also_groups: tuple[str, ...] = ()
    #: files that must not exist ("/etc/cron.deny must not exist"); an empty ``owner`` or
    #: ``group`` judges no owner or group (a text about presence alone)
    absent: tuple[str, ...] = ()
    #: file names that must not exist in the home directory of any account /etc/passwd lists
    #: (".rhosts", ".netrc"): the homes are read from the host, wherever they are
    absent_in_homes: tuple[str, ...] = ()
    kind: Literal["file-permissions"] = "file-permissions"


@dataclass(frozen=True)
class AuditWatchCheck:
    """Every path of ``paths`` is watched by the audit rules loaded at boot (the ``*.rules``
    files of /etc/audit/rules.d that augenrules compiles) for every access letter of
    ``permissions`` (``r`` read, ``w`` write, ``x`` execute, ``a`` attribute change), by file
    watches (``-w PATH -p wa``) or syscall rules (``-F path=PATH``/``dir=`` with ``-F perm=wa``)."""

    paths: tuple[str, ...]
    permissions: str = "wa"
    kind: Literal["audit-watch"] = "audit-watch"


@dataclass(frozen=True)
class TableRowCheck:
    """The rows of a system table of one entry per line: a colon-separated account table
    (/etc/passwd, /etc/group, /etc/shadow; ``separator`` ":") or a table of whitespace-separated
    fields (``separator`` "": /etc/shells' one word, fstab's six fields), comments skipped. A
    row is named by its ``name_field`` (the account, the shell, the mount point); only the rows
    named in ``rows`` are judged when it is given, and those not in ``exempt``. A judged row
    violates when its ``field`` is one of ``forbidden`` (a path compared by its last part when
    ``by_name``: /usr/sbin/nologin is nologin), is outside a non-empty ``allowed``, lacks an item
    of ``must_carry`` in its comma-separated list (fstab's mount options), or, with ``unique``,
    when another row holds the same value. An entry of ``required`` (by value or by name) no row
    holds violates too."""

    path: str
    field: int = 0
    separator: str = ":"
    forbidden: tuple[str, ...] = ()
    allowed: tuple[str, ...] = ()
    by_name: bool = False
    exempt: tuple[str, ...] = ()
    unique: bool = False
    required: tuple[str, ...] = ()
    name_field: int = 0
    rows: tuple[str, ...] = ()
    must_carry: tuple[str, ...] = ()
    kind: Literal["table-rows"] = "table-rows"


KubernetesCheck = (
    PodFieldCheck
    | ContainerFieldCheck
    | InheritedSettingCheck
    | ImageRegistryCheck
    | ImageDigestCheck
    | ServiceAccountNameCheck
    | PodAnnotationCheck
    | NamespaceLabelCheck
    | RunAsNonRootCheck
    | CapabilityCheck
    | HostPathVolumeCheck
    | HostPortCheck
    | SecretEnvCheck
    | RbacRuleCheck
    | BindingCheck
    | NamespaceNetworkPolicyCheck
    | IngressTlsCheck
    | DefaultNamespaceCheck
    | FieldValueCheck
    | EffectCheck
    | FieldBoundCheck
    | InheritedBoundCheck
    | FamilyCheck
)
HostCheck = (
    ConfigSetting | FilePermissionCheck | ModuleDisabledCheck | AuditWatchCheck | TableRowCheck
)


@dataclass(frozen=True)
class Intent:
    """What the requirement asks: one or more checks of one platform, and their scope."""

    platform: Literal["kubernetes", "rhel9"]
    checks: tuple[KubernetesCheck, ...] | tuple[HostCheck, ...]
    scope: Scope = field(default_factory=Scope)
    #: the requirement text the intent came from (recorded in the transcript)
    requirement: str = ""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class NotUnderstood:
    """The parser found no known control in the text; the agent writes nothing."""

    reason: str
    requirement: str = ""
