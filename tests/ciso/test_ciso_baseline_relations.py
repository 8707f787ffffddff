"""Kubernetes controls on what an object is tied to (knowledge/k8s_relations.py): the backend a
Service keeps a client on, the runtime pods of labelled namespaces ask for, who may have the API
server vouch for someone else's token, the storage class a claim is provisioned from, a hard spread over zones. Each requirement and object is written for this test;
every rendered class (Kyverno, kubectl-opa Rego, opa-static Rego) is judged by the real engines
and must flag exactly the violating objects, not the near misses."""

from __future__ import annotations

from typing import Any

import pytest

from tests._support.ciso_baseline import CLASSES, flagged, intent_of, pod_carrier, role


def _service(name: str, namespace: str, spec: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Service", "metadata": {"name": name,
            "namespace": namespace}, "spec": spec}  # fmt: skip


def _namespace(name: str, labels: dict[str, str]) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name, "labels": labels}}


def _pod_spec(runtime: str | None = None) -> dict[str, Any]:
    spec: dict[str, Any] = {"containers": [{"name": "app", "image": "registry.example/app:2.0"}]}
    if runtime is not None:
        spec["runtimeClassName"] = runtime
    return spec


STICKY_SERVICES = (
    "Load must be balanced per connection: a Service may never keep sending one client IP to "
    "the same backend pod. Headless Services count too.",
    [
        _service("cart", "shop", {"sessionAffinity": "ClientIP", "ports": [{"port": 80}]}),
        _service("peers", "shop", {"clusterIP": "None", "sessionAffinity": "ClientIP"}),
    ],
    [
        _service("catalog", "shop", {"sessionAffinity": "None", "ports": [{"port": 80}]}),
        _service("edge", "shop", {"type": "LoadBalancer", "ports": [{"port": 443}]}),
    ],
)

SANDBOXED_TENANTS = (
    "Namespaces labelled zone=untrusted host third-party code: every pod there has to ask for "
    "the RuntimeClass named kata-vm. Leaving the runtime class out means the default runtime, "
    "which is not acceptable. Pods in other namespaces may run on any runtime.",
    [
        _namespace("guest-a", {"zone": "untrusted"}),
        _namespace("core", {"zone": "trusted"}),
        pod_carrier("Deployment", "no-runtime", _pod_spec(), "guest-a"),
        pod_carrier("CronJob", "wrong-runtime", _pod_spec("runc"), "guest-a"),
    ],
    [
        pod_carrier("Deployment", "sandboxed", _pod_spec("kata-vm"), "guest-a"),
        pod_carrier("Deployment", "internal", _pod_spec(), "core"),
        pod_carrier("Pod", "internal-runc", _pod_spec("runc"), "core"),
    ],
)

TOKEN_REVIEWERS = (
    "Checking whether another caller's bearer token is valid (TokenReview) is reserved to the "
    "built-in system: roles; no other Role or ClusterRole may grant it, wildcards included. "
    "Access reviews are a different matter.",
    [
        role(
            "ClusterRole",
            "gateway",
            [
                {
                    "apiGroups": ["authentication.k8s.io"],
                    "resources": ["tokenreviews"],
                    "verbs": ["create"],
                }
            ],
        ),  # fmt: skip
        role(
            "ClusterRole",
            "auth-everything",
            [{"apiGroups": ["authentication.k8s.io"], "resources": ["*"], "verbs": ["*"]}],
        ),
        role("ClusterRole", "root", [{"apiGroups": ["*"], "resources": ["*"], "verbs": ["*"]}]),
    ],
    [
        role(
            "ClusterRole",
            "system:auth-delegator",
            [
                {
                    "apiGroups": ["authentication.k8s.io"],
                    "resources": ["tokenreviews"],
                    "verbs": ["create"],
                }
            ],
        ),  # fmt: skip
        role(
            "ClusterRole",
            "access-checker",
            [
                {
                    "apiGroups": ["authorization.k8s.io"],
                    "resources": ["subjectaccessreviews"],
                    "verbs": ["create"],
                }
            ],
        ),  # fmt: skip
        role(
            "ClusterRole",
            "review-reader",
            [
                {
                    "apiGroups": ["authentication.k8s.io"],
                    "resources": ["tokenreviews"],
                    "verbs": ["get", "list"],
                }
            ],
        ),  # fmt: skip
    ],
)


def _claim(name: str, namespace: str, **spec: Any) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "PersistentVolumeClaim",
            "metadata": {"name": name, "namespace": namespace},
            "spec": {"accessModes": ["ReadWriteOnce"], **spec}}  # fmt: skip


def _stateful_set(name: str, classes: list[str]) -> dict[str, Any]:
    templates = [
        {"metadata": {"name": f"data-{i}"}, "spec": {"storageClassName": c}}
        for i, c in enumerate(classes)
    ]
    carrier = pod_carrier("StatefulSet", name, _pod_spec(), "data")
    carrier["spec"]["volumeClaimTemplates"] = templates
    return carrier


CLAIM_CLASSES = (
    "Data at rest stays on replicated storage: persistent volume claims, the claim templates "
    "of StatefulSets included, may only use the storage classes `ceph-triple` and `ceph-ec`. "
    "Claims without a class land on the default class; an empty class name is no class either.",
    [
        _claim("no-class", "data"),
        _claim("empty-class", "data", storageClassName=""),
        _claim("local", "data", storageClassName="local-path"),
        _stateful_set("mixed", ["ceph-triple", "local-path"]),
    ],
    [
        _claim("replicated", "data", storageClassName="ceph-ec"),
        _claim("local-path-named", "data", storageClassName="ceph-triple"),
        _stateful_set("all-replicated", ["ceph-triple", "ceph-ec"]),
        pod_carrier("StatefulSet", "no-templates", _pod_spec(), "data"),
    ],
)

#: the approved classes listed after a colon, unquoted: the list belongs to the clause before
CLAIM_CLASSES_AFTER_COLON = (
    "Every storage claim, StatefulSet claim templates too, has to name an approved storage "
    "class: zfs-mirror or zfs-raidz.",
    [
        _claim("defaulted", "vault"),
        _claim("scratch", "vault", storageClassName="tmp-local"),
        _stateful_set("cache", ["zfs-mirror", "tmp-local"]),
    ],
    [
        _claim("mirrored", "vault", storageClassName="zfs-mirror"),
        _claim("raidz", "vault", storageClassName="zfs-raidz"),
        _stateful_set("db", ["zfs-raidz"]),
    ],
)


def _spread(*constraints: tuple[str, str]) -> dict[str, Any]:
    spec = _pod_spec()
    spec["topologySpreadConstraints"] = [
        {"maxSkew": 1, "topologyKey": key, "whenUnsatisfiable": when,
         "labelSelector": {"matchLabels": {"app": "x"}}}
        for key, when in constraints
    ]  # fmt: skip
    return spec


ZONE = "topology.kubernetes.io/zone"
HOST = "kubernetes.io/hostname"

ZONE_SPREAD = (
    "In namespaces labelled tier=critical, each Deployment and each StatefulSet must spread "
    "its replicas over the availability zones as a hard constraint: rather than schedule them "
    "unevenly, the scheduler leaves pods pending. Spreading over hosts or a best-effort "
    "spread is not enough. Other namespaces and DaemonSets are not in scope.",
    [
        _namespace("pay", {"tier": "critical"}),
        _namespace("lab", {"tier": "scratch"}),
        pod_carrier("Deployment", "unspread", _pod_spec(), "pay"),
        pod_carrier("StatefulSet", "hosts-only", _spread((HOST, "DoNotSchedule")), "pay"),
        pod_carrier(
            "Deployment",
            "soft-zones",
            _spread((ZONE, "ScheduleAnyway"), (HOST, "DoNotSchedule")),
            "pay",
        ),
    ],
    [
        pod_carrier("Deployment", "hard-zones", _spread((ZONE, "DoNotSchedule")), "pay"),
        pod_carrier(
            "StatefulSet",
            "zones-second",
            _spread((HOST, "ScheduleAnyway"), (ZONE, "DoNotSchedule")),
            "pay",
        ),
        pod_carrier("Deployment", "lab-app", _pod_spec(), "lab"),
        pod_carrier("DaemonSet", "agent", _pod_spec(), "pay"),
    ],
)

FAMILIES = {
    "zone-spread": ZONE_SPREAD,
    "claim-classes": CLAIM_CLASSES,
    "claim-classes-after-colon": CLAIM_CLASSES_AFTER_COLON,
    "sticky-services": STICKY_SERVICES,
    "sandboxed-tenants": SANDBOXED_TENANTS,
    "token-reviewers": TOKEN_REVIEWERS,
}


@pytest.mark.parametrize("ciso_class", CLASSES)
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_every_class_flags_the_violations_and_spares_the_near_misses(
    family: str, ciso_class: str
) -> None:
    text, objects, near_misses = FAMILIES[family]
    violating = {o["metadata"]["name"] for o in objects if o["kind"] != "Namespace"}
    namespaces = {o["metadata"]["name"] for o in objects if o["kind"] == "Namespace"}
    assert flagged(intent_of(text), [*objects, *near_misses], ciso_class) - namespaces == violating
