"""Loaded by the ``sitecustomize`` of a sandboxed play's Python processes: a module Ansible
runs imports the files of ``ansible.module_utils`` (and the module itself) from its AnsiballZ zip,
where Python has no compiled bytecode and compiles them from source on every task (about 0.3 CPU
seconds a module run, three quarters of its cost). When a file in the zip is byte for byte the
installed one, this finder imports the installed file instead, whose bytecode is cached: the same
source, so the same behaviour. Anything that differs or exists only in the zip (a playbook's own
``module_utils``) still comes from the zip, and packages keep the zip as their search path (a
file only the installation has stays out of reach, as without this finder).

Standard library only, and nothing runs unless a module zip is on ``sys.path``: the controller
processes load this file too.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
import zipfile
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType

_PREFIXES = ("ansible.module_utils", "ansible.modules")


def _installed_root() -> str | None:
    """The directory holding the installed ``ansible`` package (not imported: no side effects)."""
    for entry in sys.path:
        if (
            entry
            and not entry.endswith(".zip")
            and os.path.isfile(os.path.join(entry, "ansible", "module_utils", "basic.py"))
        ):
            return entry
    return None


class InstalledIfIdentical:
    """A meta path finder: ``ansible.module_utils.*`` from the installed files when the module
    zip on ``sys.path`` holds the same bytes."""

    def __init__(self) -> None:
        self._root = _installed_root()
        self._zips: dict[str, zipfile.ZipFile] = {}

    def _zip(self) -> tuple[str, zipfile.ZipFile] | None:
        for entry in sys.path:
            if entry.endswith(".zip") and os.path.isfile(entry):
                if entry not in self._zips:
                    self._zips[entry] = zipfile.ZipFile(entry)
                return entry, self._zips[entry]
        return None

    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if self._root is None or not name.startswith(_PREFIXES):
            return None
        found = self._zip()
        if found is None:
            return None
        archive, members = found
        relative = name.replace(".", "/")
        for member, package in ((f"{relative}/__init__.py", True), (f"{relative}.py", False)):
            installed = os.path.join(self._root, member)
            try:
                packed = members.read(member)
            except KeyError:
                continue
            try:
                with open(installed, "rb") as handle:
                    if handle.read() != packed:
                        return None
            except OSError:
                return None
            # a package keeps the zip as its search path: its modules that differ from the
            # installed ones, or exist only in the zip, are imported from there as before
            locations = [os.path.join(archive, relative)] if package else None
            loader = importlib.machinery.SourceFileLoader(name, installed)
            return importlib.util.spec_from_file_location(
                name, installed, loader=loader, submodule_search_locations=locations
            )
        return None


def install() -> None:
    if not any(isinstance(f, InstalledIfIdentical) for f in sys.meta_path):
        sys.meta_path.insert(0, InstalledIfIdentical())


install()
