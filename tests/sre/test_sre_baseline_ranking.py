"""The SRE baseline's ranking rules on hand-built evidence: a configuration change names the
applications its changed keys spell out; blame adds up independent signals (the trace tree counts
once, events and alerts corroborate); a fault-injection experiment is suspicious by itself."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from sre.agents.baseline.config_content import changed_keys, named_apps, words
from sre.agents.baseline.evidence import AlertGroup, CallPath, Change, Evidence, WarningEvent
from sre.agents.baseline.rank import blame, rank

ONSET = datetime(2025, 7, 30, 5, 42, tzinfo=UTC)


def _change(kind: str, name: str, seconds_before: int, *paths: str, values=(), spec=None):
    return Change(
        namespace="shop",
        kind=kind,
        name=name,
        time=ONSET - timedelta(seconds=seconds_before),
        change="modified" if kind != "NetworkChaos" else "created",
        paths=paths,
        spec=spec or {},
        values=tuple(values),
    )


def _path(services: tuple[str, ...], suspect: str, severity: str = "CRITICAL") -> CallPath:
    return CallPath(services, severity, suspect, "error rate 0.0% -> 50.0%", ())


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("productCatalogFailure", {"product", "catalog", "failure"}),
        ("product-catalog", {"product", "catalog"}),
        ("flags.adHighCpu.defaultVariant", {"flags", "ad", "high", "cpu", "default", "variant"}),
        ("HTTPServerTimeout", {"http", "server", "timeout"}),
        ("checkout_v2", {"checkout", "v", "2"}),
    ],
)
def test_words_split_separators_and_camel_case(text, expected):
    assert words(text) == expected


def test_changed_keys_read_json_and_yaml_values_down_to_what_differs():
    old = json.dumps({"flags": {"cartFailure": {"on": False}, "adFailure": {"on": False}}})
    new = json.dumps({"flags": {"cartFailure": {"on": True}, "adFailure": {"on": False}}})
    assert list(changed_keys("data.flags.json", old, new)) == [
        "data.flags.json.flags.cartFailure.on"
    ]
    yaml_old, yaml_new = (
        "checkout:\n  timeout: 5s\nads: {limit: 1}\n",
        "checkout:\n  timeout: 1ms\nads: {limit: 1}\n",
    )
    assert list(changed_keys("data.config.yaml", yaml_old, yaml_new)) == [
        "data.config.yaml.checkout.timeout"
    ]
    # plain text is compared whole; an unchanged value yields nothing
    assert list(changed_keys("data.mode", "fast", "slow")) == ["data.mode"]
    assert list(changed_keys("data.mode", "fast", "fast")) == []


def test_named_apps_need_every_word_of_the_app_name():
    old = json.dumps({"flags": {"productCatalogFailure": "off", "adFailure": "off"}})
    new = json.dumps({"flags": {"productCatalogFailure": "on", "adFailure": "off"}})
    values = [("data.demo.flagd.json", old, new)]
    apps = {"product-catalog", "ad", "catalog-admin", "cart"}
    # "catalog-admin" shares a word but not all of them; "ad" is not what changed
    assert named_apps(values, apps) == {"product-catalog"}


def test_a_config_change_that_names_the_failing_service_outranks_a_rollout_of_its_caller():
    old = json.dumps({"flags": {"cartFailure": {"defaultVariant": "off"}}})
    new = json.dumps({"flags": {"cartFailure": {"defaultVariant": "on"}}})
    config = _change(
        "ConfigMap", "flagd-config", 35, "data.demo.flagd.json",
        values=[("data.demo.flagd.json", old, new)],
    )  # fmt: skip
    rollout = _change("Deployment", "frontend", 95, "spec.template.spec.containers[0].image")
    evidence = Evidence(
        changes=(rollout, config),
        warnings=(),
        alerts=(),
        onset=ONSET,
        paths=(_path(("frontend-proxy", "frontend"), "cart"),),
    )
    ranked = rank(evidence)
    assert ranked[0].change is config and ranked[0].apps == {"cart"}
    assert [c.change.name for c in ranked] == ["flagd-config", "frontend"]


def test_blame_counts_the_trace_tree_once_and_adds_events_and_alerts():
    evidence = Evidence(
        changes=(),
        warnings=(WarningEvent("shop", "Pod", "quote-7f9c6d5b4-abcde", "Failed", 3),),
        alerts=(AlertGroup("KubePodNotReady", "quote", "shop", ONSET, "firing"),),
        onset=ONSET,
        paths=(
            _path(("frontend", "quote"), "quote"),
            _path(("frontend", "checkout", "shipping"), "quote"),
        ),
    )
    signals = blame(evidence)
    assert set(signals["quote"]) == {"trace", "last-hop", "warning", "alert"}
    assert set(signals["shipping"]) == {"last-hop"}
    failing = _change("Deployment", "quote", 40, "spec.template.spec.containers[0].image")
    bystander = _change("Deployment", "shipping", -10, "spec.template.spec.containers[0].image")
    ranked = rank(
        Evidence((bystander, failing), evidence.warnings, evidence.alerts, ONSET, evidence.paths)
    )
    # quote: time 2 + trace 3 (last hop not added again) + event 1 + alert 1; shipping: 2 + 2
    assert [(c.change.name, c.score) for c in ranked] == [("quote", 7.0), ("shipping", 4.0)]


def test_a_chaos_experiment_outranks_a_routine_rollout_blamed_by_the_same_trace():
    chaos = _change(
        "NetworkChaos",
        "shipping-delay",
        80,
        spec={"selector": {"labelSelectors": {"app.kubernetes.io/name": "shipping"}}},
    )
    rollout = _change("Deployment", "quote", 40, "spec.template.spec.containers[0].image")
    evidence = Evidence(
        changes=(rollout, chaos),
        warnings=(),
        alerts=(),
        onset=ONSET,
        # shipping cannot reach quote: the path ends at shipping, the tree blames quote
        paths=(_path(("frontend", "checkout", "shipping"), "quote"),),
    )
    ranked = rank(evidence)
    # quote's rollout: time 2 + trace 3; the experiment: time 2 + last hop 2 + fault injection 2
    assert [(c.change.name, c.score) for c in ranked] == [("shipping-delay", 6.0), ("quote", 5.0)]


def test_several_failing_callees_of_one_caller_point_at_the_caller():
    # checkout's DNS is broken: every call it makes fails, and the trace tree blames each callee
    paths = tuple(
        _path(("frontend-proxy", "frontend", "checkout", callee), callee)
        for callee in ("email", "payment", "cart")
    )
    signals = blame(Evidence((), (), (), ONSET, paths))
    assert set(signals["checkout"]) == {"fan-out"}
    assert signals["checkout"]["fan-out"] == "its calls to cart, email, payment all fail"
    assert "fan-out" not in signals.get("frontend", {})  # one failing callee is no fan-out
    # checkout's own spans fail too; the experiment is older than the onset window
    paths += (_path(("frontend-proxy", "frontend", "checkout"), "checkout"),)
    selector = {"selector": {"labelSelectors": {"app": "checkout"}}}
    dns = _change("DNSChaos", "checkout-dns", 200, spec=selector)
    rollout = _change("Deployment", "email", 100, "spec.template.spec.containers[0].image")
    ranked = rank(Evidence((rollout, dns), (), (), ONSET, paths))
    # the experiment: trace 3 + fan-out 2 + fault injection 2; the rollout of one callee: time 2
    # + trace 3. Without the fan-out both would score 5 and the later change would win
    assert [(c.change.name, c.score) for c in ranked] == [("checkout-dns", 7.0), ("email", 5.0)]
