"""A Service whose target port no container of its pods declares: connections are refused
while the pods stay Ready (their probes go to the right port)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sre.agents.baseline.evidence import FailingState
from sre.agents.baseline.states.objects import ObjectView, app_of_labels, meta, selects


def container_ports(pod: dict[str, Any]) -> tuple[set[int], set[str]]:
    """(port numbers, port names) the containers of a pod (or a pod template) declare."""
    numbers, names = set(), set()
    for c in (pod.get("spec") or {}).get("containers") or []:
        for p in c.get("ports") or []:
            if isinstance(p.get("containerPort"), int):
                numbers.add(p["containerPort"])
            if p.get("name"):
                names.add(str(p["name"]))
    return numbers, names


def find(view: ObjectView) -> Iterable[FailingState]:
    for ts, svc in view.kind("Service"):
        namespace, name, _ = meta(svc)
        spec = svc.get("spec") or {}
        selector = spec.get("selector")
        if not isinstance(selector, dict) or not selector:
            continue
        pods = [
            p
            for _, p in view.work.pods
            if meta(p)[0] == namespace and selects(selector, meta(p)[2])
        ]
        declared = [container_ports(p) for p in pods]
        if not pods or not any(n or m for n, m in declared):
            continue  # no pod, or pods that declare no port: nothing to compare against
        numbers = set().union(*(n for n, _ in declared))
        names = set().union(*(m for _, m in declared))
        for port in spec.get("ports") or []:
            target = port.get("targetPort", port.get("port"))
            missing = (
                (isinstance(target, int) and target not in numbers)
                or (isinstance(target, str) and not target.isdigit() and target not in names)
                or (isinstance(target, str) and target.isdigit() and int(target) not in numbers)
            )
            if missing:
                app = app_of_labels(selector, name)
                ports = ", ".join(str(n) for n in sorted(numbers)) or "none"
                yield FailingState(
                    namespace, "Service", name, app,
                    f"Service {name} targets port {target}, its pods listen on {ports}",
                    2.5, ts,
                )  # fmt: skip
                break
