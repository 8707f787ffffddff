"""The import hook a sandboxed play's Python processes load (``module_bytecode.py``): a module
zip's files that are byte for byte the installed ansible's come from the installed files (cached
bytecode); a file that differs, or exists only in the zip, still comes from the zip."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import ansible.module_utils.basic

from ciso.engines import ansible as engine

INSTALLED = Path(ansible.module_utils.basic.__file__).parent.parent.parent  # holds ansible/

_PROBE = """
import json, sys
sys.path.insert(0, sys.argv[1])
import ansible.module_utils.basic as basic
import ansible.module_utils.parsing.convert_bool as convert_bool
import ansible.module_utils.mine as mine
print(json.dumps({"basic": basic.__file__, "convert_bool": convert_bool.__file__,
                  "mine": mine.__file__, "changed": convert_bool.CHANGED}))
"""


def _module_zip(path: Path) -> None:
    """A zip laid out as AnsiballZ lays one out: a stub ``ansible`` package, its own
    ``module_utils/__init__.py`` and the installed module_utils files."""
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("ansible/__init__.py", "")
        z.writestr("ansible/module_utils/__init__.py", "# the zip's own\n")
        for source in sorted((INSTALLED / "ansible/module_utils").rglob("*.py")):
            name = source.relative_to(INSTALLED).as_posix()
            if name not in (
                "ansible/module_utils/__init__.py",
                "ansible/module_utils/parsing/convert_bool.py",
            ):
                z.write(source, name)
        changed = (INSTALLED / "ansible/module_utils/parsing/convert_bool.py").read_text()
        z.writestr("ansible/module_utils/parsing/convert_bool.py", changed + "\nCHANGED = True\n")
        z.writestr("ansible/module_utils/mine.py", "VALUE = 1\n")


def _probe(tmp_path: Path, with_hook: bool) -> dict[str, object]:
    archive = tmp_path / "ansiballz.zip"
    _module_zip(archive)
    hook = tmp_path / "hook"
    hook.mkdir()
    if with_hook:
        source = Path(engine.__file__).with_name("module_bytecode.py")
        (hook / "sitecustomize.py").write_text(source.read_text())
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, str(archive)],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(hook), "PATH": "/usr/bin:/bin"},
        cwd=tmp_path,
    )
    return json.loads(done.stdout)


def test_identical_files_come_from_the_installed_package(tmp_path) -> None:
    found = _probe(tmp_path, with_hook=True)
    assert found["basic"] == str(INSTALLED / "ansible/module_utils/basic.py")
    # a file the zip changes, and one only the zip has, come from the zip
    assert str(found["convert_bool"]).startswith(str(tmp_path / "ansiballz.zip"))
    assert found["changed"] is True
    assert str(found["mine"]).startswith(str(tmp_path / "ansiballz.zip"))


def test_without_the_hook_everything_comes_from_the_zip(tmp_path) -> None:
    found = _probe(tmp_path, with_hook=False)
    assert str(found["basic"]).startswith(str(tmp_path / "ansiballz.zip"))
