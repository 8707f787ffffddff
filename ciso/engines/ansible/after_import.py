"""Loaded by the ``sitecustomize`` of a sandboxed play's Python processes: runs a function on one
module right after it is imported, before anything else can take names from it. The routing
table cache (``routing_cache.py``) wraps a function of Ansible's collection loader this way, the
payload seed (``ansiballz_seed.py``) fills a play's cache folder when Ansible's module builder
loads.

Standard library only; a finder answers for its one module name and for nothing else.
"""

from __future__ import annotations

import importlib.machinery
import sys
from collections.abc import Callable, Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType


class AfterImport:
    """A meta path finder for ``target`` only: the module loads as usual, then ``then`` runs on
    it."""

    def __init__(self, target: str, then: Callable[[ModuleType], None]) -> None:
        self.target = target
        self._then = then

    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if name != self.target:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return None
        load = spec.loader.exec_module
        then = self._then

        def exec_module(module: ModuleType) -> None:
            load(module)
            then(module)

        spec.loader.exec_module = exec_module  # type: ignore[method-assign]  # this spec's loader only, made for this import
        return spec


def install(target: str, then: Callable[[ModuleType], None]) -> None:
    """Put a finder for ``target`` first on ``sys.meta_path`` (once per target)."""
    if not any(isinstance(f, AfterImport) and f.target == target for f in sys.meta_path):
        sys.meta_path.insert(0, AfterImport(target, then))
