"""Strict decoding of built-in Kubernetes objects, as the API server decodes a request body:
a field the type does not declare is an ``unknown field`` (an error when the client asks for
``fieldValidation=Strict``, as kubectl does by default; a ``Warning`` header under ``Warn``), and
a value of the wrong JSON type fails the decoding whatever the client asks.

The types come from the models of the official ``kubernetes`` Python client (generated from
the API server's OpenAPI document: ``openapi_types`` and ``attribute_map``), so every built-in
kind of that API version is covered without a schema of our own. Kinds of other API groups
(custom resources) are not checked here: their CRD schema is the extension's business. Scalar
strings are not type-checked: quantities and int-or-string fields are typed as strings or
objects in the models, and the API server accepts numbers there."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Any

_LIST = re.compile(r"List\[(.+)\]$")
_DICT = re.compile(r"Dict\[str, (.+)\]$")
_GO_TYPES = {"int": "int32", "bool": "bool", "float": "float64", "str": "string"}


@dataclass
class Findings:
    """What decoding one body found: unknown field paths, and type errors (full messages)."""

    unknown: list[str] = field(default_factory=list)
    wrong_types: list[str] = field(default_factory=list)


def is_built_in_group(group: str) -> bool:
    """Kubernetes' own API groups: the core group, unqualified names (apps, batch, policy,
    autoscaling) and ``*.k8s.io``; everything else is a custom resource."""
    return "." not in group or group.endswith(".k8s.io")


@functools.lru_cache(maxsize=256)
def _model(api_version: str, kind: str) -> Any:
    group, _, version = api_version.rpartition("/")
    if not is_built_in_group(group) or not version or not kind:
        return None
    import kubernetes.client as client  # models only; imported on first use

    prefix = version[0].upper() + version[1:]
    for name in (f"{prefix}{kind}", f"Core{prefix}{kind}" if not group else ""):
        model = getattr(client, name, None) if name else None
        if model is not None and hasattr(model, "openapi_types"):
            return model
    return None


@functools.lru_cache(maxsize=2048)
def _fields(model: Any) -> dict[str, str]:
    """JSON field name -> the model's type name."""
    return {json: model.openapi_types[attr] for attr, json in model.attribute_map.items()}


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object" if isinstance(value, dict) else "null"


def _wrong(found: Findings, value: Any, owner: str, path: str, go_type: str) -> None:
    # Go's decoder names the field path without list indices
    plain = re.sub(r"\[[^\]]*\]", "", path)
    found.wrong_types.append(
        f"json: cannot unmarshal {_json_type(value)} into Go struct field {owner}.{plain} "
        f"of type {go_type}"
    )


def _walk(value: Any, type_name: str, path: str, owner: str, found: Findings) -> None:
    if value is None or type_name in ("object", "datetime", "date"):
        return
    if (inner := _LIST.match(type_name)) is not None:
        if not isinstance(value, list):
            _wrong(found, value, owner, path, "[]" + _GO_TYPES.get(inner[1], inner[1][2:]))
            return
        for index, item in enumerate(value):
            _walk(item, inner[1], f"{path}[{index}]", owner, found)
        return
    if (inner := _DICT.match(type_name)) is not None:
        if not isinstance(value, dict):
            _wrong(found, value, owner, path, "map[string]" + _GO_TYPES.get(inner[1], "object"))
        elif inner[1] not in _GO_TYPES and inner[1] != "object":
            for key, item in value.items():
                _walk(item, inner[1], f"{path}[{key}]", owner, found)
        return
    if type_name == "str":
        if isinstance(value, (dict, list)):
            _wrong(found, value, owner, path, "string")
        return
    if type_name == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            _wrong(found, value, owner, path, "int32")
        return
    if type_name == "bool":
        if not isinstance(value, bool):
            _wrong(found, value, owner, path, "bool")
        return
    if type_name == "float":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            _wrong(found, value, owner, path, "float64")
        return
    import kubernetes.client as client

    model = getattr(client, type_name, None)
    if model is None or not hasattr(model, "attribute_map"):
        return
    if not isinstance(value, dict):
        _wrong(found, value, owner, path, f"v1.{type_name.lstrip('V0123456789beta')}")
        return
    fields = _fields(model)
    name = re.sub(r"^(Core)?V\d+((alpha|beta)\d+)?", "", type_name)
    for key, item in value.items():
        where = f"{path}.{key}" if path else str(key)
        if key not in fields:
            if isinstance(key, str) and key.startswith("$"):
                continue  # a strategic merge patch's directive ($patch, $setElementOrder/…)
            found.unknown.append(where)
            continue
        _walk(item, fields[key], where, name, found)


def decode(obj: dict[str, Any]) -> Findings | None:
    """What strict decoding finds in ``obj``; None when its kind is not a built-in one."""
    model = _model(str(obj.get("apiVersion", "")), str(obj.get("kind", "")))
    if model is None:
        return None
    found = Findings()
    _walk(obj, model.__name__, "", str(obj.get("kind", "")), found)
    return found


def check(obj: dict[str, Any], api_version: str, kind: str, validation: str) -> list[str]:
    """Decode a request body as the API server does, given its ``fieldValidation`` (Strict,
    Warn or Ignore): raise ClusterError for what fails the request; return the warnings."""
    from itbench.cluster.state import ClusterError  # state imports nothing of this module

    found = decode({**obj, "apiVersion": api_version, "kind": kind})
    if found is None:
        return []
    version = api_version.rpartition("/")[2]
    refused = f"{kind} in version {version!r} cannot be handled as a {kind}: ".replace("'", '"')
    if found.wrong_types:
        raise ClusterError(400, "BadRequest", refused + found.wrong_types[0])
    unknown = [f'unknown field "{path}"' for path in found.unknown]
    if unknown and validation == "Strict":
        raise ClusterError(
            400, "BadRequest", refused + "strict decoding error: " + ", ".join(unknown)
        )
    return unknown if validation != "Ignore" else []
