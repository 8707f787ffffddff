"""Values a requirement lists for a field it does not spell the API's way (issue 32 item 6,
issue 28): items a container's command or args must not contain, values of an enumeration the
text names in words, the ``type`` of the one kind it names, and the label keys a keyed field
below a structure it names may take. The requirements and objects are written for this test;
every rendered class (Kyverno, kubectl-opa Rego, opa-static Rego) is judged by the real
engines and must flag exactly the violating objects."""

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

# ---- items a list of strings must not contain ---------------------------------------------------

NO_TRACE_FLAG = (
    "In namespaces labelled stage=live, no container (sidecars and init containers alike) may "
    "start with tracing forced on: neither its command nor its arguments may contain "
    "`--trace` or `--trace=all`."
)


def _launched(kind: str, name: str, namespace: str, **fields: Any) -> dict[str, Any]:
    spec = {"initContainers": [app_container(name="init", **fields)]} if "init" in name else {}
    main = {} if "init" in name else fields
    return pod_carrier(kind, name, {**spec, "containers": [app_container(**main)]}, namespace)


TRACE_NAMESPACES = [
    labelled_namespace("live", stage="live"),
    labelled_namespace("test", stage="test"),
]
TRACE_VIOLATING = [
    _launched("Deployment", "in-args", "live", args=["--port=80", "--trace"]),
    _launched("CronJob", "in-command", "live", command=["/bin/job", "--trace=all"]),
    _launched("StatefulSet", "init-args", "live", args=["--trace"]),
]
TRACE_COMPLIANT = [
    _launched("Deployment", "other-value", "live", args=["--trace=off", "--trace-dir=/tmp"]),
    _launched("Deployment", "other-stage", "test", args=["--trace"]),
]


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_items_a_command_or_its_args_must_not_contain(ciso_class: str) -> None:
    objects = [*TRACE_NAMESPACES, *TRACE_VIOLATING, *TRACE_COMPLIANT]
    assert flagged(intent_of(NO_TRACE_FLAG), objects, ciso_class) == judged_names(TRACE_VIOLATING)


# ---- values of an enumeration named in words ----------------------------------------------------

PREFIX_MATCHING_ONLY = (
    "Routes of an Ingress have to be matched as Prefix; Exact and ImplementationSpecific "
    "matching are not allowed (the teams share one controller)."
)


def _routes(name: str, *path_types: str) -> dict[str, Any]:
    paths = [{"path": f"/p{i}", "pathType": t, "backend": {}} for i, t in enumerate(path_types)]
    return api_object(
        "networking.k8s.io/v1", "Ingress", name, spec={"rules": [{"http": {"paths": paths}}]}
    )


ROUTES_VIOLATING = [
    _routes("second-exact", "Prefix", "Exact"),
    _routes("specific", "ImplementationSpecific"),
]
ROUTES_COMPLIANT = [_routes("prefixes", "Prefix", "Prefix")]


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_values_of_an_enumeration_named_in_words(ciso_class: str) -> None:
    objects = [*ROUTES_VIOLATING, *ROUTES_COMPLIANT]
    assert flagged(intent_of(PREFIX_MATCHING_ONLY), objects, ciso_class) == judged_names(
        ROUTES_VIOLATING
    )


# ---- the type of the one kind named -------------------------------------------------------------

SERVICE_TYPES = (
    "Services may only be of type ClusterIP or ExternalName; anything reachable from outside "
    "the cluster goes through the gateway."
)


def _service(name: str, kind: str | None) -> dict[str, Any]:
    spec: dict[str, Any] = {"ports": [{"port": 80}]}
    if kind is not None:
        spec["type"] = kind
    return api_object("v1", "Service", name, spec=spec)


TYPES_VIOLATING = [_service("node-port", "NodePort"), _service("balancer", "LoadBalancer")]
# a Service without a type is a ClusterIP one
TYPES_COMPLIANT = [_service("cluster-ip", "ClusterIP"), _service("unset", None),
                   _service("alias", "ExternalName")]  # fmt: skip


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_the_type_of_the_one_kind_named(ciso_class: str) -> None:
    objects = [*TYPES_VIOLATING, *TYPES_COMPLIANT]
    assert flagged(intent_of(SERVICE_TYPES), objects, ciso_class) == judged_names(TYPES_VIOLATING)


# ---- label keys a keyed field below a named structure may take ---------------------------------

SPREAD_KEYS = (
    "Topology spread constraints (`topologySpreadConstraints`) may only spread pods over "
    "topology.kubernetes.io/zone or kubernetes.io/hostname; private rack labels are not "
    "allowed."
)


def _spread(kind: str, name: str, *keys: str) -> dict[str, Any]:
    constraints = [
        {"maxSkew": 1, "topologyKey": k, "whenUnsatisfiable": "DoNotSchedule"} for k in keys
    ]
    return pod_carrier(kind, name, {"containers": [app_container()],
                                    "topologySpreadConstraints": constraints})  # fmt: skip


SPREAD_VIOLATING = [
    _spread("Deployment", "rack", "example.org/rack"),
    _spread(
        "StatefulSet", "second", "kubernetes.io/hostname", "failure-domain.beta.kubernetes.io/zone"
    ),
]
SPREAD_COMPLIANT = [
    _spread("Deployment", "zone", "topology.kubernetes.io/zone"),
    _spread("DaemonSet", "none"),
]


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_label_keys_of_a_keyed_field_below_a_named_structure(ciso_class: str) -> None:
    objects = [*SPREAD_VIOLATING, *SPREAD_COMPLIANT]
    assert flagged(intent_of(SPREAD_KEYS), objects, ciso_class) == judged_names(SPREAD_VIOLATING)


# ---- items a list field the text spells must include ----------------------------------------

BOTH_DIRECTIONS = (
    "Each NetworkPolicy is meant to isolate both directions, so its policyTypes must include "
    "Ingress and Egress."
)


def _policy(name: str, types: list[str] | None) -> dict[str, Any]:
    spec: dict[str, Any] = {"podSelector": {}}
    if types is not None:
        spec["policyTypes"] = types
    return api_object("networking.k8s.io/v1", "NetworkPolicy", name, spec=spec)


DIRECTIONS_VIOLATING = [
    _policy("inbound-only", ["Ingress"]),
    _policy("outbound-only", ["Egress"]),
    # left out, the API governs Ingress only
    _policy("defaulted", None),
]
DIRECTIONS_COMPLIANT = [_policy("both", ["Egress", "Ingress"])]

INBOUND_COVERED = (
    "Every NetworkPolicy has to cover inbound traffic: policyTypes must include Ingress."
)
INBOUND_VIOLATING = [_policy("egress-only", ["Egress"])]
INBOUND_COMPLIANT = [_policy("default-ingress", None), _policy("ingress", ["Ingress"])]


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_items_a_spelled_list_must_include(ciso_class: str) -> None:
    objects = [*DIRECTIONS_VIOLATING, *DIRECTIONS_COMPLIANT]
    assert flagged(intent_of(BOTH_DIRECTIONS), objects, ciso_class) == judged_names(
        DIRECTIONS_VIOLATING
    )
    objects = [*INBOUND_VIOLATING, *INBOUND_COMPLIANT]
    assert flagged(intent_of(INBOUND_COVERED), objects, ciso_class) == judged_names(
        INBOUND_VIOLATING
    )


# ---- items selected by an enumerated field that must set another -------------------------------

EVICTION_WINDOW = (
    "Outside kube-system, each toleration with effect NoExecute must give its "
    "tolerationSeconds, so that pods do leave a failing node; other tolerations are fine."
)


def _tolerating(kind: str, name: str, *tolerations: dict[str, Any], ns: str = "team") -> dict:
    return pod_carrier(kind, name, {"containers": [app_container()],
                                    "tolerations": list(tolerations)}, ns)  # fmt: skip


EVICTION_VIOLATING = [
    _tolerating("Deployment", "forever", {"key": "node.kubernetes.io/unreachable",
                                          "operator": "Exists", "effect": "NoExecute"}),
    _tolerating("CronJob", "second", {"key": "a", "operator": "Exists", "effect": "NoSchedule"},
                {"key": "b", "operator": "Equal", "value": "x", "effect": "NoExecute"}),
]  # fmt: skip
EVICTION_COMPLIANT = [
    _tolerating("Deployment", "bounded", {"key": "c", "operator": "Exists", "effect": "NoExecute",
                                          "tolerationSeconds": 300}),
    _tolerating("DaemonSet", "no-schedule", {"key": "d", "operator": "Exists", "effect": "NoSchedule"}),
    _tolerating("DaemonSet", "system", {"operator": "Exists", "effect": "NoExecute"}, ns="kube-system"),
]  # fmt: skip

UDP_PORTS_NAMED = (
    "Every Service port with protocol UDP must set a name; TCP ports may stay unnamed."
)


def _ports(name: str, *ports: dict[str, Any]) -> dict[str, Any]:
    return api_object("v1", "Service", name, spec={"ports": list(ports)})


UDP_VIOLATING = [_ports("dns", {"port": 53, "protocol": "UDP"}),
                 _ports("mixed", {"port": 80, "name": "web"}, {"port": 514, "protocol": "UDP", "name": ""})]  # fmt: skip
UDP_COMPLIANT = [_ports("named", {"port": 53, "protocol": "UDP", "name": "dns"}),
                 _ports("tcp", {"port": 80}, {"port": 443, "protocol": "TCP"})]  # fmt: skip


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_items_of_one_enumerated_value_must_set_a_field(ciso_class: str) -> None:
    objects = [*EVICTION_VIOLATING, *EVICTION_COMPLIANT]
    assert flagged(intent_of(EVICTION_WINDOW), objects, ciso_class) == judged_names(
        EVICTION_VIOLATING
    )
    objects = [*UDP_VIOLATING, *UDP_COMPLIANT]
    assert flagged(intent_of(UDP_PORTS_NAMED), objects, ciso_class) == judged_names(UDP_VIOLATING)


# ---- a value of an enumeration named with its parent's word, on objects selected by label ------

AGENTS_ON_DELETE = (
    "DaemonSets labelled role=node-agent must be replaced only by hand: they have to use the "
    "OnDelete update strategy."
)


def _daemon(name: str, role: str, strategy: str | None, kind: str = "DaemonSet") -> dict:
    obj = pod_carrier(kind, name, {"containers": [app_container()]})
    obj["metadata"]["labels"] = {"role": role}
    if strategy is not None:
        field = "strategy" if kind == "Deployment" else "updateStrategy"
        obj["spec"][field] = {"type": strategy}
    return obj


AGENTS_VIOLATING = [_daemon("defaulted", "node-agent", None),
                    _daemon("rolling", "node-agent", "RollingUpdate")]  # fmt: skip
AGENTS_COMPLIANT = [
    _daemon("by-hand", "node-agent", "OnDelete"),
    _daemon("other-role", "logging", "RollingUpdate"),
    _daemon("other-kind", "node-agent", "RollingUpdate", kind="Deployment"),
]


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_an_enumerated_value_named_with_its_parent_on_labelled_objects(ciso_class: str) -> None:
    objects = [*AGENTS_VIOLATING, *AGENTS_COMPLIANT]
    assert flagged(intent_of(AGENTS_ON_DELETE), objects, ciso_class) == judged_names(
        AGENTS_VIOLATING
    )


# ---- keys of several maps counted together ------------------------------------------------------

SECRET_ENTRIES = (
    "A Secret may hold at most four entries, with data and stringData counted together; bigger "
    "bundles belong in a vault."
)


def _secret(name: str, data: int, string_data: int) -> dict[str, Any]:
    body: dict[str, Any] = {}
    if data:
        body["data"] = {f"d{i}": "eA==" for i in range(data)}
    if string_data:
        body["stringData"] = {f"s{i}": "x" for i in range(string_data)}
    return api_object("v1", "Secret", name, **body)


ENTRIES_VIOLATING = [_secret("five-data", 5, 0), _secret("split", 3, 2)]
ENTRIES_COMPLIANT = [_secret("four", 4, 0), _secret("two-two", 2, 2), _secret("empty", 0, 0)]


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_keys_of_several_maps_counted_together(ciso_class: str) -> None:
    objects = [*ENTRIES_VIOLATING, *ENTRIES_COMPLIANT]
    assert flagged(intent_of(SECRET_ENTRIES), objects, ciso_class) == judged_names(
        ENTRIES_VIOLATING
    )
