"""A namespace ResourceQuota too small for the target's replacement pod."""

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
from sre.generator.objects import template_hash


def build(ctx: FaultContext) -> FaultPlan:
    name = "compute-quota"
    ref = ObjectRef("ResourceQuota", name, ctx.namespace)
    body = {
        "apiVersion": "v1",
        "kind": "ResourceQuota",
        "metadata": {"name": name, "namespace": ctx.namespace},
        "spec": {"hard": {"pods": "19", "limits.memory": "4Gi"}},
    }
    rs = ObjectRef(
        "ReplicaSet", f"{ctx.target.name}-{template_hash(ctx.deployment)}", ctx.namespace
    )
    return FaultPlan(
        fault_type="resource-quota",
        target=ctx.target,
        root=ref,
        changes=(ObjectChange(ref, body),),
        warnings=(
            WarningEvent(
                rs,
                "FailedCreate",
                f'Error creating: pods "{current_pod(ctx).name}" is forbidden: exceeded quota: '
                f"{name}, requested: pods=1, used: pods=19, limited: pods=19",
                "replicaset-controller",
            ),
        ),
        symptom=Symptom(ctx.target.name, "unavailable", "connection refused"),
        pod_state="Pending",
        category="Resource Unavailable",
        condition=f"ResourceQuota {name} prevents {ctx.target.name} pods from being created",
        mechanism="resource_quota_enforcement",
        pod_effect=f"{ctx.target.name} has no running pod after its pod was replaced",
        pod_alert="KubeDeploymentReplicasMismatch",
        replicas_after=0,
    )


FAULT = FaultType(
    "resource-quota",
    "ResourceQuota exhausted",
    build,
    APP_SERVICES,
    remedies=(
        Remedy(
            "delete the ResourceQuota",
            "the ReplicaSet creates the refused pod on its next try",
            lambda r: [["-n", r.namespace, "delete", "resourcequota", r.root.name]],
        ),
        Remedy(
            "raise the quota",
            "room for every pod and its memory limit",
            lambda r: [
                [
                    "-n",
                    r.namespace,
                    "patch",
                    "resourcequota",
                    r.root.name,
                    "--type=merge",
                    "-p",
                    '{"spec":{"hard":{"pods":"40","limits.memory":"32Gi"}}}',
                ]
            ],
        ),
        Remedy(
            "raise the pod count only",
            "the memory limits of the namespace's pods still exceed limits.memory",
            lambda r: [
                [
                    "-n",
                    r.namespace,
                    "patch",
                    "resourcequota",
                    r.root.name,
                    "--type=merge",
                    "-p",
                    '{"spec":{"hard":{"pods":"40"}}}',
                ]
            ],
            accepted=False,
        ),
    ),
)
