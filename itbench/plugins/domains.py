"""Load domain plugins by name, containing failures to one warning each."""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass

from itbench.errors import unknown_name
from itbench.plugins.finder import (
    DOMAIN_GROUP,
    PluginLoadError,
    PluginRecord,
    autoload_disabled,
    discover,
    load,
)
from itbench.plugins.spec import Domain


@dataclass(frozen=True)
class LoadedDomain:
    record: PluginRecord
    domain: Domain


def load_domain(record: PluginRecord) -> LoadedDomain:
    obj = load(record)
    if callable(obj) and not isinstance(obj, Domain):
        try:
            obj = obj()
        except Exception as exc:
            raise PluginLoadError(record, exc) from exc
    if not isinstance(obj, Domain):
        raise PluginLoadError(
            record, TypeError(f"entry point gave {type(obj).__name__}, not Domain")
        )
    return LoadedDomain(record, obj)


def get_domain(name: str) -> LoadedDomain:
    records = {r.name: r for r in discover(DOMAIN_GROUP)}
    if name not in records:
        raise unknown_name("domain", name, list(records))
    return load_domain(records[name])


def load_domains() -> tuple[LoadedDomain, ...]:
    """Every installed domain that loads, by name; one that fails is skipped with a warning on
    stderr naming its distribution, so the others keep working."""
    loaded = []
    for record in discover(DOMAIN_GROUP):
        try:
            loaded.append(load_domain(record))
        except PluginLoadError as exc:
            print(f"warning: {exc}", file=sys.stderr)
    return tuple(loaded)


def installed_domains() -> tuple[LoadedDomain, ...]:
    """:func:`load_domains`, once per process for each import path and setting of plugin autoload
    (what discovery reads): discovery reads and parses every installed distribution's entry points
    (7-17 ms of CPU), and a trial asks several times (each sandbox for its covers, the cluster for
    its extensions). Plugins are installed before a run starts, not during it."""
    return _discovered(tuple(sys.path), autoload_disabled())


@functools.cache
def _discovered(path: tuple[str, ...], autoload_off: bool) -> tuple[LoadedDomain, ...]:
    return load_domains()
