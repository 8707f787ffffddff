"""Module payloads built once per process instead of once per play.

Before a play's first run of a module, ``ansible-playbook`` builds its AnsiballZ payload: it parses
the module and every ``ansible.module_utils`` file it imports (``recursive_finder``, one AST per
file) and zips them. It keeps the result in ``ansiballz_cache`` under its private temporary folder,
so each module is built once per play, but every play starts with an empty folder: in the RHEL 9
suite each of the 30 plays built ``find``, ``slurp``, ``stat`` and ``file`` again, 0.35 to 0.5 CPU
seconds a play (measured with a timing wrapper around ``modify_module`` on the reference plays).

The engine builds the entries once per process (``ansiballz_build.py``, run outside the sandbox
with the run's own interpreter, never with anything an agent wrote) and writes them with a
manifest naming the Ansible version they were built with. This file, loaded by the play's
``sitecustomize``, links each entry into the play's fresh ``ansiballz_cache`` when
``ansible-playbook`` imports ``ansible.executor.module_common``, where Ansible finds it as if an
earlier task of the play had built it. The entries are read-only files of the engine's control
folder; a module not seeded, a different Ansible version or a missing seed is built by Ansible as
before. Standard library only.

Ansible names a cache entry after the module's path-derived name, the compression and the payload
extensions (``ansible.modules.find-ZIP_DEFLATED-none``): a playbook's own module of the same short
name has another name (``ansible.legacy.…``) and is never answered from the seed.
"""

from __future__ import annotations

import json
import os
import sys
from types import ModuleType

TARGET = "ansible.executor.module_common"
#: beside this file in the play's control folder: the entries and what they were built with
SEED_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ansiballz-seed")
MANIFEST = "seed.json"


def _ansible_version() -> str | None:
    try:
        from ansible.release import __version__
    except ImportError:
        return None
    return str(__version__)


def seed_into(cache: str, seed: str = SEED_DIR) -> int:
    """Link every seeded entry into ``cache`` (Ansible's ``ansiballz_cache``) unless an entry of
    that name is there already; returns how many were linked. Does nothing when the seed was
    built by another Ansible version."""
    try:
        with open(os.path.join(seed, MANIFEST), encoding="utf-8") as handle:
            manifest = json.load(handle)
    except (OSError, ValueError):
        return 0
    if not isinstance(manifest, dict) or manifest.get("ansible") != _ansible_version():
        return 0
    entries = manifest.get("entries")
    if not isinstance(entries, list):
        return 0
    os.makedirs(cache, exist_ok=True)
    linked = 0
    for name in entries:
        if not isinstance(name, str) or os.sep in name or name.startswith("."):
            continue
        source, target = os.path.join(seed, name), os.path.join(cache, name)
        if os.path.isfile(source) and not os.path.lexists(target):
            try:
                os.symlink(source, target)
            except OSError:  # another worker linked it first, or the folder is gone
                continue
            linked += 1
    return linked


def seed_play(module: ModuleType) -> None:
    """Run after :data:`TARGET` loads (after_import.py): ``ansible.constants``, loaded by then,
    names the play's private temporary folder, which holds its ``ansiballz_cache``."""
    constants = sys.modules.get("ansible.constants")
    local_tmp = getattr(constants, "DEFAULT_LOCAL_TMP", None)
    if isinstance(local_tmp, str) and os.path.isdir(local_tmp):
        seed_into(os.path.join(local_tmp, "ansiballz_cache"))


def usable() -> bool:
    return os.path.isdir(SEED_DIR)
