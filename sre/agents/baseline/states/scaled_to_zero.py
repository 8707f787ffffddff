"""A Deployment or StatefulSet with ``spec.replicas: 0``: no pod serves its application."""

from __future__ import annotations

from collections.abc import Iterable

from sre.agents.baseline.evidence import FailingState
from sre.agents.baseline.states.objects import ObjectView, meta


def find(view: ObjectView) -> Iterable[FailingState]:
    for ts, obj in view.kind("Deployment", "StatefulSet"):
        namespace, name, _ = meta(obj)
        if (obj.get("spec") or {}).get("replicas") == 0:
            yield FailingState(
                namespace, str(obj.get("kind")), name, name, f"{obj.get('kind')} {name} has "
                "spec.replicas 0: no pod serves it", 1.5, ts,
            )  # fmt: skip
