"""A workload demoted below another on a full node: two PriorityClasses created
(``application-critical`` 10000, ``application-non-critical`` 1), the target's pods given the
lower one and pinned to their node, and a high-priority Deployment (``critical-data-collector``,
21 replicas of 190m CPU) pinned to the same node. The scheduler preempts the target's pod to make
room; its replacement stays Pending (Insufficient cpu, no victim of lower priority left).

The repair takes the target out of the trap: undo its rollout, or unpin it (the scheduler finds
it room elsewhere). Raising it to the critical class does not (equal priority preempts nothing;
the collector's pods came first); deleting the collector frees the node by removing a workload
someone deemed critical."""

from __future__ import annotations

import dataclasses
from typing import Any

from sre.generator.faults._common import ROLLBACK, json_patch, pending_rollout
from sre.generator.model import (
    FaultContext,
    FaultPlan,
    FaultType,
    ObjectChange,
    ObjectRef,
    Remedy,
)
from sre.generator.objects import node_for

HIGH, LOW = "application-critical", "application-non-critical"
COLLECTOR = "critical-data-collector"
#: the collector's replicas and CPU each: 21 × 190m = 3990m of the node's 4000m
COLLECTOR_REPLICAS, COLLECTOR_CPU = 21, "190m"


def priority_class(name: str, value: int) -> dict[str, Any]:
    return {
        "apiVersion": "scheduling.k8s.io/v1",
        "kind": "PriorityClass",
        "metadata": {"name": name, "labels": {"app.kubernetes.io/managed-by": "ITBench"}},
        "value": value,
        "globalDefault": False,
        "description": f"{'High' if value > 1 else 'Lower'} priority class for application "
        "workloads",
    }


def collector(namespace: str, node: str) -> dict[str, Any]:
    labels = {"app.kubernetes.io/name": COLLECTOR}
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": COLLECTOR, "namespace": namespace, "labels": labels},
        "spec": {
            "replicas": COLLECTOR_REPLICAS,
            "selector": {"matchLabels": labels},
            "template": {
                "metadata": {"labels": labels},
                "spec": {
                    "containers": [{
                        "name": "worker",
                        "image": "registry.access.redhat.com/ubi10-minimal:10.2",
                        "command": ["/bin/sh"],
                        "args": ["-c", "sleep infinity"],
                        "resources": {"requests": {"cpu": COLLECTOR_CPU, "memory": "1Mi"}},
                    }],
                    "nodeSelector": {"kubernetes.io/hostname": node},
                    "priorityClassName": HIGH,
                },
            },
        },
    }  # fmt: skip


def build(ctx: FaultContext) -> FaultPlan:
    node = node_for(ctx.target.name)

    def demote_and_pin(dep: dict) -> None:
        spec = dep["spec"]["template"]["spec"]
        spec["nodeSelector"] = {"kubernetes.io/hostname": node}
        spec["priorityClassName"] = LOW

    plan = pending_rollout(
        ctx,
        demote_and_pin,
        "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't match Pod's node "
        "affinity/selector. preemption: 0/3 nodes are available: 1 No preemption victims found "
        "for incoming pod, 2 Preemption is not helpful for scheduling.",
        fault_type="priority-preemption",
        category="Configuration Setting",
        condition=f"{ctx.target.name} runs at PriorityClass {LOW} on {node}, where "
        f"{COLLECTOR} ({HIGH}) takes the CPU",
        mechanism="priority-preemption",
        node=node,
        extra={"node": node, "collector": COLLECTOR},
    )
    created = (
        ObjectChange(ObjectRef("PriorityClass", HIGH, ""), priority_class(HIGH, 10000)),
        ObjectChange(ObjectRef("PriorityClass", LOW, ""), priority_class(LOW, 1)),
        ObjectChange(ObjectRef("Deployment", COLLECTOR, ctx.namespace),
                     collector(ctx.namespace, node)),
    )  # fmt: skip
    return dataclasses.replace(plan, changes=plan.changes + created)


_SPEC = "/spec/template/spec/"

FAULT = FaultType(
    "priority-preemption",
    "workload preempted by a higher PriorityClass on a full node",
    build,
    ("ad", "cart", "currency", "email", "payment", "product-catalog", "quote", "shipping"),
    remedies=(
        ROLLBACK,
        Remedy(
            "unpin the workload",
            "without its nodeSelector the scheduler places the pod on a node with room",
            lambda r: [
                json_patch(
                    r, "deployment", r.target, {"op": "remove", "path": _SPEC + "nodeSelector"}
                )
            ],  # fmt: skip
        ),
        Remedy(
            "raise it to the critical class",
            "equal priority preempts nothing: the collector's pods, placed first, keep the CPU",
            lambda r: [
                json_patch(
                    r,
                    "deployment",
                    r.target,
                    {"op": "replace", "path": _SPEC + "priorityClassName", "value": HIGH},
                )
            ],  # fmt: skip
            accepted=False,
        ),
        Remedy(
            "delete the high PriorityClass",
            "running pods keep the priority they were admitted with: nothing moves",
            lambda r: [["delete", "priorityclass", HIGH]],
            accepted=False,
        ),
        Remedy(
            "delete the critical workload",
            "the node has room again (the alert clears), by deleting a workload marked "
            "critical: destructive, strict fails",
            lambda r: [["-n", r.namespace, "delete", "deployment", COLLECTOR, "--wait=false"]],
            accepted=False,
            clears_alerts=True,
        ),
    ),
)
