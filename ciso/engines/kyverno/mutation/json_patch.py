"""``patchesJson6902``: RFC 6902 operations (add, remove, replace, move, copy, test) with the
options Kyverno turns on: negative array indices count from the end, removing a missing path
is a no-op, and ``add`` creates missing parents (an array when the next step is ``-`` or an
index, else an object)."""

from __future__ import annotations

import copy
from typing import Any


class PatchError(Exception):
    pass


def _pointer(path: Any) -> list[str]:
    if not isinstance(path, str) or (path and not path.startswith("/")):
        raise PatchError(f"invalid JSON pointer {path!r}")
    if path == "":
        return []
    return [part.replace("~1", "/").replace("~0", "~") for part in path[1:].split("/")]


def _index(token: str, size: int, *, for_insert: bool) -> int:
    try:
        index = int(token)
    except ValueError:
        raise PatchError(f"invalid array index {token!r}") from None
    if index < 0:
        # an insert position counts from one past the end: -1 appends
        index += size + 1 if for_insert else size
    limit = size if for_insert else size - 1
    if index < 0 or index > limit:
        raise PatchError(f"array index {token} out of bounds")
    return index


def _parent(doc: Any, parts: list[str], *, create: bool) -> Any:
    node = doc
    for i, part in enumerate(parts[:-1]):
        following = parts[i + 1]
        if isinstance(node, dict):
            if part not in node or node[part] is None:
                if not create:
                    raise PatchError(f"path {'/' + '/'.join(parts)} does not exist")
                node[part] = [] if following == "-" or following.lstrip("-").isdigit() else {}
            node = node[part]
        elif isinstance(node, list):
            try:
                node = node[_index(part, len(node), for_insert=False)]
            except PatchError:
                if not create:
                    raise
                # a missing element on the way: insert the container the next step needs
                fresh: Any = [] if following == "-" or following.lstrip("-").isdigit() else {}
                position = len(node) if part == "-" else _index(part, len(node), for_insert=True)
                node.insert(position, fresh)
                node = fresh
        else:
            raise PatchError(f"path {'/' + '/'.join(parts)} crosses a scalar")
    return node


def _get(doc: Any, parts: list[str]) -> Any:
    node = doc
    for part in parts:
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list):
            node = node[_index(part, len(node), for_insert=False)]
        else:
            raise PatchError(f"path {'/' + '/'.join(parts)} does not exist")
    return node


def _add(doc: Any, parts: list[str], value: Any) -> Any:
    if not parts:
        return value
    parent = _parent(doc, parts, create=True)
    last = parts[-1]
    if isinstance(parent, list):
        position = len(parent) if last == "-" else _index(last, len(parent), for_insert=True)
        parent.insert(position, value)
    elif isinstance(parent, dict):
        parent[last] = value
    else:
        raise PatchError(f"cannot add under a scalar at {'/' + '/'.join(parts)}")
    return doc


def _remove(doc: Any, parts: list[str], *, missing_ok: bool) -> Any:
    try:
        parent = _parent(doc, parts, create=False)
        last = parts[-1]
        if isinstance(parent, list):
            del parent[_index(last, len(parent), for_insert=False)]
        elif isinstance(parent, dict) and last in parent:
            del parent[last]
        else:
            raise PatchError(f"path {'/' + '/'.join(parts)} does not exist")
    except PatchError:
        if not missing_ok:
            raise
    return doc


def apply_patch(resource: dict[str, Any], operations: Any) -> dict[str, Any]:
    """``resource`` after ``operations`` (a list of operation objects); the input is not
    modified. Raises PatchError naming the failing operation."""
    if not isinstance(operations, list):
        raise PatchError("patchesJson6902 must be a list of operations")
    doc: Any = copy.deepcopy(resource)
    for number, op in enumerate(operations):
        if not isinstance(op, dict) or "op" not in op or "path" not in op:
            raise PatchError(f"operation {number} needs 'op' and 'path'")
        try:
            parts = _pointer(op["path"])
            kind = op["op"]
            if kind == "add":
                doc = _add(doc, parts, copy.deepcopy(op.get("value")))
            elif kind == "remove":
                doc = _remove(doc, parts, missing_ok=True)
            elif kind == "replace":
                _get(doc, parts)  # must exist
                doc = _remove(doc, parts, missing_ok=False) if parts else doc
                doc = _add(doc, parts, copy.deepcopy(op.get("value")))
            elif kind in ("move", "copy"):
                source = _pointer(op.get("from"))
                value = copy.deepcopy(_get(doc, source))
                if kind == "move":
                    doc = _remove(doc, source, missing_ok=False)
                doc = _add(doc, parts, value)
            elif kind == "test":
                if _get(doc, parts) != op.get("value"):
                    raise PatchError(f"test failed at {op['path']}")
            else:
                raise PatchError(f"unknown operation {kind!r}")
        except PatchError as exc:
            raise PatchError(
                f"operation {number} ({op.get('op')} {op.get('path')}): {exc}"
            ) from None
    return doc
