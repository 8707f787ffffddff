"""Load domain plugins by name, containing failures to one warning each."""

from __future__ import annotations

from dataclasses import dataclass

from itbench.errors import unknown_name
from itbench.plugins.finder import DOMAIN_GROUP, PluginLoadError, PluginRecord, discover, load
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
    import sys

    loaded = []
    for record in discover(DOMAIN_GROUP):
        try:
            loaded.append(load_domain(record))
        except PluginLoadError as exc:
            print(f"warning: {exc}", file=sys.stderr)
    return tuple(loaded)
