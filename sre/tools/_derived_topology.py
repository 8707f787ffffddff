"""The topology a snapshot implies when it has no topology file: build_topology's graph from the
objects (ownership, Service aliases) with the call edges observed in the traces instead of an
architecture file, so the tools that page through dependencies have some to page through."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sre.snapshot import SourceKind, open_source
from sre.tools.build_topology import object_graph


def derive_topology(objects: Path | None, traces: Path | None) -> tuple[dict[str, Any], list[str]]:
    """The {nodes, edges} document and the warnings of the sources read. A source that is None or
    absent contributes nothing; a service edge a → b is any hop a → b of an indexed span's call
    path (a client span's path ends at its peer, so a callee that stopped answering still counts).
    """
    warnings: list[str] = []
    objects_src = None
    if objects is not None and objects.is_file():
        objects_src = open_source(objects, SourceKind.OBJECTS)
        warnings += objects_src.warnings()
    g = object_graph(objects_src)
    if traces is not None and traces.is_file():
        traces_src = open_source(traces, SourceKind.TRACES)
        warnings += traces_src.warnings()
        rows = traces_src.query(
            "SELECT DISTINCT call_path FROM data WHERE call_path IS NOT NULL ORDER BY 1"
        )
        for (path,) in rows:
            hops = path.split(" -> ")
            for caller, callee in zip(hops, hops[1:], strict=False):
                g.edge(g.service_node(caller), "calls", g.service_node(callee))
    return g.document(), warnings
