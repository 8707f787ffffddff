"""Disk pressure on the target's node: the kubelet evicts its pods and taints the node."""

from __future__ import annotations

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
    pod = current_pod(ctx)
    # the replacement pod finds no room: the node is tainted and the others are full
    replacement = ObjectRef(
        "Pod", pod_name(ctx.target, template_hash(ctx.deployment), 1), ctx.namespace
    )
    n = len(ctx.nodes)
    return FaultPlan(
        fault_type="node-disk-pressure",
        target=ctx.target,
        root=ref,
        changes=(ObjectChange(ref, node(name, disk_pressure=True), node(name)),),
        warnings=(
            WarningEvent(
                ref,
                "EvictionThresholdMet",
                "Attempting to reclaim ephemeral-storage",
                "kubelet",
            ),
            WarningEvent(
                replacement,
                "FailedScheduling",
                f"0/{n} nodes are available: 1 node(s) had untolerated taint "
                f"{{node.kubernetes.io/disk-pressure: }}, {n - 1} Insufficient memory. "
                f"preemption: 0/{n} nodes are available: {n} Preemption is not helpful.",
                "default-scheduler",
            ),
            WarningEvent(
                pod,
                "Evicted",
                "The node was low on resource: ephemeral-storage. Threshold quantity: 10%, "
                "available: 4%.",
                "kubelet",
            ),
        ),
        symptom=Symptom(ctx.target.name, "unavailable", "connection refused"),
        pod_state="Evicted",
        category="Infrastructure",
        condition=f"node {name} under disk pressure evicts its pods",
        mechanism="node-disk-pressure",
        pod_effect=f"{ctx.target.name} pod evicted from node {name}; its replacement stays Pending",
        pod_alert="KubeNodeDiskPressure",
        node=name,
    )


FAULT = FaultType(
    "node-disk-pressure",
    "DiskPressure on the target's node",
    build,
    APP_SERVICES,
    remedies=(
        Remedy(
            "reclaim the disk",
            "disk space freed on the node: the kubelet reports DiskPressure False and the node "
            "controller lifts the taint (offline, the status patch stands for the clean-up)",
            lambda r: [
                [
                    "patch",
                    "node",
                    r.root.name,
                    "--subresource=status",
                    "--type=merge",
                    "-p",
                    '{"status":{"conditions":[{"type":"DiskPressure","status":"False"},'
                    '{"type":"Ready","status":"True"}]}}',
                ]
            ],
        ),
        Remedy(
            "remove the taint",
            "the node controller puts the disk-pressure taint back while the pressure lasts",
            lambda r: [
                ["taint", "nodes", r.root.name, "node.kubernetes.io/disk-pressure:NoSchedule-"]
            ],
            accepted=False,
        ),
    ),
)
