"""The baseline's answer in ITBench's output schema (formats doc §3): ranked entities, the
propagation chain from the root cause up the call graph, and which alerts it explains."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sre.agents.baseline.evidence import HOUSEKEEPING_ALERTS, INFRA_NAMESPACES, Evidence
from sre.agents.baseline.rank import Candidate, blamed_apps

#: How many runner-up changes are listed (not as contributing factors) for the reader.
RUNNERS_UP = 2


@dataclass(frozen=True)
class Diagnosis:
    entities: tuple[dict[str, Any], ...]
    propagations: tuple[dict[str, Any], ...]
    alerts_explained: tuple[dict[str, Any], ...]
    notes: tuple[str, ...] = field(default=())

    def document(self) -> dict[str, Any]:
        return {
            "entities": list(self.entities),
            "propagations": list(self.propagations),
            "alerts_explained": list(self.alerts_explained),
        }


def _namespace(evidence: Evidence) -> str:
    """The application's namespace: where its alerts and Warning events are."""
    seen: list[str | None] = [
        a.namespace for a in evidence.alerts if a.namespace and a.alertname.startswith("Request")
    ]
    seen += [w.namespace for w in evidence.warnings if w.kind == "Pod" and w.namespace]
    if not seen:  # other alert names and no pod warnings: where the failing states and alerts are
        seen = [s.namespace for s in evidence.states if s.namespace]
        seen += [a.namespace for a in evidence.alerts if a.namespace not in INFRA_NAMESPACES]
    named = [n for n in seen if n]
    return max(set(named), key=named.count) if named else "default"


def _callers(app: str, evidence: Evidence) -> list[tuple[str, str]]:
    """(callee, caller) edges from ``app`` up every failing path through it, nearest first."""
    edges: dict[tuple[str, str], int] = {}
    for path in evidence.paths:
        if app not in path.services:
            continue
        i = path.services.index(app)
        for j in range(i, 0, -1):
            edge = (path.services[j], path.services[j - 1])
            edges[edge] = min(edges.get(edge, 99), i - j)
    if not edges:
        return _callers_from_alerts(app, evidence)
    return sorted(edges, key=lambda e: (edges[e], e))


def _callers_from_alerts(app: str, evidence: Evidence) -> list[tuple[str, str]]:
    """When no failing path names ``app`` (too few of its requests in the window for the error
    tree): the services alerting on errors or latency since the first alert, read along the
    observed path that holds most of them, from the deepest up, hang above ``app``."""
    alerting = {
        a.entity
        for a in evidence.alerts
        if a.alertname in ("RequestErrorRate", "RequestLatency")
        and a.first_seen is not None
        and evidence.onset is not None
        and a.first_seen >= evidence.onset
        and a.entity != app
    }
    best: list[str] = []
    for path in evidence.paths:
        on = [s for s in path.services if s in alerting]
        if len(on) > len(best):
            best = on
    chain = [app, *reversed(best)]
    return [(chain[i], chain[i + 1]) for i in range(len(chain) - 1)]


def _failing_pod(app: str, evidence: Evidence, home: str) -> tuple[str, str] | None:
    """(namespace, name) of a pod of ``app`` with Warning events, one of ``home`` first: an
    application of the same name may run in another namespace too."""
    from sre.agents.baseline.evidence import app_of

    pods = sorted(
        (w.namespace != home, w.namespace, w.name)
        for w in evidence.warnings
        if w.kind == "Pod" and app_of("Pod", w.name) == app
    )
    return (pods[0][1], pods[0][2]) if pods else None


def _home(app: str, evidence: Evidence, preferred: str) -> str:
    """The namespace ``app`` runs in: ``preferred`` (the root cause's, else the incident's) when
    it has pods, failing states or pod Warning events there, else where it has most of them;
    an entity keeps its own namespace, whichever namespace the incident is in."""
    from sre.agents.baseline.evidence import app_of

    seen = [p.namespace for p in evidence.pods if p.app == app]
    seen += [s.namespace for s in evidence.states if s.app == app]
    seen += [
        w.namespace
        for w in evidence.warnings
        if w.kind in ("Pod", "ReplicaSet") and app_of(w.kind, w.name) == app
    ]
    named = [n for n in seen if n]
    if not named or preferred in named:
        return preferred
    return max(sorted(set(named)), key=named.count)


def _fallback_app(evidence: Evidence) -> str | None:
    """Without a changed object to blame: the service the trace tree blames most often."""
    suspects = [p.suspect for p in evidence.paths if p.suspect and p.severity != "WARNING"]
    suspects = suspects or [p.suspect for p in evidence.paths if p.suspect]
    return max(sorted(set(suspects)), key=suspects.count) if suspects else None


def build(evidence: Evidence, ranked: list[Candidate]) -> Diagnosis:
    ns = _namespace(evidence)
    entities: list[dict[str, Any]] = []
    root_entity: str | None = None
    app: str | None = None
    top = ranked[0] if ranked and ranked[0].score > 0 else None
    blamed = blamed_apps(evidence)
    if top is not None:
        root_entity = top.change.entity
        # the chain starts at what the change acts on itself: the clients of a faulted
        # dependency (fault_clients) fail through it, one hop further
        clients = evidence.fault_clients.get(top.change.entity, frozenset())
        direct = (top.apps - clients) or top.apps
        hit = sorted(direct & blamed.keys()) or sorted(direct)
        app = hit[0] if hit else _fallback_app(evidence)
        entities.append(
            {
                "name": root_entity,
                "contributing_factor": True,
                "reasoning": "; ".join(top.reasons),
                "evidence": _evidence(top),
            }
        )
    else:
        app = _fallback_app(evidence)
        if app is not None:
            root_entity = f"{_home(app, evidence, ns)}/Service/{app}"
            entities.append(
                {
                    "name": root_entity,
                    "contributing_factor": True,
                    "reasoning": "no changed object precedes the incident; the trace error tree "
                    f"blames {app} as the deepest failing service",
                    "evidence": blamed.get(app, ""),
                }
            )
    for other in ranked[1 : 1 + RUNNERS_UP] if top is not None else ranked[:RUNNERS_UP]:
        entities.append(
            {
                "name": other.change.entity,
                "contributing_factor": False,
                "reasoning": "also changed, ranked lower: "
                + ("; ".join(other.reasons) or "no signal points at it"),
                "evidence": _evidence(other),
            }
        )
    propagations: list[dict[str, Any]] = []
    chain_apps: list[str] = []
    # the root cause's own namespace first (a Node's or a chaos experiment's holds no pods)
    preferred = (top.change.namespace if top is not None else "") or ns
    homes: dict[str, str] = {}
    if app is not None:
        homes[app] = _home(app, evidence, preferred)

    def service_of(name: str) -> str:
        return f"{homes.get(name, ns)}/Service/{name}"

    if app is not None and root_entity is not None:
        service = service_of(app)
        pod = _failing_pod(app, evidence, homes[app])
        previous = root_entity
        if pod is not None:
            pod_entity = f"{pod[0]}/Pod/{pod[1]}"
            propagations.append(
                _edge(
                    previous,
                    pod_entity,
                    f"{root_entity} acts on {app}",
                    blamed.get(app, f"{app} pod fails"),
                )
            )
            previous = pod_entity
        if previous != service:
            propagations.append(
                _edge(previous, service, f"{app} pods are affected", f"{app} service degrades")
            )
        chain_apps.append(app)
        for callee, caller in _callers(app, evidence):
            propagations.append(
                _edge(
                    service_of(callee),
                    service_of(caller),
                    f"calls from {caller} to {callee} fail or slow down",
                    f"{caller} degrades",
                )
            )
            chain_apps.append(caller)
        for name in dict.fromkeys(chain_apps):
            if service_of(name) != root_entity:
                entities.append(
                    {
                        "name": service_of(name),
                        "contributing_factor": False,
                        "reasoning": f"on the propagation path from {root_entity}",
                        "evidence": blamed.get(name, ""),
                    }
                )
    on_chain = set(chain_apps)
    alerts = []
    for a in evidence.alerts:
        explained = a.entity in on_chain
        if a.alertname in HOUSEKEEPING_ALERTS:
            why = "housekeeping alert, not a symptom"
        elif explained:
            why = f"{a.entity} is on the propagation path from {root_entity}"
        else:
            why = f"{a.entity} is not on the propagation path; unrelated to this incident"
        alerts.append(
            {"alert": f"{a.alertname} on {a.entity}", "explanation": why, "explained": explained}
        )
    return Diagnosis(tuple(entities), tuple(propagations), tuple(alerts), evidence.notes)


def _evidence(candidate: Candidate) -> str:
    change = candidate.change
    if change.change == "observed":  # a failing state, not an edit: what was seen says it all
        return "; ".join(change.paths)
    return f"{change.kind} {change.name} {change.change} at {change.time:%Y-%m-%dT%H:%M:%SZ}" + (
        f" ({', '.join(change.paths[:5])})" if change.paths else ""
    )


def _edge(source: str, target: str, condition: str, effect: str) -> dict[str, str]:
    return {"source": source, "target": target, "condition": condition, "effect": effect}
