"""Find plugins from entry-point metadata and load them on demand.

Discovery reads only package metadata (no plugin code runs), so ``itbench --help`` stays fast.
Loading is a separate step that wraps any failure in :class:`PluginLoadError` naming the
distribution, so one broken plugin never takes the others down.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points

DOMAIN_GROUP = "itbench.domains"
AGENT_GROUP = "itbench.agents"
COMMAND_GROUP = "itbench.commands"

#: Distribution whose entry points count as built-in: they stay on when autoload is disabled.
BUILTIN_DISTRIBUTION = "itbench"
DISABLE_AUTOLOAD_ENV = "ITBENCH_DISABLE_PLUGIN_AUTOLOAD"


@dataclass(frozen=True)
class PluginRecord:
    """One entry point as found in metadata, not yet imported."""

    group: str
    name: str
    value: str
    distribution: str
    version: str

    @property
    def builtin(self) -> bool:
        return _normalise(self.distribution) == BUILTIN_DISTRIBUTION

    @property
    def provider(self) -> str:
        return f"{self.distribution} {self.version}"


class PluginLoadError(Exception):
    """A plugin could not be imported; the message names its distribution and the cause."""

    def __init__(self, record: PluginRecord, cause: BaseException) -> None:
        self.record = record
        self.cause = cause
        super().__init__(
            f"plugin {record.name!r} ({record.group}) from distribution {record.provider} "
            f"failed to load: {type(cause).__name__}: {cause}"
        )


def _normalise(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def autoload_disabled() -> bool:
    return os.environ.get(DISABLE_AUTOLOAD_ENV, "").strip() not in ("", "0")


def _record(ep: EntryPoint) -> PluginRecord:
    dist = ep.dist
    return PluginRecord(
        group=ep.group,
        name=ep.name,
        value=ep.value,
        distribution=dist.metadata["Name"] if dist is not None else "?",
        version=dist.version if dist is not None else "?",
    )


def discover(group: str) -> tuple[PluginRecord, ...]:
    """Entry points of ``group``, sorted by name; third-party ones dropped when autoload is off.

    When two distributions register the same name, the built-in wins, then the first found:
    a plugin cannot silently replace a core domain.
    """
    seen: dict[str, PluginRecord] = {}
    skip_third_party = autoload_disabled()
    for ep in entry_points(group=group):
        record = _record(ep)
        if skip_third_party and not record.builtin:
            continue
        current = seen.get(record.name)
        if current is None or (record.builtin and not current.builtin):
            seen[record.name] = record
    return tuple(seen[name] for name in sorted(seen))


def find(group: str, name: str) -> PluginRecord | None:
    for record in discover(group):
        if record.name == name:
            return record
    return None


def load(record: PluginRecord) -> object:
    """Import the object an entry point names, wrapping failures in :class:`PluginLoadError`."""
    ep = EntryPoint(name=record.name, value=record.value, group=record.group)
    try:
        return ep.load()
    except Exception as exc:  # any import-time failure of foreign code must be contained
        raise PluginLoadError(record, exc) from exc
