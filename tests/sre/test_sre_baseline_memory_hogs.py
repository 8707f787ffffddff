"""A node short of memory evicts its neighbours' pods; what filled it is the workload on it whose
memory limit a change lifted (removed or raised) before. The baseline names that change above
the node, and keeps the node first when no such change ran on it."""

from __future__ import annotations

from datetime import datetime, timedelta

from sre.agents.baseline.evidence import (
    CallPath,
    Change,
    Evidence,
    FailingState,
    PodLabels,
    Symptom,
)
from sre.agents.baseline.memory_hogs import lifts_memory_limit
from sre.agents.baseline.rank import rank

START = datetime(2026, 7, 1, 8, 0)
LIFTED = START + timedelta(minutes=5)
PRESSURE = START + timedelta(minutes=19)
LIMITS = "spec.template.spec.containers[0].resources.limits"


def _workload(name: str, path: str, old: object, new: object) -> Change:
    return Change(namespace="shop", kind="Deployment", name=name, time=LIFTED, change="modified",
                  paths=(path,), spec={}, values=((path, old, new),))  # fmt: skip


#: ways a change lifts a container's memory limit: the limits dropped, the memory key dropped,
#: the limit raised
LIFTS = (
    _workload("ledger", LIMITS, {"memory": "256Mi", "cpu": "200m"}, None),
    _workload("ledger", f"{LIMITS}.memory", "256Mi", None),
    _workload("ledger", f"{LIMITS}.memory", "256Mi", "2Gi"),
    _workload(
        "ledger",
        "spec.template.spec.containers[0].resources",
        {"limits": {"memory": "0.5Gi"}},
        {"requests": {"memory": "128Mi"}},
    ),  # fmt: skip
)


def _evidence(hog: Change, node_of_hog: str) -> Evidence:
    taint = Change(namespace="", kind="Node", name="node-a", time=PRESSURE, change="modified",
                   paths=("spec.taints",), spec={}, since=PRESSURE - timedelta(minutes=5))  # fmt: skip
    pods = (
        PodLabels("shop", "basket-7f9c-aaaaa", "basket", {"app": "basket"}, "node-a"),
        PodLabels("shop", "ledger-5d8b-bbbbb", "ledger", {"app": "ledger"}, node_of_hog),
        PodLabels("shop", "web-6c7d-ccccc", "web", {"app": "web"}, "node-b"),
    )
    evicted = FailingState("", "Node", "node-a", "basket",
                           "node node-a reports MemoryPressure; pod basket-7f9c-ddddd: The node "
                           "was low on resource: memory.", 3.0, PRESSURE, needs_blame=True)  # fmt: skip
    failing = CallPath(services=("web", "basket"), severity="CRITICAL", suspect="basket",
                       reason="error rate 0.0% -> 100.0%", sample_errors=())  # fmt: skip
    return Evidence(
        changes=(taint, hog), warnings=(), alerts=(), onset=PRESSURE + timedelta(minutes=1),
        paths=(failing,), states=(evicted,), pods=pods,
        symptoms=(Symptom("basket", PRESSURE, "errors of calls to it 0% -> 100%"),),
    )  # fmt: skip


def test_the_workload_whose_memory_limit_was_lifted_on_the_node_outranks_it_and_only_it():
    for hog in LIFTS:
        assert lifts_memory_limit(hog), hog.values
        ranked = rank(_evidence(hog, "node-a"))
        assert ranked[0].change.entity == "shop/Deployment/ledger", hog.values
        assert ranked[1].change.entity == "Node/node-a", hog.values
    # and only then: the node stays first when the lifted workload runs elsewhere, or when
    # nothing was lifted
    assert rank(_evidence(LIFTS[0], "node-b"))[0].change.entity == "Node/node-a"
    lowered = _workload("ledger", f"{LIMITS}.memory", "2Gi", "256Mi")
    cpu_only = _workload("ledger", LIMITS, {"cpu": "200m"}, None)
    for change in (lowered, cpu_only):
        assert not lifts_memory_limit(change), change.values
        assert rank(_evidence(change, "node-a"))[0].change.entity == "Node/node-a", change.values
