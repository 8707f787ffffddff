"""Qualifiers read by their structure, not by the words of one control (issue 32 item 6):
namespaces exempted by the start or end of their name, a way of meeting a control that the
text says does NOT meet it, a control stated by its effect (a process gaining more privileges
than its parent), and the items of a list narrowed by a field of their own ("whose medium is
Memory"). Each requirement and object is written for this test; every rendered class (Kyverno,
kubectl-opa Rego, opa-static Rego) is judged by the real engines and must flag exactly the
violating objects, not the near misses."""

from __future__ import annotations

from typing import Any

import pytest

from ciso.agents.baseline.parser import scope_of
from tests._support.ciso_baseline import (
    CLASSES,
    api_object,
    assert_flags_exactly_the_violations,
    flagged,
    images_spec,
    intent_of,
    labelled_namespace,
    pod_carrier,
    privileged_spec,
    secured_container,
)


def _host_port(port: int | None) -> dict[str, Any]:
    container: dict[str, Any] = {"name": "web", "image": "registry.example/web:3.0"}
    if port is not None:
        container["ports"] = [{"containerPort": 8080, "hostPort": port}]
    return {"containers": [container]}


#: namespaces exempted by how their name starts: "edge" and "xedge-a" do not start with "edge-"
PREFIX_EXEMPT = (
    "No container may publish a hostPort. Namespaces whose names start with edge- are out of "
    "scope for this control.",
    [
        pod_carrier("Deployment", "shop-web", _host_port(8443), "shop"),
        pod_carrier("Pod", "bare-edge", _host_port(9000), "edge"),
        pod_carrier("DaemonSet", "near-miss", _host_port(9100), "xedge-a"),
    ],
    [
        pod_carrier("DaemonSet", "ingress-agent", _host_port(443), "edge-gw"),
        pod_carrier("CronJob", "probe", _host_port(9200), "edge-lab"),
        pod_carrier("Deployment", "quiet", _host_port(None), "shop"),
    ],
)


def _drops(*caps: str) -> dict[str, Any]:
    return {"containers": [secured_container(capabilities={"drop": list(caps)})]}


#: the same structure on another control, with the prefix said as "prefixed with"
PREFIXED_WITH = (
    "Every container has to drop ALL Linux capabilities; any namespace prefixed with infra- "
    "is excluded.",
    [
        pod_carrier("Deployment", "api", _drops("NET_RAW"), "payments"),
        pod_carrier("Job", "seed", {"containers": [{"name": "s", "image": "r.example/s:1"}]}),
    ],
    [
        pod_carrier("DaemonSet", "net-agent", _drops("NET_RAW"), "infra-net"),
        pod_carrier("Deployment", "api-ok", _drops("ALL"), "payments"),
    ],
)


#: namespaces exempted by how their name ends
SUFFIX_EXEMPT = (
    "Privileged containers (securityContext.privileged: true) are forbidden, except in "
    "namespaces whose name ends with -lab.",
    [
        pod_carrier("Deployment", "miner", privileged_spec(True), "finance"),
        pod_carrier("Pod", "lab-shell", privileged_spec(True), "lab-tools"),
    ],
    [
        pod_carrier("Pod", "experiment", privileged_spec(True), "chem-lab"),
        pod_carrier("Deployment", "calm", privileged_spec(False), "finance"),
    ],
)


def _user(uid: int | None = None, non_root: bool | None = None) -> dict[str, Any]:
    security: dict[str, Any] = {}
    if uid is not None:
        security["runAsUser"] = uid
    if non_root is not None:
        security["runAsNonRoot"] = non_root
    return {"containers": [secured_container(**security)]}


#: a non-zero user id named only to say it does not meet the control
UID_IS_NOT_ENOUGH = (
    "Every container must be marked runAsNonRoot: true, on itself or through its pod. A "
    "runAsUser other than 0 on its own is not sufficient.",
    [
        pod_carrier("Deployment", "numbered", _user(uid=4000)),
        pod_carrier("Job", "as-root", _user(uid=0)),
    ],
    [
        pod_carrier("Deployment", "declared", _user(non_root=True)),
        pod_carrier("StatefulSet", "both", _user(uid=4000, non_root=True)),
    ],
)

#: a non-zero user id accepted, with a denial said of something else after "but"
UID_ACCEPTED = (
    "Containers must not run as root: runAsNonRoot: true passes, and so does a non-zero "
    "runAsUser, but a container that sets neither does not satisfy this.",
    [
        pod_carrier("Deployment", "silent", _user()),
        pod_carrier("Pod", "root-id", _user(uid=0)),
    ],
    [
        pod_carrier("Deployment", "numbered", _user(uid=4000)),
        pod_carrier("Deployment", "declared", _user(non_root=True)),
    ],
)


#: a tag named beside the digest only to say it is not enough: the digest stays required
DIGEST_ONLY = (
    "Each image must be pinned to an immutable sha256 digest; a release tag or a digest-less "
    "reference is not enough.",
    [
        pod_carrier("Deployment", "tagged", images_spec("registry.example/api:7.1.0")),
        pod_carrier("CronJob", "bare", images_spec("registry.example/tools/report")),
    ],
    [pod_carrier("Deployment", "pinned", images_spec("registry.example/api@sha256:" + "cd" * 32))],
)


def _escalation(value: bool | None, *, init: bool = False) -> dict[str, Any]:
    security = {} if value is None else {"allowPrivilegeEscalation": value}
    spec: dict[str, Any] = {"containers": [secured_container(allowPrivilegeEscalation=False)]}
    if init:
        spec["initContainers"] = [secured_container(**security)]
    else:
        spec["containers"] = [secured_container(**security)]
    return spec


#: allowPrivilegeEscalation said by its effect, and unset named as not complying
ESCALATION_BY_EFFECT = (
    "A process inside a container must never be able to gain elevated privileges over the "
    "process that started it, e.g. through a setuid helper. Every container, init containers "
    "too, has to state this; leaving it to the runtime default is a finding.",
    [
        pod_carrier("Deployment", "unset-init", _escalation(None, init=True)),
        pod_carrier("CronJob", "allowed", _escalation(True)),
        pod_carrier("Pod", "silent", _escalation(None)),
    ],
    [
        pod_carrier("Deployment", "locked", _escalation(False)),
        pod_carrier("Job", "locked-init", _escalation(False, init=True)),
    ],
)

#: the field's own documentation wording: more privileges than its parent process
ESCALATION_PARENT = (
    "Workloads must not let their processes obtain more privileges than their parent process; "
    "this has to be set explicitly in every container.",
    [
        pod_carrier("StatefulSet", "db", _escalation(None)),
        pod_carrier("Deployment", "tool", _escalation(True, init=True)),
    ],
    [pod_carrier("Deployment", "locked", _escalation(False))],
)


def _volumes(*volumes: dict[str, Any]) -> dict[str, Any]:
    return {"containers": [{"name": "a", "image": "r.example/a:1"}], "volumes": list(volumes)}


def _empty_dir(name: str, **source: str) -> dict[str, Any]:
    return {"name": name, "emptyDir": dict(source)}


#: the items judged are those whose own field has the value the clause names
ITEMS_BY_FIELD = (
    "Every emptyDir volume whose medium is Memory has to set a sizeLimit, as tmpfs eats into "
    "the node's RAM; disk-backed scratch space is not judged.",
    [
        pod_carrier(
            "Deployment",
            "second-tmpfs",
            _volumes(_empty_dir("disk"), _empty_dir("ram", medium="Memory")),
        ),
        pod_carrier("CronJob", "ram-only", _volumes(_empty_dir("ram", medium="Memory"))),
    ],
    [
        pod_carrier("Deployment", "disk-only", _volumes(_empty_dir("scratch"))),
        pod_carrier("Deployment", "default-medium", _volumes(_empty_dir("s", medium=""))),
        pod_carrier(
            "DaemonSet",
            "bounded",
            _volumes(_empty_dir("ram", medium="Memory", sizeLimit="64Mi")),
        ),
        pod_carrier(
            "Pod",
            "config",
            _volumes({"name": "cfg", "configMap": {"name": "settings"}}),
        ),
    ],
)

#: the same medium said by where the volume lives, with no field named
RAM_BY_EFFECT = (
    "Every scratch volume kept in the node's memory has to be bounded in size.",
    [
        pod_carrier("StatefulSet", "cache", _volumes(_empty_dir("ram", medium="Memory"))),
        pod_carrier(
            "Job",
            "second-ram",
            _volumes(
                _empty_dir("ram-a", medium="Memory", sizeLimit="1Gi"),
                _empty_dir("ram-b", medium="Memory"),
            ),
        ),
    ],
    [
        pod_carrier("Deployment", "disk", _volumes(_empty_dir("scratch"))),
        pod_carrier("Pod", "capped", _volumes(_empty_dir("r", medium="Memory", sizeLimit="8Mi"))),
    ],
)


def _autoscaler(
    name: str, namespace: str, minimum: int | None, cpu: int | None, memory: int | None = None
) -> dict[str, Any]:
    metrics = [
        {
            "type": "Resource",
            "resource": {
                "name": resource,
                "target": {"type": "Utilization", "averageUtilization": value},
            },
        }
        for resource, value in (("memory", memory), ("cpu", cpu))
        if value is not None
    ]
    spec: dict[str, Any] = {
        "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": name},
        "maxReplicas": 9,
        "metrics": metrics,
    }
    if minimum is not None:
        spec["minReplicas"] = minimum
    return api_object("autoscaling/v2", "HorizontalPodAutoscaler", name, namespace, spec=spec)


#: namespaces limited by a label in an aside; a replica floor and a percentage on one kind
AUTOSCALER_BOUNDS = (
    "Autoscalers in core namespaces (label tier=core) must keep at least 3 replicas, and no "
    "HPA may let CPU utilisation exceed 70 percent before it scales out.",
    [
        {
            "apiVersion": "v1",
            "kind": "Namespace",
            "metadata": {"name": "core-a", "labels": {"tier": "core"}},
        },
        {
            "apiVersion": "v1",
            "kind": "Namespace",
            "metadata": {"name": "lab", "labels": {"tier": "lab"}},
        },
        _autoscaler("few", "core-a", 2, 60),
        _autoscaler("default-floor", "core-a", None, 50),
        _autoscaler("hot", "core-a", 4, 85),
    ],
    [
        _autoscaler("exact", "core-a", 3, 70, memory=95),
        _autoscaler("lab-few", "lab", 1, 99),
    ],
)


def _labelled(workload: dict[str, Any], **labels: str) -> dict[str, Any]:
    """``workload`` whose pods carry ``labels`` (a bare Pod itself, a workload's template)."""
    spec = workload["spec"].get("jobTemplate", {}).get("spec", workload["spec"])
    holder = workload["metadata"] if workload["kind"] == "Pod" else spec["template"]["metadata"]
    holder.setdefault("labels", {}).update(labels)
    return workload


#: namespaces exempted by a label: the label sets them apart, it does not limit the rule to them
NAMESPACE_LABEL_EXEMPT = (
    "No container may publish a hostPort; namespaces labelled network.example/edge=true are "
    "out of scope.",
    [
        labelled_namespace("gateway", **{"network.example/edge": "true"}),
        labelled_namespace("shop", **{"network.example/edge": "false"}),
        pod_carrier("Deployment", "shop-web", _host_port(8443), "shop"),
        pod_carrier("Pod", "unlabelled-ns", _host_port(9000), "team"),
    ],
    [pod_carrier("DaemonSet", "edge-proxy", _host_port(443), "gateway")],
)

#: pods exempted by a label of their own, on another control
POD_LABEL_EXEMPT = (
    "Containers must never run privileged (securityContext.privileged: true). Pods carrying "
    "the label ops.example/break-glass=approved are exempt.",
    [
        pod_carrier("Deployment", "rogue", privileged_spec(True)),
        _labelled(
            pod_carrier("CronJob", "other-value", privileged_spec(True)),
            **{"ops.example/break-glass": "pending"},
        ),
    ],
    [
        _labelled(
            pod_carrier("DaemonSet", "approved", privileged_spec(True)),
            **{"ops.example/break-glass": "approved"},
        ),
        _labelled(
            pod_carrier("Pod", "approved-pod", privileged_spec(True)),
            **{"ops.example/break-glass": "approved"},
        ),
        pod_carrier("Deployment", "calm", privileged_spec(False)),
    ],
)

CASES = {
    "namespace-label-exempt": NAMESPACE_LABEL_EXEMPT,
    "pod-label-exempt": POD_LABEL_EXEMPT,
    "ram-by-effect": RAM_BY_EFFECT,
    "autoscaler-bounds": AUTOSCALER_BOUNDS,
    "prefix-exempt": PREFIX_EXEMPT,
    "prefixed-with": PREFIXED_WITH,
    "suffix-exempt": SUFFIX_EXEMPT,
    "uid-is-not-enough": UID_IS_NOT_ENOUGH,
    "uid-accepted": UID_ACCEPTED,
    "digest-only": DIGEST_ONLY,
    "escalation-by-effect": ESCALATION_BY_EFFECT,
    "escalation-parent": ESCALATION_PARENT,
    "items-by-field": ITEMS_BY_FIELD,
}


@pytest.mark.parametrize("ciso_class", CLASSES)
@pytest.mark.parametrize("case", sorted(CASES))
def test_each_class_flags_exactly_the_violations(case: str, ciso_class: str) -> None:
    assert_flags_exactly_the_violations(CASES[case], ciso_class)


@pytest.mark.parametrize(
    ("text", "exempt"),
    [
        ("Skip the namespaces starting with sys- when judging host ports.", ("sys-*",)),
        ("Host ports are forbidden; namespaces with the prefix tmp- are not covered.", ("tmp-*",)),
        ("No hostPath volumes, except in the `ci-*` namespaces.", ("ci-*",)),
        # "except in namespaces ..." names no namespace called "in"
        ("No hostPath volumes except in namespaces whose names begin with build-.", ("build-*",)),
        # a prefix named where nothing is exempted limits nothing
        ("Namespaces whose names start with team- must carry an owner label.", ()),
    ],
)
def test_namespace_name_patterns_an_exemption_names(text: str, exempt: tuple[str, ...]) -> None:
    assert scope_of(text).exempt_namespaces == exempt


def test_a_cluster_scoped_object_is_not_exempted_by_a_namespace_pattern() -> None:
    # a Namespace named like the pattern is exempt as a namespace; a ClusterRole is not one
    intent = intent_of(
        'No rule of a Role or ClusterRole may put "*" in its list of verbs. Namespaces '
        "starting with kube- are out of scope."
    )
    wildcard = [{"apiGroups": [""], "resources": ["pods"], "verbs": ["*"]}]
    objects = [
        api_object("rbac.authorization.k8s.io/v1", "ClusterRole", "kube-like", "", rules=wildcard),
        api_object("rbac.authorization.k8s.io/v1", "Role", "in-kube", "kube-ops", rules=wildcard),
    ]
    for ciso_class in CLASSES:
        assert flagged(intent, objects, ciso_class) == {"kube-like"}, ciso_class


@pytest.mark.parametrize(
    ("text", "limiting", "exempt"),
    [
        (
            "Except in namespaces labelled stage=scratch, no container may mount a hostPath.",
            (),
            (("stage", "scratch"),),
        ),
        # the exemption in the aside is of kube-system, not of the labelled namespaces
        (
            "In namespaces labelled stage=live (kube-system excluded) every container must set "
            "a memory limit.",
            (("stage", "live"),),
            (),
        ),
    ],
)
def test_namespace_labels_limit_or_exempt_by_their_clause(
    text: str, limiting: tuple[tuple[str, str], ...], exempt: tuple[tuple[str, str], ...]
) -> None:
    scope = intent_of(text).scope
    assert (scope.namespace_labels, scope.permitting_namespace_labels) == (limiting, exempt)
