"""The kubeconfig handed to an agent or a sandboxed fetcher: only the current context, with every
certificate and key file embedded (a sandbox does not see the files a kubeconfig points at)."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import yaml

from itbench.errors import InputError, parse_problem

#: file field -> the field holding its content (base64), as ``kubectl config view --flatten``.
_EMBED = {
    "certificate-authority": "certificate-authority-data",
    "client-certificate": "client-certificate-data",
    "client-key": "client-key-data",
}


def _named(entries: Any, name: str, what: str, source: Path) -> dict[str, Any]:
    for entry in entries or []:
        if isinstance(entry, dict) and entry.get("name") == name:
            return entry
    raise InputError(f"{source}: {what} {name!r} named by the current context is not defined")


def _embed(section: dict[str, Any], base: Path, source: Path) -> dict[str, Any]:
    out = dict(section)
    for file_field, data_field in _EMBED.items():
        if file_field not in out:
            continue
        path = Path(str(out.pop(file_field))).expanduser()
        path = path if path.is_absolute() else base / path
        try:
            out[data_field] = base64.b64encode(path.read_bytes()).decode("ascii")
        except OSError as exc:
            raise InputError(f"{source}: {file_field} {path}: {exc.strerror}") from None
    if "tokenFile" in out:
        path = Path(str(out.pop("tokenFile"))).expanduser()
        try:
            out["token"] = (path if path.is_absolute() else base / path).read_text().strip()
        except OSError as exc:
            raise InputError(f"{source}: tokenFile {path}: {exc.strerror}") from None
    return out


def flattened(source: Path) -> dict[str, Any]:
    """The current context of ``source`` as a self-contained kubeconfig."""
    try:
        config = yaml.safe_load(source.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(f"{source}: unreadable kubeconfig: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        raise InputError(f"{source}: unreadable kubeconfig: {parse_problem(exc)}") from None
    if not isinstance(config, dict) or not config.get("current-context"):
        raise InputError(f"{source}: current-context: a kubeconfig with a current context needed")
    name = str(config["current-context"])
    context = _named(config.get("contexts"), name, "context", source)
    details = context.get("context") or {}
    cluster = _named(config.get("clusters"), str(details.get("cluster")), "cluster", source)
    user = _named(config.get("users"), str(details.get("user")), "user", source)
    base = source.resolve().parent
    return {
        "apiVersion": "v1",
        "kind": "Config",
        "current-context": name,
        "contexts": [context],
        "clusters": [
            {"name": cluster["name"], "cluster": _embed(cluster.get("cluster") or {}, base, source)}
        ],
        "users": [{"name": user["name"], "user": _embed(user.get("user") or {}, base, source)}],
        "preferences": {},
    }


def write_flattened(source: Path, target: Path) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(yaml.safe_dump(flattened(source), sort_keys=False), encoding="utf-8")
    target.chmod(0o600)  # it may hold credentials
    return target
