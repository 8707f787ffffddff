"""The target container's command replaced by a binary that is not in the image."""

from __future__ import annotations

from sre.generator.faults._common import (
    APP_SERVICES,
    ROLLBACK,
    container,
    container_path,
    crash_looping_rollout,
    json_patch,
)
from sre.generator.model import FaultContext, FaultPlan, FaultType, ObjectRef, Remedy, WarningEvent


def build(ctx: FaultContext) -> FaultPlan:
    binary = f"/app/{ctx.target.name}-server-v2"

    def bad_command(dep: dict) -> None:
        container(dep)["command"] = [binary, "--config", "/etc/app/config.yaml"]

    def start_failure(pod: ObjectRef) -> WarningEvent:
        return WarningEvent(
            pod,
            "Failed",
            "Error: failed to create containerd task: failed to create shim task: OCI runtime "
            f'create failed: exec: "{binary}": stat {binary}: no such file or directory',
            "kubelet",
        )

    return crash_looping_rollout(
        ctx,
        bad_command,
        first_failure=start_failure,
        fault_type="bad-command",
        pod_state="CrashLoopBackOff",
        category="Change",
        condition=f"{ctx.target.name} Deployment command set to missing binary {binary}",
        mechanism="command_injection",
        pod_effect=f"{ctx.target.name} container fails to start and crash-loops",
    )


FAULT = FaultType(
    "bad-command",
    "container command not in the image",
    build,
    APP_SERVICES,
    remedies=(
        ROLLBACK,
        Remedy(
            "remove the command",
            "without a command the image's own entrypoint starts",
            lambda r: [
                json_patch(
                    r, "deployment", r.target, {"op": "remove", "path": container_path("command")}
                )
            ],
        ),
    ),
)
