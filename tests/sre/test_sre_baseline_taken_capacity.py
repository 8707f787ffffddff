"""A workload edited long before a node lost capacity under it.

A workload whose pods were placed and served for a while, then lost them to a node cordoned or
given a blocking taint, waits for the scheduler because of the node: its own earlier edit (a
larger request, a new image) ran placed until the node changed. The scheduler's refusal is the
node's finding, not the workload's; a workload edit that came after the node's keeps it."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from sre.agents.baseline.evidence import (
    AlertGroup,
    Change,
    Evidence,
    PodLabels,
    WarningEvent,
)
from sre.agents.baseline.rank import rank
from sre.agents.baseline.states import event_failures
from tests._support.sre_incident_files import clock

T0 = datetime(2026, 10, 7, 9, 0)
LABELS = {"app": "invoicer"}
WAITING = "invoicer-6f7d8c9b5-zz8kq"
_at = clock(T0)


def _taint(minute: float) -> Change:
    values = (("spec.taints", [], [{"key": "gpu-only", "value": "yes", "effect": "NoExecute"}]),)
    return Change(namespace="", kind="Node", name="worker-2", time=_at(minute), change="modified",
                  paths=("spec.taints",), spec={}, values=values)  # fmt: skip


def _request_raised(minute: float) -> Change:
    return Change(namespace="billing", kind="Deployment", name="invoicer", time=_at(minute),
                  change="modified",
                  paths=("spec.template.spec.containers[0].resources.requests.cpu",), spec={})  # fmt: skip


def _ranked(changes: tuple[Change, ...]) -> list[str]:
    evidence = Evidence(
        changes=changes,
        warnings=(WarningEvent("billing", "Pod", WAITING, "FailedScheduling", 6,
                               "0/4 nodes are available: 1 node(s) had untolerated taint "
                               "{gpu-only: yes}, 3 Insufficient cpu"),),
        # the Pending alert fires long after the taint: no change is "just before" it
        alerts=(AlertGroup("KubePodNotScheduled", "invoicer", "billing", _at(48), "firing"),),
        onset=_at(48), paths=(),
        pods=(PodLabels("billing", "invoicer-6f7d8c9b5-ab12c", "invoicer", LABELS, "worker-2"),
              PodLabels("billing", WAITING, "invoicer", LABELS, "")),
    )  # fmt: skip
    # the scheduler's refusal as the baseline reads it off the Warning events
    states = event_failures.find(evidence, {("billing", "invoicer"): "Deployment"})
    assert states, "the FailedScheduling warning is a failing state"
    return [c.change.entity for c in rank(replace(evidence, states=tuple(states)))]


def test_a_node_tainted_after_the_workload_edit_takes_the_scheduling_refusal():
    # the request went up at the start of the window; the node was tainted half an hour on
    ranked = _ranked((_request_raised(0), _taint(30)))
    assert ranked[0] == "Node/worker-2", ranked


def test_a_workload_edit_after_the_taint_keeps_the_scheduling_refusal():
    # the workload was edited after the node: its new pods may be what no node fits
    ranked = _ranked((_taint(0), _request_raised(30)))
    assert ranked[0] == "billing/Deployment/invoicer", ranked
