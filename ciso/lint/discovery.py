"""Find what to lint: Rego files, Kyverno policies and tests, Ansible playbooks.

Files are read defensively: binary files, files over the size limit and YAML that does not parse
(aliases are refused, so an alias bomb cannot expand) become findings, never a crash or a hang.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

from ciso.lint.model import LintTarget, TargetKind
from itbench.yamlsafe import load_all

MAX_BYTES = 2 * 2**20
SKIP_DIRS = {
    ".git",
    ".venv",
    "venv",
    "node_modules",
    "__pycache__",
    ".tox",
    ".mypy_cache",
    ".ruff_cache",
}
YAML_SUFFIXES = (".yaml", ".yml")


class UnreadableFile(Exception):
    def __init__(self, path: Path, reason: str, line: int | None = None) -> None:
        self.path, self.reason, self.line = path, reason, line
        super().__init__(f"{path}: {reason}")


def iter_files(paths: Iterable[Path]) -> list[Path]:
    out: list[Path] = []
    for path in paths:
        if path.is_file():
            out.append(path)
        elif path.is_dir():
            for candidate in sorted(path.rglob("*")):
                if any(part in SKIP_DIRS for part in candidate.relative_to(path).parts):
                    continue
                if candidate.is_file() and (candidate.suffix in (".rego", *YAML_SUFFIXES)):
                    out.append(candidate)
    return out


def read_text(path: Path) -> str:
    size = path.stat().st_size
    if size > MAX_BYTES:
        raise UnreadableFile(path, f"file is {size} bytes, over the {MAX_BYTES}-byte limit")
    raw = path.read_bytes()
    if b"\0" in raw[:8192]:
        raise UnreadableFile(path, "binary file")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnreadableFile(path, f"not UTF-8 text ({exc.reason})") from exc


def load_yaml(path: Path, text: str) -> list[Any]:
    try:
        return [d for d in load_all(text) if d is not None]
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise UnreadableFile(
            path,
            f"not valid YAML: {getattr(exc, 'problem', None) or exc}",
            mark.line + 1 if mark else None,
        ) from exc


def _is_playbook(documents: list[Any]) -> bool:
    if len(documents) != 1 or not isinstance(documents[0], list) or not documents[0]:
        return False
    return all(
        isinstance(p, dict)
        and ("hosts" in p or "import_playbook" in p or "ansible.builtin.import_playbook" in p)
        for p in documents[0]
    )


def classify(path: Path) -> LintTarget:
    """Read and classify one file; raises UnreadableFile."""
    text = read_text(path)
    if path.suffix == ".rego":
        return LintTarget(path, TargetKind.REGO, text)
    documents = load_yaml(path, text)
    if path.name == "kyverno-test.yaml" or any(
        isinstance(d, dict) and str(d.get("apiVersion", "")).startswith("cli.kyverno.io")
        for d in documents
    ):
        return LintTarget(path, TargetKind.KYVERNO_TEST, text, documents)
    if any(
        isinstance(d, dict)
        and str(d.get("apiVersion", "")).split("/")[0] in ("kyverno.io", "policies.kyverno.io")
        for d in documents
    ):
        return LintTarget(path, TargetKind.KYVERNO_POLICY, text, documents)
    if _is_playbook(documents):
        return LintTarget(path, TargetKind.ANSIBLE, text, documents)
    return LintTarget(path, TargetKind.UNKNOWN, text, documents)
