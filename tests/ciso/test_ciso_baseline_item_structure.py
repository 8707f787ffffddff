"""Readers of a requirement's STRUCTURE rather than of one control: a scope by namespace label
whatever the check, a subject named with its kind in a text about bindings, a field every item
of a list must set, a bound judged only on the items of one kind ("tolerations of a NoExecute
taint"), the number of items a list holds, nodes selected by a label key (nodeSelector or node
affinity), and "Pod Security" as the standard's name rather than pods. The requirements and
objects are written for this test; every rendered class (Kyverno, kubectl-opa Rego, opa-static
Rego) is judged by the real engines and must flag exactly the violating objects."""

from __future__ import annotations

from typing import Any

import pytest

from tests._support.ciso_baseline import (
    CLASSES,
    api_object,
    flagged,
    intent_of,
    labelled_namespace,
    names_of,
    pod_carrier,
)

# ---- a scope by namespace label, on a check that has no labels of its own ----------------------

TLS_IN_LABELLED = (
    "Ingresses in namespaces labelled env=production must terminate TLS for every host their "
    "rules route: each such host is listed in the Ingress's spec.tls hosts."
)


def _ingress(name: str, namespace: str, hosts: list[str], tls: list[str]) -> dict[str, Any]:
    spec: dict[str, Any] = {"rules": [{"host": h} for h in hosts]}
    if tls:
        spec["tls"] = [{"hosts": tls, "secretName": f"{name}-cert"}]
    return api_object("networking.k8s.io/v1", "Ingress", name, namespace, spec=spec)


NAMESPACES = [
    labelled_namespace("storefront", env="production"),
    labelled_namespace("sandbox", env="staging"),
]
TLS_VIOLATING = [_ingress("half-covered", "storefront", ["a.shop.test", "b.shop.test"],
                          ["a.shop.test"])]  # fmt: skip
TLS_COMPLIANT = [
    _ingress("covered", "storefront", ["a.shop.test"], ["a.shop.test"]),
    # the same gap outside the labelled namespaces is not judged
    _ingress("plain-in-staging", "sandbox", ["c.shop.test"], []),
]


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_a_namespace_label_limits_a_check_without_labels_of_its_own(ciso_class: str) -> None:
    objects = [*NAMESPACES, *TLS_VIOLATING, *TLS_COMPLIANT]
    assert flagged(intent_of(TLS_IN_LABELLED), objects, ciso_class) == names_of(TLS_VIOLATING)


# ---- "Pod Security" names the standard, not pods ------------------------------------------------

ENFORCED_RESTRICTED = (
    "Namespaces apart from kube-system must have Pod Security Admission enforce the restricted "
    "level (the label pod-security.kubernetes.io/enforce)."
)


@pytest.mark.parametrize("ciso_class", ["kyverno", "opa-static"])
def test_pod_security_labels_are_read_on_namespaces(ciso_class: str) -> None:
    violating = [
        labelled_namespace("legacy-apps", **{"pod-security.kubernetes.io/enforce": "baseline"}),
        labelled_namespace("reports", **{"pod-security.kubernetes.io/audit": "restricted"}),
    ]
    compliant = [
        labelled_namespace("payments", **{"pod-security.kubernetes.io/enforce": "restricted"}),
        labelled_namespace("kube-system"),
    ]
    intent = intent_of(ENFORCED_RESTRICTED)
    assert flagged(intent, [*violating, *compliant], ciso_class) == names_of(violating)


# ---- a binding subject named with its kind ------------------------------------------------------

NO_CONTRACTOR_BINDINGS = (
    "Contractors get no standing access: RoleBindings and ClusterRoleBindings must never name "
    "the group called contractors as a subject."
)


def _binding(kind: str, name: str, subjects: list[tuple[str, str]]) -> dict[str, Any]:
    namespace = "team" if kind == "RoleBinding" else ""
    return api_object(
        "rbac.authorization.k8s.io/v1", kind, name, namespace,
        roleRef={"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "view"},
        subjects=[{"kind": k, "name": n} for k, n in subjects],
    )  # fmt: skip


BINDINGS_VIOLATING = [
    _binding("RoleBinding", "second-subject", [("User", "ana"), ("Group", "contractors")]),
    _binding("ClusterRoleBinding", "cluster-wide", [("Group", "contractors")]),
]
BINDINGS_COMPLIANT = [
    # the same name as another kind of subject is someone else
    _binding("RoleBinding", "robot", [("ServiceAccount", "contractors")]),
    _binding("ClusterRoleBinding", "staff", [("Group", "employees")]),
]


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_a_subject_named_with_its_kind_is_a_binding_check(ciso_class: str) -> None:
    objects = [*BINDINGS_VIOLATING, *BINDINGS_COMPLIANT]
    intent = intent_of(NO_CONTRACTOR_BINDINGS)
    assert flagged(intent, objects, ciso_class) == names_of(BINDINGS_VIOLATING)


# ---- every item of a list must set a field ------------------------------------------------------

TARGET_PORTS = "Each port a Service exposes has to declare its target port (targetPort) explicitly."


def _service(name: str, ports: list[dict[str, Any]]) -> dict[str, Any]:
    return api_object("v1", "Service", name, spec={"selector": {"app": name}, "ports": ports})


SERVICES_VIOLATING = [
    _service("second-open", [{"port": 80, "targetPort": 8080}, {"port": 443}]),
]
SERVICES_COMPLIANT = [
    _service("both-set", [{"port": 80, "targetPort": 8080}, {"port": 443, "targetPort": "https"}]),
]


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_a_field_each_item_must_set_is_judged_item_by_item(ciso_class: str) -> None:
    objects = [*SERVICES_VIOLATING, *SERVICES_COMPLIANT]
    assert flagged(intent_of(TARGET_PORTS), objects, ciso_class) == names_of(SERVICES_VIOLATING)


# ---- a bound on the items of one kind only ------------------------------------------------------

EVICTION_WINDOW = (
    "Workloads must leave a node within two minutes once it is tainted NoExecute: every "
    "toleration of that effect has to carry tolerationSeconds of at most 120."
)


def _tolerating(kind: str, name: str, *tolerations: dict[str, Any]) -> dict[str, Any]:
    spec = {"containers": [{"name": "app", "image": "registry.test/app:2"}],
            "tolerations": list(tolerations)}  # fmt: skip
    return pod_carrier(kind, name, spec)


UNREACHABLE = {"key": "node.kubernetes.io/unreachable", "operator": "Exists"}
TOLERATIONS_VIOLATING = [
    _tolerating("Deployment", "stays-forever", {**UNREACHABLE, "effect": "NoExecute"}),
    _tolerating("CronJob", "too-long", {"key": "gpu", "operator": "Exists", "effect": "NoSchedule"},
                {**UNREACHABLE, "effect": "NoExecute", "tolerationSeconds": 900}),
]  # fmt: skip
TOLERATIONS_COMPLIANT = [
    _tolerating("Deployment", "at-limit", {**UNREACHABLE, "effect": "NoExecute",
                                           "tolerationSeconds": 120}),
    # a NoSchedule toleration without seconds is another effect, not judged
    _tolerating("StatefulSet", "schedule-only", {"key": "gpu", "operator": "Exists",
                                                 "effect": "NoSchedule"}),
]  # fmt: skip


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_a_bound_is_judged_on_the_items_the_text_names_only(ciso_class: str) -> None:
    objects = [*TOLERATIONS_VIOLATING, *TOLERATIONS_COMPLIANT]
    expected = names_of(TOLERATIONS_VIOLATING)
    assert flagged(intent_of(EVICTION_WINDOW), objects, ciso_class) == expected


# ---- how many items a list holds ----------------------------------------------------------------

INIT_STEPS = "To keep start-up simple, no pod spec may list more than 2 init containers."


def _with_inits(kind: str, name: str, count: int) -> dict[str, Any]:
    spec = {
        "containers": [{"name": "app", "image": "registry.test/app:2"}],
        "initContainers": [{"name": f"step{i}", "image": "registry.test/init:1"}
                           for i in range(count)],
    }  # fmt: skip
    return pod_carrier(kind, name, spec)


INITS_VIOLATING = [_with_inits("Deployment", "three-steps", 3), _with_inits("Job", "five", 5)]
INITS_COMPLIANT = [_with_inits("Deployment", "two-steps", 2), _with_inits("DaemonSet", "none", 0)]


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_the_number_of_items_of_a_list_is_bounded(ciso_class: str) -> None:
    objects = [*INITS_VIOLATING, *INITS_COMPLIANT]
    assert flagged(intent_of(INIT_STEPS), objects, ciso_class) == names_of(INITS_VIOLATING)


# ---- nodes selected by a label key --------------------------------------------------------------

NO_GPU_PINNING = (
    "Nothing outside kube-system may be pinned to the GPU pool, neither by a nodeSelector nor "
    "by a node affinity on the label accelerator.example.com/gpu."
)
GPU = "accelerator.example.com/gpu"


def _placed(name: str, namespace: str = "team", **placement: Any) -> dict[str, Any]:
    spec = {"containers": [{"name": "app", "image": "registry.test/app:2"}], **placement}
    return pod_carrier("Deployment", name, spec, namespace)


def _required(operator: str) -> dict[str, Any]:
    term = {"matchExpressions": [{"key": GPU, "operator": operator,
                                  **({"values": ["a100"]} if operator in ("In", "NotIn") else {})}]}  # fmt: skip
    return {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution":
                             {"nodeSelectorTerms": [term]}}}  # fmt: skip


PREFERRED = {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
    {"weight": 10, "preference": {"matchExpressions": [{"key": GPU, "operator": "Exists"}]}}]}}  # fmt: skip

PLACEMENT_VIOLATING = [
    _placed("by-selector", nodeSelector={"kubernetes.io/os": "linux", GPU: "true"}),
    _placed("by-required-in", affinity=_required("In")),
    _placed("by-preference", affinity=PREFERRED),
]
PLACEMENT_COMPLIANT = [
    # kept away from the label, or another label, or an exempt namespace
    _placed("kept-away", affinity=_required("DoesNotExist")),
    _placed("not-a100", affinity=_required("NotIn")),
    _placed("linux-only", nodeSelector={"kubernetes.io/os": "linux"}),
    _placed("system-agent", "kube-system", nodeSelector={GPU: "true"}),
]


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_nodes_selected_by_a_label_key(ciso_class: str) -> None:
    objects = [*PLACEMENT_VIOLATING, *PLACEMENT_COMPLIANT]
    expected = names_of(PLACEMENT_VIOLATING)
    assert flagged(intent_of(NO_GPU_PINNING), objects, ciso_class) == expected


# ---- a bound on a setting each container inherits from its pod ----------------------------------

GROUP_RANGE = (
    "Processes must run with a group ID from 2000 to 2999: the runAsGroup of a container "
    "counts when it sets one, the pod's otherwise, and a container for which neither sets one "
    "is a finding."
)


def _grouped(name: str, pod_gid: int | None, *container_gids: int | None) -> dict[str, Any]:
    containers = [
        {"name": f"c{i}", "image": "registry.test/app:2",
         **({} if gid is None else {"securityContext": {"runAsGroup": gid}})}
        for i, gid in enumerate(container_gids)
    ]  # fmt: skip
    spec: dict[str, Any] = {"containers": containers}
    if pod_gid is not None:
        spec["securityContext"] = {"runAsGroup": pod_gid}
    return pod_carrier("Deployment", name, spec)


GROUPS_VIOLATING = [
    _grouped("override-to-root", 2500, None, 0),
    _grouped("nobody-sets-it", None, None),
    _grouped("one-above", None, 2100, 3000),
]
GROUPS_COMPLIANT = [
    _grouped("from-the-pod", 2500, None, None),
    _grouped("own-values", None, 2000, 2999),
    # the pod's value out of range is overridden by every container
    _grouped("all-overridden", 0, 2200),
]


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_a_bound_on_the_effective_inherited_setting(ciso_class: str) -> None:
    objects = [*GROUPS_VIOLATING, *GROUPS_COMPLIANT]
    assert flagged(intent_of(GROUP_RANGE), objects, ciso_class) == names_of(GROUPS_VIOLATING)


# ---- a scope by pod label ----------------------------------------------------------------------

PCI_PODS = (
    'Pods that carry the label compliance.example.org/pci: "yes" must keep the root filesystem '
    "of every container read-only (readOnlyRootFilesystem: true)."
)
PCI = "compliance.example.org/pci"


def _pod_labelled(kind: str, name: str, read_only: bool, labels: dict[str, str]) -> dict[str, Any]:
    spec = {"containers": [{"name": "app", "image": "registry.test/app:2",
                            "securityContext": {"readOnlyRootFilesystem": read_only}}]}  # fmt: skip
    carrier = pod_carrier(kind, name, spec)
    if kind == "Pod":
        carrier["metadata"]["labels"] = labels
    elif kind == "CronJob":
        carrier["spec"]["jobTemplate"]["spec"]["template"]["metadata"]["labels"].update(labels)
    else:
        carrier["spec"]["template"]["metadata"]["labels"].update(labels)
    return carrier


LABELLED_VIOLATING = [
    _pod_labelled("Deployment", "card-api", False, {PCI: "yes"}),
    _pod_labelled("Pod", "card-debug", False, {PCI: "yes"}),
]
outside_label = _pod_labelled("Deployment", "label-on-the-object-only", False, {})
outside_label["metadata"]["labels"] = {PCI: "yes"}  # the workload's own label marks no pod
LABELLED_COMPLIANT = [
    _pod_labelled("CronJob", "card-report", True, {PCI: "yes"}),
    _pod_labelled("Deployment", "catalog", False, {}),
    _pod_labelled("Deployment", "other-value", False, {PCI: "no"}),
    outside_label,
]


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_a_pod_label_limits_the_check_to_the_pods_carrying_it(ciso_class: str) -> None:
    objects = [*LABELLED_VIOLATING, *LABELLED_COMPLIANT]
    assert flagged(intent_of(PCI_PODS), objects, ciso_class) == names_of(LABELLED_VIOLATING)


# ---- volume sources a prohibition names in words ------------------------------------------------

NO_DIRECT_CEPH = (
    "No pod may mount a CephFS share or an RBD disk directly; such storage is reached through "
    "claims only."
)


def _with_volumes(kind: str, name: str, *volumes: dict[str, Any]) -> dict[str, Any]:
    spec = {"containers": [{"name": "app", "image": "registry.test/app:2"}],
            "volumes": list(volumes)}  # fmt: skip
    return pod_carrier(kind, name, spec)


SCRATCH = {"name": "scratch", "emptyDir": {}}
VOLUMES_VIOLATING = [
    _with_volumes("Deployment", "ceph-share", {"name": "d", "cephfs": {"monitors": ["10.0.0.5"]}}),
    _with_volumes("Pod", "rbd-second", SCRATCH,
                  {"name": "d", "rbd": {"monitors": ["10.0.0.5"], "image": "vol1"}}),
]  # fmt: skip
VOLUMES_COMPLIANT = [
    _with_volumes("StatefulSet", "through-a-claim", SCRATCH,
                  {"name": "d", "persistentVolumeClaim": {"claimName": "data"}}),
]  # fmt: skip


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_volume_sources_a_prohibition_names_in_words(ciso_class: str) -> None:
    objects = [*VOLUMES_VIOLATING, *VOLUMES_COMPLIANT]
    assert flagged(intent_of(NO_DIRECT_CEPH), objects, ciso_class) == names_of(VOLUMES_VIOLATING)


# ---- admission webhooks that fail open ----------------------------------------------------------

MUTATING_FAIL_CLOSED = (
    "If the backend of a mutating admission webhook fails, the API server must not admit the "
    "request anyway."
)


def _webhooks(kind: str, name: str, *policies: str | None) -> dict[str, Any]:
    hooks = [
        {"name": f"h{i}.hooks.test", "clientConfig": {"url": "https://hooks.test/"},
         "sideEffects": "None", "admissionReviewVersions": ["v1"],
         **({} if policy is None else {"failurePolicy": policy})}
        for i, policy in enumerate(policies)
    ]  # fmt: skip
    return api_object("admissionregistration.k8s.io/v1", kind, name, "", webhooks=hooks)


MUTATING = "MutatingWebhookConfiguration"
HOOKS_VIOLATING = [_webhooks(MUTATING, "second-ignores", "Fail", "Ignore")]
HOOKS_COMPLIANT = [
    _webhooks(MUTATING, "defaults-to-fail", None),
    # a validating webhook is not the kind the text names
    _webhooks("ValidatingWebhookConfiguration", "validating-ignores", "Ignore"),
]


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_webhooks_that_let_requests_through_when_their_backend_fails(ciso_class: str) -> None:
    objects = [*HOOKS_VIOLATING, *HOOKS_COMPLIANT]
    intent = intent_of(MUTATING_FAIL_CLOSED)
    assert flagged(intent, objects, ciso_class) == names_of(HOOKS_VIOLATING)


# ---- a scope by namespace name, and pods in their own user namespace ----------------------------

TENANT_USERNS = (
    "Pods inside the `tenants` namespace must not share the host user namespace: each runs in "
    "its own user namespace."
)


def _users(kind: str, name: str, namespace: str, host_users: bool | None) -> dict[str, Any]:
    spec: dict[str, Any] = {"containers": [{"name": "app", "image": "registry.test/app:2"}]}
    if host_users is not None:
        spec["hostUsers"] = host_users
    return pod_carrier(kind, name, spec, namespace)


USERNS_VIOLATING = [
    _users("Deployment", "left-unset", "tenants", None),
    _users("Pod", "host-users", "tenants", True),
]
USERNS_COMPLIANT = [
    _users("CronJob", "own-namespace", "tenants", False),
    # another namespace is not judged
    _users("Deployment", "platform-agent", "platform", None),
]


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_pods_of_one_named_namespace_in_their_own_user_namespace(ciso_class: str) -> None:
    objects = [*USERNS_VIOLATING, *USERNS_COMPLIANT]
    assert flagged(intent_of(TENANT_USERNS), objects, ciso_class) == names_of(USERNS_VIOLATING)
