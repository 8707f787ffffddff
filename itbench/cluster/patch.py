"""The three patch types kubectl sends: JSON merge, strategic merge (merge with named lists), JSON patch."""

from __future__ import annotations

import copy
from typing import Any

from itbench.cluster.state import ClusterError

MERGE = "application/merge-patch+json"
STRATEGIC = "application/strategic-merge-patch+json"
JSON_PATCH = "application/json-patch+json"
APPLY = "application/apply-patch+yaml"


def merge_patch(target: Any, patch: Any, strategic: bool = False) -> Any:
    """RFC 7386; with ``strategic``, lists of objects that all carry ``name`` merge item by item
    (containers, env, volumes, ports) as Kubernetes' strategic merge does for its common keys."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    result = copy.deepcopy(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if key.startswith("$") or key.startswith("$setElementOrder"):
            continue  # strategic-merge directives: ordering hints we do not need
        if value is None:
            result.pop(key, None)
        elif strategic and _named_list(value) and _named_list(result.get(key)):
            by_name = {item["name"]: item for item in result[key]}
            merged = list(result[key])
            for item in value:
                if item.get("$patch") == "delete":
                    merged = [m for m in merged if m["name"] != item["name"]]
                elif item["name"] in by_name:
                    index = next(i for i, m in enumerate(merged) if m["name"] == item["name"])
                    merged[index] = merge_patch(merged[index], item, strategic)
                else:
                    merged.append(copy.deepcopy(item))
            result[key] = merged
        else:
            result[key] = merge_patch(result.get(key), value, strategic)
    return result


def _named_list(value: Any) -> bool:
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(i, dict) and "name" in i for i in value)
    )


def _pointer(path: str) -> list[str]:
    if path == "":
        return []
    if not path.startswith("/"):
        raise ClusterError(422, "Invalid", f"JSON patch path {path!r} must start with '/'")
    return [p.replace("~1", "/").replace("~0", "~") for p in path[1:].split("/")]


def json_patch(target: Any, operations: Any) -> Any:
    """RFC 6902 add, remove, replace, test (copy and move are rare in kubectl use)."""
    if not isinstance(operations, list):
        raise ClusterError(400, "BadRequest", "a JSON patch must be a list of operations")
    doc = copy.deepcopy(target)
    for op in operations:
        kind, parts = op.get("op"), _pointer(op.get("path", ""))
        if not parts:
            raise ClusterError(422, "Invalid", "JSON patch on the whole object is not supported")
        parent: Any = doc
        for part in parts[:-1]:
            parent = parent[int(part)] if isinstance(parent, list) else parent.setdefault(part, {})
        last = parts[-1]
        try:
            if kind in ("add", "replace"):
                if isinstance(parent, list):
                    index = len(parent) if last == "-" else int(last)
                    if kind == "add":
                        parent.insert(index, op["value"])
                    else:
                        parent[index] = op["value"]
                else:
                    parent[last] = op["value"]
            elif kind == "remove":
                del parent[int(last) if isinstance(parent, list) else last]
            elif kind == "test":
                current = parent[int(last)] if isinstance(parent, list) else parent.get(last)
                if current != op.get("value"):
                    raise ClusterError(
                        422, "Invalid", f"JSON patch test failed at {op.get('path')}"
                    )
            else:
                raise ClusterError(
                    422, "Invalid", f"JSON patch operation {kind!r} is not supported"
                )
        except (KeyError, IndexError, ValueError) as exc:
            raise ClusterError(
                422, "Invalid", f"JSON patch {kind} at {op.get('path')}: {exc}"
            ) from exc
    return doc
