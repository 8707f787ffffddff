"""Builds module payload cache entries for the seed (``ansiballz_seed.py``), outside the sandbox.

Run by the engine once per process with the run's own interpreter:
``python -I ansiballz_build.py OUT NAME...`` builds the cache entries of the named
``ansible.builtin`` modules with Ansible's own ``modify_module``, copies them to ``OUT`` and
prints ``{"ansible": VERSION, "entries": [...]}``; the engine writes the seed's manifest from it.
Standard library and Ansible only (it runs as a script, without the project on its path).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from collections.abc import Sequence


def build(out: str, names: Sequence[str]) -> dict[str, object]:
    """Build the cache entries of ``names`` into ``out``; the Ansible version and entry names."""
    # beside OUT, in the folder the engine made under its run's scratch: a build interrupted
    # with the run leaves nothing behind that the run's cleanup does not remove
    local = tempfile.mkdtemp(prefix="ansible-local-", dir=os.path.dirname(os.path.abspath(out)))
    os.environ["ANSIBLE_LOCAL_TEMP"] = local
    try:
        from ansible import constants as constants
        from ansible.executor.module_common import modify_module
        from ansible.parsing.dataloader import DataLoader
        from ansible.plugins.loader import init_plugin_loader, module_loader
        from ansible.release import __version__
        from ansible.template import Templar

        init_plugin_loader([])
        templar = Templar(loader=DataLoader())
        for name in names:
            found = module_loader.find_plugin_with_context(name, mod_type=".py")
            if not found.resolved or not found.plugin_resolved_path:
                continue
            modify_module(
                module_name=name,
                module_path=found.plugin_resolved_path,
                module_args={},
                templar=templar,
                task_vars={
                    "ansible_python_interpreter": sys.executable,
                    "ansible_playbook_python": sys.executable,
                },
                module_compression=constants.config.get_config_value("DEFAULT_MODULE_COMPRESSION"),
                environment={},
                remote_is_local=True,
            )
        cache = os.path.join(constants.DEFAULT_LOCAL_TMP, "ansiballz_cache")
        os.makedirs(out, exist_ok=True)
        written = []
        for entry in sorted(os.listdir(cache)):
            if entry.endswith((".lock", "-part")):
                continue
            shutil.copyfile(os.path.join(cache, entry), os.path.join(out, entry))
            written.append(entry)
        return {"ansible": str(__version__), "entries": written}
    finally:
        shutil.rmtree(local, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: ansiballz_build.py OUT NAME...")
    print(json.dumps(build(sys.argv[1], sys.argv[2:])))
