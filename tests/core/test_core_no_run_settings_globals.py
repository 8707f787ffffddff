"""No domain keeps run settings in module state: a run's settings (a task, a live cluster, a
judge model, the run directory) live in its session (``Domain.open_run``), passed to what needs
them, so two runs in one process (the library API, tests, a Ray worker) cannot see each other's.

The scan reads every ``global`` statement of the domain packages (the toy distribution
included). A ``global`` is allowed only for process-wide state that no run setting decides,
named below with its reason; anything else (a ``configure`` storing options) fails.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests._support.cli import REPO

DOMAIN_PACKAGES = (
    REPO / "ciso",
    REPO / "finops",
    REPO / "sre",
    REPO / "tests" / "core" / "toy_dist" / "itbench_toy",
)

#: (file relative to the repository, name) -> why it is not a run setting
ALLOWED = {
    (
        "ciso/evaluation/rego.py",
        "_POOL",
    ): "a worker pool built once per process, same for every run",
    ("ciso/engines/kyverno/budget.py", "SECONDS"): "a time budget set and restored by limited()",
    ("ciso/scenarios/objects.py", "_EXTENSIONS"): "the plugin's cluster types, built once",
    ("ciso/scenarios/objects.py", "_REGISTRY"): "the API registry of those types, built once",
    ("ciso/engines/ansible/warm_modules.py", "TRACE"): (
        "the --trace option of the warm-module server, a program of its own started once per "
        "sandboxed play (never imported by a run), read by its forked module runs"
    ),
}


def module_globals(root: Path, base: Path = REPO) -> list[tuple[str, str, int]]:
    """(file relative to ``base``, name, line) of every ``global`` statement under ``root``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Global):
                for name in node.names:
                    found.append((path.relative_to(base).as_posix(), name, node.lineno))
    return found


def test_no_domain_keeps_run_settings_in_a_module_global():
    unexplained = [
        f"{file}:{line}: global {name}"
        for root in DOMAIN_PACKAGES
        for file, name, line in module_globals(root)
        if (file, name) not in ALLOWED
    ]
    assert not unexplained, (
        "run settings belong in the domain's session (Domain.open_run), not in module state; "
        "a process-wide cache goes in ALLOWED with its reason:\n" + "\n".join(unexplained)
    )


def test_every_allowed_global_still_exists():
    """A stale entry would let the next settings global of that name through unseen."""
    present = {(file, name) for root in DOMAIN_PACKAGES for file, name, _ in module_globals(root)}
    assert set(ALLOWED) <= present, sorted(set(ALLOWED) - present)


def test_the_scan_finds_a_settings_global(tmp_path):
    (tmp_path / "plugin.py").write_text(
        "_SETTINGS = None\n\ndef configure(options):\n    global _SETTINGS\n    _SETTINGS = options\n"
    )
    found = [(name, line) for _, name, line in module_globals(tmp_path, tmp_path)]
    assert found == [("_SETTINGS", 4)]
