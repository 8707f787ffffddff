"""The target's node cordoned and drained: its pod is evicted and the replacement finds no node
(the others are full)."""

from __future__ import annotations

import copy

from sre.generator.faults._common import APP_SERVICES, current_pod
from sre.generator.model import (
    FaultContext,
    FaultPlan,
    FaultType,
    ObjectChange,
    ObjectRef,
    Remedy,
    Symptom,
    WarningEvent,
)
from sre.generator.objects import node, node_for, pod_name, template_hash


def build(ctx: FaultContext) -> FaultPlan:
    name = node_for(ctx.target.name)
    ref = ObjectRef("Node", name, "")
    before = node(name)
    after = copy.deepcopy(before)
    after["spec"] = {
        "unschedulable": True,
        "taints": [{"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule"}],
    }
    pod = current_pod(ctx)
    replacement = ObjectRef(
        "Pod", pod_name(ctx.target, template_hash(ctx.deployment), 1), ctx.namespace
    )
    n = len(ctx.nodes)
    return FaultPlan(
        fault_type="cordoned-node",
        target=ctx.target,
        root=ref,
        changes=(ObjectChange(ref, after, before),),
        warnings=(
            WarningEvent(
                replacement,
                "FailedScheduling",
                f"0/{n} nodes are available: 1 node(s) were unschedulable, {n - 1} Insufficient "
                f"memory. preemption: 0/{n} nodes are available: {n} Preemption is not helpful.",
                "default-scheduler",
            ),
            WarningEvent(pod, "Evicted", "Evicted by the drain of its node", "kubelet"),
        ),
        symptom=Symptom(ctx.target.name, "unavailable", "connection refused"),
        pod_state="Evicted",
        category="Infrastructure",
        condition=f"node {name} is cordoned (unschedulable) and drained",
        mechanism="cordoned-node",
        pod_effect=f"{ctx.target.name} pod drained from node {name}; its replacement stays Pending",
        pod_alert="KubePodNotReady",
        node=name,
    )


FAULT = FaultType(
    "cordoned-node",
    "the target's node cordoned and drained",
    build,
    APP_SERVICES,
    remedies=(
        Remedy(
            "uncordon the node",
            "the scheduler places the Pending pod on its node again",
            lambda r: [["uncordon", r.root.name]],
        ),
    ),
)
