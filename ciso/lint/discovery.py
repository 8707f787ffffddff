"""Find what to lint: Rego files, Kyverno policies and tests, Ansible playbooks.

A YAML file is a policy by what it holds (a kyverno.io ``apiVersion``, a Kyverno test, a
playbook's shape), not by its extension: any other YAML, and a template that is not YAML yet (a
Helm chart's ``templates/``), is skipped, never an error. Files are read defensively: binary files,
files over the size limit and policies that do not parse (aliases are refused, so an alias bomb
cannot expand) become findings, never a crash or a hang.
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
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
#: How much of a YAML file that does not parse is read to tell whether it was meant as a policy.
SNIFF_BYTES = 64 * 1024
_POLICY_API = re.compile(
    r"""^\s*apiVersion:\s*["']?(?:kyverno\.io|policies\.kyverno\.io|cli\.kyverno\.io)/""",
    re.MULTILINE,
)
_PLAYBOOK_PLAY = re.compile(
    r"^-\s+(?:hosts|import_playbook|ansible\.builtin\.import_playbook)\s*:", re.MULTILINE
)
#: A line that starts with a Go template action: no YAML policy has one (a Kyverno variable sits
#: inside a scalar), every Helm template with a condition or an include does.
_TEMPLATE_ACTION = re.compile(r"^\s*\{\{", re.MULTILINE)


class UnreadableFile(Exception):
    def __init__(self, path: Path, reason: str, line: int | None = None) -> None:
        self.path, self.reason, self.line = path, reason, line
        super().__init__(f"{path}: {reason}")


@dataclass(frozen=True)
class Exclude:
    """Glob patterns of files not to lint, as in ``.gitignore``: a pattern without ``/`` matches
    a file or folder name anywhere (``templates``, ``*.tpl.yaml``); one with ``/`` matches the
    path relative to ``base`` (the configuration's folder; the working directory for
    ``--exclude``), where ``*`` also crosses folders (``charts/*``). Given files are excluded too:
    pre-commit passes every staged file by name."""

    patterns: tuple[str, ...] = ()
    base: Path = Path(".")

    def __call__(self, path: Path) -> bool:
        if not self.patterns:
            return False
        absolute = Path(os.path.abspath(path))
        try:
            relative = PurePosixPath(absolute.relative_to(os.path.abspath(self.base)).as_posix())
        except ValueError:  # outside the base: the path as given
            relative = PurePosixPath(path.as_posix())
        for pattern in self.patterns:
            glob = pattern.strip().removeprefix("./").rstrip("/")
            if "/" in glob:
                if fnmatch.fnmatchcase(str(relative), glob) or fnmatch.fnmatchcase(
                    str(relative), glob + "/*"
                ):
                    return True
            elif any(fnmatch.fnmatchcase(part, glob) for part in relative.parts):
                return True
        return False


def iter_files(paths: Iterable[Path], exclude: Iterable[Exclude] = ()) -> list[Path]:
    rules = tuple(exclude)

    def excluded(path: Path) -> bool:
        return any(rule(path) for rule in rules)

    out: list[Path] = []
    for path in paths:
        if path.is_file():
            if not excluded(path):
                out.append(path)
        elif path.is_dir():
            for candidate in sorted(path.rglob("*")):
                if any(part in SKIP_DIRS for part in candidate.relative_to(path).parts):
                    continue
                if (
                    candidate.is_file()
                    and candidate.suffix in (".rego", *YAML_SUFFIXES)
                    and not excluded(candidate)
                ):
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


def meant_as_policy(path: Path, head: str) -> bool:
    """Whether a YAML file that cannot be read as YAML was written as a policy (its first
    SNIFF_BYTES in ``head``): then it is a finding, otherwise the file is none of lint's business."""
    if _TEMPLATE_ACTION.search(head):
        return False
    return (
        path.name == "kyverno-test.yaml"
        or _POLICY_API.search(head) is not None
        or _PLAYBOOK_PLAY.search(head) is not None
    )


def _head(path: Path) -> str:
    with path.open("rb") as handle:
        return handle.read(SNIFF_BYTES).decode("utf-8", errors="replace")


def classify(path: Path) -> LintTarget:
    """Read and classify one file (UNKNOWN: no policy, skipped); raises UnreadableFile for a
    Rego file or a policy that cannot be read."""
    if path.suffix == ".rego":
        return LintTarget(path, TargetKind.REGO, read_text(path))
    try:
        text = read_text(path)
        documents = load_yaml(path, text)
    except UnreadableFile:
        if meant_as_policy(path, _head(path)):
            raise
        return LintTarget(path, TargetKind.UNKNOWN)
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
