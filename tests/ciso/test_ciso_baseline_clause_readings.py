"""Clause readings of unseen Kubernetes texts (issue 32 item 6, issue 28): a permission limited
to labelled namespaces is the prohibition it states everywhere else; a statement of the effect
before a colon is the reason for the rule, not its polarity; a field named with the item it
belongs to ("the X field of every port") has to be left unset; a namespace label written at the
end of a sentence keeps no full stop. The requirements and objects are written for this test;
every rendered class (Kyverno, kubectl-opa Rego, opa-static Rego) is judged by the real engines
and must flag exactly the violating objects."""

from __future__ import annotations

from typing import Any

import pytest

from tests._support.ciso_baseline import (
    CLASSES,
    api_object,
    app_container,
    flagged,
    intent_of,
    judged_names,
    labelled_namespace,
    pod_carrier,
)

# ---- a permission limited to labelled namespaces ------------------------------------------------

FQDN_ONLY_IN_LEGACY = (
    "Pods may report their fully qualified domain name as their hostname "
    "(spec.setHostnameAsFQDN: true) only in namespaces labelled naming.example.org/style=legacy."
)

NAMING_NAMESPACES = [
    labelled_namespace("legacy-apps", **{"naming.example.org/style": "legacy"}),
    labelled_namespace("modern-apps", **{"naming.example.org/style": "short"}),
    labelled_namespace("plain"),
]


def _naming(kind: str, name: str, namespace: str, fqdn: bool | None) -> dict[str, Any]:
    spec: dict[str, Any] = {"containers": [app_container()]}
    if fqdn is not None:
        spec["setHostnameAsFQDN"] = fqdn
    return pod_carrier(kind, name, spec, namespace)


NAMING_VIOLATING = [
    _naming("Deployment", "fqdn-other-style", "modern-apps", True),
    _naming("CronJob", "fqdn-unlabelled", "plain", True),
]
NAMING_COMPLIANT = [
    _naming("StatefulSet", "fqdn-in-legacy", "legacy-apps", True),
    _naming("Job", "short-name", "plain", False),
    _naming("Deployment", "unset", "modern-apps", None),
]


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_a_permission_limited_to_labelled_namespaces(ciso_class: str) -> None:
    objects = [*NAMING_NAMESPACES, *NAMING_VIOLATING, *NAMING_COMPLIANT]
    assert flagged(intent_of(FQDN_ONLY_IN_LEGACY), objects, ciso_class) == judged_names(
        NAMING_VIOLATING
    )


def test_the_permitting_labels_are_no_scope_of_their_own() -> None:
    """The labels lift the prohibition; they do not limit the rule to those namespaces, and the
    label's value loses the sentence's full stop."""
    scope = intent_of(FQDN_ONLY_IN_LEGACY).scope
    assert scope.permitting_namespace_labels == (("naming.example.org/style", "legacy"),)
    assert scope.namespace_labels == ()


# ---- the effect stated before a colon -----------------------------------------------------------

RETAIN_VOLUMES = (
    "Data must never vanish with its claim: every PersistentVolume has to state "
    "persistentVolumeReclaimPolicy: Retain."
)


def _volume(name: str, policy: str | None) -> dict[str, Any]:
    spec: dict[str, Any] = {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"]}
    if policy:
        spec["persistentVolumeReclaimPolicy"] = policy
    return api_object("v1", "PersistentVolume", name, namespace="", spec=spec)


# (an unset policy is left out: the API's default for a volume made by hand is Retain)
VOLUMES_VIOLATING = [_volume("deletes", "Delete"), _volume("recycles", "Recycle")]
VOLUMES_COMPLIANT = [_volume("kept", "Retain")]


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_an_effect_before_a_colon_does_not_negate_the_rule(ciso_class: str) -> None:
    objects = [*VOLUMES_VIOLATING, *VOLUMES_COMPLIANT]
    assert flagged(intent_of(RETAIN_VOLUMES), objects, ciso_class) == judged_names(
        VOLUMES_VIOLATING
    )


# ---- a field named with the item it belongs to, left unset --------------------------------------

NO_EXPANDED_SUBPATHS = (
    "Mount paths must not be computed at runtime: the subPathExpr field of every volume mount "
    "(sidecars and init containers too) has to be left unset."
)


def _mounting(kind: str, name: str, *mounts: dict[str, Any], init: bool = False) -> dict:
    listed = [{"name": "data", "mountPath": "/data"}, *mounts]
    spec: dict[str, Any] = {
        "containers": [app_container(volumeMounts=[{"name": "data", "mountPath": "/srv"}])],
        "volumes": [{"name": "data", "emptyDir": {}}],
    }
    if init:
        spec["initContainers"] = [app_container(name="prep", volumeMounts=listed)]
    else:
        spec["containers"].append(app_container(name="side", volumeMounts=listed))
    return pod_carrier(kind, name, spec)


MOUNTS_VIOLATING = [
    _mounting("Deployment", "second-container",
              {"name": "data", "mountPath": "/logs", "subPathExpr": "$(POD_NAME)"}),
    _mounting("StatefulSet", "init-container",
              {"name": "data", "mountPath": "/seed", "subPathExpr": "$(NODE)"}, init=True),
]  # fmt: skip
MOUNTS_COMPLIANT = [
    _mounting("Deployment", "fixed-sub-path", {"name": "data", "mountPath": "/c", "subPath": "c"})
]


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_a_field_of_every_item_left_unset(ciso_class: str) -> None:
    objects = [*MOUNTS_VIOLATING, *MOUNTS_COMPLIANT]
    assert flagged(intent_of(NO_EXPANDED_SUBPATHS), objects, ciso_class) == judged_names(
        MOUNTS_VIOLATING
    )


# ---- a child named right after its field, a number in words, a clause after "therefore" ---------

WHOLE_ROLLOUTS = (
    "Ordered rollouts must finish: no StatefulSet may keep pods on the old revision, therefore "
    "its rolling-update partition has to be zero or left out."
)


def _ordered(kind: str, name: str, strategy: dict[str, Any] | None) -> dict[str, Any]:
    spec = pod_carrier(kind, name, {"containers": [app_container()]})
    if strategy is not None:
        key = "strategy" if kind == "Deployment" else "updateStrategy"
        spec["spec"][key] = strategy
    return spec


ROLLOUTS_VIOLATING = [
    _ordered(
        "StatefulSet", "held-back", {"type": "RollingUpdate", "rollingUpdate": {"partition": 3}}
    ),
    _ordered("StatefulSet", "untyped", {"rollingUpdate": {"partition": 1}}),
]
ROLLOUTS_COMPLIANT = [
    _ordered("StatefulSet", "zero", {"type": "RollingUpdate", "rollingUpdate": {"partition": 0}}),
    _ordered("StatefulSet", "no-strategy", None),
    _ordered("Deployment", "surging", {"rollingUpdate": {"maxSurge": 2}}),
]


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_a_child_named_after_its_field_with_a_number_in_words(ciso_class: str) -> None:
    objects = [*ROLLOUTS_VIOLATING, *ROLLOUTS_COMPLIANT]
    assert flagged(intent_of(WHOLE_ROLLOUTS), objects, ciso_class) == judged_names(
        ROLLOUTS_VIOLATING
    )


# ---- the cluster DNS service's address named -----------------------------------------------------

CLUSTER_RESOLVER_ONLY = (
    "Name lookups have to stay inside the cluster: a pod may list no resolver in its dnsConfig "
    "except the cluster DNS service at 10.43.0.10."
)


def _resolving(kind: str, name: str, policy: str | None, config: dict[str, Any]) -> dict:
    spec: dict[str, Any] = {"containers": [app_container()], "dnsConfig": config}
    if policy:
        spec["dnsPolicy"] = policy
    return pod_carrier(kind, name, spec)


RESOLVERS_VIOLATING = [
    _resolving("Deployment", "second-server", None, {"nameservers": ["10.43.0.10", "9.9.9.9"]}),
    _resolving("CronJob", "own-server", "None", {"nameservers": ["192.0.2.53"]}),
]
RESOLVERS_COMPLIANT = [
    _resolving("Deployment", "cluster-server", "None", {"nameservers": ["10.43.0.10"]}),
    _resolving("DaemonSet", "options-only", None, {"options": [{"name": "ndots", "value": "2"}]}),
]


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_nameservers_judged_against_the_named_cluster_address(ciso_class: str) -> None:
    objects = [*RESOLVERS_VIOLATING, *RESOLVERS_COMPLIANT]
    assert flagged(intent_of(CLUSTER_RESOLVER_ONLY), objects, ciso_class) == judged_names(
        RESOLVERS_VIOLATING
    )


# ---- an extended resource named by its qualified name -------------------------------------------

FPGA_ONLY_ON_LABELLED = (
    "FPGA boards are scarce: containers can ask for the example.org/fpga resource only in "
    "namespaces carrying the label hardware.example.org/fpga=present."
)

FPGA_NAMESPACES = [
    labelled_namespace("hw", **{"hardware.example.org/fpga": "present"}),
    labelled_namespace("batch", **{"hardware.example.org/fpga": "absent"}),
]


def _sized(kind: str, name: str, namespace: str, resources: dict[str, Any], init: bool = False):
    sized = app_container(name="work", resources=resources)
    spec: dict[str, Any] = {"containers": [app_container()]}
    spec.setdefault("initContainers" if init else "containers", []).append(sized)
    return pod_carrier(kind, name, spec, namespace)


FPGA_VIOLATING = [
    _sized("Job", "limit-as-string", "batch", {"limits": {"example.org/fpga": "1"}}),
    _sized("Deployment", "init-request", "batch", {"requests": {"example.org/fpga": 2}}, True),
]
FPGA_COMPLIANT = [
    _sized("Job", "in-hardware-namespace", "hw", {"limits": {"example.org/fpga": "1"}}),
    _sized("Deployment", "cpu-only", "batch", {"limits": {"cpu": "2"}}),
]


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_an_extended_resource_named_by_its_qualified_name(ciso_class: str) -> None:
    objects = [*FPGA_NAMESPACES, *FPGA_VIOLATING, *FPGA_COMPLIANT]
    assert flagged(intent_of(FPGA_ONLY_ON_LABELLED), objects, ciso_class) == judged_names(
        FPGA_VIOLATING
    )


# ---- a <noun>Name field said by its noun, limited to listed names -------------------------------

APPROVED_PRIORITIES = (
    "Outside kube-system, pods must not use any priority class other than batch-low or batch-high."
)


def _prioritised(kind: str, name: str, namespace: str, priority: str | None) -> dict:
    spec: dict[str, Any] = {"containers": [app_container()]}
    if priority:
        spec["priorityClassName"] = priority
    return pod_carrier(kind, name, spec, namespace)


PRIORITIES_VIOLATING = [
    _prioritised("Deployment", "urgent", "team", "urgent-tier"),
    _prioritised("CronJob", "system-critical", "team", "system-cluster-critical"),
]
PRIORITIES_COMPLIANT = [
    _prioritised("Deployment", "low", "team", "batch-low"),
    _prioritised("StatefulSet", "high", "team", "batch-high"),
    _prioritised("Job", "no-class", "team", None),
    _prioritised("DaemonSet", "system-exempt", "kube-system", "system-node-critical"),
]


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_a_named_choice_limited_to_listed_names(ciso_class: str) -> None:
    objects = [*PRIORITIES_VIOLATING, *PRIORITIES_COMPLIANT]
    assert flagged(intent_of(APPROVED_PRIORITIES), objects, ciso_class) == judged_names(
        PRIORITIES_VIOLATING
    )


# ---- a permission limited to a named namespace and to labelled objects ---------------------------

UNREADY_PEERS_ONLY = (
    "Publishing unready endpoints (publishNotReadyAddresses set to true) is allowed only in "
    "peer-discovery and on Services labelled discovery.example.org/peers=yes."
)


def _published(name: str, namespace: str, publish: bool | None, **labels: str) -> dict:
    spec: dict[str, Any] = {"selector": {"app": name}, "ports": [{"port": 80}]}
    if publish is not None:
        spec["publishNotReadyAddresses"] = publish
    service = api_object("v1", "Service", name, namespace=namespace, spec=spec)
    if labels:
        service["metadata"]["labels"] = labels
    return service


PUBLISHED_VIOLATING = [
    _published("unlabelled", "team", True),
    _published("pending-review", "team", True, **{"discovery.example.org/peers": "pending"}),
]
PUBLISHED_COMPLIANT = [
    _published("in-namespace", "peer-discovery", True),
    _published("labelled", "team", True, **{"discovery.example.org/peers": "yes"}),
    _published("ready-only", "team", False),
    _published("default", "team", None),
]


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_a_permission_limited_to_a_namespace_and_labelled_objects(ciso_class: str) -> None:
    objects = [*PUBLISHED_VIOLATING, *PUBLISHED_COMPLIANT]
    assert flagged(intent_of(UNREADY_PEERS_ONLY), objects, ciso_class) == judged_names(
        PUBLISHED_VIOLATING
    )


# ---- a boolean field said as what objects of one type of a kind must be -------------------------

FROZEN_LIVE_SECRETS = (
    "Inside namespaces with the label stage=live, each Opaque Secret has to be marked as "
    "immutable; TLS Secrets are not covered."
)

SECRET_NAMESPACES = [
    labelled_namespace("shop", stage="live"),
    labelled_namespace("lab", stage="test"),
]


def _secret(name: str, namespace: str, kind: str | None, immutable: bool | None) -> dict:
    body: dict[str, Any] = {"data": {"k": "dg=="}}
    if kind:
        body["type"] = kind
    if immutable is not None:
        body["immutable"] = immutable
    return api_object("v1", "Secret", name, namespace=namespace, **body)


SECRETS_VIOLATING = [
    _secret("mutable-opaque", "shop", "Opaque", False),
    _secret("untyped", "shop", None, None),
]
SECRETS_COMPLIANT = [
    _secret("frozen", "shop", "Opaque", True),
    _secret("tls-cert", "shop", "kubernetes.io/tls", None),
    _secret("in-test", "lab", "Opaque", False),
]


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_a_flag_objects_of_one_type_must_set(ciso_class: str) -> None:
    objects = [*SECRET_NAMESPACES, *SECRETS_VIOLATING, *SECRETS_COMPLIANT]
    assert flagged(intent_of(FROZEN_LIVE_SECRETS), objects, ciso_class) == judged_names(
        SECRETS_VIOLATING
    )
