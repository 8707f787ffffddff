"""A minimal Istio ambient mesh over the twin: which pods the mesh holds, what its policies let
through, what its telemetry sees. Pure functions over plain objects, read by ``model.py``.

- **Enrolment**: a pod is in the mesh when its namespace carries ``istio.io/dataplane-mode:
  ambient`` and the pod does not opt out (its own label ``istio.io/dataplane-mode: none``); a pod
  label ``ambient`` enrols it whatever the namespace says. Its node's ztunnel then carries its
  traffic, mutual TLS between enrolled pods.
- **PeerAuthentication**: the policy that applies to a destination is the most specific one —
  a workload ``selector`` in its namespace, else the namespace-wide one, else the mesh-wide one
  in ``istio-system``. ``STRICT`` on an enrolled destination refuses plaintext: a caller outside
  the mesh cannot reach it. A destination outside the mesh enforces nothing (no ztunnel of its
  own); an enrolled caller sends plaintext to it.
- **Gateway AuthorizationPolicy**: a policy with a ``targetRef``/``targetRefs`` naming a Gateway
  judges the requests entering through it: ``DENY`` when a rule matches (``to.operation``
  ``methods``/``notMethods``/``paths``; a rule without ``to`` matches every request, a policy
  without rules matches none), ``ALLOW`` policies when present let in only what one matches.
  The users' requests (the load generator's, to ``frontend-proxy``) are ``GET`` and ``POST`` on
  ``/`` and ``/api/...``.
- **Telemetry**: the mesh's request metrics come from ztunnel and waypoints; a service whose pods
  are outside the mesh reports no requests (``NoRequestsReceived``).

The mesh is installed when an Istio Gateway exists in the cluster (every mesh scenario's setup
holds one); without it nothing here applies.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

MODE_LABEL = "istio.io/dataplane-mode"
ROOT_NAMESPACE = "istio-system"
#: the service behind the Gateway (the users' way in) and the requests users send
GATEWAY_BACKEND = "frontend-proxy"
USER_METHODS = ("GET", "POST")
USER_PATHS = ("/", "/api/products", "/api/cart", "/api/checkout")
MTLS_KINDS = ("PeerAuthentication",)
AUTHZ_KIND = "AuthorizationPolicy"
GATEWAY_KIND = "Gateway"


def installed(gateways: Iterable[Mapping[str, Any]]) -> bool:
    return any((g.get("spec") or {}).get("gatewayClassName", "istio") == "istio" for g in gateways)


def enrolled(namespace_labels: Mapping[str, str], pod_labels: Mapping[str, str]) -> bool:
    own = pod_labels.get(MODE_LABEL)
    if own is not None:
        return own == "ambient"
    return namespace_labels.get(MODE_LABEL) == "ambient"


def _selects(policy: Mapping[str, Any], labels: Mapping[str, str]) -> bool:
    wanted = ((policy.get("spec") or {}).get("selector") or {}).get("matchLabels") or {}
    return all(labels.get(k) == v for k, v in wanted.items())


def peer_mode(
    policies: Iterable[Mapping[str, Any]], namespace: str, labels: Mapping[str, str]
) -> str:
    """The mTLS mode that applies to a destination pod with ``labels`` in ``namespace``."""
    workload: str | None = None
    namespace_wide: str | None = None
    mesh_wide: str | None = None
    for policy in policies:
        if policy.get("kind") != "PeerAuthentication":
            continue
        meta = policy.get("metadata") or {}
        has_selector = bool((policy.get("spec") or {}).get("selector"))
        mode = str(((policy.get("spec") or {}).get("mtls") or {}).get("mode", "PERMISSIVE"))
        if meta.get("namespace") == namespace and has_selector and _selects(policy, labels):
            workload = mode
        elif meta.get("namespace") == namespace and not has_selector:
            namespace_wide = mode
        elif meta.get("namespace") == ROOT_NAMESPACE and not has_selector:
            mesh_wide = mode
    for found in (workload, namespace_wide, mesh_wide):
        if found not in (None, "UNSET"):
            return str(found)
    return "PERMISSIVE"


def mtls_refused(
    policies: Iterable[Mapping[str, Any]],
    namespace: str,
    namespace_labels: Mapping[str, str],
    caller_labels: Mapping[str, str],
    callee_labels: Mapping[str, str],
) -> bool:
    """Whether the callee's ztunnel refuses the caller's plaintext: the callee is in the mesh
    under STRICT mTLS and the caller is not in the mesh."""
    policies = list(policies)
    return (
        enrolled(namespace_labels, callee_labels)
        and not enrolled(namespace_labels, caller_labels)
        and peer_mode(policies, namespace, callee_labels) == "STRICT"
    )


def _targets_gateway(policy: Mapping[str, Any], gateway: str) -> bool:
    spec = policy.get("spec") or {}
    refs = [spec.get("targetRef"), *(spec.get("targetRefs") or ())]
    return any(
        isinstance(r, Mapping) and r.get("kind") == GATEWAY_KIND and r.get("name") == gateway
        for r in refs
    )


def _operation_matches(operation: Mapping[str, Any], method: str, path: str) -> bool:
    methods = operation.get("methods")
    if methods is not None and method not in methods:
        return False
    if method in (operation.get("notMethods") or ()):
        return False
    paths = operation.get("paths")
    return paths is None or any(
        p == path or p == "*" or (p.endswith("*") and path.startswith(p[:-1])) for p in paths
    )


def _rule_matches(rule: Mapping[str, Any], method: str, path: str) -> bool:
    targets = rule.get("to")
    if not targets:
        return True  # a rule without ``to`` matches any operation (sources are not modelled)
    return any(_operation_matches((t or {}).get("operation") or {}, method, path) for t in targets)


def gateway_denial(
    policies: Iterable[Mapping[str, Any]], gateways: Iterable[Mapping[str, Any]]
) -> str:
    """Why users' requests through a Gateway are refused (403 ``RBAC: access denied``), '' when
    every one gets through."""
    policies = [p for p in policies if p.get("kind") == AUTHZ_KIND]
    for gateway in gateways:
        name = str((gateway.get("metadata") or {}).get("name"))
        bound = [p for p in policies if _targets_gateway(p, name)]
        allow = [p for p in bound if (p.get("spec") or {}).get("action", "ALLOW") == "ALLOW"]
        deny = [p for p in bound if (p.get("spec") or {}).get("action") == "DENY"]
        refused = []
        for method in USER_METHODS:
            for path in USER_PATHS:
                denied = [
                    p for p in deny
                    if any(_rule_matches(r, method, path) for r in (p.get("spec") or {}).get("rules") or ())
                ]  # fmt: skip
                allowed = not allow or any(
                    any(_rule_matches(r, method, path) for r in (p.get("spec") or {}).get("rules") or ())
                    for p in allow
                )  # fmt: skip
                if denied or not allowed:
                    who = (denied[0].get("metadata") or {}).get("name") if denied else "no ALLOW"
                    refused.append(f"{method} {path} ({who})")
        if refused:
            return f"Gateway {name} refuses {', '.join(refused[:3])}: RBAC: access denied (403)"
    return ""


def strict_policies(policies: Iterable[Mapping[str, Any]]) -> dict[str, Mapping[str, Any]]:
    """namespace/name -> PeerAuthentication in STRICT mode."""
    return {
        f"{(p.get('metadata') or {}).get('namespace', '')}/{(p.get('metadata') or {}).get('name')}": p
        for p in policies
        if p.get("kind") == "PeerAuthentication"
        and ((p.get("spec") or {}).get("mtls") or {}).get("mode") == "STRICT"
    }
