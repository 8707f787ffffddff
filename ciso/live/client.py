"""The live cluster through the Kubernetes Python client's dynamic client: create, read, delete
objects of any kind the cluster serves (Kyverno policies and PolicyReports included)."""

from __future__ import annotations

import builtins
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import urllib3

from ciso.scenarios.model import ResourceRef
from itbench.errors import ItbenchError

Manifest = dict[str, Any]
REPORT_API = "wgpolicyk8s.io/v1alpha2"
CONNECT_TIMEOUT_S = 10.0
READ_TIMEOUT_S = 60.0


class LiveError(ItbenchError):
    """The live cluster refused or failed a request; the message names the object (a tool error:
    a trial whose environment cannot be set up or removed records it as its error)."""


def _reason(exc: Exception) -> str:
    """The API server's message of a failed request, not the client's whole HTTP dump."""
    import json

    inner = getattr(exc, "reason", None)
    if isinstance(inner, Exception):  # urllib3's MaxRetryError around the connection error
        return str(inner)
    body = getattr(exc, "body", None)
    if body:
        try:
            message = json.loads(body).get("message")
        except (ValueError, AttributeError):
            message = None
        if message:
            return str(message)
    status = getattr(exc, "status", None)
    reason = getattr(exc, "reason", None)
    return f"{status} {reason}" if status else f"{type(exc).__name__}: {exc}"


def _status(exc: Exception) -> int | None:
    return getattr(exc, "status", None)


@dataclass
class LiveCluster:
    """One connection (one discovery cache) to the cluster of a kubeconfig."""

    kubeconfig: Path
    api: Any  # kubernetes.dynamic.DynamicClient

    @classmethod
    def connect(cls, kubeconfig: Path) -> LiveCluster:
        from kubernetes import config, dynamic

        try:
            client = config.new_client_from_config(config_file=str(kubeconfig))
            # the client waits forever by default: an unroutable server must not hang a run
            pool = client.rest_client.pool_manager
            pool.connection_pool_kw["timeout"] = urllib3.Timeout(
                connect=CONNECT_TIMEOUT_S, read=READ_TIMEOUT_S
            )
            # discovery (/version, /api, /apis) happens here: a cluster that does not answer fails
            return cls(kubeconfig, dynamic.DynamicClient(client))
        except config.ConfigException as exc:
            raise LiveError(f"{kubeconfig}: unusable kubeconfig: {exc}") from None
        except Exception as exc:  # the client raises many types: one message naming the file
            raise LiveError(f"{kubeconfig}: the cluster does not answer: {_reason(exc)}") from None

    def version(self) -> str:
        info = self.api.version.get("kubernetes", {}) if hasattr(self.api, "version") else {}
        return str(info.get("gitVersion", "")) if isinstance(info, dict) else ""

    def _resource(self, api_version: str, kind: str) -> Any:
        from kubernetes.dynamic.exceptions import ResourceNotFoundError

        try:
            return self.api.resources.get(api_version=api_version, kind=kind)
        except ResourceNotFoundError:
            raise LiveError(f"the cluster serves no {kind} in {api_version}") from None

    def create(self, obj: Manifest) -> Manifest:
        meta = obj.get("metadata") or {}
        resource = self._resource(str(obj.get("apiVersion", "")), str(obj.get("kind", "")))
        try:
            made = resource.create(body=obj, namespace=meta.get("namespace"))
        except Exception as exc:
            raise LiveError(
                f"creating {obj.get('kind')}/{meta.get('namespace') or ''}/{meta.get('name')}: "
                f"{_reason(exc)}"
            ) from None
        return made.to_dict()

    def add_ephemeral_containers(self, pod: Manifest, containers: list[Manifest]) -> Manifest:
        """Add ephemeral containers to a created Pod the one way a real API server allows:
        a patch of its ``ephemeralcontainers`` subresource (create refuses them)."""
        meta = pod.get("metadata") or {}
        path = (
            f"/api/v1/namespaces/{meta.get('namespace') or 'default'}/pods/"
            f"{meta.get('name')}/ephemeralcontainers"
        )
        try:
            made = self.api.request(
                "PATCH",
                path,
                body={"spec": {"ephemeralContainers": containers}},
                content_type="application/strategic-merge-patch+json",
            )
        except Exception as exc:
            raise LiveError(
                f"adding ephemeral containers to Pod/{meta.get('namespace') or ''}/"
                f"{meta.get('name')}: {_reason(exc)}"
            ) from None
        return made.to_dict() if hasattr(made, "to_dict") else dict(made)

    def get(self, api_version: str, ref: ResourceRef) -> Manifest | None:
        resource = self._resource(api_version, ref.kind)
        try:
            found = resource.get(name=ref.name, namespace=ref.namespace or None)
        except Exception as exc:
            if _status(exc) == 404:
                return None
            raise LiveError(f"reading {ref}: {_reason(exc)}") from None
        return found.to_dict()

    def exists(self, api_version: str, ref: ResourceRef) -> bool:
        return self.get(api_version, ref) is not None

    def delete(self, api_version: str, ref: ResourceRef) -> None:
        """Delete one object (foreground: its Pods go with it); already gone is fine."""
        resource = self._resource(api_version, ref.kind)
        try:
            resource.delete(
                name=ref.name,
                namespace=ref.namespace or None,
                body={"propagationPolicy": "Foreground"},
            )
        except Exception as exc:
            if _status(exc) != 404:
                raise LiveError(f"deleting {ref}: {_reason(exc)}") from None

    def list(
        self,
        api_version: str,
        kind: str,
        namespace: str | None = None,
        label_selector: str | None = None,
    ) -> list[Manifest]:
        resource = self._resource(api_version, kind)
        try:
            found = resource.get(namespace=namespace, label_selector=label_selector)
        except Exception as exc:
            where = namespace or "all namespaces"
            raise LiveError(f"listing {kind} in {where}: {_reason(exc)}") from None
        return [item.to_dict() for item in found.items]

    def policy_reports(self, namespaces: Iterable[str]) -> builtins.list[Manifest]:
        """PolicyReports of these namespaces, and every ClusterPolicyReport."""
        reports: list[Manifest] = []
        for ns in sorted(set(namespaces)):
            reports.extend(self.list(REPORT_API, "PolicyReport", namespace=ns))
        reports.extend(self.list(REPORT_API, "ClusterPolicyReport"))
        return reports

    def wait_gone(
        self, items: Iterable[tuple[str, ResourceRef]], timeout_s: float
    ) -> builtins.list[str]:
        """Wait until every (apiVersion, ref) is gone; what is still there after ``timeout_s``."""
        pending = list(items)
        deadline = time.monotonic() + timeout_s
        while True:
            pending = [(v, r) for v, r in pending if self._still_there(v, r)]
            if not pending or time.monotonic() > deadline:
                return [str(r) for _, r in pending]
            time.sleep(0.5)

    def _still_there(self, api_version: str, ref: ResourceRef) -> bool:
        try:
            return self.exists(api_version, ref)
        except LiveError:
            return True
