"""Controls read by FAMILY rather than by one field: a numeric bound on a field of a workload
object (a CronJob's missed-run cut-off, a finished Job's time to live, the rollout history a
controller keeps, an autoscaler's replica range, a rollout's progress deadline ...), and
presence or value checks on every container or pod spec (interactive terminals, pull
credentials).

The bound fields are one table of :class:`BoundField` (kinds, spellings, the API's default, the
unit), so a paraphrase or a sibling field needs a row, not a renderer. A field is recognised by
its API name or by what it does; the bound is read from the text in its unit by
``k8s_bounds.bounds`` ("10 minutes (600 seconds)", "24 hours", "at most 3"). These concepts come before the older workload family:
its nouns ("deadline", "history", "Jobs") also occur in these texts for what does NOT count.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

from ciso.agents.baseline.bound_checks import FieldBoundCheck
from ciso.agents.baseline.family_checks import (
    ContainerNumberBoundCheck,
    ContainerRequiresCheck,
    PodLabelsCheck,
    QuantityBoundCheck,
)
from ciso.agents.baseline.intent import FieldValueCheck
from ciso.agents.baseline.knowledge import Concept, exempting_clauses, words
from ciso.agents.baseline.knowledge.k8s_bounds import Unit, bounds, byte_bounds, job_paths
from ciso.agents.baseline.knowledge.k8s_workloads import pod_labels

# ---- numeric fields of workload objects, by family --------------------------------------------


@dataclass(frozen=True)
class BoundField:
    """A numeric field of workload objects: the kinds carrying it, its spellings (the first set
    is its value), the API's default (None: unset has no limit and violates any bound), its
    unit, and which side of a bound it takes (``both``; ``lower`` or ``upper`` when one text
    bounds two fields, an autoscaler's minReplicas and maxReplicas)."""

    concept: str
    kinds: tuple[str, ...]
    paths: tuple[tuple[str, ...], ...]
    collects: tuple[str, ...]
    default: int | None
    unit: Unit
    side: Literal["both", "lower", "upper"] = "both"
    #: a field of list items: only the items whose field (path below the item) holds one of
    #: the values are judged, and the row applies only when the text names one of them
    item_when: tuple[tuple[str, ...], tuple[str, ...]] | None = None


#: "Kubernetes' default of 10", "defaults to 10": the text states the API default
_STATED_DEFAULT = re.compile(r"\bdefault(?:s\s+to|\s+of|\s+is|\s+value\s+of)?\s+(\d+)\b", re.I)

_CONTROLLERS = ("Deployment", "StatefulSet", "DaemonSet")
_CONTROLLERS_COLLECT = ("deployments", "statefulsets", "daemonsets")

STARTING_DEADLINE = BoundField(
    "cronjob-starting-deadline", ("CronJob",), (("spec", "startingDeadlineSeconds"),),
    ("cronjobs",), None, "seconds",
)  # fmt: skip
FINISHED_TTL = BoundField(
    "job-ttl-after-finished", ("Job", "CronJob"), job_paths("ttlSecondsAfterFinished"),
    ("jobs", "cronjobs"), None, "seconds",
)  # fmt: skip
#: how many pods of one Job run at once (unset: one at a time)
JOB_PARALLELISM = BoundField(
    "job-parallelism", ("Job", "CronJob"), job_paths("parallelism"), ("jobs", "cronjobs"), 1,
    "count",
)  # fmt: skip
REVISION_HISTORY = BoundField(
    "revision-history-limit", _CONTROLLERS, (("spec", "revisionHistoryLimit"),),
    _CONTROLLERS_COLLECT, 10, "count",
)  # fmt: skip
PROGRESS_DEADLINE = BoundField(
    "progress-deadline", ("Deployment",), (("spec", "progressDeadlineSeconds"),),
    ("deployments",), 600, "seconds",
)  # fmt: skip
MIN_READY = BoundField(
    "min-ready-seconds", (*_CONTROLLERS, "ReplicaSet"), (("spec", "minReadySeconds"),),
    (*_CONTROLLERS_COLLECT, "replicasets"), 0, "seconds",
)  # fmt: skip
SUCCESSFUL_HISTORY = BoundField(
    "cronjob-successful-history", ("CronJob",), (("spec", "successfulJobsHistoryLimit"),),
    ("cronjobs",), 3, "count",
)  # fmt: skip
FAILED_HISTORY = BoundField(
    "cronjob-failed-history", ("CronJob",), (("spec", "failedJobsHistoryLimit"),),
    ("cronjobs",), 1, "count",
)  # fmt: skip
_HPA = ("HorizontalPodAutoscaler",)
HPA_MIN = BoundField(
    "autoscaler-min-replicas", _HPA, (("spec", "minReplicas"),), ("horizontalpodautoscalers",),
    1, "count", side="lower",
)  # fmt: skip
HPA_MAX = BoundField(
    "autoscaler-max-replicas", _HPA, (("spec", "maxReplicas"),), ("horizontalpodautoscalers",),
    None, "count", side="upper",
)  # fmt: skip
#: the CPU utilisation an autoscaler waits for before it scales out (autoscaling/v2: the
#: target of its cpu Resource metric; the API serves v1's targetCPUUtilizationPercentage so)
HPA_CPU_TARGET = BoundField(
    "autoscaler-cpu-target", _HPA,
    (("spec", "metrics", "*", "resource", "target", "averageUtilization"),),
    ("horizontalpodautoscalers",), None, "percent",
    item_when=(("resource", "name"), ("cpu",)),
)  # fmt: skip


#: a sentence that takes kinds out of a check: "Deployments are not judged", "Jobs are out of
#: scope", "DaemonSets are exempt"; the kinds named before these words are the ones left out
_NOT_JUDGED = re.compile(
    r"\b(?:are|is)\s+(?:not\s+(?:judged|assessed|audited|checked|in\s+scope)|out\s+of\s+scope|"
    r"exempt)\b",
    re.I,
)


def _kinds_left_out(text: str) -> set[str]:
    """The workload kinds a sentence of the text says are not judged."""
    left_out: set[str] = set()
    for sentence in re.split(r"(?<=[.;!?])\s+", text):
        verdict = _NOT_JUDGED.search(sentence)
        if verdict:
            named = _KIND_WORD.findall(sentence[: verdict.start()])
            left_out.update(_WORKLOAD_KIND_NAMES[k.lower()] for k in named)
    if "Deployment" in left_out:
        left_out.add("ReplicaSet")  # a Deployment's rollout unit, left out with it
    return left_out


def _judged(f: BoundField, text: str) -> BoundField:
    """``f`` without the kinds the text leaves out (all of them left out: the text is not
    about kinds, keep the table's)."""
    left_out = _kinds_left_out(text)
    kinds = tuple(k for k in f.kinds if k not in left_out)
    if not kinds or kinds == f.kinds:
        return f
    gone = {k.lower() + "s" for k in f.kinds if k not in kinds}
    collects = tuple(c for c in f.collects if c not in gone)
    return replace(f, kinds=kinds, collects=collects)


def _bound_checks(*fields: BoundField) -> Callable[[str], tuple[FieldBoundCheck, ...] | None]:
    """The checks of the fields a text bounds, on the kinds it judges; a default the text
    states wins over the table."""

    def build(text: str) -> tuple[FieldBoundCheck, ...] | None:
        checks = []
        for f in (_judged(f, text) for f in fields):
            if f.item_when and not any(
                re.search(rf"\b{re.escape(v)}\b", text, re.I) for v in f.item_when[1]
            ):
                continue
            minimum, maximum = bounds(text, f.unit)
            if f.side == "lower":
                maximum = None
            elif f.side == "upper":
                minimum = None
            if minimum is None and maximum is None:
                continue
            stated = _STATED_DEFAULT.search(text) if len(fields) == 1 else None
            default = int(stated.group(1)) if stated and f.default is not None else f.default
            if f.item_when and default is None:
                # an item that does not carry the field (a metric targeted by value, not by
                # utilisation) is not what the bound judges
                default = maximum if maximum is not None else minimum
            checks.append(
                FieldBoundCheck(
                    f.concept, "object", f.paths, kinds=f.kinds, minimum=minimum,
                    maximum=maximum, default=default, collects=f.collects,
                    item_when=f.item_when,
                )
            )  # fmt: skip
        return tuple(checks) or None

    return build


# ---- container and pod-spec fields ------------------------------------------------------------


def _interactive(text: str) -> FieldValueCheck:
    """stdin (its once-only variant stdinOnce needs stdin) or tty true on any container."""
    return FieldValueCheck(
        "container-interactive", "container", (("stdin",), ("tty",)), forbidden=(True,)
    )


def _pull_secrets(text: str) -> FieldValueCheck:
    """The pod spec itself names a pull secret: an empty list or unnamed entries name none (a
    ServiceAccount's secrets are not in the manifest judged)."""
    return FieldValueCheck(
        "pod-image-pull-secrets", "pod", (("imagePullSecrets", "*", "name"),), must_be_set=True
    )


#: the privileged port range ends below 1024 (binding one needs CAP_NET_BIND_SERVICE)
_FIRST_UNPRIVILEGED_PORT = 1024


def _container_ports(text: str) -> ContainerNumberBoundCheck:
    """Each declared containerPort within the text's bounds; "privileged ports" with no number
    are those below 1024. Service ports and hostPorts are other fields."""
    minimum, maximum = bounds(text, "count")
    if minimum is None and maximum is None:
        minimum = _FIRST_UNPRIVILEGED_PORT
    return ContainerNumberBoundCheck(
        "container-port-range", ("ports", "*", "containerPort"), minimum, maximum
    )


_WORKLOAD_KIND_NAMES = {
    "deployment": "Deployment", "statefulset": "StatefulSet", "daemonset": "DaemonSet",
    "replicaset": "ReplicaSet", "cronjob": "CronJob", "job": "Job", "pod": "Pod",
}  # fmt: skip
_KIND_WORD = re.compile(
    r"\b(deployment|statefulset|daemonset|replicaset|cronjob|job|pod)s?\b", re.I
)
#: "(Deployments and StatefulSets only)", "only Deployments and StatefulSets are audited"
_ONLY_KINDS = re.compile(
    r"\(([^()]*)\bonly\)|\bonly\s+((?:(?:bare\s+)?[A-Za-z]+s?(?:,\s*|\s+and\s+|\s+or\s+)?){1,6})|"
    r"((?:[A-Za-z]+s?(?:,\s*|\s+and\s+|\s+or\s+)){0,5}[A-Za-z]+s?)\s+only\b",
    re.I,
)


def _kinds_only(text: str) -> tuple[str, ...]:
    """The workload kinds the text limits a check to; none: every pod-carrying kind."""
    for m in _ONLY_KINDS.finditer(text):
        named = [
            _WORKLOAD_KIND_NAMES[k.lower()]
            for k in _KIND_WORD.findall(next(g for g in m.groups() if g))
        ]
        if named:
            return tuple(dict.fromkeys(named))
    # "the regular containers of Deployments, StatefulSets and DaemonSets"
    listed = _CONTAINERS_OF.search(text)
    if listed:
        return tuple(dict.fromkeys(_WORKLOAD_KIND_NAMES[k.lower()]
                                   for k in _KIND_WORD.findall(listed.group(1))))  # fmt: skip
    return ()


_KIND_LIST = r"(?:deployment|statefulset|daemonset|replicaset|cronjob|job|pod)s?"
#: the kinds a text gives as where the judged containers live
_CONTAINERS_OF = re.compile(
    r"\bcontainers\s+(?:of|in)\s+(?:the\s+)?(" + _KIND_LIST + r"(?:(?:,\s*|\s+and\s+|\s+or\s+|"
    r",\s+and\s+)" + _KIND_LIST + r")*)\b",
    re.I,
)


#: a condition on the containers judged: those that declare a port ("serving", "listens")
_SERVING = re.compile(
    r"\b(declares?|declaring|exposes?|exposing|with)\s+(a\s+|any\s+)?(container\s*)?ports?\b|"
    r"\b(serving|listening)\s+containers?\b|\bcontainers?\s+that\s+(serve|listen)\b|"
    r"\bports?\s+(it|they)\s+listens?\b",
    re.I,
)


def _when_serving(text: str) -> tuple[str, ...]:
    return ("ports",) if _SERVING.search(text) else ()


#: a prohibition that governs the hook ("must not declare preStop hooks that ...", "no container
#: may use a preStop"): the text forbids (a kind of) hook, it does not require one
_FORBIDS_PRE_STOP = re.compile(
    r"\b(?:(?:must|may|should|shall|can)\s*(?:not|never|n't)|no\s+\w+\s+(?:may|can|shall))\s+"
    r"(?:\w+\s+){0,3}pre-?stop\b",
    re.I,
)


def _pre_stop(text: str) -> ContainerRequiresCheck | None:
    """A regular container (of the kinds the text names) must have a preStop hook of any
    handler; postStart is not one. None for a text that forbids the hook (the schema reading
    says which handler it forbids)."""
    if _FORBIDS_PRE_STOP.search(text):
        return None
    return ContainerRequiresCheck(
        "container-pre-stop", ("lifecycle", "preStop"), _when_serving(text), _kinds_only(text)
    )


_PROBES = (
    ("liveness", "livenessProbe"),
    ("readiness", "readinessProbe"),
    ("startup", "startupProbe"),
)


_DISCOUNTED = re.compile(
    r"\b(replaces?\s+neither|does\s+not\s+(count|replace)|is\s+not\s+(a|enough)|not\s+a\s+substitute)\b",
    re.I,
)


def _probes(text: str) -> tuple[ContainerRequiresCheck, ...] | None:
    """Each probe the text names, on every regular container (or the serving ones)."""
    # a probe named only as what does not count ("a startup check replaces neither") is not asked
    sentences = [x for x in re.split(r"(?<=[.;])\s+", text) if not _DISCOUNTED.search(x)]
    named = [
        (word, field)
        for word, field in _PROBES
        if any(re.search(rf"\b{word}\b|\b{field}\b", x, re.I) for x in sentences)
    ]
    return (
        tuple(
            ContainerRequiresCheck(
                f"container-{word}-probe", (f,), _when_serving(text), _kinds_only(text)
            )
            for word, f in named
        )
        or None
    )


#: a label key with a DNS prefix ("app.kubernetes.io/name"), as the text spells it
_LABEL_KEY = re.compile(
    r"(?<![\w./-])([a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9-]+)+/[A-Za-z0-9][A-Za-z0-9_.-]*[A-Za-z0-9])"
)


def _pod_labels(text: str) -> PodLabelsCheck | None:
    # a label that picks the pods judged ("pods that carry the label X: y must ...") is the
    # scope, not a label every pod must carry
    scoping = {key for key, _ in pod_labels(text)}
    keys = tuple(
        dict.fromkeys(m.group(1) for m in _LABEL_KEY.finditer(text) if m.group(1) not in scoping)
    )
    return PodLabelsCheck("pod-labels", keys) if keys else None


# ---- sizes of claimed storage -----------------------------------------------------------------


def _claim_size(text: str) -> QuantityBoundCheck | None:
    """The storage each claim requests, a StatefulSet's claim templates included, within the
    text's bounds in bytes."""
    low, high = byte_bounds(text)
    if high is None and low is None:
        return None
    return QuantityBoundCheck(
        "claim-size",
        (
            ("PersistentVolumeClaim", ("spec", "resources", "requests", "storage")),
            ("StatefulSet", ("spec", "volumeClaimTemplates", "*", "spec", "resources",
                             "requests", "storage")),
        ),
        minimum=low,
        maximum=high,
    )  # fmt: skip


#: the mode the API gives the files of a Secret, ConfigMap or projected volume without defaultMode
DEFAULT_VOLUME_FILE_MODE = 0o644
#: an octal file mode as written ("0440", "0o440")
_OCTAL_MODE = re.compile(r"\b0o?([0-7]{3})\b")
_MODE_SOURCES = {"secret": r"\bsecrets?\b", "configMap": r"\bconfig\s*maps?\b"}


def _volume_file_mode(text: str) -> tuple[FieldBoundCheck, ...] | None:
    """The files of the volume sources the text names (a Secret, a ConfigMap) get a
    ``defaultMode`` no greater than the octal mode it writes; the API serves modes in decimal
    (``0440`` is 288) and an unset mode is 0644. Compared as numbers, as "at most 0440" reads."""
    modes = [int(m.group(1), 8) for m in _OCTAL_MODE.finditer(text)]
    sources = [key for key, pattern in _MODE_SOURCES.items() if re.search(pattern, text, re.I)]
    if not modes or not sources:
        return None
    return tuple(
        FieldBoundCheck(
            concept=f"{key.lower()}-volume-mode",
            level="pod",
            paths=(("volumes", "*", key, "defaultMode"),),
            maximum=min(modes),
            default=DEFAULT_VOLUME_FILE_MODE,
            collects=(
                "pods",
                "deployments",
                "statefulsets",
                "daemonsets",
                "replicasets",
                "jobs",
                "cronjobs",
            ),
        )  # fmt: skip
        for key in sources
    )


_CRON = words(r"\bcron\s*jobs?\b", r"\bscheduled\s+(jobs?|runs?|tasks?)\b", r"\bschedules?\b")

CONCEPTS: tuple[Concept, ...] = (
    Concept(
        "volume-file-mode",
        (
            words(r"\bdefaultMode\b", r"\bfile\s+mode\b", r"\b(world|other)-?\s*readable\b"),
            words(r"\bvolumes?\b"),
            (_OCTAL_MODE,),
        ),
        _volume_file_mode,
    ),
    Concept(
        "cronjob-starting-deadline",
        (
            words(
                r"\bstartingDeadlineSeconds\b",
                r"\bstarting\s+deadline\b",
                r"\bmissed\b",
                r"\bafter\s+(its|their|the)\s+scheduled\s+time\b",
                r"\bstart(ed|s)?\s+late\b",
            ),
            _CRON,
        ),
        _bound_checks(STARTING_DEADLINE),
    ),
    Concept(
        "job-ttl-after-finished",
        (
            words(
                r"\bttlSecondsAfterFinished\b",
                r"\bafter\s+(it|they|the\s+job)\s+(finish|complet)\w*",
                r"\bfinished\s+jobs?\b[^.;]{0,60}\b(delet|remov|clean)",
                r"\b(delet|remov|clean)\w*\b[^.;]{0,60}\bafter\b[^.;]{0,30}\b(finish|complet)",
                r"\btime\s+to\s+live\b",
            ),
            words(r"\bjobs?\b"),
        ),
        _bound_checks(FINISHED_TTL),
    ),
    Concept(
        "job-parallelism",
        (
            # by its effect only: a text that spells `parallelism` is read by the schema
            # reader, which also reads its namespace labels
            words(
                r"\bpods\b[^.;]{0,20}\b(at\s+the\s+same\s+time|at\s+once|in\s+parallel|"
                r"simultaneously|concurrently)\b",
            ),
            words(r"\bjobs?\b"),
        ),
        _bound_checks(JOB_PARALLELISM),
    ),
    Concept(
        "revision-history-limit",
        (
            words(
                r"\brevisionHistoryLimit\b",
                r"\b(old|previous|past)\s+(revisions|replica\s*sets)\b",
                r"\brollout\s+history\b",
                r"\brevision\s+history\b",
            ),
            words(r"\bDeployments?\b", r"\bStatefulSets?\b", r"\bDaemonSets?\b", r"\brollouts?\b"),
        ),
        _bound_checks(REVISION_HISTORY),
    ),
    Concept(
        "autoscaler-replicas",
        (
            words(
                r"\bHorizontalPodAutoscalers?\b",
                r"\b(horizontal\s+)?(pod\s+)?autoscalers?\b",
                r"\bHPAs?\b",
            ),
            words(r"\breplicas?\b", r"\bminReplicas\b", r"\bmaxReplicas\b", r"\bscale\b"),
        ),
        _bound_checks(HPA_MIN, HPA_MAX, HPA_CPU_TARGET),
    ),
    Concept(
        "progress-deadline",
        (
            words(
                r"\bprogressDeadlineSeconds\b",
                r"\bprogress\s+deadline\b",
                r"\b(rollouts?|Deployments?)\b[^.;]{0,60}\b(stall\w*|stuck|no\s+progress|"
                r"fail\w*\s+to\s+progress|(stops?|stopped|ceases?|ceased)\s+(making\s+)?"
                r"progress\w*)\b",
            ),
        ),
        _bound_checks(PROGRESS_DEADLINE),
    ),
    Concept(
        "min-ready-seconds",
        (words(r"\bminReadySeconds\b", r"\bready\s+for\s+at\s+least\b"),),
        _bound_checks(MIN_READY),
    ),
    Concept(
        "cronjob-job-history",
        (
            words(
                r"\b(successful|failed)JobsHistoryLimit\b",
                r"\b(successful|completed|failed)\s+jobs?\b[^.;]{0,40}\b(keep|kept|retain|history)",
            ),
            _CRON,
        ),
        lambda text: _bound_checks(
            *(
                f
                for f, name in ((SUCCESSFUL_HISTORY, "success|complet"), (FAILED_HISTORY, "fail"))
                if re.search(r"\b(" + name + r")", text, re.I)
            )
        )(text),
        none_of=words(r"\bhistory\b[^.;]{0,40}\b(do|does)\s+not\s+count\b"),
    ),
    Concept(
        "container-interactive",
        (
            words(
                r"\bstdin\b",
                r"\btty\b",
                r"\bstandard\s+input\b",
                r"\b(allocate|attach)\w*\s+(a\s+)?(pseudo-?)?terminal\b",
                r"\binteractive\s+(use|terminals?|sessions?)\b",
            ),
            words(r"\bcontainers?\b", r"\bpods?\b"),
        ),
        _interactive,
        # who may open a shell in a pod is an RBAC right, not a container setting
        none_of=words(r"\b(cluster)?roles?\b", r"\bgrant\w*\b", r"\bpods/(exec|attach)\b"),
    ),
    Concept(
        "pod-image-pull-secrets",
        (
            words(
                r"\bimagePullSecrets\b",
                r"\b(image\s+)?pull\s+(credentials?|secrets?)\b",
                r"\bregistry\s+credentials?\b",
            ),
            words(r"\bpods?\b", r"\bpod\s+(specs?|templates?)\b"),
        ),
        _pull_secrets,
    ),
    Concept(
        "container-port-range",
        (
            words(
                r"\bcontainerPorts?\b",
                r"\b(listens?|listening|bind|binds|binding)\b[^.;]{0,40}\bports?\b",
                r"\bprivileged\s+ports?\b",
            ),
            words(r"\bcontainers?\b", r"\bapplications?\b", r"\bpods?\b"),
        ),
        _container_ports,
        none_of=words(r"\bhostPorts?\b", r"\bhost\s+ports?\b", r"\bnode'?s?\s+ports?\b"),
    ),
    Concept(
        "container-pre-stop",
        (words(r"\bpre-?stop\b", r"\b(shutdown|termination|stop)\s+hooks?\b"),),
        _pre_stop,
    ),
    Concept(
        "container-probes",
        (
            words(r"\b(liveness|readiness|startup)(Probe)?\b"),
            words(r"\bprobes?\b", r"Probe\b", r"\b(liveness|readiness)\s+checks?\b"),
            words(r"\bcontainers?\b"),
        ),
        _probes,
    ),
    Concept(
        "pod-labels",
        (
            # "Pod Security" (its standards, its admission labels) names a standard, not pods
            words(
                r"\b(pods?|pod\s+templates?)\b(?![\s-]security)[^.;]{0,80}\blabels?\b",
                r"\blabels?\b[^.;]{0,80}\bpods?\b(?![\s-]security)",
            ),
        ),
        _pod_labels,
        none_of=words(r"\bnamespaces?\b[^.;]{0,40}\blabel", r"\bselectors?\b"),
        # pods and labels named only where the text exempts them ("pods carrying the label
        # x=y are exempt") are an exemption of another control, not labels pods must carry
        accepts=lambda text: bool(
            re.search(
                r"\bpods?\b[^.;]{0,80}\blabels?\b|\blabels?\b[^.;]{0,80}\bpods?\b",
                exempting_clauses(text)[1],
                re.I,
            )
        ),
    ),
    Concept(
        "claim-size",
        (
            words(
                r"\bclaims?\b",
                r"\bPVCs?\b",
                r"\bPersistentVolumeClaims?\b",
                r"\bpersistent\s+volumes?\b",
                r"\bvolumeClaimTemplates\b",
            ),
            words(
                r"\bstorage\b",
                r"\bsize\b",
                r"\blarger\b",
                r"\bbigger\b",
                r"\bcapacity\b",
                r"\b\d+\s*[KMGTP]i?B?\b",
            ),
        ),
        _claim_size,
    ),
)
