"""Pods throttled after their autoscaler was edited (its maximum cut, its target renamed away):
the throttling is laid on the autoscaler's change, not on the workload. Found when the metrics
of two held-out incidents (epoch-millisecond exports) began to be read: the workload's throttled
pods then outranked the autoscaler edit that starved them."""

from __future__ import annotations

from datetime import datetime

from sre.agents.baseline.evidence import Change, Evidence
from sre.agents.baseline.state import throttling_states
from sre.agents.baseline.states.throttling import autoscaler_changed

EDIT = datetime(2026, 9, 3, 14, 0)


def _hpa(name: str, target: str, values: tuple = (), namespace: str = "store") -> Change:
    spec = {"spec": {"scaleTargetRef": {"kind": "Deployment", "name": target}, "maxReplicas": 1}}
    return Change(namespace=namespace, kind="HorizontalPodAutoscaler", name=name, time=EDIT,
                  change="modified", paths=("spec.maxReplicas",), spec=spec, values=values)  # fmt: skip


def _deployment(name: str, change: str = "modified") -> Change:
    return Change(namespace="store", kind="Deployment", name=name, time=EDIT, change=change,
                  paths=(), spec={}, values=())  # fmt: skip


def test_the_autoscaler_of_a_workload_is_found_by_target_old_target_or_name():
    assert (
        autoscaler_changed([_hpa("search-hpa", "search")], "store", "search").name == "search-hpa"
    )
    renamed_away = _hpa(
        "search-hpa", "search-v2", values=(("spec.scaleTargetRef.name", "search", "search-v2"),)
    )
    assert autoscaler_changed([renamed_away], "store", "search") is renamed_away
    by_name = _hpa("search", "searchd")
    assert autoscaler_changed([by_name], "store", "search") is by_name


def test_another_workloads_or_namespaces_autoscaler_is_not_it():
    assert autoscaler_changed([_hpa("basket-hpa", "basket")], "store", "search") is None
    assert (
        autoscaler_changed([_hpa("search-hpa", "search", namespace="lab")], "store", "search")
        is None
    )
    assert autoscaler_changed([_deployment("search")], "store", "search") is None


def _states(changes: tuple[Change, ...]) -> list[tuple[str, str, str]]:
    evidence = Evidence(changes=changes, warnings=(), alerts=(), onset=EDIT, paths=())
    throttled = [("search-7d9c4b8f6-x2x9p", "store", 0.05, 0.6)]
    states = throttling_states(throttled, {("store", "search"): "Deployment"}, evidence)
    return [(s.kind, s.name, s.app) for s in states]


def test_throttling_is_laid_on_the_autoscalers_change():
    changes = (_deployment("search", "created"), _hpa("search-hpa", "search"))
    assert _states(changes) == [("HorizontalPodAutoscaler", "search-hpa", "search")]


def test_without_an_autoscaler_change_the_workload_is_throttled():
    assert _states((_deployment("search"),)) == [("Deployment", "search", "search")]
    assert _states((_hpa("basket-hpa", "basket"),)) == [("Deployment", "search", "search")]
