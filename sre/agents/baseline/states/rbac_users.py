"""Which workloads each RBAC object grants its rights to: a Role or ClusterRole reaches the
ServiceAccounts a RoleBinding or ClusterRoleBinding binds it to, and a binding its own subjects;
a workload holds those rights when its pods run as one of those ServiceAccounts. A Role that
loses a verb acts on the applications whose API calls it then refuses (``403 forbidden``),
whatever its name says."""

from __future__ import annotations

from typing import Any

from sre.agents.baseline.evidence import app_of
from sre.agents.baseline.states.objects import ObjectView, meta

#: the kinds that bind a role to accounts
BINDINGS = ("RoleBinding", "ClusterRoleBinding")
#: a pod without ``serviceAccountName`` runs as its namespace's ``default`` account
DEFAULT_ACCOUNT = "default"


def _account(pod_spec: Any) -> str:
    spec = pod_spec if isinstance(pod_spec, dict) else {}
    return str(spec.get("serviceAccountName") or spec.get("serviceAccount") or DEFAULT_ACCOUNT)


def _runners(view: ObjectView) -> dict[tuple[str, str], set[str]]:
    """(namespace, ServiceAccount) -> the applications whose pods (or pod templates) run as it."""
    found: dict[tuple[str, str], set[str]] = {}
    for _, workload in view.kind("Deployment", "StatefulSet", "DaemonSet"):
        namespace, name, _ = meta(workload)
        template = (workload.get("spec") or {}).get("template") or {}
        found.setdefault((namespace, _account(template.get("spec"))), set()).add(name)
    for _, pod in view.kind("Pod"):
        namespace, name, _ = meta(pod)
        found.setdefault((namespace, _account(pod.get("spec"))), set()).add(app_of("Pod", name))
    return found


def _subjects(binding: dict[str, Any], namespace: str) -> set[tuple[str, str]]:
    """The (namespace, ServiceAccount) pairs a binding names (a subject without a namespace is in
    the binding's own)."""
    out = set()
    for subject in binding.get("subjects") or []:
        if isinstance(subject, dict) and subject.get("kind") == "ServiceAccount":
            out.add((str(subject.get("namespace") or namespace), str(subject.get("name") or "")))
    return out


def users(view: ObjectView) -> dict[str, frozenset[str]]:
    """namespace/Kind/name (``Kind/name`` when cluster-scoped) of each Role, ClusterRole and
    binding -> the workloads whose ServiceAccount it grants rights to."""
    runners = _runners(view)
    found: dict[str, set[str]] = {}
    for _, binding in view.kind(*BINDINGS):
        namespace, name, _ = meta(binding)
        apps = {
            app for account in _subjects(binding, namespace) for app in runners.get(account, ())
        }
        if not apps:
            continue
        kind = str(binding.get("kind") or "")
        entity = f"{namespace}/{kind}/{name}" if namespace else f"{kind}/{name}"
        found.setdefault(entity, set()).update(apps)
        ref = binding.get("roleRef") or {}
        role_kind, role = str(ref.get("kind") or ""), str(ref.get("name") or "")
        if role_kind == "Role" and namespace:
            found.setdefault(f"{namespace}/Role/{role}", set()).update(apps)
        elif role_kind == "ClusterRole":
            found.setdefault(f"ClusterRole/{role}", set()).update(apps)
    return {k: frozenset(v) for k, v in found.items()}
