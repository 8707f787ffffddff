"""Whom a fault injected on a dependency acts on: its clients, when the dependency fails too.

A Chaos Mesh experiment on a datastore or a broker (an IOChaos corrupting its reads, denying its
files) shows on the dependency's own error lines and on its clients' errors, and the clients'
lines need not name it (``Broker: Corrupt message``, ``InsufficientPrivilege``). A client's
routine rollout made just before then looks like the cause of the client's errors. But the
client's workload names the dependency it reaches in its environment (``kafka:9092``,
``postgresql://…@postgresql:5432/…``), and a dependency that itself began to write error lines
once the fault was injected on it explains its clients' errors better than a routine rollout of
one of them. So an experiment whose picked applications wrote error lines after it began (more
than before it) acts on the applications whose workloads name them and that wrote error lines
after it too."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import datetime
from typing import Any

from sre.agents.baseline.dependency_clients import mentions
from sre.agents.baseline.evidence import Change, app_of
from sre.agents.baseline.onset import AFTER_SYMPTOMS
from sre.agents.baseline.states.objects import ObjectView, meta


def _env_values(workload: Mapping[str, Any]) -> Iterator[str]:
    template = ((workload.get("spec") or {}).get("template") or {}).get("spec") or {}
    for container in template.get("containers") or []:
        for env in container.get("env") or []:
            value = env.get("value") if isinstance(env, dict) else None
            if isinstance(value, str):
                yield value


def dependencies(view: ObjectView, apps: Iterable[str]) -> dict[str, frozenset[str]]:
    """application -> the other applications (of ``apps``) its workloads' environment values
    name as a whole word (a host, ``kafka:9092``; never ``kafka-ui`` for ``kafka``)."""
    apps = set(apps)
    out: dict[str, set[str]] = {}
    for _, workload in view.kind("Deployment", "StatefulSet", "DaemonSet"):
        own = app_of(str(workload.get("kind")), meta(workload)[1])
        values = " ".join(_env_values(workload))
        for app in apps - {own}:
            pattern = mentions({app})
            if pattern is not None and values and pattern.search(values):
                out.setdefault(own, set()).add(app)
    return {app: frozenset(deps) for app, deps in out.items()}


#: a client relays its dependency's error when it repeats this many words of it in a row
RELAYED_WORDS = 4


def _runs(body: str) -> set[tuple[str, ...]]:
    words = body.lower().split()
    return {tuple(words[i : i + RELAYED_WORDS]) for i in range(len(words) - RELAYED_WORDS + 1)}


def clients_of_faults(
    changes: Iterable[Change],
    picks: Callable[[Change], frozenset[str]],
    depends_on: Mapping[str, frozenset[str]],
    error_lines: Iterable[tuple[str, datetime, str]],
) -> dict[str, frozenset[str]]:
    """fault-injection change (namespace/Kind/name) -> the clients it acts on through the
    applications it picks (``picks``) that wrote more error lines after it began than before:
    the applications that wrote error lines after it began and either name such a dependency
    in their environment (``depends_on``: client -> dependencies) or relay its error (repeat
    :data:`RELAYED_WORDS` words of one of its error lines in a row)."""
    lines = [(app, at.replace(tzinfo=None), body) for app, at, body in error_lines]
    out: dict[str, frozenset[str]] = {}
    for change in changes:
        if not (change.kind.endswith("Chaos") or change.kind == "Schedule"):
            continue
        began = (change.since or change.time).replace(tzinfo=None) - AFTER_SYMPTOMS
        after = [(app, body) for app, at, body in lines if at >= began]
        before = [app for app, at, _ in lines if at < began]
        failing = {
            app for app in picks(change) if sum(a == app for a, _ in after) > before.count(app)
        }
        if not failing:
            continue
        relayed = set().union(*(_runs(body) for app, body in after if app in failing))
        clients = frozenset(
            app
            for app, body in after
            if app not in failing
            and (depends_on.get(app, frozenset()) & failing or _runs(body) & relayed)
        )
        if clients:
            out[change.entity] = clients
    return out
