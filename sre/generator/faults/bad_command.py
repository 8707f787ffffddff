"""The target container's command replaced by a binary that is not in the image."""

from __future__ import annotations

from sre.generator.faults._common import APP_SERVICES, container, new_pod, patch_deployment
from sre.generator.model import FaultContext, FaultPlan, FaultType, Symptom, WarningEvent


def build(ctx: FaultContext) -> FaultPlan:
    binary = f"/app/{ctx.target.name}-server-v2"

    def bad_command(dep: dict) -> None:
        container(dep)["command"] = [binary, "--config", "/etc/app/config.yaml"]

    change, after = patch_deployment(ctx, bad_command)
    pod = new_pod(ctx, after)
    return FaultPlan(
        fault_type="bad-command",
        target=ctx.target,
        root=change.ref,
        changes=(change,),
        warnings=(
            WarningEvent(
                pod,
                "Failed",
                "Error: failed to create containerd task: failed to create shim task: OCI runtime "
                f'create failed: exec: "{binary}": stat {binary}: no such file or directory',
                "kubelet",
            ),
            WarningEvent(
                pod, "BackOff", f"Back-off restarting failed container {ctx.target.name}", "kubelet"
            ),
        ),
        symptom=Symptom(ctx.target.name, "unavailable", "connection refused"),
        pod_state="CrashLoopBackOff",
        category="Change",
        condition=f"{ctx.target.name} Deployment command set to missing binary {binary}",
        mechanism="command_injection",
        pod_effect=f"{ctx.target.name} container fails to start and crash-loops",
        pod_alert="KubePodCrashLooping",
        new_pods=True,
        restarts=True,
    )


FAULT = FaultType("bad-command", "container command not in the image", build, APP_SERVICES)
