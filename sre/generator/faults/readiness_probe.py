"""The target's readiness probe pointed at a port nothing listens on: never Ready, no endpoints."""

from __future__ import annotations

from sre.generator.faults._common import (
    APP_SERVICES,
    ROLLBACK,
    container,
    container_path,
    json_patch,
    new_pod,
    patch_deployment,
)
from sre.generator.model import FaultContext, FaultPlan, FaultType, Remedy, Symptom, WarningEvent


def build(ctx: FaultContext) -> FaultPlan:
    port = ctx.target.port + 1

    def bad_probe(dep: dict) -> None:
        container(dep)["readinessProbe"]["tcpSocket"]["port"] = port

    change, after = patch_deployment(ctx, bad_probe)
    pod = new_pod(ctx, after)
    return FaultPlan(
        fault_type="readiness-probe",
        target=ctx.target,
        root=change.ref,
        changes=(change,),
        warnings=(
            WarningEvent(
                pod,
                "Unhealthy",
                f"Readiness probe failed: dial tcp 10.244.1.17:{port}: connect: connection refused",
                "kubelet",
                every_s=10,
            ),
        ),
        symptom=Symptom(ctx.target.name, "unavailable", "no healthy upstream"),
        pod_state="NotReady",
        category="Configuration Setting",
        condition=f"{ctx.target.name} readiness probe checks port {port}",
        mechanism="misconfigured-readiness-probe",
        pod_effect=f"{ctx.target.name} pod never becomes Ready and is removed from the endpoints",
        pod_alert="KubePodNotReady",
        new_pods=True,
    )


FAULT = FaultType(
    "readiness-probe",
    "readiness probe on a closed port",
    build,
    APP_SERVICES,
    remedies=(
        ROLLBACK,
        Remedy(
            "probe the serving port",
            "the probe checks the port the service listens on",
            lambda r: [
                json_patch(
                    r,
                    "deployment",
                    r.target,
                    {
                        "op": "replace",
                        "path": container_path("readinessProbe/tcpSocket/port"),
                        "value": r.port,
                    },
                )
            ],
        ),
        Remedy(
            "remove the readiness probe",
            "the pod counts as Ready once it runs and the alerts clear, but nothing checks its "
            "health any more: destructive (strict fails on the removed probe)",
            lambda r: [
                json_patch(
                    r,
                    "deployment",
                    r.target,
                    {"op": "remove", "path": container_path("readinessProbe")},
                )
            ],
            accepted=False,
            clears_alerts=True,
        ),
    ),
)
