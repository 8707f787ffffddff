"""Fields of pod specs, batch objects and non-pod objects that a requirement describes by what
they do rather than by their name: entries written into the pods' hosts file, a pod bound to a
node by name, the SELinux user and role, a ServiceAccount's own token automount, the access
modes a claim requests, what happens to a released volume, and overlapping scheduled runs.

Each concept reads as one :class:`FieldValueCheck` family ("pod-spec field must be absent",
"object of kind K field F must be one of V"), so a paraphrase of another control of the same
family needs a phrase here, not a renderer. The family comes before the effect family: its
phrases are narrower than the nouns ("Service", "ConfigMap", "persistent volume", "SELinux")
other concepts key on, which otherwise read these texts as a different control.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ciso.agents.baseline.bound_checks import FieldBoundCheck
from ciso.agents.baseline.intent import ContainerList, FieldValueCheck
from ciso.agents.baseline.knowledge import Concept, exempting_clauses, words
from ciso.agents.baseline.knowledge.k8s_bounds import LOWER_AFTER, REQUIRES, bounds, job_paths

# ---- pod-spec fields that must be absent -------------------------------------------------------


def _pod_field_absent(
    concept: str, field: str, written_by_cluster: bool = False
) -> FieldValueCheck:
    """Any value of the pod-spec field violates; an empty list (``hostAliases: []``) does not.
    ``written_by_cluster``: the scheduler sets it in every pod it places (nodeName), so a pod a
    controller created is judged by its controller's template."""
    return FieldValueCheck(
        concept, "pod", ((field,),), any_value=True, owned_pods_by_owner=written_by_cluster
    )


# ---- SELinux user and role ---------------------------------------------------------------------

#: the text leaves the SELinux type to another control ("the user and role part only", "the type
#: is a separate control"): only then is the text about user and role alone
_TYPE_LEFT_OUT = re.compile(
    r"\b(user|role)\b[^.;]{0,40}\bonly\b|\btype\b[^.;]{0,40}\b(separate|another|other|not)\b|"
    r"\bnot\s+(the\s+)?(selinux\s+)?type\b",
    re.I,
)
_NAMES_TYPE = re.compile(r"\btype\b|\b[a-z]+_t\b", re.I)


def _user_and_role_only(text: str) -> bool:
    return not _NAMES_TYPE.search(text) or bool(_TYPE_LEFT_OUT.search(text))


def _selinux_user_role(text: str) -> tuple[FieldValueCheck, ...]:
    """A non-empty seLinuxOptions.user or .role, of the pod or of any container (init and
    ephemeral included), violates; an empty string is the same as unset."""
    paths = (
        ("securityContext", "seLinuxOptions", "user"),
        ("securityContext", "seLinuxOptions", "role"),
    )
    return (
        FieldValueCheck("selinux-user-role", "pod", paths, any_value=True),
        FieldValueCheck("selinux-user-role", "container", paths, any_value=True),
    )


# ---- fields of objects other than pods ---------------------------------------------------------


def _account_automount(text: str) -> FieldValueCheck:
    """The ServiceAccount itself must say automountServiceAccountToken: false; unset mounts."""
    return FieldValueCheck(
        "service-account-automount-off",
        "object",
        (("automountServiceAccountToken",),),
        kinds=("ServiceAccount",),
        allowed=(False,),
        must_be_set=True,
    )


def _shared_writable_claims(text: str) -> FieldValueCheck:
    """A claim (or a StatefulSet's claim template) requesting ReadWriteMany, in any position."""
    return FieldValueCheck(
        "claim-read-write-many",
        "object",
        (
            ("spec", "accessModes", "*"),
            ("spec", "volumeClaimTemplates", "*", "spec", "accessModes", "*"),
        ),
        kinds=("PersistentVolumeClaim", "StatefulSet"),
        forbidden=("ReadWriteMany",),
    )


def _released_volumes_kept(text: str) -> tuple[FieldValueCheck, ...]:
    """Released volumes keep their data: a StorageClass's reclaimPolicy (default Delete) and a
    PersistentVolume's persistentVolumeReclaimPolicy (default Retain for a static volume) must
    be Retain; Recycle scrubs the data and counts as destroying it."""
    return (
        FieldValueCheck(
            "storage-class-reclaim-retain", "object", (("reclaimPolicy",),),
            kinds=("StorageClass",), allowed=("Retain",), must_be_set=True,
        ),
        FieldValueCheck(
            "volume-reclaim-retain", "object", (("spec", "persistentVolumeReclaimPolicy"),),
            kinds=("PersistentVolume",), allowed=("Retain",),
        ),
    )  # fmt: skip


def _immutable_config_maps(text: str) -> FieldValueCheck:
    """ConfigMaps must say immutable: true (unset is mutable), in the namespaces whose label the
    text names; the kube-root-ca.crt ConfigMap Kubernetes publishes is exempt when the text
    says so."""
    exempt = ("kube-root-ca.crt",) if re.search(r"kube-root-ca\.crt", text) else ()
    return FieldValueCheck(
        "config-map-immutable", "object", (("immutable",),), kinds=("ConfigMap",),
        allowed=(True,), must_be_set=True, exempt_names=exempt,
        namespace_labels=namespace_labels(text),
    )  # fmt: skip


def _client_address_kept(text: str) -> FieldValueCheck:
    """Services reachable from outside (NodePort, LoadBalancer) must keep external traffic on
    the receiving node: externalTrafficPolicy Local (default Cluster); internalTrafficPolicy is
    the other direction."""
    return FieldValueCheck(
        "external-traffic-local", "object", (("spec", "externalTrafficPolicy"),),
        kinds=("Service",), allowed=("Local",), must_be_set=True,
        only_when=(("spec", "type"), "ClusterIP", ("NodePort", "LoadBalancer")),
    )  # fmt: skip


def _no_overlapping_runs(text: str) -> FieldValueCheck:
    """A CronJob's concurrencyPolicy must skip (Forbid) or replace (Replace) a run still going;
    unset is Allow."""
    return FieldValueCheck(
        "cronjob-concurrency",
        "object",
        (("spec", "concurrencyPolicy"),),
        kinds=("CronJob",),
        allowed=("Forbid", "Replace"),
        must_be_set=True,
    )


# ---- numeric fields within bounds (read by k8s_bounds) ----------------------------------------


def _grace_window(text: str) -> FieldBoundCheck | None:
    """The pod's terminationGracePeriodSeconds (default 30) within the text's bounds; a probe's
    own override is another field."""
    minimum, maximum = bounds(text, "seconds")
    if minimum is None and maximum is None:
        return None
    return FieldBoundCheck(
        "termination-grace-period", "pod", (("terminationGracePeriodSeconds",),),
        minimum=minimum, maximum=maximum, default=30,
    )  # fmt: skip


def _job_deadline(text: str) -> FieldBoundCheck:
    """A Job's activeDeadlineSeconds (a CronJob's in its jobTemplate) must be set, and at most
    the text's bound; unset means no deadline. The pod template's own field and a CronJob's
    startingDeadlineSeconds bound other things."""
    _, maximum = bounds(text, "seconds")
    return FieldBoundCheck(
        "job-active-deadline", "object", job_paths("activeDeadlineSeconds"),
        kinds=("Job", "CronJob"), maximum=maximum, collects=("jobs", "cronjobs"),
    )  # fmt: skip


def _job_retries(text: str) -> FieldBoundCheck | None:
    """A Job's backoffLimit (a CronJob's in its jobTemplate; the API's default 6) at most the
    text's bound."""
    _, maximum = bounds(text, "count")
    if maximum is None:
        return None
    return FieldBoundCheck(
        "job-backoff-limit", "object", job_paths("backoffLimit"),
        kinds=("Job", "CronJob"), maximum=maximum, default=6, collects=("jobs", "cronjobs"),
    )  # fmt: skip


#: "in namespaces labelled `env: production`", "namespaces with the label tier=prod" (a value
#: ends with a letter or digit: the full stop after it ends the sentence)
_LABELLED = (
    r"\bnamespaces?\s+(?:labell?ed|with\s+(?:the\s+)?label|carrying\s+(?:the\s+)?label)\s+"
    r"[`'\"]?([A-Za-z0-9./-]+)\s*[:=]\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)[`'\"]?"
)
_NAMESPACE_LABEL = re.compile(
    _LABELLED
    # the label given in an aside to the namespaces a text names: "in production namespaces
    # (label env=prod)", "team namespaces (labelled `tier: tenant`)"
    + r"|\bnamespaces?\s*\(\s*(?:the\s+)?(?:namespace\s+)?label(?:l?ed|s)?\s+(?:with\s+)?"
    r"[`'\"]?([A-Za-z0-9./-]+)\s*[:=]\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)[`'\"]?\s*\)",
    re.I,
)

#: a permission limited to labelled namespaces: "pods may run Windows only in namespaces
#: labelled os=windows", "GPUs are allowed only in namespaces carrying the label gpu=yes"; what
#: it permits there, it forbids everywhere else
_PERMITTED_ONLY_IN = re.compile(
    r"\b(?P<verb>may|can|(?:is|are)\s+(?:only\s+)?(?:allowed|permitted|tolerated|accepted))\b"
    r"(?P<what>(?:[^.;:()]|[.:](?=\S)|\([^()]*\))*?)\s*,?\s+(?:only|exclusively)\s+(?:with)?in\s+"
    r"(?:the\s+)?(?:"
    rf"(?P<labels>{_LABELLED}(?:\s*(?:,|and)\s*[`'\"]?[A-Za-z0-9./-]+\s*[:=]\s*"
    r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?[`'\"]?)*)|"
    # "only in kube-system and on Services labelled k=v": a namespace by name, objects by label
    r"[`'\"]?(?P<namespace>[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)[`'\"]?(?:\s+namespace)?\s+(?:and|or)\s+"
    r"(?:on|for)\s+(?:\w+\s+)?(?-i:[A-Z][A-Za-z]+?)s?\s+(?:labell?ed|carrying\s+the\s+label|"
    r"with\s+the\s+label)\s+(?P<object_label>[`'\"]?[A-Za-z0-9./-]+\s*[:=]\s*"
    r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?[`'\"]?))",
    re.I,
)
_LABEL_PAIR = re.compile(
    r"[`'\"]?([A-Za-z0-9./-]+)\s*[:=]\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)[`'\"]?"
)


@dataclass(frozen=True)
class PermittedOnlyIn:
    """A text that permits something only in labelled namespaces, read as the prohibition it
    states for every other namespace (``prohibition``) and the labels that lift it."""

    prohibition: str
    labels: tuple[tuple[str, str], ...]
    #: a namespace the text permits it in by name ("only in kube-system and on ...")
    namespaces: tuple[str, ...] = ()
    #: labels of the objects the text permits it on ("... and on Services labelled k=v")
    object_labels: tuple[tuple[str, str], ...] = ()


def permitted_only_in(text: str) -> PermittedOnlyIn | None:
    """Read "X may do Y only in namespaces labelled k=v" as "X must not do Y" outside them."""
    m = _PERMITTED_ONLY_IN.search(text)
    if not m:
        return None
    phrase = re.sub(r"(?i)^.*?\blabell?ed\b|^.*?\blabel\b", "", m.group("labels") or "")
    labels = tuple((k, v) for k, v in _LABEL_PAIR.findall(phrase))
    named = (m.group("namespace"),) if m.group("namespace") else ()
    on_objects = tuple((k, v) for k, v in _LABEL_PAIR.findall(m.group("object_label") or ""))
    verb = m.group("verb").lower()
    forbid = (
        "must not"
        if verb in ("may", "can")
        else re.sub(r"(?i)\s*(?:only\s+)?(allowed|permitted|tolerated|accepted)$", r" not \1", verb)
    )
    said = f"{forbid}{m.group('what')}"
    return PermittedOnlyIn(text[: m.start()] + said + text[m.end() :], labels, named, on_objects)


def _namespace_labels_in(text: str) -> tuple[tuple[str, str], ...]:
    return tuple(
        (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        for m in _NAMESPACE_LABEL.finditer(text)
    )


def namespace_labels(text: str) -> tuple[tuple[str, str], ...]:
    """The (key, value) labels of the namespaces a text limits its rule to (not those named in
    a clause that exempts them)."""
    return _namespace_labels_in(exempting_clauses(text)[1])


def exempt_namespace_labels(text: str) -> tuple[tuple[str, str], ...]:
    """The labels of the namespaces a clause exempts ("namespaces labelled sandbox=true are out
    of scope")."""
    return _namespace_labels_in(exempting_clauses(text)[0])


#: "pods that carry the label acme.io/tier: "gold"", "pods labelled team=payments"
_POD_LABEL = re.compile(
    r"\bpods?\s+(?:that\s+|which\s+)?(?:carry(?:ing)?|bear(?:s|ing)?|hav(?:e|ing)|with|"
    r"labell?ed)\s+(?:the\s+)?(?:label\s+)?[`'\"]?([A-Za-z0-9./-]+)[`'\"]?\s*[:=]\s*"
    # a value ends with a letter or digit: the full stop after it ends the sentence
    r"[`'\"]?([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)[`'\"]?"
    # a label given in an aside to the workloads a text names: "workloads owned by the payments
    # team (label team=payments)"
    r"|\b(?:pods?|workloads?|applications?|apps?)\b[^.;()]{0,60}\(\s*(?:the\s+)?(?:pod\s+)?"
    r"label(?:l?ed)?\s+[`'\"]?([A-Za-z0-9./-]+)[`'\"]?\s*[:=]\s*[`'\"]?"
    r"([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)[`'\"]?\s*\)",
    re.I,
)


#: "Workloads in namespace `sandbox`", "pods inside the payments namespace": the only namespace
#: judged (a name written after "namespace" must be quoted or carry a dash)
_IN_NAMESPACE = re.compile(
    r"\b(?:in|inside|within)\s+(?:the\s+)?namespace\s+[`'\"]([a-z0-9][a-z0-9-]*)[`'\"]"
    r"|\b(?:in|inside|within)\s+the\s+[`'\"]?([a-z0-9]+(?:-[a-z0-9]+)*)[`'\"]?\s+namespace\b",
    re.I,
)


#: a sentence that sets something apart ("apart from the controller in the ingress-nginx
#: namespace"): the namespace it names is an exemption, not the scope
_SET_APART = re.compile(r"\b(?:apart\s+from|except|other\s+than|besides|exempt\w*)\b", re.I)


def only_namespaces(text: str) -> tuple[str, ...]:
    """The namespaces a text limits its rule to by name ("in namespace `sandbox`")."""
    return tuple(
        dict.fromkeys(
            m.group(1) or m.group(2)
            for sentence in re.split(r"(?<=[.;!?])\s+", text)
            if not _SET_APART.search(sentence)
            for m in _IN_NAMESPACE.finditer(sentence)
        )
    )


def _pod_labels_in(text: str) -> tuple[tuple[str, str], ...]:
    return tuple(
        (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        for m in _POD_LABEL.finditer(text)
    )


def pod_labels(text: str) -> tuple[tuple[str, str], ...]:
    """The (key, value) labels of the pods a text limits its rule to (on the pod itself: a
    workload's pod template), not those a clause exempts."""
    return _pod_labels_in(exempting_clauses(text)[1])


def exempt_pod_labels(text: str) -> tuple[tuple[str, str], ...]:
    """The labels of the pods a clause exempts ("pods labelled break-glass=true are exempt")."""
    return _pod_labels_in(exempting_clauses(text)[0])


#: a label the objects of a rule carry: "autoscalers labelled team=payments", "Services with the
#: label tier: edge", "those owned by the payments team (label team=payments)"; "must carry the
#: label" is a requirement, not a scope, and is not read here
_OBJECT_LABEL = re.compile(
    r"(?:\blabell?ed|\b(?:carrying|bearing|having|with|(?:that|which)\s+(?:carry|bear|have))\s+"
    r"(?:the\s+)?labels?|\(\s*(?:the\s+)?labels?)\s*:?\s+[`'\"]?([A-Za-z0-9./-]+)[`'\"]?\s*[:=]\s*"
    r"[`'\"]?([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)[`'\"]?",
    re.I,
)


def _object_labels_in(text: str) -> tuple[tuple[str, str], ...]:
    """The labels in ``text`` that are not a namespace's or a pod's."""
    elsewhere = {*_namespace_labels_in(text), *_pod_labels_in(text)}
    found = ((m.group(1), m.group(2)) for m in _OBJECT_LABEL.finditer(text))
    return tuple(dict.fromkeys(pair for pair in found if pair not in elsewhere))


def object_labels(text: str) -> tuple[tuple[str, str], ...]:
    """The (key, value) labels the objects a text limits its rule to carry on themselves (not a
    namespace's or a pod's labels, not those a clause exempts)."""
    return _object_labels_in(exempting_clauses(text)[1])


def exempt_object_labels(text: str) -> tuple[tuple[str, str], ...]:
    """The labels of the objects a clause exempts ("autoscalers labelled tier=batch are out of
    scope")."""
    return _object_labels_in(exempting_clauses(text)[0])


#: the words that set a container list apart ("debug containers are exempt"), said of the list
#: as the subject of its clause: a list may go on ("init containers, Jobs and bare pods are out
#: of scope"), a turn starts a clause about something else ("init containers included, but pods
#: in kube-system are exempt"); "not exempt" is no exemption
_LIST_OUT = (
    r"(?![\s,]+(?:included|too|as\s+well|also|count|counts)\b)"
    r"(?:(?!\b(?:but|while|whereas|though|although|however|yet)\b)[^.;]){0,60}?"
    r"\b(?:are|is)\s+(?:also\s+)?(?:out\s+of\s+scope|exempt\w*|excluded|"
    r"not\s+(?:in\s+scope|concerned|judged|checked|covered))"
)
_INIT_OUT = re.compile(rf"\binit(?:iali[sz]ation)?\s+containers?\b{_LIST_OUT}", re.I)
#: ephemeral (debug) containers, however the text calls them ("temporary debug containers"); the
#: API gives them no resources, so a text saying they cannot have any sets them apart too
_DEBUG_OUT = re.compile(
    r"\b(?:ephemeral|debug|temporary)\s+(?:debug\s+)?containers?\b"
    rf"(?:{_LIST_OUT}|[^.;,]{{0,20}}?\bcannot\s+(?:be\s+given|have|set|carry|declare|take)\s+"
    r"(?:any\s+)?(?:resources?|limits|requests)\b)",
    re.I,
)


def lists_in_scope(text: str, lists: tuple[ContainerList, ...]) -> tuple[ContainerList, ...]:
    """``lists`` without the container lists a clause of the text sets apart ("temporary debug
    containers are exempt", "init containers are out of scope"), whatever reading took it."""
    out = set()
    if _INIT_OUT.search(text):
        out.add("initContainers")
    if _DEBUG_OUT.search(text):
        out.add("ephemeralContainers")
    return tuple(c for c in lists if c not in out)


def _replica_minimum(text: str) -> FieldBoundCheck | None:
    """A Deployment's or StatefulSet's spec.replicas (the API's default 1) at least the text's
    minimum, in the namespaces whose label the text names (everywhere when it names none)."""
    minimum, _ = bounds(text, "count")
    if minimum is None:
        return None
    labels = namespace_labels(text)
    return FieldBoundCheck(
        "replica-minimum", "object", (("spec", "replicas"),),
        kinds=("Deployment", "StatefulSet"), minimum=minimum, default=1,
        namespace_labels=labels,
        collects=("deployments", "statefulsets", *(("namespaces",) if labels else ())),
    )  # fmt: skip


_JOBS = words(r"\bjobs?\b", r"\bbatch\b", r"\bcron\s*jobs?\b")

CONCEPTS: tuple[Concept, ...] = (
    Concept(
        "replica-minimum",
        (
            words(r"\breplicas?\b", r"\binstances?\b", r"\bcopies\b"),
            words(r"\bDeployments?\b", r"\bStatefulSets?\b"),
            words(
                r"\bat\s+least\b",
                r"\bminimum\b",
                r"\bfewer\s+than\b",
                r"\bless\s+than\b",
                # the bound after its number, in what the text requires: "must run 3 replicas
                # or more", "3 replicas at the least" ("a Deployment that runs 2 or more
                # replicas must ..." is a condition)
                REQUIRES
                + r"[^.;]{0,30}?\b\d+\s+(replicas?|copies|instances?|pods?)\s*"
                + LOWER_AFTER,
            ),
        ),
        _replica_minimum,
    ),
    Concept(
        "termination-grace-period",
        (
            words(
                r"\bterminationGracePeriodSeconds\b",
                r"\bgrace\s+(period|window|time)\b",
                r"\bshut\s*(down)?\s+(period|window|time)\b",
                r"\b(to|time\s+to)\s+shut\s*down\b",
            ),
            words(r"\bpods?\b", r"\bcontainers?\b", r"\bworkloads?\b"),
        ),
        _grace_window,
    ),
    Concept(
        "job-active-deadline",
        (
            words(
                r"\bactiveDeadlineSeconds\b",
                r"\btime\s+limit\b",
                r"\b(run|active|running)\s+(for\s+)?(at\s+most|no\s+(more|longer)\s+than)\b",
                r"\bdeadline\b",
            ),
            _JOBS,
        ),
        _job_deadline,
        none_of=words(r"\bstartingDeadlineSeconds\s+must\b"),
    ),
    Concept(
        "job-backoff-limit",
        (
            words(r"\bbackoffLimit\b", r"\bretr(y|ies|ied)\b", r"\bre-?run\w*\s+(its\s+)?failed\b"),
            _JOBS,
        ),
        _job_retries,
    ),
    Concept(
        "host-aliases",
        (
            words(
                r"\bhostAliases\b",
                r"(/etc/)?\bhosts\s+files?\b",
                r"/etc/hosts\b",
                r"\bname-to-address\s+entr",
            ),
        ),
        lambda text: _pod_field_absent("host-aliases", "hostAliases"),
    ),
    Concept(
        "node-name-pinning",
        (
            words(
                r"\bnodeName\b",
                r"\b(bypass\w*|skip\w*|circumvent\w*|around)\s+(the\s+)?(kube-)?scheduler\b",
                r"\b(bound|bind|pinned|pin|assigned|assign)\s+(\w+\s+){0,3}to\s+(a|one|the|its)\s+"
                r"(specific\s+|particular\s+)?node\s+(directly\s+)?by\s+(its\s+)?name\b",
                r"\b(bound|bind|pinned|assigned)\s+(\w+\s+){0,2}directly\s+to\s+a\s+node\b",
                r"\b(bound|bind|pinned|assigned)\s+to\s+a\s+node\s+directly\b",
            ),
        ),
        lambda text: _pod_field_absent("node-name", "nodeName", written_by_cluster=True),
    ),
    Concept(
        "selinux-user-role",
        (
            words(r"\bse\s*linux\b", r"seLinuxOptions"),
            words(r"\buser\b"),
            words(r"\brole\b"),
        ),
        _selinux_user_role,
        accepts=_user_and_role_only,
    ),
    Concept(
        "service-account-automount-off",
        (
            words(
                r"\b(every|each|all)\s+service\s*accounts?\b",
                r"\baccounts?\s+(must\s+)?itself\b",
                r"\bservice\s*accounts?\b[^.;]{0,30}\bitself\b",
                r"\bon\s+the\s+(service\s*)?accounts?\b",
            ),
            words(
                r"automount",
                r"\bauto-?mount",
                r"\bautomatic(ally)?\s+mount",
                r"\bmount\w*\b[^.;]{0,40}\btokens?\b",
                r"\btokens?\b[^.;]{0,40}\bmount",
            ),
        ),
        _account_automount,
        # "a ServiceAccount's pods", the pod-level reading: the account is only the way there;
        # who may mint tokens ("create on serviceaccounts/token") is an RBAC right, not a mount
        none_of=words(
            r"\bpods?\s+(on|using|of)\s+the\s+default\b",
            r"\bserviceaccounts/token\b",
            r"\b(cluster)?roles?\b[^.;]{0,60}\bgrants?\b",
        ),
    ),
    Concept(
        "claim-read-write-many",
        (
            words(
                r"\bReadWriteMany\b",
                r"\bRWX\b",
                r"\b(more\s+than\s+one|several|many|multiple)\s+nodes?\b[^.;]{0,40}\bwrite",
                r"\bwrit\w+\b[^.;]{0,40}\b(more\s+than\s+one|several|many|multiple)\s+nodes?\b",
            ),
            words(
                r"\bclaims?\b", r"\bPVCs?\b", r"\bPersistentVolumeClaims?\b", r"\baccess\s*modes?\b"
            ),
        ),
        _shared_writable_claims,
    ),
    Concept(
        "released-volumes-kept",
        (
            words(r"\breleased?\b", r"\breclaim\w*", r"\bdelet\w+\s+(a|the)\s+claim\b"),
            words(r"\bstorage\s*class", r"\bpersistent\s*volumes?\b", r"\bvolumes?\b"),
            words(r"\bkeep", r"\bretain", r"\bpreserv", r"\bdestroy", r"\bdata\b"),
        ),
        _released_volumes_kept,
    ),
    Concept(
        "config-map-immutable",
        (words(r"\bConfig\s*Maps?\b"), words(r"\bimmutable\b")),
        _immutable_config_maps,
    ),
    Concept(
        "external-traffic-local",
        (
            words(
                r"\bexternalTrafficPolicy\b",
                r"\b(real|original|true)\s+(client|source)\s+"
                r"(address|IP)\b",
                r"\bsource\s+(address|IP)\b[^.;]{0,40}\b(preserv|kept|keep|rewrit)",
            ),
            words(r"\bServices?\b"),
        ),
        _client_address_kept,
    ),
    Concept(
        "cronjob-concurrency",
        (
            words(
                r"\bconcurrencyPolicy\b",
                r"\boverlap\w*\b",
                r"\btwo\s+of\s+its\s+runs\b",
                r"\b(runs?|executions?)\b[^.;]{0,40}\bat\s+the\s+same\s+time\b",
                r"\bconcurrent(ly)?\b",
                r"\bstill\s+(going|running|active|in\s+progress)\b",
            ),
            words(r"\bcron\s*jobs?\b", r"\bscheduled\s+(jobs?|runs?|tasks?)\b", r"\bschedules?\b"),
        ),
        _no_overlapping_runs,
    ),
)
