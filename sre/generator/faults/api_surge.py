"""A client hammering the API server: a Deployment (``workload-scanner``, 5 replicas, each
listing and watching the cluster's objects at 60 requests/s, as ITBench's load script does)
pushes the workloads' priority level past what the API server admits. Requests are rejected
with 429 and queued; the target's routine rollout, started during the surge, never gets its new
pod bound: Pending, the service down (``sre/twin/apiserver.py``).

The repair stops the client or scales it under the limit. Undoing or restarting the stuck
rollout creates another pod the API server cannot bind."""

from __future__ import annotations

import dataclasses
from typing import Any

from sre.generator.faults._common import APP_SERVICES, ROLLBACK, pending_rollout
from sre.generator.model import FaultContext, FaultPlan, FaultType, ObjectChange, ObjectRef, Remedy

CLIENT = "workload-scanner"
REPLICAS, RATE = 5, 60


def client(namespace: str) -> dict[str, Any]:
    labels = {"app.kubernetes.io/name": CLIENT}
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": CLIENT, "namespace": namespace, "labels": labels},
        "spec": {
            "replicas": REPLICAS,
            "selector": {"matchLabels": labels},
            "template": {
                "metadata": {"labels": labels},
                "spec": {
                    "serviceAccountName": CLIENT,
                    "containers": [{
                        "name": "load-generator",
                        "image": "registry.access.redhat.com/ubi10/python-314-minimal:10.2",
                        "command": ["/bin/sh", "-c",
                                    "pip install kubernetes && python /scripts/generate_load.py"],
                        "env": [{"name": "REQUESTS_PER_SECOND", "value": str(RATE)}],
                        "resources": {"requests": {"cpu": "100m", "memory": "128Mi"}},
                    }],
                },
            },
        },
    }  # fmt: skip


def build(ctx: FaultContext) -> FaultPlan:
    stamp = ctx.fault_time.strftime("%Y-%m-%dT%H:%M:%SZ")

    def routine_restart(dep: dict) -> None:
        meta = dep["spec"]["template"]["metadata"]
        meta.setdefault("annotations", {})["kubectl.kubernetes.io/restartedAt"] = stamp

    plan = pending_rollout(
        ctx,
        routine_restart,
        "Binding rejected: 429 Too Many Requests (the server is currently unable to handle the "
        "request)",
        fault_type="api-surge",
        category="Resource Contention",
        condition=f"{CLIENT} sends {REPLICAS * RATE} requests/s to the API server",
        mechanism="api-server-request-surge",
        extra={"client": CLIENT, "rate": REPLICAS * RATE},
    )
    ref = ObjectRef("Deployment", CLIENT, ctx.namespace)
    return dataclasses.replace(
        plan,
        root=ref,
        changes=(*plan.changes, ObjectChange(ref, client(ctx.namespace))),
        pod_effect=f"{ctx.target.name}'s new pod is never bound while the API server throttles",
    )


def _scale(replicas: int) -> Any:
    return lambda r: [
        ["-n", r.namespace, "scale", f"deployment/{CLIENT}", f"--replicas={replicas}"]
    ]


FAULT = FaultType(
    "api-surge",
    "a client flooding the API server",
    build,
    APP_SERVICES,
    remedies=(
        Remedy(
            "stop the client", "scaled to zero it sends nothing; the held pods are bound", _scale(0)
        ),  # fmt: skip
        Remedy(
            "scale the client under the limit",
            f"one replica sends {RATE} requests/s, within what the API server admits",
            _scale(1),
        ),
        Remedy(
            "delete the client",
            "the workload the fault added is gone; nothing floods the API server",
            lambda r: [["-n", r.namespace, "delete", "deployment", CLIENT, "--wait=false"]],
        ),
        Remedy(
            "scale the client down a little",
            f"three replicas still send {3 * RATE} requests/s: still throttled",
            _scale(3),
            accepted=False,
        ),
        dataclasses.replace(
            ROLLBACK,
            accepted=False,
            why="the stuck rollout is not the cause: the undo's pod is held like the first",
        ),
    ),
)
