"""The wheel carries every plugin package and the reference artifacts, and declares the entry points."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests._support.cli import REPO


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(REPO)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    (wheel_path,) = out.glob("itbench-*.whl")
    return wheel_path


def test_wheel_contains_packages_and_reference_artifacts(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    for package in ("itbench/", "ciso/", "finops/", "policies/", "playbooks/"):
        assert any(n.startswith(package) for n in names), package
    tracked = subprocess.run(
        ["git", "ls-files", "policies", "playbooks"], cwd=REPO, capture_output=True, text=True
    ).stdout.split()
    shipped = [p for p in tracked if not p.endswith(".pyc")]
    for path in shipped:
        assert path in names, f"{path} is tracked but missing from the wheel"
    assert "itbench/py.typed" in names


def test_wheel_declares_domain_entry_points(wheel):
    archive = zipfile.ZipFile(wheel)
    (ep_name,) = [n for n in archive.namelist() if n.endswith("entry_points.txt")]
    text = archive.read(ep_name).decode()
    assert "[itbench.domains]" in text
    assert "finops = finops.plugin:domain" in text
    assert "ciso = ciso.plugin:domain" in text
    assert "[console_scripts]" in text and "itbench = itbench.cli.main:run" in text
