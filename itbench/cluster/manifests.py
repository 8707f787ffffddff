"""Read manifests: a file or a directory of multi-document YAML/JSON, ``List`` kinds unrolled."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from itbench.errors import InputError
from itbench.yamlsafe import load_all

SUFFIXES = (".yaml", ".yml", ".json")
MAX_DEPTH = 100


def depth_ok(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether ``value`` nests at most ``limit`` levels (checked without recursion)."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return False
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return True


def _documents(path: Path) -> Iterator[Any]:
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix == ".json":
        try:
            yield json.loads(text)
        except RecursionError:
            raise InputError(f"{path}: document 0: nested too deeply to read") from None
        except json.JSONDecodeError as exc:
            raise InputError(
                f"{path}: document 0: not valid JSON (line {exc.lineno}: {exc.msg})"
            ) from exc
        return
    try:
        yield from load_all(text)
    except yaml.YAMLError as exc:
        raise InputError(f"{path}: not valid YAML ({exc})") from exc


def check_object(obj: Any, where: str) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise InputError(
            f"{where}: expected a mapping (a Kubernetes object), got {type(obj).__name__}"
        )
    for field in ("apiVersion", "kind"):
        if not isinstance(obj.get(field), str) or not obj[field]:
            raise InputError(f"{where}: field {field!r} is missing")
    meta = obj.get("metadata")
    if not isinstance(meta, dict) or not isinstance(meta.get("name"), str) or not meta["name"]:
        raise InputError(f"{where}: field 'metadata.name' is missing ({obj['kind']})")
    if not depth_ok(obj):
        raise InputError(f"{where}: nested more than {MAX_DEPTH} levels deep")
    return obj


def load_file(path: Path) -> list[dict[str, Any]]:
    objects: list[dict[str, Any]] = []
    try:
        documents = list(_documents(path))
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    for index, doc in enumerate(documents):
        if doc is None:
            continue
        where = f"{path}: document {index}"
        if (
            isinstance(doc, dict)
            and str(doc.get("kind", "")).endswith("List")
            and isinstance(doc.get("items"), list)
        ):
            for j, item in enumerate(doc["items"]):
                objects.append(check_object(item, f"{where}, items[{j}]"))
        else:
            objects.append(check_object(doc, where))
    return objects


def load_manifests(source: Path) -> list[dict[str, Any]]:
    """Every object under ``source`` (a file, or a directory searched recursively, sorted)."""
    return [obj for _, obj in load_manifests_by_file(source)]


def load_manifests_by_file(source: Path) -> list[tuple[Path, dict[str, Any]]]:
    """As ``load_manifests``, each object with the file it came from."""
    if source.is_file():
        return [(source, obj) for obj in load_file(source)]
    if not source.is_dir():
        raise InputError(f"{source}: no such file or directory")
    return [
        (path, obj)
        for path in sorted(p for p in source.rglob("*") if p.suffix in SUFFIXES and p.is_file())
        for obj in load_file(path)
    ]
