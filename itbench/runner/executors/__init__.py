"""Executors run a plan's trials: ``local`` (forked workers, the default) or ``ray`` (a cluster).

Ray is an optional extra (``pip install 'itbench[ray]'``) and is imported only when chosen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from itbench.errors import UsageError
from itbench.runner.executors.base import Executor, OnTrial, settle_trial
from itbench.runner.executors.local import LocalExecutor

if TYPE_CHECKING:
    from itbench.runner.benchmark import RunRequest

EXECUTORS = ("local", "ray")

__all__ = ["EXECUTORS", "Executor", "LocalExecutor", "OnTrial", "make_executor", "settle_trial"]


def make_executor(
    name: str,
    ray_address: str | None = None,
    request: RunRequest | None = None,
) -> Executor:
    """The executor called ``name``; remote workers open the domain's session from ``request``."""
    if name == "local":
        if ray_address is not None:
            raise UsageError("--ray-address needs --executor ray")
        return LocalExecutor()
    if name == "ray":
        from itbench.runner.executors.ray_executor import RayExecutor

        return RayExecutor(address=ray_address, request=request)
    raise UsageError(f"unknown executor {name!r}; available: {', '.join(EXECUTORS)}")
