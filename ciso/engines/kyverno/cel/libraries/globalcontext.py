"""Kyverno's global context library: ``globalContext.Get(name, projection)``: the named entry's
data (a projection selects one key of it), from the test's global context entries. An unknown
entry is null, as in Kyverno's CLI; an unknown projection is an error."""

from __future__ import annotations

from typing import Any

from ciso.engines.kyverno.cel.libraries.environment import current
from ciso.engines.kyverno.cel.syntax import namespaced


def get(name: str, projection: str = "") -> Any:
    entries = current().global_context
    if name not in entries:
        return None
    data = entries[name]
    if not projection:
        return data
    if isinstance(data, dict) and projection in data:
        return data[projection]
    raise ValueError(f"projection {projection!r} not found in global context entry {name!r}")


FUNCTIONS = {namespaced("globalContext", "Get"): get}
