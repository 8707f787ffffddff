"""The host's private entries (what not every user may read) are found by GNU find when it is
there, for about a third of the CPU of the Python walk, and find answers exactly what the walk
answers: on a tree of every case laid here, and on this machine's own system folders."""

from __future__ import annotations

import os
import shlex
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


@pytest.fixture
def system_at(monkeypatch: pytest.MonkeyPatch):
    """private_entries() over one folder laid here instead of the machine's, with its caches
    (the entries, which find) cleared before and after."""

    def lay(root: Path) -> Path:
        monkeypatch.setattr(hosttree, "PRIVATE_TOPS", (root,))
        monkeypatch.setattr(hosttree, "PACKAGE_TOPS", ())
        return root

    hosttree.private_entries.cache_clear()
    hosttree._gnu_find.cache_clear()
    yield lay
    hosttree.private_entries.cache_clear()
    hosttree._gnu_find.cache_clear()


def test_without_find_the_walk_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, system_at
) -> None:
    monkeypatch.setattr(hosttree.shutil, "which", lambda name: None)
    root = system_at(_tree(tmp_path / "system"))
    assert hosttree._found_private([root], True) is None
    assert list(hosttree.private_entries()) == _walked(root, True)
    assert ("secret.key", False) in {(e.path.name, e.folder) for e in hosttree.private_entries()}


def _fake_find(folder: Path, version: str, refusal: str) -> None:
    """A ``find`` on PATH that answers ``--version`` with ``version`` and refuses any expression
    (exit 1, nothing on its output), as BusyBox's does for ``-printf``."""
    folder.mkdir()
    script = folder / "find"
    script.write_text(
        "#!/bin/sh\n"
        f'if [ "$1" = --version ]; then echo {shlex.quote(version)}; exit 0; fi\n'
        f"echo {shlex.quote(refusal)} >&2\n"
        "exit 1\n"
    )
    script.chmod(0o755)


@pytest.mark.parametrize(
    ("version", "refusal"),
    [
        ("BusyBox v1.36.1 multi-call binary.", "find: unrecognized: -printf"),
        ("find (GNU findutils) 4.9.0", "find: unknown predicate `-printf'"),
    ],
    ids=["not-gnu", "gnu-refusing-its-expression"],
)
def test_a_find_that_walks_nothing_leaves_the_answer_to_the_walk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, system_at, version: str, refusal: str
) -> None:
    _fake_find(tmp_path / "bin", version, refusal)
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    root = system_at(_tree(tmp_path / "system"))
    assert hosttree._found_private([root], True) is None
    covered = {(e.path.name, e.folder) for e in hosttree.private_entries()}
    assert ("secret.key", False) in covered
    assert ("closed", True) in covered
    assert list(hosttree.private_entries()) == _walked(root, True)
