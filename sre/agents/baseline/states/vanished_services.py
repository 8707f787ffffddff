"""A Service gone from the later object snapshots while the workload it selected still runs:
its name no longer resolves, so every caller's connection fails (``no such host``) and the
traces blame the callers, the service itself having no span. A routine rollout never deletes a
Service, so the state alone is strong evidence."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from sre.agents.baseline.evidence import FailingState
from sre.agents.baseline.states.objects import (
    ObjectView,
    Observed,
    app_of_labels,
    last_write,
    meta,
    selects,
)

#: as strong as a container's own failure (``pod_failures``): the signals blaming the service
#: (its callers' failing calls to it) add to it
STRENGTH = 2.5


def find(view: ObjectView) -> Iterable[FailingState]:
    services = view.kind("Service")
    if not services:
        return
    last_dump = max(ts for ts, _ in [*services, *view.kind("Deployment", "StatefulSet")])
    for ts, svc in services:
        if ts >= last_dump:
            continue  # still there
        namespace, name, _ = meta(svc)
        if not _observed_again(services, namespace, name, ts):
            continue  # an export that writes only what changed (a watch): absence says nothing
        selector = (svc.get("spec") or {}).get("selector")
        if not isinstance(selector, dict) or not selector:
            continue
        running = [
            (t, w)
            for t, w in view.kind("Deployment", "StatefulSet")
            if meta(w)[0] == namespace
            and t > ts
            and selects(
                selector,
                ((w.get("spec") or {}).get("template") or {}).get("metadata", {}).get("labels")
                or {},
            )  # fmt: skip
            and (w.get("spec") or {}).get("replicas", 1) != 0
        ]
        if running:
            yield FailingState(
                namespace, "Service", name, app_of_labels(selector, name),
                f"Service {name} last seen at {ts:%H:%M:%S}, gone since, while "
                f"{meta(running[0][1])[1]} still runs: its name resolves to nothing",
                STRENGTH, ts, healthy_until=True,
            )  # fmt: skip


def _observed_again(services: list[Observed], namespace: str, name: str, ts: datetime) -> bool:
    """Another Service of ``namespace`` observed after ``ts`` though its last write is older
    than ``ts``: the export shows unchanged objects again (a periodic dump), so this one's
    absence is a deletion. A record without a write time is taken as a dump's."""
    for other_ts, other in services:
        other_ns, other_name, _ = meta(other)
        if other_ns != namespace or other_name == name or other_ts <= ts:
            continue
        written = last_write(other)
        if written is None or written <= ts:
            return True
    return False
