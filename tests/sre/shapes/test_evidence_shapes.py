"""The baseline on three kinds of evidence other exporters' incidents carry and our generator's
do not (issue 28): a NetworkPolicy whose only trace is its callers' failing client spans, a
wrong address in a workload's environment, and memory pressure on a node. Each incident of
``world.py`` is asserted in several shapes (exporters' encodings, namespaces, one observation
or two, objects with or without pods); the rules are also asserted on objects directly."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.sre.shapes.world import CASES, Shape, _env, _guard, expected, write

FAMILIES = {
    "network-policy": [
        "network-policy-allow-list", "network-policy-other-port",
        "network-policy-other-namespace", "network-policy-egress",
    ],
    "env": ["env-wrong-port", "env-wrong-host", "env-empty"],
    "node": ["node-memory-pressure", "node-memory-pressure-events-only"],
}  # fmt: skip
#: every shape observes the objects once, after the fault: the policy, the environment and the
#: node were as they are before the export began, so no change shows them
SHAPES = {
    "OTLP traces, JSON-lines logs and events, Alertmanager v2, namespace retail-prod": Shape(
        traces="otlp", logs="jsonl", events="jsonl", alerts="alertmanager",
        namespace="retail-prod", single_observation=True,
    ),
    "Jaeger traces naming callees by cluster DNS name, namespace payments": Shape(
        traces="jaeger", peer="server.address", namespace="payments", single_observation=True
    ),
    "OTLP traces naming callees only in url.full": Shape(
        traces="otlp", peer="url.full", single_observation=True
    ),
    "one kubectl List without pods, callees by host:port": Shape(
        objects="list-json", pods_in_objects=False, peer="net.peer.name"
    ),
}  # fmt: skip


def _root_causes(snapshot: Path) -> list[str]:
    from sre.agents.baseline import diagnose

    return [e["name"] for e in diagnose(snapshot).entities if e["contributing_factor"]]


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("case", [c for cases in FAMILIES.values() for c in cases])
def test_baseline_names_the_fault_in_other_shapes(
    private_cache: Path, tmp_path: Path, case: str, shape: str
):
    got = _root_causes(write(tmp_path / "snap", CASES[case], SHAPES[shape]))
    assert got == [expected(CASES[case], SHAPES[shape])]


def test_an_allow_list_admitting_the_caller_is_not_blamed(private_cache: Path, tmp_path: Path):
    """The bad-image incident beside a policy on basket that admits web: the policy leaves the
    caller in, the waiting pod is the fault."""
    policy = _guard(
        "basket-from-web", "basket", "Ingress",
        [{"from": [{"podSelector": {"matchLabels": {"app.kubernetes.io/name": "web"}}}],
          "ports": [{"port": "http"}]}],
        {"matchLabels": {"app.kubernetes.io/name": "basket"}},
    )  # fmt: skip
    case = replace(CASES["bad-image"], objects_before=(policy,), objects_after=(policy,))
    assert _root_causes(write(tmp_path / "snap", case)) == ["shop/Deployment/basket"]


def test_a_correct_environment_is_not_blamed(private_cache: Path, tmp_path: Path):
    """basket's environment names store on its Service port and a collector in another
    namespace: the OOMKilled store stays the fault."""
    right = {"basket": _env("basket", "http://store.shop.svc.cluster.local:80/api")}
    case = replace(CASES["oom-last-state"], deployment_before=right, deployment_after=right)
    assert _root_causes(write(tmp_path / "snap", case)) == ["shop/Deployment/store"]


# ---- the rules on objects ----------------------------------------------------------------------

T = datetime(2026, 3, 1, tzinfo=UTC)


def _view(*objects):
    from sre.agents.baseline.states.objects import ObjectView

    return ObjectView.of([(T, o) for o in objects])


def _pod(app: str, ns: str = "shop", labels: dict | None = None, **extra):
    return {
        "kind": "Pod",
        "metadata": {
            "name": f"{app}-5d8f7c9b6-x7k2p", "namespace": ns,
            "labels": labels or {"app.kubernetes.io/name": app},
        },
        "spec": {"containers": [{"name": app, "ports": [{"containerPort": 8080, "name": "http"}]}],
                 **extra.get("spec", {})},
        "status": extra.get("status", {"phase": "Running"}),
    }  # fmt: skip


def _service(app: str, ns: str = "shop", port: int = 80, target: int | str = 8080):
    return {
        "kind": "Service",
        "metadata": {"name": app, "namespace": ns},
        "spec": {"selector": {"app.kubernetes.io/name": app},
                 "ports": [{"port": port, "targetPort": target}]},
    }  # fmt: skip


def _policy(spec: dict, ns: str = "shop"):
    return {"kind": "NetworkPolicy", "metadata": {"name": "p", "namespace": ns}, "spec": spec}


BASKET = {"matchLabels": {"app.kubernetes.io/name": "basket"}}


@pytest.mark.parametrize(
    ("spec", "cut_off"),
    [
        ({"podSelector": BASKET, "policyTypes": ["Ingress"]}, True),
        ({"podSelector": BASKET, "ingress": []}, True),
        ({"podSelector": BASKET, "ingress": [{}]}, False),
        ({"podSelector": BASKET, "ingress": [{"from": [{"podSelector": {}}]}]}, False),
        ({"podSelector": BASKET,
          "ingress": [{"from": [{"podSelector": {"matchLabels": {"role": "admin"}}}]}]}, True),
        ({"podSelector": BASKET, "ingress": [{"ports": [{"port": 8080}]}]}, False),
        ({"podSelector": BASKET, "ingress": [{"ports": [{"port": "http"}]}]}, False),
        ({"podSelector": BASKET, "ingress": [{"ports": [{"port": 9000, "endPort": 9100}]}]}, True),
        ({"podSelector": BASKET, "ingress": [{"ports": [{"port": 8000, "endPort": 8100}]}]}, False),
        # the caller is in namespace shop: a selector for another namespace keeps it out
        ({"podSelector": BASKET, "ingress": [{"from": [{"namespaceSelector": {
            "matchLabels": {"kubernetes.io/metadata.name": "monitoring"}}}]}]}, True),
        ({"podSelector": BASKET, "ingress": [{"from": [{"namespaceSelector": {
            "matchLabels": {"kubernetes.io/metadata.name": "shop"}},
            "podSelector": {"matchLabels": {"app.kubernetes.io/name": "web"}}}]}]}, False),
        ({"podSelector": BASKET, "ingress": [{"from": [{"ipBlock": {"cidr": "10.0.0.0/8"}}]}]},
         True),
        ({"podSelector": BASKET, "ingress": [{"from": [{"ipBlock": {"cidr": "0.0.0.0/0"}}]}]},
         False),
        # selects web, not basket: basket stays open
        ({"podSelector": {"matchExpressions": [{"key": "app.kubernetes.io/name",
                                                "operator": "NotIn", "values": ["basket"]}]},
          "policyTypes": ["Ingress"]}, False),
        ({"podSelector": {"matchExpressions": [{"key": "app.kubernetes.io/name",
                                                "operator": "In", "values": ["basket"]}]},
          "policyTypes": ["Ingress"]}, True),
        # an egress policy on basket does not keep callers out of it
        ({"podSelector": BASKET, "policyTypes": ["Egress"], "egress": [{}]}, False),
    ],
)  # fmt: skip
def test_network_policy_semantics(spec, cut_off):
    from sre.agents.baseline.states import network_policies

    view = _view(_pod("web"), _pod("basket"), _service("basket"), _policy(spec))
    apps = {(s.app, "ingress" in s.what) for s in network_policies.find(view)}
    assert (("basket", True) in apps) is cut_off, apps


def test_egress_closed_to_every_service_names_the_caller():
    from sre.agents.baseline.states import network_policies

    dns_only = _policy(
        {"podSelector": {"matchLabels": {"app.kubernetes.io/name": "web"}},
         "policyTypes": ["Egress"], "egress": [{"ports": [{"port": 53, "protocol": "UDP"}]}]}
    )  # fmt: skip
    view = _view(_pod("web"), _pod("basket"), _service("basket"), dns_only)
    assert [(s.app, s.what.split(" (")[0]) for s in network_policies.find(view)] == [
        ("web", "NetworkPolicy p admits no egress from web")
    ]


def _deployment(app: str, env: list[dict], ns: str = "shop"):
    return {
        "kind": "Deployment",
        "metadata": {"name": app, "namespace": ns},
        "spec": {"template": {"spec": {"containers": [{"name": app, "env": env}]}}},
    }


@pytest.mark.parametrize(
    ("env", "reaches"),
    [
        ({"name": "STORE_ADDR", "value": "store:80"}, None),
        ({"name": "STORE_ADDR", "value": "store:9999"}, "store"),
        ({"name": "STORE_ADDR", "value": "store:0000"}, "store"),
        ({"name": "STORE_URL", "value": "http://store.shop.svc.cluster.local:80/v1"}, None),
        ({"name": "STORE_URL", "value": "http://store.shop.svc.cluster.local:81/v1"}, "store"),
        ({"name": "STORE_URL", "value": "grpc://stroe:80"}, "store"),
        ({"name": "STORE_HOST", "value": "stor"}, "store"),
        ({"name": "STORE_ADDR", "value": ""}, ""),
        ({"name": "STORE_ADDR"}, ""),
        # not an address, another namespace, outside the cluster, an IP, a reference
        ({"name": "LOG_LEVEL", "value": ""}, None),
        ({"name": "GREETING", "value": "stroe"}, None),
        ({"name": "OTEL_EXPORTER_OTLP_ENDPOINT", "value": "http://otel-collector:4317"}, None),
        ({"name": "COLLECTOR", "value": "http://collector.observability:4317"}, None),
        ({"name": "API_URL", "value": "https://api.example.com:8443/v2"}, None),
        ({"name": "STORE_ADDR", "value": "10.96.3.7:9999"}, None),
        ({"name": "STORE_ADDR", "valueFrom": {"configMapKeyRef": {"name": "c", "key": "k"}}},
         None),
    ],
)  # fmt: skip
def test_wrong_addresses_in_the_environment(env, reaches):
    from sre.agents.baseline.states import env_addresses

    view = _view(_deployment("basket", [env]), _service("store"), _service("basket"))
    found = list(env_addresses.find(view))
    if reaches is None:
        assert found == []
    else:
        assert [(s.entity, s.reaches) for s in found] == [("shop/Deployment/basket", reaches)]


def _node(name: str, pressure: str | None = None, taint: str | None = None):
    conditions = [{"type": "Ready", "status": "True"}]
    if pressure:
        conditions.append({"type": pressure, "status": "True"})
    spec = {"taints": [{"key": taint, "effect": "NoSchedule"}]} if taint else {}
    return {"kind": "Node", "metadata": {"name": name}, "spec": spec,
            "status": {"conditions": conditions}}  # fmt: skip


EVICTED = {
    "phase": "Failed",
    "reason": "Evicted",
    "message": "The node was low on resource: memory.",
}


@pytest.mark.parametrize(
    ("objects", "named"),
    [
        ((_node("n1", "MemoryPressure"),
          _pod("store", spec={"nodeName": "n1"}, status=EVICTED)), [("Node/n1", "store")]),
        ((_node("n1", taint="node.kubernetes.io/memory-pressure"),
          _pod("store", spec={"nodeName": "n1"}, status={"phase": "Pending"})),
         [("Node/n1", "store")]),
        # no Node object: the evicted pod's node
        ((_pod("store", spec={"nodeName": "n2"}, status=EVICTED),), [("Node/n2", "store")]),
        # pressure on a node whose pods all run: nothing it keeps down
        ((_node("n1", "MemoryPressure"), _pod("store", spec={"nodeName": "n1"})),
         [("Node/n1", "")]),
        ((_node("n1"), _pod("store", spec={"nodeName": "n1"})), []),
    ],
)  # fmt: skip
def test_node_pressure_from_objects(objects, named):
    from sre.agents.baseline.states import node_pressure, pod_failures

    view = _view(*objects)
    assert [(s.entity, s.app) for s in node_pressure.find(view)] == named
    assert list(pod_failures.find(view)) == []  # an evicted pod is not its workload's fault
