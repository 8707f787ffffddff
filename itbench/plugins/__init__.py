"""Plugin discovery: domains, agents and tool commands arrive through entry points."""

from __future__ import annotations

from itbench.plugins.finder import (
    AGENT_GROUP,
    COMMAND_GROUP,
    DOMAIN_GROUP,
    PluginLoadError,
    PluginRecord,
    discover,
    load,
)

__all__ = [
    "AGENT_GROUP",
    "COMMAND_GROUP",
    "DOMAIN_GROUP",
    "PluginLoadError",
    "PluginRecord",
    "discover",
    "load",
]
