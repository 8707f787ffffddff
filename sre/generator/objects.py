"""Kubernetes objects of the demo as the cluster would report them: Deployments, Services, Pods,
Nodes and the flagd ConfigMap, in the shapes ``kubectl get -o json`` prints."""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

from sre.generator.topology import Service

NODES = ("worker-1", "worker-2", "worker-3")
FLAGD_CONFIGMAP = "flagd-config"
#: demo feature flags (flagd); a fault turns one on
FLAGS = {
    "productCatalogFailure": "product-catalog",
    "recommendationCacheFailure": "recommendation",
    "adFailure": "ad",
    "cartFailure": "cart",
    "paymentFailure": "payment",
    "adHighCpu": "ad",
    "imageSlowLoad": "image-provider",
}


def node_for(service: str) -> str:
    """Where a service's pod runs: spread over the nodes by name, stable across runs."""
    return NODES[sum(map(ord, service)) % len(NODES)]


def _hash(*parts: object, n: int = 10) -> str:
    digest = hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()
    # Kubernetes pod-template hashes and pod suffixes use this consonant-heavy alphabet
    alphabet = "bcdfghjklmnpqrstvwxz2456789"
    value = int(digest, 16)
    out = []
    for _ in range(n):
        value, i = divmod(value, len(alphabet))
        out.append(alphabet[i])
    return "".join(out)


def template_hash(deployment: dict[str, Any]) -> str:
    """A stable pod-template hash: a new one whenever the pod template changes."""
    template = json.dumps(deployment["spec"]["template"], sort_keys=True)
    return _hash(template)


def pod_name(svc: Service, tmpl_hash: str, index: int = 0) -> str:
    return f"{svc.name}-{tmpl_hash}-{_hash(svc.name, tmpl_hash, index, n=5)}"


def uid(*parts: object) -> str:
    h = hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


def deployment(svc: Service, namespace: str) -> dict[str, Any]:
    labels = {"app.kubernetes.io/name": svc.name, "app.kubernetes.io/part-of": "opentelemetry-demo"}
    container: dict[str, Any] = {
        "name": svc.name,
        "image": svc.image,
        "ports": [{"containerPort": svc.port, "name": "service", "protocol": "TCP"}],
        "env": [
            {"name": "OTEL_SERVICE_NAME", "value": svc.name},
            {"name": f"{svc.name.upper().replace('-', '_')}_PORT", "value": str(svc.port)},
            {"name": "OTEL_EXPORTER_OTLP_ENDPOINT", "value": "http://otel-collector:4317"},
        ],
        "resources": {"limits": {"memory": "512Mi"}, "requests": {"cpu": "100m"}},
        "readinessProbe": {
            "tcpSocket": {"port": svc.port},
            "periodSeconds": 10,
            "timeoutSeconds": 1,
            "failureThreshold": 3,
        },
    }
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {
            "name": svc.name,
            "namespace": namespace,
            "uid": uid("Deployment", namespace, svc.name),
            "labels": labels,
            "annotations": {"deployment.kubernetes.io/revision": "1"},
            "generation": 1,
        },
        "spec": {
            "replicas": 1,
            "selector": {"matchLabels": {"app.kubernetes.io/name": svc.name}},
            # Recreate, as in ITBench's injected incidents: a bad rollout takes the service down
            # instead of leaving the old pod serving behind a stuck rolling update.
            "strategy": {"type": "Recreate"},
            "template": {
                "metadata": {"labels": labels},
                "spec": {"containers": [container], "serviceAccountName": "opentelemetry-demo"},
            },
        },
        "status": {"replicas": 1, "readyReplicas": 1, "availableReplicas": 1},
    }


def service(svc: Service, namespace: str) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": {
            "name": svc.name,
            "namespace": namespace,
            "uid": uid("Service", namespace, svc.name),
            "labels": {"app.kubernetes.io/name": svc.name},
        },
        "spec": {
            "type": "ClusterIP",
            "selector": {"app.kubernetes.io/name": svc.name},
            "ports": [
                {"name": "tcp-service", "port": svc.port, "targetPort": svc.port, "protocol": "TCP"}
            ],
        },
    }


def pod(
    dep: dict[str, Any],
    svc: Service,
    name: str,
    node: str,
    state: str,
    restarts: int,
    started: str = "",
) -> dict[str, Any]:
    tmpl_hash = name.split("-")[-2]
    template = copy.deepcopy(dep["spec"]["template"])
    ready = state == "Running"
    waiting = {
        "ImagePullBackOff": ("ImagePullBackOff", "Back-off pulling image"),
        "CrashLoopBackOff": ("CrashLoopBackOff", "back-off restarting failed container"),
        "OOMKilled": ("CrashLoopBackOff", "back-off restarting failed container"),
        "CreateContainerConfigError": (
            "CreateContainerConfigError",
            "couldn't create the container's configuration",
        ),
    }
    container_state: dict[str, Any]
    if state in waiting:
        reason, message = waiting[state]
        container_state = {"waiting": {"reason": reason, "message": message}}
    elif state in ("Pending", "Evicted"):
        container_state = {}
    else:
        container_state = {"running": {"startedAt": started}}
    status: dict[str, Any] = {
        "phase": {
            "Pending": "Pending",
            "Evicted": "Failed",
            "CreateContainerConfigError": "Pending",
        }.get(state, "Running"),
        "conditions": [{"type": "Ready", "status": "True" if ready else "False"}],
    }
    if state == "Evicted":
        status["reason"] = "Evicted"
        status["message"] = "The node was low on resource: ephemeral-storage."
    if state != "Pending":
        last = (
            {"terminated": {"reason": "OOMKilled", "exitCode": 137}} if state == "OOMKilled" else {}
        )
        status["containerStatuses"] = [
            {
                "name": svc.name,
                "image": template["spec"]["containers"][0]["image"],
                "ready": ready,
                "restartCount": restarts,
                "state": container_state,
                "lastState": last,
            }
        ]
    spec = template["spec"]
    if state != "Pending":
        spec["nodeName"] = node
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            "name": name,
            "namespace": dep["metadata"]["namespace"],
            "uid": uid("Pod", name),
            "labels": {**template["metadata"]["labels"], "pod-template-hash": tmpl_hash},
            "ownerReferences": [
                {"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": f"{svc.name}-{tmpl_hash}"}
            ],
        },
        "spec": spec,
        "status": status,
    }


def node(name: str, disk_pressure: bool = False) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "name": name,
            "uid": uid("Node", name),
            "labels": {"kubernetes.io/hostname": name, "node-role.kubernetes.io/worker": ""},
        },
        "spec": (
            {"taints": [{"key": "node.kubernetes.io/disk-pressure", "effect": "NoSchedule"}]}
            if disk_pressure
            else {}
        ),
        "status": {
            "conditions": [
                {"type": "DiskPressure", "status": "True" if disk_pressure else "False"},
                {"type": "Ready", "status": "True"},
            ]
        },
    }


def flagd_configmap(namespace: str, enabled: str | None = None) -> dict[str, Any]:
    flags = {
        flag: {
            "state": "ENABLED",
            "variants": {"on": True, "off": False},
            "defaultVariant": "on" if flag == enabled else "off",
        }
        for flag in sorted(FLAGS)
    }
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {
            "name": FLAGD_CONFIGMAP,
            "namespace": namespace,
            "uid": uid("ConfigMap", namespace, FLAGD_CONFIGMAP),
        },
        "data": {"demo.flagd.json": json.dumps({"flags": flags}, sort_keys=True)},
    }
