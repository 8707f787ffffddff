"""Writing a Kyverno CLI Test into a folder and running it: the runner the kyverno tests share."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from ciso.engines.kyverno.testrunner import TestFileResult, run_test_file

#: the header every Test these tests write has
TEST_HEADER = {"apiVersion": "cli.kyverno.io/v1alpha1", "kind": "Test", "metadata": {"name": "t"}}


class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:  # a fixture repeated is written out whole
        return True


def dump(*documents: Any) -> str:
    return yaml.dump_all(documents, Dumper=_Dumper, sort_keys=False)


def run_test(
    folder: Path, fields: Mapping[str, Any], files: Mapping[str, Any] = {}
) -> TestFileResult:
    """Write ``files`` (file name -> an object, or a list of objects for several documents),
    then ``kyverno-test.yaml`` (``fields`` over ``TEST_HEADER``), and run the Test."""
    for name, content in files.items():
        documents = content if isinstance(content, list) else [content]
        (folder / name).write_text(dump(*documents))
    (folder / "kyverno-test.yaml").write_text(dump({**TEST_HEADER, **fields}))
    return run_test_file(folder / "kyverno-test.yaml")
