"""The target's image replaced by one built for another CPU architecture (arm64 on the demo's
amd64 nodes): the pull succeeds, the binary cannot run, the container crash-loops."""

from __future__ import annotations

from sre.generator.faults._common import (
    APP_SERVICES,
    ROLLBACK,
    container,
    crash_looping_rollout,
)
from sre.generator.model import FaultContext, FaultPlan, FaultType, Remedy


def build(ctx: FaultContext) -> FaultPlan:
    image = f"ghcr.io/open-telemetry/demo-arm64:2.0.2-{ctx.target.name}"

    def arm_image(dep: dict) -> None:
        container(dep)["image"] = image

    return crash_looping_rollout(
        ctx,
        arm_image,
        fault_type="wrong-arch-image",
        pod_state="CrashLoopBackOff",
        category="Change",
        condition=f"{ctx.target.name} Deployment updated to {image}, built for arm64 only",
        mechanism="unsupported-image-architecture",
        pod_effect=f"{ctx.target.name} container exits with exec format error and crash-loops",
        extra={"image": image},
    )


FAULT = FaultType(
    "wrong-arch-image",
    "image built for another CPU architecture",
    build,
    APP_SERVICES,
    remedies=(
        ROLLBACK,
        Remedy(
            "set the released image",
            "the demo's multi-platform image runs on the amd64 nodes",
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
        ),  # fmt: skip
        Remedy(
            "select arm64 nodes",
            "no node is arm64: the pod stays Pending instead of crash-looping",
            lambda r: [
                [
                    "-n",
                    r.namespace,
                    "patch",
                    "deployment",
                    r.target,
                    "--type=merge",
                    "-p",
                    '{"spec":{"template":{"spec":{"nodeSelector":{"kubernetes.io/arch":"arm64"}}}}}',
                ]
            ],
            accepted=False,
        ),  # fmt: skip
    ),
)
