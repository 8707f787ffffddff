"""Policies and data from ``-d`` arguments: files or directories, as ``opa eval -d`` reads them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from itbench import jsonsafe, yamlsafe
from itbench.errors import InputError, parse_problem

MAX_POLICY_BYTES = 4 * 2**20


def _merge(
    target: dict[str, Any],
    value: Any,
    where: str,
    origins: dict[tuple[str, ...], str],
    path: tuple[str, ...] = (),
) -> None:
    """Merge ``value`` (from file ``where``) into ``target``: objects merge key by key, as OPA
    merges data files; any other value may only repeat what an earlier file said there.
    ``origins`` remembers which file set each path, so a conflict names both files."""
    if not isinstance(value, dict):
        raise InputError(f"{where}: data documents must be JSON/YAML objects at the top")
    for key, item in value.items():
        here = (*path, str(key))
        if isinstance(item, dict) and isinstance(target.get(key), dict):
            _merge(target[key], item, where, origins, here)
        elif key in target and target[key] != item:
            earlier = next(
                (origins[here[:n]] for n in range(len(here), 0, -1) if here[:n] in origins), "?"
            )
            raise InputError(
                f"{where}: data.{'.'.join(here)} conflicts with {earlier}, which sets it "
                f"to {_short(target[key])} (here: {_short(item)}); OPA merges data files only "
                "where they do not overlap"
            )
        else:
            target[key] = item
            origins[here] = where


def _short(value: Any) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) <= 40 else text[:37] + "..."


def load(paths: list[Path]) -> tuple[dict[str, str], dict[str, Any]]:
    """(modules by file name, merged data) from files and directories (recursive)."""
    modules: dict[str, str] = {}
    data: dict[str, Any] = {}
    origins: dict[tuple[str, ...], str] = {}
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files += sorted(
                p
                for p in path.rglob("*")
                if p.is_file() and p.suffix in (".rego", ".json", ".yaml", ".yml")
            )
        elif path.is_file():
            files.append(path)
        else:
            raise InputError(f"{path}: no such file or directory")
    for file in files:
        if file.stat().st_size > MAX_POLICY_BYTES:
            raise InputError(f"{file}: larger than {MAX_POLICY_BYTES} bytes")
        raw = file.read_bytes()
        if b"\0" in raw:
            raise InputError(f"{file}: binary file")
        text = raw.decode("utf-8", errors="replace")
        if file.suffix == ".rego":
            modules[str(file)] = text
        else:
            try:
                value = (
                    jsonsafe.loads(text, str(file))
                    if file.suffix == ".json"
                    else yamlsafe.load_one(text)
                )
            except (json.JSONDecodeError, yaml.YAMLError) as exc:
                raise InputError(
                    f"{file}: not valid {file.suffix[1:].upper()} ({parse_problem(exc)})"
                ) from exc
            if value is not None:
                _merge(data, value, str(file), origins)
    return modules, data


def read_input(path: Path | None) -> Any:
    if path is None:
        return None
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text (byte {exc.start}): a binary file?") from exc
    try:
        if path.suffix == ".json":
            return jsonsafe.loads(text, str(path))
        return yamlsafe.load_one(text)
    except (json.JSONDecodeError, yaml.YAMLError) as exc:
        raise InputError(f"{path}: not valid input ({parse_problem(exc)})") from exc
