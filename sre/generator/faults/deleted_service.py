"""The target's Service deleted: its name no longer resolves, every caller's connection fails.
The Deployment and its pods are untouched; the repair recreates the Service, selecting the pods
by their own label and forwarding to the port they listen on."""

from __future__ import annotations

from sre.generator.faults._common import APP_SERVICES
from sre.generator.model import (
    FaultContext,
    FaultPlan,
    FaultType,
    ObjectChange,
    ObjectRef,
    Remedy,
    RemedyContext,
    Symptom,
)


def build(ctx: FaultContext) -> FaultPlan:
    ref = ObjectRef("Service", ctx.target.name, ctx.namespace)
    return FaultPlan(
        fault_type="deleted-service",
        target=ctx.target,
        root=ref,
        changes=(ObjectChange(ref, None, ctx.service),),
        warnings=(),  # deleting a Service emits no Warning event
        symptom=Symptom(
            ctx.target.name,
            "unavailable",
            f"dial tcp: lookup {ctx.target.name} on 10.96.0.10:53: no such host",
        ),
        pod_state="Running",
        category="Configuration Setting",
        condition=f"the {ctx.target.name} Service was deleted",
        mechanism="deleted-service",
        pod_effect=f"{ctx.target.name} runs, but no Service routes to it",
    )


def _expose(r: RemedyContext, name: str) -> list[str]:
    return ["-n", r.namespace, "expose", "deployment", r.target, f"--name={name}",
            f"--port={r.port}", f"--target-port={r.port}"]  # fmt: skip


def _create_service(r: RemedyContext) -> list[str]:
    """kubectl's own Service for the port: its selector is ``app=<name>``."""
    return ["-n", r.namespace, "create", "service", "clusterip", r.target,
            f"--tcp={r.port}:{r.port}"]  # fmt: skip


FAULT = FaultType(
    "deleted-service",
    "Service deleted",
    build,
    APP_SERVICES,
    remedies=(
        Remedy(
            "expose the deployment",
            "kubectl expose recreates the Service under its name with the Deployment's selector "
            "and the serving port",
            lambda r: [_expose(r, r.target)],
        ),
        Remedy(
            "create the Service and select the pods",
            "a ClusterIP Service on the port, its selector set to the pods' own label",
            lambda r: [
                _create_service(r),
                [
                    "-n",
                    r.namespace,
                    "set",
                    "selector",
                    "service",
                    r.target,
                    f"app.kubernetes.io/name={r.target}",
                ],
            ],  # fmt: skip
        ),
        Remedy(
            "create the Service with kubectl's default selector",
            "kubectl create service selects app=<name>, a label the demo's pods do not carry: "
            "the Service exists and has no endpoint",
            lambda r: [_create_service(r)],
            accepted=False,
        ),
        Remedy(
            "expose the deployment on port 80",
            "the Service is back under its name and reaches the pods, but on a port its callers "
            "do not dial: they connect to the service's own port, from their configuration",
            lambda r: [
                [
                    "-n",
                    r.namespace,
                    "expose",
                    "deployment",
                    r.target,
                    "--port=80",
                    f"--target-port={r.port}",
                ]
            ],  # fmt: skip
            accepted=False,
        ),
        Remedy(
            "expose the deployment over UDP",
            "the Service is back under its name and port, but for UDP: the callers' gRPC and HTTP "
            "connections are TCP, which the Service does not carry",
            lambda r: [[*_expose(r, r.target), "--protocol=UDP"]],
            accepted=False,
        ),
        Remedy(
            "expose under another name",
            "the callers look the service up by its own name, which still resolves to nothing",
            lambda r: [_expose(r, f"{r.target}-svc")],
            accepted=False,
        ),
    ),
)
