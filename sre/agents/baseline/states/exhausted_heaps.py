"""A JVM whose heap stays full: a leak fills the heap up to its cap (``-Xmx``) long before the
container's memory limit, so the pod is never OOM-killed; the JVM runs full collections one
after another, each freeing almost nothing, and its calls slow down or fail. Its GC log says so
(``Pause Full (G1 Compaction Pause) 252M->241M(256M)``): the heap left after a full collection
is near the heap's size. Such a workload is in a failing state (ITBench names its Deployment)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from pathlib import Path

from sre.agents.baseline.evidence import INFRA_NAMESPACES, FailingState
from sre.snapshot import SourceKind, open_source

#: a full collection's line in the unified JVM log: heap before -> after (size)
FULL_GC = re.compile(r"Pause Full\b.*?(\d+)([KMG])->(\d+)([KMG])\((\d+)([KMG])\)")
_UNIT = {"K": 1, "M": 1024, "G": 1024 * 1024}
#: a full collection leaving this share of the heap in use freed almost nothing
STILL_FULL = 0.9
#: one full collection is routine; this many in a row, each freeing nothing, is a leak
MIN_FULL = 3
#: as telling as a container's own failure short of a crash
STRENGTH = 2.5


def full_heaps(logs: Path) -> Counter[str]:
    """application -> how many of its full collections left the heap still full."""
    src = open_source(logs, SourceKind.LOGS)
    rows = src.con.cursor().execute(
        """SELECT service_name, left(body, 400) FROM data
           WHERE service_name IS NOT NULL AND body LIKE '%Pause Full%'"""
    )
    out: Counter[str] = Counter()
    for app, body in rows.fetchall():
        match = FULL_GC.search(str(body or ""))
        if match is None:
            continue
        after = int(match.group(3)) * _UNIT[match.group(4)]
        size = int(match.group(5)) * _UNIT[match.group(6)]
        if size and after / size >= STILL_FULL:
            out[str(app)] += 1
    return out


def find(counts: Mapping[str, int], workloads: Mapping[tuple[str, str], str]) -> list[FailingState]:
    """A state on the workload of each application whose heap stayed full (``workloads``:
    (namespace, application) -> its workload's kind)."""
    out = []
    for (namespace, app), kind in sorted(workloads.items()):
        if namespace in INFRA_NAMESPACES or counts.get(app, 0) < MIN_FULL:
            continue
        what = f"{counts[app]} full GCs of {app} left its heap over {STILL_FULL:.0%} full"
        out.append(FailingState(namespace, kind, app, app, what, STRENGTH))
    return out
