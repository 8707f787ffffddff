"""The ``llm`` agent's tools on a Kubernetes cost trial: reads of what OpenCost and the HPA
controller show, and kubectl itself, guarded, against the trial's own cluster.

- ``cost_allocation``: the ``opencost-allocation`` ConfigMap's document (daily spend per workload,
  per-pod usage against requests, prices, the alert's threshold and whether it fires);
- ``hpa_status``: every HorizontalPodAutoscaler's bounds, targets and current status;
- ``workload_resources``: every Deployment's replicas and its containers' requests and limits;
- ``kubectl``: the SRE mitigation task's guarded kubectl (the trial's kubeconfig only, no shell,
  files of the workspace only, by relative path; no exec or port-forward); on the diagnose task
  reads only.

They return data the cluster shows, never the baseline's answer, so a score measures the model.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

# the one guarded kubectl of the project, and its reading of a command line's flags
from itbench.cluster.kubectl_guard import command_of
from itbench.llm.tools import Tool
from sre.agents.kubectl_tool import kubectl_tool

__all__ = ["READ_VERBS", "k8s_llm_tools"]

NS = "shop"
#: what kubectl may do on the diagnose task: the change is named, not made
READ_VERBS = frozenset({"get", "describe", "top", "explain", "api-resources", "version"})
_NO_ARGS = {"type": "object", "properties": {}}


def _verb(args: list[str]) -> str:
    """The kubectl command in ``args``, read as the guard reads it (flag values skipped)."""
    return command_of(args)


def _guarded_kubectl(workspace: Path, read_only: bool, namespace: str = NS) -> Tool:
    inner = kubectl_tool(workspace)

    def run(args: list[str], stdin: str | None = None) -> dict[str, Any]:
        if read_only and isinstance(args, list) and _verb(args) not in READ_VERBS:
            return {
                "error": f"kubectl {_verb(args) or '(no command)'} is not allowed on the "
                f"diagnose task: name the change in agent_output.json, do not make it "
                f"(allowed: {', '.join(sorted(READ_VERBS))})"
            }
        return inner.function(args=args, stdin=stdin)

    description = (
        f"Run kubectl against this trial's cluster (namespace {namespace}): get, describe, patch, "
        "scale, set resources, apply -f - with the manifest in 'stdin' or -f FILE of your "
        "workspace, ... Arguments only, no 'kubectl' and no shell; files by a path relative to "
        "your workspace; other clusters, contexts, files outside the workspace, exec and "
        "port-forward are refused. The API server's answer (including its errors) comes back "
        "as exit_code, stdout and stderr."
    )
    if read_only:
        description += " Diagnose task: reads only (get, describe, ...)."
    return Tool("kubectl", description, inner.parameters, run)


def _reader(
    kubectl: Tool, read: Callable[[Callable[..., dict[str, Any]]], Any], namespace: str = NS
) -> Callable:
    def run() -> Any:
        def call(*args: str) -> dict[str, Any]:
            done = kubectl.function(args=["-n", namespace, *args])
            if "error" in done or done.get("exit_code"):
                raise _KubectlFailed(done.get("error") or done.get("stderr", "").strip())
            return json.loads(done["stdout"])

        try:
            return read(call)
        except _KubectlFailed as exc:
            return {"error": str(exc)}

    return run


class _KubectlFailed(Exception):
    pass


def _allocation(call) -> Any:
    cm = call("get", "configmap", "opencost-allocation", "-o", "json")
    return json.loads(cm["data"]["allocation.json"])


def _hpas(call) -> Any:
    out = []
    for hpa in call("get", "hpa", "-o", "json")["items"]:
        spec = hpa.get("spec") or {}
        out.append(
            {
                "name": hpa["metadata"]["name"],
                "target": (spec.get("scaleTargetRef") or {}).get("name"),
                "minReplicas": spec.get("minReplicas", 1),
                "maxReplicas": spec.get("maxReplicas"),
                "metrics": spec.get("metrics", []),
                "behavior": spec.get("behavior"),
                "status": hpa.get("status", {}),
            }
        )
    return out


def _deployments(call) -> Any:
    out = []
    for dep in call("get", "deployments", "-o", "json")["items"]:
        pod = ((dep.get("spec") or {}).get("template") or {}).get("spec") or {}
        out.append(
            {
                "name": dep["metadata"]["name"],
                "replicas": (dep.get("spec") or {}).get("replicas"),
                "containers": [
                    {"name": c.get("name"), "resources": c.get("resources", {})}
                    for c in pod.get("containers", [])
                ],
            }
        )
    return out


def k8s_llm_tools(workspace: Path, task: str, namespace: str = NS) -> list[Tool]:
    kubectl = _guarded_kubectl(workspace, read_only=task == "diagnose", namespace=namespace)
    return [
        Tool(
            "cost_allocation",
            "OpenCost's allocation for the namespace: daily spend in total and per workload "
            "(the last day is today), per-pod CPU/memory usage and peaks against requests, "
            "node prices, today's CPU/memory cost and efficiency, the alert's threshold and "
            "whether it fires.",
            _NO_ARGS,
            _reader(kubectl, _allocation, namespace),
        ),
        Tool(
            "hpa_status",
            "Every HorizontalPodAutoscaler: its Deployment, minReplicas, maxReplicas, metric "
            "targets, behaviour and status (current/desired replicas, current utilisation).",
            _NO_ARGS,
            _reader(kubectl, _hpas, namespace),
        ),
        Tool(
            "workload_resources",
            "Every Deployment: replicas and each container's resource requests and limits.",
            _NO_ARGS,
            _reader(kubectl, _deployments, namespace),
        ),
        kubectl,
    ]
