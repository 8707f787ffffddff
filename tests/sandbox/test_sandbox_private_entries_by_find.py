"""The host's private entries (what not every user may read) are found by GNU find when it is
there, for about a third of the CPU of the Python walk, and find answers exactly what the walk
answers: on a tree of every case laid here, and on this machine's own system folders."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from itbench.sandbox import hosttree

pytestmark = pytest.mark.skipif(shutil.which("find") is None, reason="no find on PATH")


def _tree(root: Path) -> Path:
    (root / "open" / "deeper").mkdir(parents=True)
    (root / "open" / "deeper" / "readable.conf").write_text("x")
    (root / "open" / "secret.key").write_text("x")
    (root / "open" / "secret.key").chmod(0o600)
    (root / "open" / "group-only").write_text("x")
    (root / "open" / "group-only").chmod(0o640)
    (root / "closed" / "inner").mkdir(parents=True)
    (root / "closed" / "inner" / "hidden-with-it").write_text("x")
    (root / "closed").chmod(0o700)
    (root / "enter-only").mkdir()
    (root / "enter-only").chmod(0o711)
    (root / "list-only").mkdir()
    (root / "list-only").chmod(0o744)
    (root / "name with\nnewline").write_text("x")
    (root / "name with\nnewline").chmod(0o600)
    os.symlink(root / "open" / "secret.key", root / "link-to-secret")
    os.symlink(root / "closed", root / "link-to-closed")
    os.mkfifo(root / "pipe", 0o600)
    return root


def _walked(root: Path, files: bool) -> list[hosttree.PrivateEntry]:
    return sorted(hosttree._walk_private(root, files), key=lambda e: e.path)


@pytest.mark.parametrize("files", [True, False], ids=["files-and-folders", "folders-only"])
def test_find_answers_what_the_walk_answers(tmp_path: Path, files: bool) -> None:
    root = _tree(tmp_path / "system")
    found = hosttree._found_private([root], files)
    assert found is not None
    assert sorted(found, key=lambda e: e.path) == _walked(root, files)
    names = {(e.path.name, e.folder) for e in found}
    expected_folders = {("closed", True), ("enter-only", True), ("list-only", True)}
    expected_files = {("secret.key", False), ("group-only", False), ("name with\nnewline", False)}
    assert names == (expected_folders | expected_files if files else expected_folders)


def test_this_machines_private_entries_are_the_walks() -> None:
    by_walk = []
    for tops, files in ((hosttree.PRIVATE_TOPS, True), (hosttree.PACKAGE_TOPS, False)):
        for top in tops:
            if top.is_dir() and not top.is_symlink():
                by_walk += hosttree._walk_private(top, files)
    assert hosttree.private_entries() == tuple(sorted(by_walk, key=lambda e: e.path))


def test_without_find_the_walk_answers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hosttree.shutil, "which", lambda name: None)
    assert hosttree._found_private([_tree(tmp_path / "system")], True) is None
