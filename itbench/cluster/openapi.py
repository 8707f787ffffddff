"""OpenAPI documents as kubectl needs them for client-side validation and apply.

Every served kind gets a permissive schema (``x-kubernetes-preserve-unknown-fields``) tagged with
its group/version/kind: kubectl finds the kind, so validation passes and patches are computed; what
a manifest may contain is the policy engines' business, not this server's.
"""

from __future__ import annotations

from typing import Any

from itbench.cluster.resources import Registry

INFO = {"title": "Kubernetes (itbench offline)", "version": "v1.32.0"}


def _schema(group: str, version: str, kind: str) -> dict[str, Any]:
    return {
        "type": "object",
        "x-kubernetes-preserve-unknown-fields": True,
        "x-kubernetes-group-version-kind": [{"group": group, "version": version, "kind": kind}],
    }


def _schema_name(group: str, version: str, kind: str) -> str:
    return f"io.itbench.{group or 'core'}.{version}.{kind}"


def v3_index(registry: Registry) -> dict[str, Any]:
    paths = {"api/v1": {"serverRelativeURL": "/openapi/v3/api/v1"}}
    for group, versions in registry.groups().items():
        for version in versions:
            paths[f"apis/{group}/{version}"] = {
                "serverRelativeURL": f"/openapi/v3/apis/{group}/{version}"
            }
    return {"paths": paths}


def v3_document(registry: Registry, group: str, version: str) -> dict[str, Any] | None:
    types = registry.in_group_version(group, version)
    if not types:
        return None
    return {
        "openapi": "3.0.0",
        "info": INFO,
        "paths": {},
        "components": {
            "schemas": {
                _schema_name(group, version, t.kind): _schema(group, version, t.kind) for t in types
            }
        },
    }


def v2_document(registry: Registry) -> dict[str, Any]:
    definitions = {}
    for t in registry.types:
        for version in t.versions():
            definitions[_schema_name(t.group, version, t.kind)] = _schema(t.group, version, t.kind)
    return {"swagger": "2.0", "info": INFO, "paths": {}, "definitions": definitions}


def _field(number: int, payload: bytes) -> bytes:
    """One length-delimited protobuf field (wire type 2); lengths here stay below 128 bytes."""
    assert len(payload) < 128
    return bytes([number << 3 | 2, len(payload)]) + payload


def v2_protobuf() -> bytes:
    """A minimal gnostic ``openapi_v2.Document`` (swagger "2.0" and info, no definitions).

    kubectl asks for the v2 document in protobuf only to look up strategic-merge metadata; with no
    definitions it falls back to its compiled-in types and to JSON merge patches for custom kinds,
    while validation uses the v3 documents above.
    """
    info = _field(1, INFO["title"].encode()) + _field(2, INFO["version"].encode())
    return _field(1, b"2.0") + _field(2, info)
