"""Loaded by the ``sitecustomize`` of a sandboxed play's Python processes (beside
``module_bytecode.py``): ``ansible-playbook`` reads the routing table of the ``ansible.builtin``
collection (``ansible/config/ansible_builtin_runtime.yml``, 376 kB) at every start, through
libyaml's ``BaseLoader``: 0.1 to 0.2 CPU seconds per play, the largest single step of its start.

The engine parses the installed file outside the sandbox once per process, with Ansible's own
function, and leaves the result as JSON beside this file with the SHA-256 of the bytes it parsed
(``builtin-routing.json``). Here Ansible's ``_meta_yml_to_dict`` is wrapped as its docstring
invites ("may be monkeypatched to another implementation ... to allow other implementations to
cache the output"): given exactly those bytes it returns a fresh copy of that result; anything
else (another collection's ``meta/runtime.yml``, a differing file, a missing or unreadable cache)
goes to Ansible's own parse. ``BaseLoader`` builds only strings, lists and mappings, which JSON
carries unchanged (the engine checks the round trip before writing the file).

Standard library only; nothing is read until Ansible asks for a routing table.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from types import ModuleType
from typing import Any

#: The module defining the parse; ``_collection_finder`` imports the function from it by name.
TARGET = "ansible.utils.collection_loader._collection_meta"
CACHE_NAME = "builtin-routing.json"
CACHE = os.path.join(os.path.dirname(os.path.abspath(__file__)), CACHE_NAME)


def cached_parse(
    original: Callable[[Any, Any], Any], cache: str = CACHE
) -> Callable[[Any, Any], Any]:
    """``original`` (Ansible's ``_meta_yml_to_dict``), answering from ``cache`` for the bytes
    the cache was made from."""

    def parse(yaml_string_data: Any, content_id: Any) -> Any:
        # imported here: every Python process of the play loads this file, few parse routing
        import hashlib
        import json

        data = yaml_string_data
        if isinstance(data, str):
            data = data.encode("utf-8")
        if isinstance(data, bytes | bytearray):
            try:
                with open(cache, encoding="utf-8") as handle:
                    stored = json.load(handle)
            except (OSError, ValueError):
                stored = None
            if (
                isinstance(stored, dict)
                and stored.get("sha256") == hashlib.sha256(data).hexdigest()
                and "routing" in stored
            ):
                return stored["routing"]  # read afresh each call: the caller may change it
        return original(yaml_string_data, content_id)

    return parse


def wrap_parse(module: ModuleType) -> None:
    """Run after ``TARGET`` loads (after_import.py), before ``_collection_finder`` imports the
    parse from it by name."""
    original = getattr(module, "_meta_yml_to_dict", None)
    if callable(original):
        module._meta_yml_to_dict = cached_parse(original)  # type: ignore[attr-defined]  # Ansible's own hook for a caching implementation


def usable() -> bool:
    return os.path.isfile(CACHE)
