"""The target's pod given a volume from a PersistentVolumeClaim that does not exist: the
scheduler cannot place it, it stays Pending."""

from __future__ import annotations

from sre.generator.faults._common import (
    APP_SERVICES,
    ROLLBACK,
    container,
    json_patch,
    pending_rollout,
)
from sre.generator.model import FaultContext, FaultPlan, FaultType, Remedy


def build(ctx: FaultContext) -> FaultPlan:
    claim = f"{ctx.target.name}-{ctx.rng.choice(('data', 'cache', 'storage'))}"

    def claim_volume(dep: dict) -> None:
        dep["spec"]["template"]["spec"]["volumes"] = [
            {"name": "data", "persistentVolumeClaim": {"claimName": claim}}
        ]
        container(dep)["volumeMounts"] = [{"name": "data", "mountPath": "/var/lib/data"}]

    return pending_rollout(
        ctx,
        claim_volume,
        f'persistentvolumeclaim "{claim}" not found',
        fault_type="missing-pvc",
        category="Storage",
        condition=f"{ctx.target.name} mounts PersistentVolumeClaim {claim}, which does not exist",
        mechanism="missing-persistent-volume-claim",
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
