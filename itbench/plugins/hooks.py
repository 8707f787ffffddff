"""A domain's functions named as ``"module:attr"`` and imported when first called.

Loading a domain plugin must stay cheap (``itbench --help`` loads every one), so a domain names
its evaluator, environment, tools ... instead of importing them: ``evaluate=hook("pkg.eval:score")``.
The name is plain data (it pickles as a string), and the module is imported on the first call.
"""

from __future__ import annotations

import functools
import importlib
import re
from dataclasses import dataclass
from typing import Any

from itbench.errors import ItbenchError

_TARGET = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_][\w.]*")


class HookError(ItbenchError):
    """A hook names a module or attribute that cannot be imported (exit 3: the plugin is broken)."""


@dataclass(frozen=True)
class Hook:
    """A callable standing for the function ``target`` (``"module:attr"``) names."""

    target: str

    def __post_init__(self) -> None:
        if not _TARGET.fullmatch(self.target):
            raise ValueError(f"hook {self.target!r}: expected 'package.module:attribute'")

    @property
    def module(self) -> str:
        """The module the hook lives in (where its domain's code is)."""
        return self.target.partition(":")[0]

    def resolve(self) -> Any:
        """The function named, imported once per process."""
        return _load(self.target)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return _load(self.target)(*args, **kwargs)


def hook(target: str) -> Any:
    """The function ``"module:attr"`` names, imported when first called. Typed ``Any`` so that
    it fills any of ``Domain``'s callable fields."""
    return Hook(target)


@functools.cache
def _load(target: str) -> Any:
    module_name, _, attribute = target.partition(":")
    try:
        found: Any = importlib.import_module(module_name)
        for part in attribute.split("."):
            found = getattr(found, part)
    except (ImportError, AttributeError) as exc:
        raise HookError(f"hook {target!r} cannot be loaded: {type(exc).__name__}: {exc}") from exc
    if not callable(found):
        raise HookError(f"hook {target!r} names a {type(found).__name__}, not a function")
    return found
