"""Units of the twin's application model: NetworkPolicy sources, quantities, flagd flags."""

from __future__ import annotations

import json

from sre.twin.model import flags_on, policy_allows, quantity

CART = {"app.kubernetes.io/name": "cart"}
CHECKOUT = {"app.kubernetes.io/name": "checkout"}


def _policy(*sources: dict) -> dict:
    return {
        "metadata": {"name": "p", "namespace": "otel-demo"},
        "spec": {"podSelector": {"matchLabels": CART}, "policyTypes": ["Ingress"],
                 "ingress": [{"from": list(sources)}]},
    }  # fmt: skip


def test_network_policy_sources():
    allow = lambda *s: policy_allows([_policy(*s)], "otel-demo", CART, CHECKOUT, 8080)  # noqa: E731
    assert allow({"podSelector": {"matchLabels": CHECKOUT}})
    assert not allow({"podSelector": {"matchLabels": {"app.kubernetes.io/name": "ad"}}})
    assert allow({"namespaceSelector": {}})
    assert allow(
        {"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "otel-demo"}}}
    )
    assert not allow({"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "x"}}})
    assert policy_allows([], "otel-demo", CART, CHECKOUT, 8080)  # nothing selects cart
    deny_all = {**_policy(), "spec": {**_policy()["spec"], "ingress": []}}
    assert not policy_allows([deny_all], "otel-demo", CART, CHECKOUT, 8080)


def test_quantities():
    assert quantity("512Mi") == 512 * 2**20
    assert quantity("600MB") == 600e6
    assert quantity("100m") == 0.1
    assert quantity("lots") is None


def test_flags_on_needs_enabled_state_and_a_true_default():
    def cm(entry: dict) -> dict:
        flags = {"flags": {"cartFailure": {"variants": {"on": True, "off": False}, **entry}}}
        return {
            "metadata": {"name": "flagd-config"},
            "data": {"demo.flagd.json": json.dumps(flags)},
        }

    assert flags_on([cm({"defaultVariant": "on", "state": "ENABLED"})]) == {"cartFailure": "cart"}
    assert flags_on([cm({"defaultVariant": "on", "state": "DISABLED"})]) == {}
    assert flags_on([cm({"defaultVariant": "off", "state": "ENABLED"})]) == {}
    broken = {"metadata": {"name": "flagd-config"}, "data": {"demo.flagd.json": "{not json"}}
    assert flags_on([broken]) == {}
