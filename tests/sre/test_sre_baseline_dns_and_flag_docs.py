"""Two rules of the SRE baseline: a DNSChaos acts on the applications whose names its
``patterns`` break (its selector may pick a whole namespace: every caller, no application in
particular); an edit of a flag's ``description`` alone switches nothing on, whatever service it
mentions."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from sre.agents.baseline.config_content import named_apps
from sre.agents.baseline.evidence import Change, Evidence, PodLabels, Symptom
from sre.agents.baseline.flag_clients import flips_flags
from sre.agents.baseline.rank import rank
from sre.agents.baseline.targets import dns_names

START = datetime(2026, 5, 12, 14, 0)
FAULT = START + timedelta(minutes=15)
#: the first alert fires a few minutes after the fault
ONSET = timedelta(minutes=3)
APPS = ("frontend", "checkout", "payment", "payment-gateway", "quote", "flagd")
PODS = tuple(
    PodLabels("shop", f"{app}-7d9f8b-k2x4p", app, {"app.kubernetes.io/name": app}) for app in APPS
)


def _dns_chaos(selector: dict, patterns: list[str]) -> Change:
    spec = {"action": "error", "mode": "all", "patterns": patterns, "selector": selector}
    return Change(namespace="chaos-mesh", kind="DNSChaos", name="lookups-broken", time=FAULT,
                  change="created", paths=(), spec=spec)  # fmt: skip


def _rollout(app: str, at: datetime) -> Change:
    path = "spec.template.spec.containers[0].image"
    return Change(namespace="shop", kind="Deployment", name=app, time=at, change="modified",
                  paths=(path,), spec={}, values=((path, f"{app}:1.4.0", f"{app}:1.4.1"),))  # fmt: skip


def test_a_dns_fault_on_a_whole_namespace_blames_the_chaos_not_the_callee_rolled_out_after_it():
    chaos = _dns_chaos({"namespaces": ["shop"]}, ["payment", "payment.shop.svc.cluster.local"])
    # the service whose name stops resolving was rolled out a minute later: the obvious suspect
    decoy = _rollout("payment", FAULT + timedelta(minutes=1))
    failing = Symptom("payment", FAULT + timedelta(minutes=2), "errors of calls to it 0% -> 100%")
    evidence = Evidence(changes=(chaos, decoy), warnings=(), alerts=(), onset=FAULT + ONSET, paths=(),
                        symptoms=(failing,), pods=PODS)  # fmt: skip
    ranked = rank(evidence)
    assert ranked[0].change.entity == "chaos-mesh/DNSChaos/lookups-broken"
    assert "payment" in ranked[0].apps


def test_dns_patterns_name_applications_by_short_name_cluster_name_or_wildcard():
    assert dns_names("DNSChaos", {"patterns": ["quote.shop.svc.cluster.local"]}, APPS) == {"quote"}
    assert dns_names("DNSChaos", {"patterns": ["pay*"]}, APPS) == {"payment", "payment-gateway"}
    assert dns_names("DNSChaos", {"patterns": ["quot?"]}, APPS) == {"quote"}
    # a Schedule holds its DNSChaos under ``dnsChaos``
    scheduled = {"type": "DNSChaos", "dnsChaos": {"patterns": ["checkout"]}}
    assert dns_names("Schedule", scheduled, APPS) == {"checkout"}
    # every name broken: no application in particular
    assert dns_names("DNSChaos", {"patterns": ["*"]}, APPS) == set()
    # other experiments have no patterns of names
    assert dns_names("NetworkChaos", {"patterns": ["checkout"]}, APPS) == set()


def _flags(description: str, variant: str) -> str:
    return json.dumps({"flags": {"paymentFailure": {
        "description": description, "state": "ENABLED",
        "variants": {"on": 1, "off": 0}, "defaultVariant": variant}}})  # fmt: skip


def test_an_edit_of_a_flag_description_alone_names_no_application_and_flips_nothing():
    path = "data.demo.flagd.json"
    reworded = ((path, _flags("Fail payment charges", "off"),
                 _flags("Fail payment charges (ticket PAY-7)", "off")),)  # fmt: skip
    switched = ((path, _flags("Fail payment charges", "off"),
                 _flags("Fail payment charges", "on")),)  # fmt: skip
    assert named_apps(reworded, APPS) == frozenset()
    assert "payment" in named_apps(switched, APPS)

    def edit(values: tuple) -> Change:
        return Change(namespace="shop", kind="ConfigMap", name="flagd-config", time=FAULT,
                      change="modified", paths=(path,), spec={}, values=values)  # fmt: skip

    assert not flips_flags(edit(reworded))
    assert flips_flags(edit(switched))
