"""A client rolled out with an address variable naming its callee in a namespace that has no such
Service (a staging value): the SRE baseline reads the wrong address off the workload's spec, and
the calls to the callee that began to fail just after the rollout blame the client's spec, not
the callee rolled out minutes before."""

from __future__ import annotations

from datetime import datetime, timedelta

from sre.agents.baseline.evidence import Change, Evidence, PodLabels, Symptom
from sre.agents.baseline.rank import rank
from sre.agents.baseline.states import env_addresses
from sre.agents.baseline.states.objects import ObjectView

START = datetime(2026, 7, 3, 9, 0)
ROLLOUT = START + timedelta(minutes=15)


def _service(name: str) -> dict:
    return {"apiVersion": "v1", "kind": "Service",
            "metadata": {"name": name, "namespace": "store"},
            "spec": {"selector": {"app": name}, "ports": [{"port": 7070}]}}  # fmt: skip


def _deployment(name: str, env: dict[str, str]) -> dict:
    container = {"name": name, "image": f"{name}:2.3",
                 "env": [{"name": k, "value": v} for k, v in env.items()]}  # fmt: skip
    return {"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": name, "namespace": "store"},
            "spec": {"template": {"spec": {"containers": [container]}}}}  # fmt: skip


def _view(pricing_addr: str) -> ObjectView:
    objects = [
        _service("web"),
        _service("pricing"),
        _deployment("web", {"PRICING_ADDR": pricing_addr, "LOG_LEVEL": "info"}),
        _deployment("pricing", {"PORT": "7070"}),
    ]
    return ObjectView.of([(ROLLOUT, o) for o in objects])


def test_an_address_naming_the_callee_in_a_namespace_without_it_is_a_failing_state():
    (state,) = env_addresses.find(_view("pricing.store-staging.svc.cluster.local:7070"))
    assert (state.entity, state.reaches) == ("store/Deployment/web", "pricing")
    assert "store-staging" in state.what
    # the same Service in its own namespace, by short or full name, is a right address
    assert list(env_addresses.find(_view("pricing.store.svc.cluster.local:7070"))) == []
    assert list(env_addresses.find(_view("pricing:7070"))) == []


def _rollout(name: str, at: datetime, path: str) -> Change:
    return Change(namespace="store", kind="Deployment", name=name, time=at, change="modified",
                  paths=(path,), spec={})  # fmt: skip


def test_calls_to_the_callee_failing_just_after_the_client_took_the_address_blame_the_client():
    (state,) = env_addresses.find(_view("pricing.store-staging.svc.cluster.local:7070"))
    env = "spec.template.spec.containers[0].env[0].value"
    changes = (
        _rollout("pricing", ROLLOUT - timedelta(minutes=4), "spec.template.spec.containers[0].image"),
        _rollout("web", ROLLOUT, env),
    )  # fmt: skip
    # no trace path blames anyone (the client's failed lookups reach no server): only the calls
    # to pricing, seen in the client's spans, began to fail
    failing = Symptom("pricing", ROLLOUT + timedelta(seconds=5), "errors of calls to it 0% -> 80%")
    pods = tuple(PodLabels("store", f"{a}-6c5d7-q8w2e", a, {"app": a}) for a in ("web", "pricing"))
    evidence = Evidence(changes=changes, warnings=(), alerts=(), onset=ROLLOUT + timedelta(minutes=6),
                        paths=(), states=(state,), symptoms=(failing,), pods=pods)  # fmt: skip
    assert rank(evidence)[0].change.entity == "store/Deployment/web"
