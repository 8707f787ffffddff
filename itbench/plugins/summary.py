"""One-line summaries of plugins for ``itbench --help``, read from their source without importing
it: ``--help`` runs no plugin code (a broken plugin stays quiet there, and listing stays fast).

A domain entry point ``module:domain`` is summarised by the ``description="..."`` literal of the
``Domain(...)`` assigned to ``domain``; a command entry point ``module:func`` by the first line of
``func``'s docstring (what click shows as its help). Anything else yields None.
"""

from __future__ import annotations

import ast
from importlib.util import find_spec
from pathlib import Path

from itbench.plugins.finder import PluginRecord


def _module_file(module: str) -> Path | None:
    """The source file of ``module``, found without importing any of its packages: only the
    top-level package's location is looked up."""
    head, *rest = module.split(".")
    try:
        spec = find_spec(head)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    if not rest:
        return Path(spec.origin) if spec.origin else None
    for location in spec.submodule_search_locations or ():
        base = Path(location).joinpath(*rest)
        for candidate in (base.with_suffix(".py"), base / "__init__.py"):
            if candidate.is_file():
                return candidate
    return None


def _tree(record: PluginRecord) -> tuple[ast.Module, str] | None:
    module, _, attribute = record.value.partition(":")
    path = _module_file(module.strip())
    if path is None or not attribute:
        return None
    try:
        return ast.parse(path.read_text(encoding="utf-8")), attribute.strip()
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return None


def _literal(node: ast.expr) -> str | None:
    try:
        value = ast.literal_eval(node)  # implicit concatenation in parentheses is one constant
    except ValueError:
        return None
    return value if isinstance(value, str) else None


def domain_summary(record: PluginRecord) -> str | None:
    found = _tree(record)
    if found is None:
        return None
    tree, attribute = found
    for node in tree.body:
        if not isinstance(node, ast.Assign) or not isinstance(node.value, ast.Call):
            continue
        if not any(isinstance(t, ast.Name) and t.id == attribute for t in node.targets):
            continue
        for keyword in node.value.keywords:
            if keyword.arg == "description":
                return _literal(keyword.value)
    return None


def command_summary(record: PluginRecord) -> str | None:
    found = _tree(record)
    if found is None:
        return None
    tree, attribute = found
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == attribute:
            doc = ast.get_docstring(node)
            return doc.strip().splitlines()[0] if doc else None
    return None
