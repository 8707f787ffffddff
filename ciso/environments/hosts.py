"""RHEL host trees: a private copy of the scenario's tree with the file modes (and owners, where
this process may set them) of its ``host-attributes.yaml`` applied, since git keeps neither."""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from itbench.errors import InputError, parse_problem
from itbench.yamlsafe import load_all

ATTRIBUTES_FILE = "host-attributes.yaml"


@dataclass(frozen=True)
class HostTree:
    """Where a scenario's host files are and the attributes file that goes with them."""

    root: Path
    attributes: Path | None


def locate(path: Path) -> HostTree:
    """``violating/`` (holding ``host/`` and maybe ``host-attributes.yaml``) or ``host/`` itself."""
    if (path / "host").is_dir():
        attributes = path / ATTRIBUTES_FILE
        return HostTree(path / "host", attributes if attributes.is_file() else None)
    sibling = path.parent / ATTRIBUTES_FILE
    return HostTree(path, sibling if path.name == "host" and sibling.is_file() else None)


def read_attributes(path: Path) -> dict[PurePosixPath, dict[str, str]]:
    """``/abs/path: {mode: "0600", owner: root, group: root}`` entries, checked."""
    try:
        documents = load_all(path.read_text(encoding="utf-8"))
    except Exception as exc:
        raise InputError(f"{path}: not readable YAML: {parse_problem(exc)}") from None
    mapping = documents[0] if documents else {}
    if not isinstance(mapping, dict):
        raise InputError(f"{path}: expected a mapping of absolute paths to attributes")
    found: dict[PurePosixPath, dict[str, str]] = {}
    for key, value in mapping.items():
        where = PurePosixPath(str(key))
        if not where.is_absolute() or ".." in where.parts:
            raise InputError(f"{path}: {key!r}: the path must be absolute and without '..'")
        if not isinstance(value, dict):
            raise InputError(f"{path}: {key}: expected {{mode, owner, group}}")
        mode = value.get("mode")
        if mode is not None and not (isinstance(mode, str) and _is_octal(mode)):
            raise InputError(f"{path}: {key}: field 'mode' must be an octal string like \"0600\"")
        found[where] = {k: str(v) for k, v in value.items() if k in ("mode", "owner", "group")}
    return found


def _is_octal(text: str) -> bool:
    return bool(text) and all(c in "01234567" for c in text) and len(text) <= 4


def _ids(owner: str | None, group: str | None) -> tuple[int, int]:
    import grp
    import pwd

    uid = gid = -1
    if owner:
        uid = int(owner) if owner.isdigit() else pwd.getpwnam(owner).pw_uid
    if group:
        gid = int(group) if group.isdigit() else grp.getgrnam(group).gr_gid
    return uid, gid


def prepare(tree: HostTree, target: Path) -> tuple[Path, list[str]]:
    """Copy the tree to ``target`` and apply its attributes. Returns the copy and notes about
    attributes that could not be applied here (an owner this process may not give away)."""
    if not tree.root.is_dir():
        raise InputError(f"{tree.root}: host tree is not a directory")
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(tree.root, target, symlinks=True)
    notes: list[str] = []
    if tree.attributes is None:
        return target, notes
    for where, attrs in read_attributes(tree.attributes).items():
        local = target / where.relative_to("/")
        if not local.exists():
            raise InputError(f"{tree.attributes}: {where}: no such file in the host tree")
        # owners first: a chown clears the setuid and setgid bits the mode may declare
        if "owner" in attrs or "group" in attrs:
            try:
                os.chown(local, *_ids(attrs.get("owner"), attrs.get("group")))
            except (KeyError, PermissionError) as exc:
                notes.append(f"{where}: owner/group not applied here ({exc})")
        if "mode" in attrs:
            os.chmod(local, int(attrs["mode"], 8))
    return target, notes
