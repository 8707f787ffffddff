"""A Service gone from the later object snapshots while the workload it selected still runs:
its name no longer resolves, so every caller's connection fails (``no such host``) and the
traces blame the callers, the service itself having no span. A routine rollout never deletes a
Service, so the state alone is strong evidence."""

from __future__ import annotations

from collections.abc import Iterable

from sre.agents.baseline.evidence import FailingState
from sre.agents.baseline.states.objects import ObjectView, app_of_labels, meta, selects

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
