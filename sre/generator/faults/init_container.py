"""An init container added to the target's pod whose command its image does not have: it fails
at every start, the pod stays in Init:CrashLoopBackOff and never runs the service."""

from __future__ import annotations

from sre.generator.faults._common import APP_SERVICES, ROLLBACK, crash_looping_rollout, json_patch
from sre.generator.model import FaultContext, FaultPlan, FaultType, ObjectRef, Remedy, WarningEvent

COMMAND = "/usr/local/bin/wait-for-migrations"


def build(ctx: FaultContext) -> FaultPlan:
    def init_container(dep: dict) -> None:
        dep["spec"]["template"]["spec"]["initContainers"] = [
            {"name": "wait-for-migrations", "image": "busybox:1.36",
             "command": [COMMAND, "--timeout=60"]}
        ]  # fmt: skip

    def failed(pod: ObjectRef) -> WarningEvent:
        return WarningEvent(
            pod,
            "Failed",
            "Error: failed to create containerd task: failed to create shim task: OCI runtime "
            f'create failed: exec: "{COMMAND}": stat {COMMAND}: no such file or directory',
            "kubelet",
        )

    return crash_looping_rollout(
        ctx,
        init_container,
        first_failure=failed,
        fault_type="init-container",
        pod_state="CrashLoopBackOff",
        category="Configuration Setting",
        condition=f"{ctx.target.name} init container runs {COMMAND}, absent from its image",
        mechanism="failing-init-container",
        pod_effect=f"{ctx.target.name} pod is stuck in Init:CrashLoopBackOff",
    )


FAULT = FaultType(
    "init-container",
    "init container that cannot start",
    build,
    APP_SERVICES,
    remedies=(
        ROLLBACK,
        Remedy(
            "remove the init container",
            "the pod starts its service container directly",
            lambda r: [
                json_patch(
                    r,
                    "deployment",
                    r.target,
                    {"op": "remove", "path": "/spec/template/spec/initContainers"},
                )
            ],
        ),  # fmt: skip
        Remedy(
            "give the init container a command that completes",
            "the image's shell exits 0, the service container starts",
            lambda r: [
                json_patch(
                    r,
                    "deployment",
                    r.target,
                    {
                        "op": "replace",
                        "path": "/spec/template/spec/initContainers/0/command",
                        "value": ["/bin/sh", "-c", "true"],
                    },
                )
            ],
        ),  # fmt: skip
    ),
)
