"""No module imports in a circle, function-local imports included.

The graph is read from the source (``ast``), not from a running interpreter: an import inside a
function is an edge although it runs late, because a circle hidden behind a local import is still
a circle (the next refactor moves the import to the top and the package no longer loads). What
counts as an edge, as Python executes it:

- ``import a.b.c`` and ``from a.b import c``: the module named (``a.b.c`` when ``c`` is a
  submodule, else ``a.b``), and every package above it (``a``, ``a.b``: their ``__init__`` runs
  first) except the importing module's own ancestors, which are already being imported;
- relative imports resolved against the importing module's package;
- imports under ``if TYPE_CHECKING:`` are left out (they never run).
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests._support.cli import REPO

PACKAGES = ("itbench", "ciso", "sre", "finops")


def module_files(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _named(node: ast.AST, module: str, is_package: bool, modules: dict[str, Path]) -> list[str]:
    """The modules an import statement needs loaded: ``from p import sub`` needs the submodule
    (``p`` is loaded on the way, an edge unless it is the importer's own package), ``from p
    import name`` needs ``p``'s own code to have run: ``p`` itself, even the importer's package
    (a submodule taking a name from its package's ``__init__`` that imports it is a circle)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    assert isinstance(node, ast.ImportFrom)
    if node.level:
        base = module if is_package else module.rpartition(".")[0]
        for _ in range(node.level - 1):
            base = base.rpartition(".")[0]
        source = f"{base}.{node.module}" if node.module else base
    else:
        source = node.module or ""
    named = []
    for alias in node.names:
        submodule = f"{source}.{alias.name}"
        named.append(submodule if submodule in modules else source)
    return named


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        is_package = path.name == "__init__.py"
        targets: set[str] = set()

        def visit(
            node: ast.AST,
            module: str = module,
            is_package: bool = is_package,
            targets: set[str] = targets,
        ) -> None:
            if isinstance(node, ast.If) and _is_type_checking(node.test):
                for child in node.orelse:
                    visit(child)
                return
            if isinstance(node, ast.Import | ast.ImportFrom):
                for name in _named(node, module, is_package, modules):
                    if name in modules:
                        targets.add(name)
                    parts = name.split(".")
                    for i in range(1, len(parts)):
                        parent = ".".join(parts[:i])
                        own_ancestor = module == parent or module.startswith(parent + ".")
                        if parent in modules and not own_ancestor:
                            targets.add(parent)
            for child in ast.iter_child_nodes(node):
                visit(child)

        visit(ast.parse(path.read_text(encoding="utf-8"), str(path)))
        targets.discard(module)
        graph[module] = targets
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def _describe(component: list[str], graph: dict[str, set[str]]) -> str:
    inside = set(component)
    return "\n".join(f"  {m} -> {', '.join(sorted(graph[m] & inside))}" for m in component)


def test_no_module_imports_in_a_circle() -> None:
    graph = import_graph(module_files(REPO, PACKAGES))
    found = circles(graph)
    assert not found, "import circles:\n" + "\n\n".join(_describe(c, graph) for c in found)


def _package(tmp_path: Path, files: dict[str, str]) -> dict[str, set[str]]:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return import_graph(module_files(tmp_path, ("pkg",)))


def test_a_circle_behind_a_function_local_import_is_found(tmp_path: Path) -> None:
    graph = _package(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from pkg.b import thing\n",
            "pkg/b.py": "def thing():\n    from pkg import a\n    return a\n",
        },
    )
    assert circles(graph) == [["pkg.a", "pkg.b"]]


def test_a_package_init_reached_back_through_a_submodule_is_a_circle(tmp_path: Path) -> None:
    """The shape a dispatcher in a package's ``__init__`` makes: the package loads a submodule
    that uses another package whose module imports a sibling of the first, which runs the first
    package's ``__init__`` again."""
    graph = _package(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/ev/__init__.py": "def run():\n    from pkg.ev import opa\n",
            "pkg/ev/opa.py": "from pkg.live import fetch\n",
            "pkg/ev/record.py": "",
            "pkg/live/__init__.py": "",
            "pkg/live/fetch.py": "from pkg.ev.record import truncate\n",
        },
    )
    assert circles(graph) == [["pkg.ev", "pkg.ev.opa", "pkg.live.fetch"]]
    # a module's own package is not an edge (it is being imported already)
    assert "pkg.ev" not in graph["pkg.ev.opa"] and "pkg.ev" in graph["pkg.live.fetch"]


def test_type_checking_imports_are_not_edges(tmp_path: Path) -> None:
    graph = _package(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import b\n",
            "pkg/b.py": "from pkg import a\n",
        },
    )
    assert circles(graph) == []
