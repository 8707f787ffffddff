"""A Kyverno CLI values file (``kyverno apply --values-file``), read and checked.

What it holds, as the Kyverno CLI reads it:

- ``globalValues``: variables for every policy, rule and resource;
- ``policies[]``: by ``name``, its ``rules[]`` (by ``name``, their ``values``) and its
  ``resources[]`` (by ``name``, their ``values``);
- ``namespaceSelector[]`` (``name``, ``labels``) and ``namespaces[]`` (Namespace objects): the
  labels a ``namespaceSelector`` reads.

A variable's value is the rule's, else the resource's, else the global one (the engine applies
them in that precedence: ``rule_context.test_values``; the Kyverno CLI adds the global and the
resource's values to the policy's context, then the rule's when the rule's context loads). Anything of the wrong shape is a
:class:`ValuesFileError` naming the entry (its index and name) and the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ciso.engines.kyverno import namespaces


class ValuesFileError(ValueError):
    """A values file of the wrong shape: the message names the entry and the field."""


@dataclass(frozen=True)
class Values:
    global_values: dict[str, Any] = field(default_factory=dict)
    #: per (policy name, rule name)
    rule_values: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    #: per (policy name, resource name)
    resource_values: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    namespace_labels: dict[str, dict[str, str]] = field(default_factory=dict)


def _type(value: Any) -> str:
    return "null" if value is None else type(value).__name__


def _mapping(value: Any, where: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ValueError(f"{where}: a mapping, not a {_type(value)}")
    return {str(k): v for k, v in value.items()}


def _entries(value: Any, where: str) -> list[tuple[str, dict[str, Any]]]:
    """The mappings of a list, each with the text that names it (``where[i]``)."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise ValueError(f"{where}: a list, not a {_type(value)}")
    out = []
    for index, entry in enumerate(value):
        if not isinstance(entry, Mapping):
            raise ValueError(f"{where}[{index}]: a mapping, not {entry!r}")
        out.append((f"{where}[{index}]", dict(entry)))
    return out


def _name(entry: Mapping[str, Any], where: str) -> tuple[str, str]:
    """The entry's ``name`` and the text naming the entry by it."""
    name = entry.get("name")
    if not isinstance(name, str) or not name:
        raise ValueError(f"{where}.name: a non-empty string, not {name!r}")
    return name, f"{where} ({name})"


def read(data: Any) -> Values:
    """The values of a parsed values file (None: an empty file); ValuesFileError when it is not
    one."""
    try:
        return _read(data)
    except ValueError as exc:
        raise ValuesFileError(str(exc)) from None


def _read(data: Any) -> Values:
    if data is None:
        return Values()
    if not isinstance(data, Mapping):
        raise ValueError(f"a values file is a mapping, not a {_type(data)}")
    values = Values(global_values=_mapping(data.get("globalValues"), "globalValues"))
    for where, policy in _entries(data.get("policies"), "policies"):
        policy_name, where = _name(policy, where)
        for rule_where, rule in _entries(policy.get("rules"), f"{where}.rules"):
            rule_name, rule_where = _name(rule, rule_where)
            found = _mapping(rule.get("values"), f"{rule_where}.values")
            values.rule_values[(policy_name, rule_name)] = found
        for resource_where, resource in _entries(policy.get("resources"), f"{where}.resources"):
            resource_name, resource_where = _name(resource, resource_where)
            found = _mapping(resource.get("values"), f"{resource_where}.values")
            values.resource_values[(policy_name, resource_name)] = found
    for where, entry in _entries(data.get("namespaceSelector"), "namespaceSelector"):
        _, where = _name(entry, where)
        _mapping(entry.get("labels"), f"{where}.labels")
    for where, namespace in _entries(data.get("namespaces"), "namespaces"):
        meta = _mapping(namespace.get("metadata"), f"{where}.metadata")
        _name(meta, f"{where}.metadata")
        _mapping(meta.get("labels"), f"{where}.metadata.labels")
    values.namespace_labels.update(namespaces.from_values(data))
    return values
