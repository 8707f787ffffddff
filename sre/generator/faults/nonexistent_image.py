"""The target Deployment pointed at an image tag that does not exist."""

from __future__ import annotations

from sre.generator.faults._common import (
    APP_SERVICES,
    ROLLBACK,
    container,
    new_pod,
    patch_deployment,
)
from sre.generator.model import FaultContext, FaultPlan, FaultType, Remedy, Symptom, WarningEvent


def build(ctx: FaultContext) -> FaultPlan:
    image = f"ghcr.io/open-telemetry/demo:0.0.0-{ctx.target.name}-missing"

    def bad_image(dep: dict) -> None:
        container(dep)["image"] = image

    change, after = patch_deployment(ctx, bad_image)
    pod = new_pod(ctx, after)
    return FaultPlan(
        fault_type="nonexistent-image",
        target=ctx.target,
        root=change.ref,
        changes=(change,),
        warnings=(
            WarningEvent(
                pod,
                "Failed",
                f'Failed to pull image "{image}": rpc error: code = NotFound desc = '
                f"failed to resolve reference: not found",
                "kubelet",
            ),
            WarningEvent(pod, "Failed", "Error: ImagePullBackOff", "kubelet", every_s=30),
        ),
        symptom=Symptom(ctx.target.name, "unavailable", "connection refused"),
        pod_state="ImagePullBackOff",
        category="Change",
        condition=f"{ctx.target.name} Deployment updated to a nonexistent image {image}",
        mechanism="nonexistent-kubernetes-workload-container-image",
        pod_effect=f"{ctx.target.name} pod is in ImagePullBackOff",
        pod_alert="KubePodNotReady",
        new_pods=True,
    )


FAULT = FaultType(
    "nonexistent-image",
    "image tag that does not exist",
    build,
    APP_SERVICES,
    remedies=(
        ROLLBACK,
        Remedy(
            "set the released image",
            "kubectl set image back to the release the demo ships",
            lambda r: [
                [
                    "-n",
                    r.namespace,
                    "set",
                    "image",
                    f"deployment/{r.target}",
                    f"{r.target}={r.image}",
                ]
            ],
        ),
        Remedy(
            "an image of another service",
            "a shipped image, but another service's: it does not exist under this name",
            lambda r: [
                [
                    "-n",
                    r.namespace,
                    "set",
                    "image",
                    f"deployment/{r.target}",
                    f"{r.target}={r.image.rsplit('-', 1)[0]}-nonexistent",
                ]
            ],
            accepted=False,
        ),
    ),
)
