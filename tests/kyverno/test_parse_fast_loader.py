"""The loader the workers of ``kyverno apply`` parse ranges of a large manifest with builds the
same documents as libyaml's safe loader, types included, and fails where it fails."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from itbench import yamlsafe
from itbench.yamlsafe import load_range
from tests._support.cli import SHARED

CORPORA = SHARED / "corpora"

TRICKY = """\
ints: [0, 7, 0123, 0o17, 0x1F, 0b101, +5, -3, 1_000, "12", 1:30, 012345678, ²]
floats: [1.5, 1e3, 1.0e3, .inf, -.Inf, .nan, 6.8523015e+5, 190:20:30.15]
bools: [yes, No, ON, off, y, n, true, FALSE, Yes]
nulls: [~, null, Null, "", '']
when: 2001-12-14t21:59:43.10-05:00
day: 2002-12-14
blob: !!binary aGVsbG8=
set: !!set {a, b}
omap: !!omap [a: 1, b: 2]
merge:
  base: {x: 1}
  <<: {y: 2}
=: a value key
? [complex, key]
: not hashable
"""


def _outcome(text: str, loader: type) -> str:
    """The documents (their repr: types and key order count) or the error."""
    try:
        return repr(list(yaml.load_all(text, Loader=loader)))
    except yaml.YAMLError as exc:
        return f"{type(exc).__name__}: {exc}"


def test_the_fast_loader_exists_where_libyaml_does() -> None:
    assert (yamlsafe._FAST_LOADER is None) == (getattr(yaml, "CSafeLoader", None) is None)


@pytest.mark.skipif(yamlsafe._FAST_LOADER is None, reason="PyYAML was built without libyaml")
@pytest.mark.parametrize(
    "text",
    [
        TRICKY,
        TRICKY.split("? [complex")[0],  # without the unhashable key
        "a: 1\na: 2\n",  # a duplicate key: the last wins
        "- [1, [2, [3, {b: [4]}]]]\n- !!str 5\n- !!int '6'\n- !custom x\n",
        "a: 'unterminated\n",
        "a: [1, 2\n",
    ],
)
def test_tricky_scalars_and_nodes_come_out_as_the_safe_loader_makes_them(text: str) -> None:
    assert _outcome(text, yamlsafe._FAST_LOADER) == _outcome(text, yaml.CSafeLoader)


@pytest.mark.skipif(not CORPORA.is_dir(), reason="../shared corpora not present")
@pytest.mark.skipif(yamlsafe._FAST_LOADER is None, reason="PyYAML was built without libyaml")
def test_every_corpus_file_comes_out_as_the_safe_loader_makes_it() -> None:
    files = sorted(p for p in CORPORA.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())
    assert len(files) > 1000
    compared = 0
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        assert _outcome(text, yamlsafe._FAST_LOADER) == _outcome(text, yaml.CSafeLoader), path
        compared += 1
    assert compared == len(files)


def test_load_range_reads_the_bytes_given(tmp_path: Path) -> None:
    path = tmp_path / "m.yaml"
    path.write_text("a: 1\n---\nb: [yes, 0123]\n---\nc: ~\n")
    start = path.read_bytes().index(b"---")
    assert load_range(path, start, path.stat().st_size) == [{"b": [True, 83]}, {"c": None}]
