"""Kyverno's resource library: ``resource.Get(apiVersion, resource, namespace, name)`` and
``resource.List(apiVersion, resource, namespace)``, answered from the environment's objects (the
test's context file and resources) as the Kyverno CLI's fake cluster answers them: an object that
is not there is an error, a list of a resource type nothing declares is an error too, and
``List`` gives ``{"apiVersion", "kind", "items"}``. An empty namespace lists or gets
cluster-scoped objects."""

from __future__ import annotations

from typing import Any

from ciso.engines.kyverno.cel.libraries.environment import current
from ciso.engines.kyverno.cel.syntax import namespaced
from itbench.cluster.resources import plural_of


def _of_type(api_version: str, resource: str) -> list[dict[str, Any]]:
    return [
        obj
        for obj in current().objects
        if str(obj.get("apiVersion", "")) == api_version
        and plural_of(str(obj.get("kind", ""))) == resource
    ]


def _in(objects: list[dict[str, Any]], namespace: str) -> list[dict[str, Any]]:
    return [o for o in objects if ((o.get("metadata") or {}).get("namespace") or "") == namespace]


def get(api_version: str, resource: str, namespace: str, name: str) -> dict[str, Any]:
    for obj in _in(_of_type(api_version, resource), namespace):
        if (obj.get("metadata") or {}).get("name") == name:
            return obj
    where = f"{namespace}/{name}" if namespace else name
    raise ValueError(f'{resource} "{where}" not found ({api_version})')


def list_(api_version: str, resource: str, namespace: str = "") -> dict[str, Any]:
    objects = _of_type(api_version, resource)
    if not objects:
        raise ValueError(f"{resource} resource not found ({api_version})")
    return {"apiVersion": api_version, "kind": "List", "items": _in(objects, namespace)}


FUNCTIONS = {
    namespaced("resource", "Get"): get,
    namespaced("resource", "List"): list_,
    # Kyverno 1.18's camelCase names for the same calls
    namespaced("resource", "get"): get,
    namespaced("resource", "list"): list_,
}
