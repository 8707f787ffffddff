"""The type hints are checked: mypy, configured in ``pyproject.toml`` (``[tool.mypy]``), reports no
error: strict for the core (``itbench/``), mypy's default checks for the domains and the other
packages. Every suppression (``# type: ignore[code]``, ``# noqa``) says why on its own line.

mypy keeps its cache in ``.mypy_cache/`` (git-ignored): a first check on a fresh clone takes about
17 s of CPU, a re-check with the cache under a second.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests._support.cli import REPO

pytest.importorskip("mypy", reason="mypy comes with the test extra (make setup installs it)")

#: Folders of this checkout that hold no source of ours: the venv, build output, caches, and
#: measurement/ (held-out material kept exactly as its independent authors wrote it).
NOT_OURS = {".venv", "build", "dist", "site", "outputs", "measurement", ".git"}


def _mypy(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mypy", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )


def _config() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["mypy"]


def test_mypy_finds_no_type_error() -> None:
    result = _mypy()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found" in result.stdout


def test_every_package_is_checked() -> None:
    """Each top-level package the wheel ships is in mypy's ``files``: one left out would go
    unchecked without a word."""
    include = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"][
        "packages"
    ]["find"]["include"]
    shipped = sorted(
        p.name
        for p in REPO.iterdir()
        if (p / "__init__.py").is_file() and any(p.name == i.rstrip("*") for i in include)
    )
    assert shipped, "no package found beside pyproject.toml"
    assert sorted(_config()["files"]) == shipped


def test_core_is_strict_and_domains_are_not_relaxed_below_the_default() -> None:
    config = _config()
    assert config["strict"] is True
    for override in config.get("overrides", []):
        modules = override["module"]
        modules = [modules] if isinstance(modules, str) else modules
        assert not any(m == "itbench" or m.startswith("itbench.") for m in modules), override
        # the default checks stay on everywhere: nothing is silenced wholesale
        assert not override.get("ignore_errors"), override
        assert "disable_error_code" not in override, override
        # only third-party modules may go unanalysed
        if override.get("ignore_missing_imports") or override.get("follow_imports"):
            assert not any(m.startswith(("itbench", "ciso", "finops", "sre")) for m in modules)


SNIPPET = "def double(x):\n    return x * 2\n\n\ncount: int = 'three'\n"


def test_the_configured_check_fails_on_a_type_error(tmp_path: Path) -> None:
    """The same configuration on a snippet with a wrong type and an unannotated function: as
    core code both are reported (strict), as domain code the wrong type only (default checks)."""
    (tmp_path / "core_probe.py").write_text(SNIPPET)
    (tmp_path / "ciso").mkdir()
    (tmp_path / "ciso" / "__init__.py").write_text("")
    (tmp_path / "ciso" / "domain_probe.py").write_text(SNIPPET)
    # a cache of its own: the probe's ciso package must not replace the real one's cache entries
    probes = [str(tmp_path / "core_probe.py"), str(tmp_path / "ciso" / "domain_probe.py")]
    result = _mypy("--cache-dir", str(tmp_path / "cache"), *probes)
    assert result.returncode == 1, result.stdout + result.stderr
    core = [line for line in result.stdout.splitlines() if "core_probe.py" in line]
    domain = [line for line in result.stdout.splitlines() if "domain_probe.py" in line]
    assert any("[assignment]" in line for line in core), result.stdout
    assert any("[no-untyped-def]" in line for line in core), result.stdout
    assert any("[assignment]" in line for line in domain), result.stdout
    assert not any("[no-untyped-def]" in line for line in domain), result.stdout


_IGNORE = re.compile(r"#\s*type:\s*ignore(?P<codes>\[[^\]]*\])?(?P<rest>.*)$")
_NOQA = re.compile(r"#\s*noqa\b(?P<codes>:\s*[A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*)?(?P<rest>.*)$")


def _reason_missing(rest: str) -> bool:
    """A reason: words after the codes (``- why`` or ``# why``), not only punctuation."""
    return not re.search(r"[A-Za-z]{2,}", rest)


def _python_files() -> list[Path]:
    found = []
    for folder, subfolders, files in os.walk(REPO):
        # pruned, not filtered afterwards: the venv alone holds tens of thousands of files
        subfolders[:] = [d for d in subfolders if d not in NOT_OURS and not d.startswith(".")]
        found += [Path(folder) / f for f in files if f.endswith(".py")]
    return sorted(found)


def unexplained_suppressions(files: list[Path], root: Path = REPO) -> list[str]:
    found = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            where = f"{path.relative_to(root)}:{number}"
            ignore = _IGNORE.search(line)
            if ignore:
                if not ignore["codes"]:
                    found.append(f"{where}: type: ignore without an error code")
                elif _reason_missing(ignore["rest"]):
                    found.append(f"{where}: type: ignore{ignore['codes']} without a reason")
            noqa = _NOQA.search(line)
            if noqa and _reason_missing(noqa["rest"]):
                found.append(f"{where}: noqa without a reason")
    return found


def test_every_suppression_says_why() -> None:
    files = _python_files()
    assert len(files) > 400, "the scan found too few files to be the repository"
    problems = unexplained_suppressions(files)
    assert not problems, "\n".join(problems)


def test_a_suppression_without_a_reason_is_found(tmp_path: Path) -> None:
    cases = {
        "bare.py": ("x = f()  # type" + ": ignore\n", "without an error code"),
        "code_only.py": ("x = f()  # type: ignore[attr-defined]\n", "without a reason"),
        "noqa_only.py": ("import os  # noqa: F401\n", "noqa without a reason"),
    }
    for name, (text, expected) in cases.items():
        path = tmp_path / name
        path.write_text(text)
        (problem,) = unexplained_suppressions([path], tmp_path)
        assert problem.startswith(f"{name}:1: "), problem
        assert expected in problem, (name, problem)
    explained = tmp_path / "explained.py"
    explained.write_text(
        "x = f()  # type: ignore[attr-defined]  # set by the C extension at import\n"
        "import os  # noqa: F401 - re-exported for plugins\n"
    )
    assert unexplained_suppressions([explained], tmp_path) == []
