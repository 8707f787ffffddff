"""Units of the twin's application model: NetworkPolicy sources, quantities, flagd flags."""

from __future__ import annotations

import json

import pytest

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
    allow = lambda *s: policy_allows([_policy(*s)], "otel-demo", CART, CHECKOUT, 8080)  # noqa: E731 - a one-line helper read like the table of cases below
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


# -- the demo's flags, each with its own failure mode ---------------------------------------------
FLAG_SIGNS = {
    # fault type -> (service, what its health shows while the flag is on)
    "flag-ad-failure": ("ad", "errors"),
    "flag-ad-high-cpu": ("ad", "slow"),
    "flag-ad-manual-gc": ("ad", "slow"),
    "flag-cart-failure": ("cart", "errors"),
    "flag-image-slow-load": ("frontend", "slow"),
    "flag-kafka-queue-problems": ("accounting", "slow"),
    "flag-loadgenerator-flood-homepage": ("frontend", "slow"),
    "flag-payment-failure": ("payment", "errors"),
    "flag-payment-unreachable": ("checkout", "call to payment: unreachable"),
    "flag-product-catalog-failure": ("product-catalog", "errors"),
    "flag-recommendation-cache-failure": ("recommendation", "no endpoint"),
}


@pytest.mark.parametrize("fault", sorted(FLAG_SIGNS))
def test_each_flag_has_its_own_failure_mode(fault):
    from itbench.cluster import ClusterState, SimClock
    from sre.cluster import sre_extension
    from sre.twin.scenario import build_case, new_twin

    case = build_case(fault, 3)
    twin = new_twin(case)
    ClusterState(list(case.objects), extensions=[sre_extension()], reconciler=twin,
                 clock=SimClock(case.start))  # fmt: skip
    service, sign = FLAG_SIGNS[fault]
    h = twin.health(case.start)[service]
    if sign == "errors":
        assert h.errors and h.latency_ms <= 500 and "feature flag" in h.why[0], h
    elif sign == "slow":
        assert h.latency_ms > 500 and not h.errors, h
    elif sign == "no endpoint":
        assert h.serving == 0, h
        assert any(p.oom for p in twin.frame_at(case.start).pods if p.deployment == service)
    else:
        assert any(sign in why for why in h.why), h
        assert twin.health(case.start)["payment"].healthy


def test_a_targeting_rule_keeps_a_flag_on_whatever_its_default():
    """productCatalogFailure is switched on for one product by its targeting rule: setting the
    defaultVariant to off repairs nothing; a DISABLED flag or a zero-valued variant does."""
    import copy
    import json

    from sre.generator.demo_flags import demo_flagd_configmap, demo_flags
    from sre.twin.model import flag_values

    cm = demo_flagd_configmap("otel-demo", on="productCatalogFailure")
    assert flag_values([cm])["productCatalogFailure"] == 1.0
    doc = demo_flags("productCatalogFailure")
    doc["flags"]["productCatalogFailure"]["defaultVariant"] = "off"
    assert doc == demo_flags("productCatalogFailure")  # it was off already
    for change, expected in (
        (lambda e: e.update(state="DISABLED"), None),
        (lambda e: e["variants"].update(on=False), 0.0),
        (lambda e: e.pop("targeting"), 0.0),
    ):
        edited = copy.deepcopy(doc)
        change(edited["flags"]["productCatalogFailure"])
        cm2 = copy.deepcopy(cm)
        cm2["data"]["demo.flagd.json"] = json.dumps(edited)
        assert flag_values([cm2]).get("productCatalogFailure") == expected


def test_a_failure_share_below_the_alert_threshold_is_no_error():
    """cartFailure at 50% fails cart (above the 5% alert ratio); a 1% variant does not show."""
    from itbench.cluster import ClusterState, SimClock
    from sre.cluster import sre_extension
    from sre.twin.scenario import build_case, new_twin

    case = build_case("flag-cart-failure", 3)
    for share, fails in ((0.5, True), (0.01, False)):
        objects = [json.loads(json.dumps(o)) for o in case.objects]
        (cm,) = [o for o in objects if o["kind"] == "ConfigMap"]
        doc = json.loads(cm["data"]["demo.flagd.json"])
        doc["flags"]["cartFailure"]["variants"]["50%"] = share
        cm["data"]["demo.flagd.json"] = json.dumps(doc)
        twin = new_twin(case)
        ClusterState(objects, extensions=[sre_extension()], reconciler=twin,
                     clock=SimClock(case.start))  # fmt: skip
        assert twin.health(case.start)["cart"].errors is fails, share
