"""kyverno-update: add a rule for the new requirement to a deployed ClusterPolicy, in place.

The existing policy is read from the trial's cluster with kubectl (``KUBECONFIG`` from the task),
the new rules are put before its own (kept as they are), and the result is saved as
``kyverno-policy.yaml`` and applied. The other deployed policies are never touched.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ciso.agents.baseline.intent import Intent
from ciso.agents.baseline.kyverno_rules import rules_for
from ciso.agents.baseline.render import to_yaml

KUBECTL_TIMEOUT_S = 60
#: metadata the API server or kubectl adds; writing it back would be refused or misleading
_SERVER_METADATA = ("uid", "resourceVersion", "generation", "creationTimestamp", "managedFields")
_LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"


class UpdateFailed(Exception):
    """kubectl could not read or apply the policy."""


def _kubectl(args: list[str], env: Mapping[str, str], cwd: Path) -> str:
    try:
        done = subprocess.run(
            ["kubectl", *args],
            cwd=cwd,
            # kubectl's discovery cache stays in the trial, never in the user's home
            env={**os.environ, "KUBECACHEDIR": str(cwd / ".itbench" / "kube-cache"), **env},
            capture_output=True,
            text=True,
            timeout=KUBECTL_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise UpdateFailed(f"kubectl {' '.join(args)}: {exc}") from None
    if done.returncode != 0:
        raise UpdateFailed(f"kubectl {' '.join(args)}: {done.stderr.strip()[:500]}")
    return done.stdout


def existing_policy(name: str, env: Mapping[str, str], cwd: Path) -> dict[str, Any]:
    text = _kubectl(["get", "clusterpolicy", name, "-o", "json"], env, cwd)
    try:
        policy = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UpdateFailed(f"kubectl get clusterpolicy {name}: not JSON: {exc}") from None
    if not isinstance(policy, dict) or policy.get("kind") != "ClusterPolicy":
        raise UpdateFailed(f"kubectl get clusterpolicy {name}: not a ClusterPolicy")
    return policy


def edited(policy: Mapping[str, Any], intent: Intent) -> dict[str, Any]:
    """The policy with the new rules first (ITBench's check reads the FIRST result of the policy
    on the test resource), followed by its own rules, untouched."""
    result: dict[str, Any] = {
        "apiVersion": policy.get("apiVersion", "kyverno.io/v1"),
        "kind": "ClusterPolicy",
    }
    metadata = {
        k: copy.deepcopy(v)
        for k, v in (policy.get("metadata") or {}).items()
        if k not in _SERVER_METADATA
    }
    annotations = dict(metadata.get("annotations") or {})
    annotations.pop(_LAST_APPLIED, None)
    if annotations:
        metadata["annotations"] = annotations
    else:
        metadata.pop("annotations", None)
    result["metadata"] = metadata
    spec = copy.deepcopy(policy.get("spec") or {})
    rules = list(spec.get("rules") or [])
    taken = {str(r.get("name")) for r in rules if isinstance(r, dict)}
    added = []
    for rule in rules_for(intent):
        base, n = rule["name"], 2
        while rule["name"] in taken:
            rule["name"] = f"{base}-{n}"
            n += 1
        taken.add(rule["name"])
        added.append(rule)
    spec["rules"] = added + rules
    result["spec"] = spec
    return result


def update_policy(
    name: str, intent: Intent, env: Mapping[str, str], workspace: Path
) -> tuple[Path, dict[str, Any]]:
    """Edit, save and apply; returns the saved file and the policy."""
    policy = edited(existing_policy(name, env, workspace), intent)
    path = workspace / "kyverno-policy.yaml"
    header = f"# The deployed {name} policy with a rule for: {intent.requirement}\n"
    path.write_text(header + to_yaml(policy) + "\n", encoding="utf-8")
    _kubectl(["apply", "-f", str(path)], env, workspace)
    return path, policy
