"""The target's pod given a volume from a PersistentVolumeClaim that does not exist: the
scheduler cannot place it, it stays Pending."""

from __future__ import annotations

from sre.generator.faults._common import (
    APP_SERVICES,
    ROLLBACK,
    container,
    json_patch,
    new_pod,
    patch_deployment,
)
from sre.generator.model import FaultContext, FaultPlan, FaultType, Remedy, Symptom, WarningEvent


def build(ctx: FaultContext) -> FaultPlan:
    claim = f"{ctx.target.name}-{ctx.rng.choice(('data', 'cache', 'storage'))}"

    def claim_volume(dep: dict) -> None:
        dep["spec"]["template"]["spec"]["volumes"] = [
            {"name": "data", "persistentVolumeClaim": {"claimName": claim}}
        ]
        container(dep)["volumeMounts"] = [{"name": "data", "mountPath": "/var/lib/data"}]

    change, after = patch_deployment(ctx, claim_volume)
    pod = new_pod(ctx, after)
    return FaultPlan(
        fault_type="missing-pvc",
        target=ctx.target,
        root=change.ref,
        changes=(change,),
        warnings=(
            WarningEvent(
                pod,
                "FailedScheduling",
                f'persistentvolumeclaim "{claim}" not found',
                "default-scheduler",
            ),
        ),
        symptom=Symptom(ctx.target.name, "unavailable", "connection refused"),
        pod_state="Pending",
        category="Storage",
        condition=f"{ctx.target.name} mounts PersistentVolumeClaim {claim}, which does not exist",
        mechanism="missing-persistent-volume-claim",
        pod_effect=f"{ctx.target.name} pod cannot be scheduled and stays Pending",
        pod_alert="KubePodNotReady",
        new_pods=True,
        extra={"claim": claim},
    )


FAULT = FaultType(
    "missing-pvc",
    "volume from a PersistentVolumeClaim that does not exist",
    build,
    APP_SERVICES,
    remedies=(
        ROLLBACK,
        Remedy(
            "remove the volume",
            "the service keeps no state on it: without the claim the pod is scheduled",
            lambda r: [
                json_patch(
                    r,
                    "deployment",
                    r.target,
                    {"op": "remove", "path": "/spec/template/spec/volumes"},
                    {"op": "remove", "path": "/spec/template/spec/containers/0/volumeMounts"},
                )
            ],
        ),  # fmt: skip
    ),
)
