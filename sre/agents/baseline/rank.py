"""Ranking the observed changes as root causes: a change is a suspect when it came just before
the incident's first alert and when it touches an application the other signals blame (the
deepest failing service of the trace error tree, pods with Warning events, workload alerts)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime

from sre.agents.baseline import batch_load, onset, outside_faults, preemption
from sre.agents.baseline.admission import ADMISSION, victims
from sre.agents.baseline.api_flood import service_account, starved_by
from sre.agents.baseline.background import background
from sre.agents.baseline.config_content import named_apps
from sre.agents.baseline.cordons import displaced, removes_capacity
from sre.agents.baseline.evidence import (
    HOUSEKEEPING_ALERTS,
    INFRA_NAMESPACES,
    POD_EVENT_KINDS,
    WORKLOADS,
    CallPath,
    Change,
    Evidence,
    FailingState,
    Symptom,
    WarningEvent,
    app_of,
)
from sre.agents.baseline.flag_clients import clients_hit
from sre.agents.baseline.memory_hogs import apps_on, lifts_memory_limit, short_of_memory
from sre.agents.baseline.platform_outage import out_of_service, served
from sre.agents.baseline.references import namespace_wide, referenced_apps
from sre.agents.baseline.restarts import (
    RESTART_FIELD,
    failing_on_configuration,
    failing_otherwise,
    restart_only,
)
from sre.agents.baseline.states.event_failures import USED_OBJECTS
from sre.agents.baseline.targets import (
    chaos_picks,
    chaos_selectors,
    dns_names,
    experiment,
    label_picks,
)

#: Objects a routine rollout never touches, so any change of them is suspicious by itself.
RARELY_CHANGED = frozenset(
    {"ConfigMap", "Secret", "NetworkPolicy", "ResourceQuota", "LimitRange", "Node", "Service",
     "HorizontalPodAutoscaler"}
)  # fmt: skip
#: objects granting API rights to the accounts workloads run as (``rbac_users``)
RBAC = ("Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding")
#: Warning reasons that name the pods a namespace- or node-wide object kept from running.
PLACEMENT_REASONS = frozenset({"FailedCreate", "Evicted", "FailedScheduling", "Preempted"})

_RISE = re.compile(r"\(\+(\d+)%\)")
#: the trace tool's words for a path that stopped: "<n> span(s) before the pivot, none after"
_BEFORE = re.compile(r"(\d+) span\(s\) before the pivot")
#: a path seen fewer times than this before the pivot says nothing by stopping
MIN_SPANS_GONE = 30

#: when a failing state carries no time (a metric over the whole snapshot) and no alert dates
#: the incident: sorts it after every dated change of the same score
NO_TIME = datetime(1970, 1, 1)
WEIGHT_TIME = 2.0
WEIGHT_UNUSUAL = 1.0
WEIGHT_CHAOS = 2.0
#: the symptoms began after the change, on what it acts on
WEIGHT_SYMPTOMS = 2.0


@dataclass(frozen=True)
class Candidate:
    change: Change
    apps: frozenset[str]
    score: float
    reasons: tuple[str, ...]
    #: changed just before the incident's first alert
    timed: bool = False


def _label_values(selector: object) -> set[str]:
    if not isinstance(selector, dict):
        return set()
    out = set()
    for key in ("labelSelectors", "matchLabels"):
        labels = selector.get(key)
        if isinstance(labels, dict):
            out |= {str(v) for k, v in labels.items() if k.endswith(("name", "app"))}
    pods = selector.get("pods")
    if isinstance(pods, dict):  # chaos: {namespace: [pod names]}
        out |= {app_of("Pod", p) for names in pods.values() for p in names or ()}
    return out


def touched_apps(
    change: Change, evidence: Evidence, known: frozenset[str] = frozenset()
) -> frozenset[str]:
    """The applications a changed object acts on (``known``: the applications the incident
    shows, which a configuration change may name in what it changed)."""
    spec = change.spec
    if change.kind in ("ConfigMap", "Secret"):
        # the applications its values name, and the workloads that read it; a flag flip also
        # acts on the services that began to fail just after it when the flag names none
        named = named_apps(change.values, known) | evidence.config_users.get(change.entity, set())
        # a chart names an application's configuration after it (``otel-collector``): it acts
        # on that running application even when the export leaves out the volume mounting it
        running = {p.app for p in evidence.pods} | {s.app for s in evidence.symptoms}
        named |= referenced_apps(change.name, change.namespace, {}, running, ())
        # and the clients whose errors after it name a file or host its edit configured
        named |= evidence.named_by.get(change.entity, frozenset())
        return named | clients_hit(change, named, evidence.symptoms)
    if change.kind == "HorizontalPodAutoscaler":
        return frozenset({str((spec.get("scaleTargetRef") or {}).get("name") or "")} - {""})
    if change.kind in ("PersistentVolumeClaim", "ServiceAccount", *RBAC):
        # the workloads that mount it wait for its volume; an account's pull secrets are those
        # of the workloads running as it; a role's (or binding's) rights are those of the
        # workloads running as the accounts it is bound to
        return evidence.config_users.get(change.entity, frozenset())
    if change.kind in ("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet"):
        # a changed setting of a dependency also acts on the clients whose errors name it; a
        # changed pod priority, on the pods the scheduler then put out for its pods
        return (
            frozenset({app_of(change.kind, change.name)})
            | evidence.named_by.get(change.entity, frozenset())
            | preemption.displaced(change, evidence)
        )
    if change.kind == "Service":
        chosen = _label_values({"matchLabels": spec.get("selector")})
        picked = label_picks(spec.get("selector"), change.namespace, evidence.pods)
        # a selector picking no pod leaves the Service's own callers answered by nothing: it
        # acts on the application it is named after
        own = (chosen | picked) if picked else (chosen | {change.name})
        # a changed setting of the Service also acts on the clients whose errors name it
        return frozenset(own) | evidence.named_by.get(change.entity, frozenset())
    if change.kind == "NetworkPolicy":
        picked = label_picks(spec.get("podSelector"), change.namespace, evidence.pods)
        return frozenset(_label_values(spec.get("podSelector")) | picked)
    if _chaos(change):
        # whatever label key, expression or pod list the selectors use: the pods they pick
        picked = {
            app
            for chosen in chaos_selectors(change.kind, spec)
            for app in chaos_picks(chosen, change.namespace, evidence.pods)
        }
        # a DNS fault also acts on the applications whose names it breaks: their callers fail
        picked |= dns_names(change.kind, spec, known)
        # a cloud experiment stops a machine: it acts on what ran there
        picked |= outside_faults.victims(change, evidence.pods, evidence.symptoms)
        if picked:
            # a fault on a dependency that fails under it also acts on its failing clients
            return frozenset(picked) | evidence.fault_clients.get(change.entity, frozenset())
    if change.kind == "HorizontalPodAutoscaler":
        target = spec.get("scaleTargetRef")
        return frozenset(
            {str(target["name"])} if isinstance(target, dict) and target.get("name") else ()
        )
    if change.kind == "Schedule" and "selector" not in spec:
        # a Chaos Mesh Schedule holds the experiment it creates under the field its type names
        # (``type: NetworkChaos`` -> ``networkChaos``)
        _, inner = experiment(change.kind, spec)
        return frozenset(_label_values(inner.get("selector")))
    if change.kind in ("CronJob", "Job"):
        # its jobs load what they share with the services (a database): it acts on those
        # whose symptoms began while its jobs ran (a Job's own ``selector`` picks its pods)
        return batch_load.hit(change, evidence.job_runs, evidence.symptoms)
    if "selector" in spec:  # chaos experiments select their victims by label or pod name
        return frozenset(_label_values(spec.get("selector")))
    if change.kind == "Namespace":
        # what admits pods in it (its pod-security labels): the workloads whose new pods it
        # then refused (``FailedCreate``), whatever label or admission plugin refused them
        return refused_apps(change.name, evidence.warnings)
    if change.kind in ("ResourceQuota", "LimitRange", "Node"):
        # no selector: the pods it kept from running say whom it hit; a LimitRange also acts
        # on the workloads that take its defaults (``limit_users``)
        return evidence.config_users.get(change.entity, frozenset()) | frozenset(
            app_of(w.kind, w.name)
            for w in evidence.warnings
            if w.reason in PLACEMENT_REASONS
            and w.kind in POD_EVENT_KINDS
            and (change.kind == "Node" or w.namespace == change.namespace)
        )
    # any other kind (a mesh's routing rule, a broker's user): the applications it names or
    # whose pods it selects; matched against the running applications, not the changed objects'
    # names (a topic called ``orders`` is no application)
    running = {p.app for p in evidence.pods} | {s.app for s in evidence.symptoms}
    # and the clients whose errors, after it, name a Service it routes to (a gateway's 503s)
    found = referenced_apps(
        change.name, change.namespace, spec, running, evidence.pods
    ) | evidence.named_by.get(change.entity, frozenset())
    if not found and change.namespace and namespace_wide(spec):
        # naming and selecting nothing, it applies to every pod of its namespace (a mesh's
        # mutual-TLS or authorization policy without a selector): it acts on all their apps
        found = frozenset(p.app for p in evidence.pods if p.namespace == change.namespace)
    return found


#: How much each kind of signal blaming an application counts: the trace tree's deepest failing
#: service is the strongest; the last hop of a failing path only says the path ends there (its
#: callee may be unreachable); Warning events on its pods and its Kubernetes alerts each
#: corroborate. An application's blame adds up the independent signals: the two read off the
#: trace tree are one signal (the stronger counts), events and alerts add to it.
SIGNAL_WEIGHTS = {
    "trace": 3.0, "last-hop": 2.0, "fan-out": 2.0, "warning": 1.0, "alert": 1.0, "logs": 1.0,
    "spans": 1.0,
}  # fmt: skip
#: Several callees of one service failing at once point at what they share: that caller (its
#: network, its DNS, its client) — an inference of its own beside each path's deepest suspect.
FAN_OUT = 2
_TRACE_SIGNALS = ("trace", "last-hop")


def blame(evidence: Evidence) -> dict[str, dict[str, str]]:
    """app -> {kind of signal -> why it points at the app}."""
    found: dict[str, dict[str, str]] = {}

    def note(app: str, signal: str, why: str) -> None:
        found.setdefault(app, {}).setdefault(signal, why)

    for path in evidence.paths:
        if path.suspect and (path.severity == "CRITICAL" or _gone(path) or _large_rise(path)):
            note(
                path.suspect,
                "trace",
                f"trace error tree: {path.reason} on {' -> '.join(path.services)}",
            )
            # an unreachable service has no spans: its caller's client span fails, so the last
            # service of a failing path is blamed along with the suspect
            if path.severity == "CRITICAL":
                note(
                    path.services[-1],
                    "last-hop",
                    f"last hop of failing path {' -> '.join(path.services)}",
                )
    for caller, callees in _failing_callees(evidence).items():
        if len(callees) >= FAN_OUT:
            note(caller, "fan-out", f"its calls to {', '.join(sorted(callees))} all fail")
    for w in evidence.warnings:
        if w.namespace not in INFRA_NAMESPACES and w.kind in ("Pod", "ReplicaSet", "Deployment"):
            note(
                app_of(w.kind, w.name),
                "warning",
                f"Warning {w.reason} x{w.count} on {w.kind}/{w.name}",
            )
    # spans without parent ids leave the error tree blind: the step each service's own spans
    # took is then what the traces say about it (with the ids, a service the tree does not blame
    # slowed on its own: another team's degradation)
    blind = evidence.unlinked_spans and not any("trace" in signals for signals in found.values())
    for symptom in evidence.symptoms:
        if symptom.logs:  # the logs alone show what the traces may not (a datastore's errors)
            note(symptom.app, "logs", f"{symptom.what} from {symptom.start:%H:%M:%S}")
        elif blind:
            note(symptom.app, "spans", f"{symptom.what} from {symptom.start:%H:%M:%S}")
    for a in evidence.alerts:
        if a.alertname.startswith("Kube") and a.namespace not in INFRA_NAMESPACES and a.namespace:
            # an alert labelled by pod (Alertmanager's kube-state-metrics rules) names the
            # pod; its application is what the other signals name
            note(app_of("Pod", a.entity), "alert", f"alert {a.alertname} on {a.entity}")
    return found


def _failing_callees(evidence: Evidence) -> dict[str, set[str]]:
    """caller -> the services the trace tree blames on the failing paths through it: the suspect's
    caller on the path, or the path's last service when the suspect is beyond it (unreachable)."""
    found: dict[str, set[str]] = {}
    for path in evidence.paths:
        if not path.suspect or path.severity not in ("CRITICAL", "DISAPPEARED"):
            continue
        services = list(path.services)
        if path.suspect in services:
            at = services.index(path.suspect)
            caller = services[at - 1] if at > 0 else None
        else:
            caller = services[-1] if services else None
        if caller and caller != path.suspect:
            found.setdefault(caller, set()).add(path.suspect)
    return found


def blamed_apps(evidence: Evidence) -> dict[str, str]:
    """app -> why the other signals point at it (the strongest reason)."""
    return {
        app: signals[max(signals, key=SIGNAL_WEIGHTS.__getitem__)]
        for app, signals in blame(evidence).items()
    }


def blame_weight(signals: dict[str, str]) -> float:
    traced = max((SIGNAL_WEIGHTS[k] for k in signals if k in _TRACE_SIGNALS), default=0.0)
    return traced + sum(SIGNAL_WEIGHTS[k] for k in signals if k not in _TRACE_SIGNALS)


def _gone(path: CallPath) -> bool:
    """A path that stopped after the pivot counts when it was busy before: a path seen a dozen
    times in twenty minutes may well show none in the ten after by chance (about one chance in
    a hundred per path, and a trace tree holds dozens of paths)."""
    match = _BEFORE.search(path.reason)
    return path.severity == "DISAPPEARED" and (
        match is None or int(match.group(1)) >= MIN_SPANS_GONE
    )


def _large_rise(path: CallPath) -> bool:
    """A latency warning counts when the path at least doubled: a few per cent is the jitter
    every busy path shows from one five-minute window to the next."""
    match = _RISE.search(path.reason)
    return path.severity == "WARNING" and match is not None and int(match.group(1)) >= 100


def _autoscaled(changes: tuple[Change, ...]) -> dict[tuple[str, str], str]:
    """(namespace, workload) -> the HorizontalPodAutoscaler that changed and scales it."""
    out = {}
    for c in changes:
        target = c.spec.get("scaleTargetRef") if c.kind == "HorizontalPodAutoscaler" else None
        if isinstance(target, dict) and target.get("name"):
            out[(c.namespace, str(target["name"]))] = c.name
    return out


def _scaled_by(change: Change, changes: tuple[Change, ...]) -> str:
    """For a changed HorizontalPodAutoscaler: what its target's replica-only change was, if any."""
    target = change.spec.get("scaleTargetRef") if change.kind == "HorizontalPodAutoscaler" else None
    if not isinstance(target, dict) or not target.get("name"):
        return ""
    for c in changes:
        if c.namespace == change.namespace and c.name == target["name"] and _replicas_only(c):
            moved = ", ".join(f"{old} -> {new}" for _, old, new in c.values) or "changed"
            return f"which set {c.kind}/{c.name} replicas {moved} at {c.time:%H:%M:%S}"
    return ""


def _within_autoscaler(change: Change, evidence: Evidence) -> bool:
    """The replica counts a replica-only change set all lie in the range of the autoscaler the
    objects show scaling its workload (scaling to zero, which an autoscaler never does, or past
    its range is someone's edit)."""
    bounds = evidence.autoscalers.get((change.namespace, change.name))
    if bounds is None:
        return False
    counts = [new for _, _, new in change.values]
    return bool(counts) and all(
        isinstance(n, int) and not isinstance(n, bool) and bounds[0] <= n <= bounds[1]
        for n in counts
    )


def _replicas_only(change: Change) -> bool:
    return (
        change.change == "modified"
        and bool(change.paths)
        and all(p.rsplit(".", 1)[-1] == "replicas" for p in change.paths)
    )


def rank(evidence: Evidence) -> list[Candidate]:
    signals = blame(evidence)
    blamed = blamed_apps(evidence)
    # the applications the snapshot shows: what a configuration change may name
    known = frozenset(blamed) | {app_of(c.kind, c.name) for c in evidence.changes}
    known |= {p.app for p in evidence.pods} | {s.app for s in evidence.symptoms}
    autoscaled = _autoscaled(evidence.changes)
    began = onset.first_symptom(evidence, signals)
    out = []
    for change in evidence.changes:
        platform = change.namespace in INFRA_NAMESPACES
        # a platform object's edit is routine, unless it took a component out of service or the
        # applications' own errors after it name what it configured (a cluster DNS server's
        # rewrite of a Service's name): then it acts on those applications like any other
        configured = evidence.named_by.get(change.entity, frozenset())
        if platform and not out_of_service(change) and not configured:
            continue
        if _replicas_only(change) and (change.namespace, change.name) in autoscaled:
            # its autoscaler set the replica count: the autoscaler's change is the candidate
            continue
        if _replicas_only(change) and _within_autoscaler(change, evidence):
            # an autoscaler older than the window set a count inside its range: a scale-out
            # follows the load the incident made, it does not start it
            continue
        if change.kind in WORKLOADS and _bookkeeping(change):
            # its own labels or annotations (a GitOps sync's tracking id, an owner): no pod of it
            # reads them, so nothing its pods do changed, however close to the symptoms
            app = app_of(change.kind, change.name)
            why = f"changed only its own {', '.join(change.paths[:2])}, which its pods never read"
            out.append(Candidate(change, frozenset({app}), 0.0, (why,)))
            continue
        scaled = _scaled_by(change, evidence.changes)
        # a platform component scaled to zero fails every application that relies on it
        apps = (
            served(evidence)
            if platform and not configured
            else touched_apps(change, evidence, known)
        )
        score, reasons = 0.0, []
        late = onset.after_symptoms(change, began)
        timed = onset.timed(change, evidence.onset) and late is None
        if late is not None:
            # the symptoms were there before it: whatever it acts on, it did not start them
            reasons.append(
                f"{change.change} {onset.when(change)}, after the symptoms began at "
                f"{late.start:%H:%M:%S} ({late.app}: {late.what})"
            )
        elif timed:
            score += WEIGHT_TIME
            reasons.append(
                f"{change.change} {onset.when(change)}, just before the first alert at "
                f"{evidence.onset:%H:%M:%S}"
            )
        elif began is not None and onset.timed(change, began.latest_start.replace(tzinfo=None)):
            # the alert may come minutes after the symptoms (a slow rule): just before the
            # first symptom is as telling
            timed = True
            score += WEIGHT_TIME
            reasons.append(
                f"{change.change} {onset.when(change)}, just before the first symptom at "
                f"{began.start:%H:%M:%S}{_or_later(began)} ({began.app}: {began.what})"
            )
        moved = displaced(change, evidence) if removes_capacity(change) else frozenset()
        if late is None and not timed and moved:
            # the node's pods wait to be placed since it was cordoned or tainted: the refusals
            # date the incident on them, whenever the first alert came
            timed = True
            score += WEIGHT_TIME
            reasons.append(
                f"{change.change} {onset.when(change)} to keep pods off it; pods of "
                f"{', '.join(sorted(moved))} that ran on it cannot be scheduled since"
            )
        starved = starved_by(change, evidence)
        # what it acts on: its applications, and those a new API-server client starves
        followed = (
            onset.followed_by(change, apps | starved, evidence, signals) if late is None else None
        )
        if followed is not None:
            # the symptoms began after it, on what it acts on
            score += WEIGHT_SYMPTOMS
            reasons.append(
                f"symptoms began after it: {followed.app} {followed.what} from "
                f"{followed.start:%H:%M:%S}"
            )
        hit = sorted(apps & blamed.keys(), key=lambda a: (-blame_weight(signals[a]), a))
        if hit and late is None:
            # the most blamed application it acts on, by how many kinds of signal blame it
            score += blame_weight(signals[hit[0]])
            reasons.append(f"acts on {', '.join(hit)}: " + "; ".join(signals[hit[0]].values()))
        if change.kind == "Service" and _selects_elsewhere(change):
            # a Service selecting pods by a name that is not its own (nor any workload's the
            # incident shows) answers from nothing: its callers fail without a trace of it
            score += WEIGHT_CHAOS
            reasons.append(f"selects {_selected(change)}, which no workload of the incident runs")
        elif apps & _callers_of_suspects(evidence) and _changes_outgoing_calls(change):
            # the pod's own lookups or routes changed: its outgoing calls fail, and the trace
            # tree blames the services it calls
            score += SIGNAL_WEIGHTS["trace"]
            reasons.append(
                f"changes how {', '.join(sorted(apps))} reaches the services it calls "
                f"({', '.join(p for p in change.paths if _outgoing(p))})"
            )
        if scaled:
            # the autoscaler's change took effect: it set its workload's replica count
            score += WEIGHT_UNUSUAL
            reasons.append(scaled)
        hit_starved = sorted(starved & blamed.keys(), key=lambda a: (-blame_weight(signals[a]), a))
        if hit_starved:
            # the API server refuses requests (429) while a new client of it runs: the pods it
            # cannot bind are this client's doing
            score += blame_weight(signals[hit_starved[0]])
            reasons.append(
                f"a new client of the API server (service account "
                f"{service_account(change)}) while it throttles {', '.join(hit_starved)}: "
                + "; ".join(signals[hit_starved[0]].values())
            )
        if _unusual(change):
            # a fault-injection experiment is suspicious by what it is, more than an edit
            score += WEIGHT_CHAOS if _chaos(change) else WEIGHT_UNUSUAL
            what = ", ".join(change.paths[:3]) or change.change
            reasons.append(f"not a routine rollout ({change.kind} {what})")
        out.append(Candidate(change, apps, score, tuple(reasons), timed))
    out = _with_memory_hogs(_with_states(out, evidence, signals), evidence)
    out = _with_admission(_with_restarts(out, evidence), evidence)
    out.sort(key=lambda c: (-c.score, -c.change.time.timestamp(), c.change.entity))
    # one candidate per object: a Schedule's experiments of each period are one finding
    best: dict[str, Candidate] = {}
    for c in out:
        best.setdefault(c.change.entity, c)
    return list(best.values())


def refused_apps(namespace: str, warnings: tuple[WarningEvent, ...]) -> frozenset[str]:
    """The applications of ``namespace`` whose controllers were refused new pods: the API
    server's admission (pod security, a quota, a webhook) answers the ReplicaSet's create with
    ``FailedCreate``."""
    return frozenset(
        app_of(w.kind, w.name)
        for w in warnings
        if w.reason == "FailedCreate" and w.namespace == namespace and w.kind in POD_EVENT_KINDS
    )


def _chaos(change: Change) -> bool:
    """A fault-injection experiment, or the Chaos Mesh Schedule that creates them."""
    return change.kind.endswith("Chaos") or change.kind == "Schedule"


#: pod-spec fields that decide how a pod resolves and reaches other services
OUTGOING_FIELDS = ("dnsPolicy", "dnsConfig", "hostAliases")


#: the pod label that enrols it in (or takes it out of) Istio's ambient mesh: whether its calls
#: leave through the mesh's mTLS tunnel
MESH_LABEL = "istio.io/dataplane-mode"


def _outgoing(path: str) -> bool:
    if path.startswith("spec.template.metadata.labels.") and path.endswith(MESH_LABEL):
        return True
    return any(path.endswith(f"spec.{f}") or f".spec.{f}." in path for f in OUTGOING_FIELDS)


def _changes_outgoing_calls(change: Change) -> bool:
    return change.kind in ("Deployment", "StatefulSet", "DaemonSet") and any(
        _outgoing(p) for p in change.paths
    )


def _callers_of_suspects(evidence: Evidence) -> set[str]:
    """The services right before a failing path's suspect: the callers whose calls fail."""
    out = set()
    for path in evidence.paths:
        services = list(path.services)
        if path.suspect in services and services.index(path.suspect) > 0:
            out.add(services[services.index(path.suspect) - 1])
    return out


def _selected(change: Change) -> str:
    selector = change.spec.get("selector") or {}
    return ", ".join(f"{k}={v}" for k, v in sorted(selector.items())) or "nothing"


def _selects_elsewhere(change: Change) -> bool:
    selector = change.spec.get("selector") or {}
    names = {str(v) for k, v in selector.items() if k.endswith(("name", "app"))}
    return bool(names) and change.name not in names


def _with_states(
    candidates: list[Candidate], evidence: Evidence, signals: dict[str, dict[str, str]]
) -> list[Candidate]:
    """The failing states added: to the change of the same object when there is one (an edit
    and the state it left are one finding), else as candidates of their own, scored by how
    much the state alone says and by the signals blaming the application it hits."""
    by_entity = {c.change.entity: i for i, c in enumerate(candidates)}
    out = list(candidates)
    ongoing = background(evidence, signals)
    for state in evidence.states:
        if (state.namespace, state.app) in ongoing:
            # another team's workload failing since before this incident, which nothing of the
            # incident reaches: listed, but it did not start this incident (``background``)
            if state.entity not in by_entity:
                change = Change(
                    namespace=state.namespace, kind=state.kind, name=state.name,
                    time=state.time or evidence.onset or NO_TIME, change="observed",
                    paths=(state.what,), spec={},
                )  # fmt: skip
                why = f"{state.what}; failing since before this incident's first alert"
                by_entity[state.entity] = len(out)
                out.append(Candidate(change, frozenset({state.app}), 0.0, (why,)))
            continue
        blamed = signals.get(state.app)
        reached = signals.get(state.reaches) if state.reaches else None
        if reached and (not blamed or blame_weight(reached) > blame_weight(blamed)):
            blamed = reached  # the callee it cannot reach is what the traces see failing
        followed = None
        if state.needs_blame and not blamed:
            followed = _reached_failing(state, evidence, signals)
            if followed is None:
                continue
        weight = state.strength + (blame_weight(blamed) if blamed else 0.0)
        reason = state.what + (f"; {'; '.join(blamed.values())}" if blamed else "")
        if followed is not None:
            # no trace path or event blames the callee, but the calls to it began to fail just
            # after the workload took the address: as telling as a change followed by symptoms
            weight += WEIGHT_SYMPTOMS
            reason += (
                f"; symptoms began after it: {followed.app} {followed.what} from "
                f"{followed.start:%H:%M:%S}"
            )
        at = by_entity.get(state.entity)
        cause = _timed_cause(out, state)
        configured = False
        taken = _capacity_taken(out, state, evidence) if state.unplaced else None
        if taken is None and state.unplaced:
            taken = _unbound_claim(out, state, evidence)
        if taken is None and state.kind == "Node":
            # the evicted pods would have been replaced but for what now refuses them
            taken = _admission_refused(out, state, evidence)
        if taken is not None:
            # the node it ran on was cordoned or tainted after the workload's own edit, or the
            # claim it mounts gets no volume: the scheduler's refusal is that object's doing,
            # whatever the workload's edit was
            cause, at, configured = taken, None, True
        elif cause is None:
            cause = _configured_cause(out, state)
            # the configuration changed under the workload (after its own edit, if any): the
            # state it left is the configuration's, counted for it as it would have counted for
            # the workload (an account that lost its pull secret leaves ImagePullBackOff)
            configured = cause is not None
            if configured:
                at = None
        if at is None and cause is not None:
            # a change just before the incident that acts on the application is what put it in
            # this state (the StressChaos behind the CrashLoopBackOff): the state backs it up
            c = out[cause]
            # taken from the workload's own earlier edit, the state counts for the configuration
            extra = state.strength if configured else 0.0
            out[cause] = replace(
                c, score=c.score + extra, reasons=(*c.reasons, f"which left: {state.what}")
            )
            continue
        if at is not None:
            c = out[at]
            # its blame is in the change's score (when it is the application's own)
            already = state.app in c.apps and blamed and blamed is signals.get(state.app)
            extra = state.strength if already else weight
            out[at] = replace(
                c, apps=c.apps | {state.app}, score=c.score + extra, reasons=(*c.reasons, reason)
            )
            continue
        change = Change(
            namespace=state.namespace, kind=state.kind, name=state.name,
            time=state.time or evidence.onset or NO_TIME, change="observed",
            paths=(state.what,), spec={},
        )  # fmt: skip
        reasons = [reason]
        if state.healthy_until and state.time is not None:
            # gone after it was last seen: like a change at that moment, it is backed by the
            # incident's symptoms that began after it on the application it hits
            followed = onset.followed_by(change, frozenset({state.app}), evidence, signals)
            if followed is not None:
                weight += WEIGHT_SYMPTOMS
                reasons.append(
                    f"symptoms began after it: {followed.app} {followed.what} from "
                    f"{followed.start:%H:%M:%S}"
                )
        by_entity[state.entity] = len(out)
        out.append(Candidate(change, frozenset({state.app}), weight, tuple(reasons)))
    return out


def _with_memory_hogs(candidates: list[Candidate], evidence: Evidence) -> list[Candidate]:
    """A node short of memory is the doing of the workload on it whose memory limit a change
    lifted before (``memory_hogs``): that change takes the node's case (its score and reasons)
    on top of its own, so it ranks above the node it filled."""
    nodes: dict[str, Candidate] = {}
    for c in candidates:
        name = c.change.name
        if c.change.kind != "Node" or not short_of_memory(name, evidence):
            continue
        if name not in nodes or c.score > nodes[name].score:
            nodes[name] = c
    out = list(candidates)
    for name, node in sorted(nodes.items()):
        on_node = apps_on(name, evidence)
        for i, c in enumerate(out):
            if (
                lifts_memory_limit(c.change)
                and app_of(c.change.kind, c.change.name) in on_node
                and (c.change.since or c.change.time) <= node.change.time
            ):
                out[i] = replace(
                    c,
                    apps=c.apps | node.apps,
                    score=c.score + node.score,
                    reasons=(
                        *c.reasons,
                        f"lifted the memory limit of its pods on node {name}, which then ran "
                        f"short of memory: {'; '.join(node.reasons)}",
                    ),
                )
    return out


def _with_restarts(candidates: list[Candidate], evidence: Evidence) -> list[Candidate]:
    """A restart changes nothing its new pods read: when they fail on their configuration
    (``CreateContainerConfigError``), the ConfigMap or Secret they read that changed before the
    restart is the cause, and the restart only made the pods take it up. That edit takes the
    restart's case (its timing, its symptoms, the state) on top of its own; the restart keeps
    none of it."""
    broken = failing_on_configuration(evidence)
    other = failing_otherwise(evidence)
    out = list(candidates)
    for i, restart in enumerate(candidates):
        app = app_of(restart.change.kind, restart.change.name)
        key = (restart.change.namespace, app)
        # pods failing on what they read, or not failing at all (they only act on a changed
        # setting): the restart took the edit up; pods failing otherwise keep the restart's case
        if not restart_only(restart.change) or (key not in broken and key in other):
            continue
        edits = [
            j
            for j, c in enumerate(out)
            if c.change.kind in CONFIGURATION
            and c.change.change == "modified"
            and c.change.namespace == restart.change.namespace
            and app in c.apps
            and c.change.time <= restart.change.time
        ]
        if not edits:
            continue
        j = max(edits, key=lambda k: (out[k].change.time, out[k].score))
        edit = out[j]
        out[j] = replace(
            edit,
            score=edit.score + restart.score,
            timed=edit.timed or restart.timed,
            reasons=(
                *edit.reasons,
                f"taken up by the restart of {restart.change.kind}/{restart.change.name} at "
                f"{restart.change.time:%H:%M:%S}: " + "; ".join(restart.reasons),
            ),
        )
        out[i] = replace(
            restart,
            score=0.0,
            timed=False,
            reasons=(
                f"only restarted its pods ({RESTART_FIELD}), which took up the change of "
                f"{edit.change.kind}/{edit.change.name} at {edit.change.time:%H:%M:%S}",
            ),
        )
    return out


def _with_admission(candidates: list[Candidate], evidence: Evidence) -> list[Candidate]:
    """What a namespace admits decides only for the pods it creates next (``admission``): when
    a node drained, a rollout or a restart after an edit of a ResourceQuota, a LimitRange or the
    Namespace made the namespace create pods that the edit then refused or limited, the edit
    takes the strongest such trigger's case (its timing, its symptoms, its state) on top of its
    own. The trigger keeps none when every application it acts on is the edit's victim: the
    pods would have been replaced but for the edit."""
    out = list(candidates)
    for i, edit in enumerate(candidates):
        hit = victims(edit.change, evidence)
        if not hit:
            continue
        triggers = [
            j
            for j, t in enumerate(out)
            if j != i
            and t.score > 0
            and _recreates_pods(t.change, edit.change)
            and t.change.time >= edit.change.time
            and t.apps & hit
        ]
        j = _strongest(out, triggers)
        if j is None:
            continue
        trigger = out[j]
        out[i] = replace(
            out[i],
            apps=out[i].apps | (trigger.apps & hit),
            score=out[i].score + trigger.score,
            timed=out[i].timed or trigger.timed,
            reasons=(
                *out[i].reasons,
                f"refused or limited the pods of {', '.join(sorted(trigger.apps & hit))} "
                f"that {trigger.change.kind}/{trigger.change.name} made its namespace create "
                f"at {trigger.change.time:%H:%M:%S}: " + "; ".join(trigger.reasons),
            ),
        )
        if trigger.apps <= hit:
            out[j] = replace(
                trigger,
                score=0.0,
                timed=False,
                reasons=(
                    f"only made {', '.join(sorted(trigger.apps))} create pods, which "
                    f"{edit.change.kind}/{edit.change.name} (changed at "
                    f"{edit.change.time:%H:%M:%S}) refused or limited",
                ),
            )
    return out


def _recreates_pods(change: Change, edit: Change) -> bool:
    """A change that makes a namespace create pods without deciding how they are admitted: a
    node drained or cordoned (its pods are evicted and replaced elsewhere), or a routine
    rollout, restart or scale of a workload of the edit's namespace."""
    if change.kind == "Node":
        return True
    return (
        change.kind in WORKLOADS
        and change.change == "modified"
        and change.namespace == (edit.name if edit.kind == "Namespace" else edit.namespace)
        and (restart_only(change) or _replicas_only(change) or not _unusual(change))
    )


def _strongest(candidates: list[Candidate], indexes: list[int]) -> int | None:
    """The index of the highest-scoring of ``indexes`` into ``candidates`` (the first of equals),
    None when there is none."""
    return max(indexes, key=lambda i: candidates[i].score) if indexes else None


def _capacity_taken(
    candidates: list[Candidate], state: FailingState, evidence: Evidence
) -> int | None:
    """For pods the scheduler cannot place: the strongest Node change that took capacity away
    (``cordons``) from under a pod of the same application, or workload change that preempted
    it (``preemption``), made after every change of the application's own workload (which ran
    placed until the node changed or the preemptor came)."""
    own = [
        c.change.since or c.change.time
        for c in candidates
        if c.change.kind in WORKLOADS
        and c.change.namespace == state.namespace
        and app_of(c.change.kind, c.change.name) == state.app
    ]
    takers = [
        i
        for i, c in enumerate(candidates)
        if (
            (removes_capacity(c.change) and state.app in displaced(c.change, evidence))
            or _preempts(c.change, state, evidence)
        )
        and all(t < c.change.time for t in own)
    ]
    return _strongest(candidates, takers)


def _preempts(change: Change, state: FailingState, evidence: Evidence) -> bool:
    """A workload whose pods' priority was raised, a prioritized workload scaled up, or a new
    one whose arrival the scheduler's ``Preempted`` events tie to the application's pods (in
    any namespace: priority is cluster-wide), whose pods then put the application's pods out:
    the victims' pending replacements are its doing, as a cordon's are the Node's
    (``preemption.displaced``)."""
    return state.app in preemption.displaced(change, evidence)


def _unbound_claim(
    candidates: list[Candidate], state: FailingState, evidence: Evidence
) -> int | None:
    """For pods the scheduler cannot place: the changed PersistentVolumeClaim they mount that
    cannot get a volume itself (its own failing state, as a used object: ``USED_OBJECTS`` of
    ``event_failures``). A pod waits for its claim's volume before any node fits it, so the
    claim explains the wait, even when the workload was edited to mount it just before (the
    edit ran fine with any claim that binds)."""
    failing = {s.entity for s in evidence.states if s.kind in USED_OBJECTS}
    claims = [
        i
        for i, c in enumerate(candidates)
        if c.change.kind in USED_OBJECTS
        and c.change.entity in failing
        and state.app in c.apps
        and c.change.change != "deleted"
    ]
    return _strongest(candidates, claims)


def _reached_failing(
    state: FailingState, evidence: Evidence, signals: dict[str, dict[str, str]]
) -> Symptom | None:
    """For a state keeping its workload from reaching another application (a wrong address),
    dated by the workload's change: the symptom on that application that began just after it."""
    if not state.reaches or state.time is None:
        return None
    at = Change(namespace=state.namespace, kind=state.kind, name=state.name, time=state.time,
                change="observed", paths=(), spec={})  # fmt: skip
    return onset.followed_by(at, frozenset({state.reaches}), evidence, signals)


def _or_later(symptom: Symptom) -> str:
    if symptom.latest_start == symptom.start:
        return ""
    return f" (or as late as {symptom.latest_start:%H:%M:%S}: its lines are sparse)"


def _admission_refused(
    candidates: list[Candidate], state: FailingState, evidence: Evidence
) -> int | None:
    """For an application whose pods a node evicted: the strongest edit, made before, of what
    admits pods into its namespace (the Namespace's labels, a ResourceQuota, a LimitRange)
    when its ReplicaSet's new pods are refused (``FailedCreate``). An eviction is routine, the
    controller replaces the pod; it is the admission edit, however long before, that leaves the
    application without one (the eviction only made it create a pod)."""
    causes = [
        i
        for i, c in enumerate(candidates)
        if c.change.kind in ADMISSION
        and c.change.change == "modified"
        and state.app in c.apps
        and state.app in victims(c.change, evidence)
        and (state.time is None or (c.change.since or c.change.time) <= state.time)
    ]
    return _strongest(candidates, causes)


def _timed_cause(candidates: list[Candidate], state: FailingState) -> int | None:
    """The strongest timed change of another object acting on the state's application, if any
    (for pods the scheduler cannot place, none of what they read at run time)."""
    app, entity = state.app, state.entity
    unfit = RUNTIME_CONFIGURATION if state.unplaced else frozenset()
    # a fault-injection experiment acting on the application is a cause whenever it runs (a
    # Schedule created before the export began repeats its experiment every period)
    causes = [
        i
        for i, c in enumerate(candidates)
        if (c.timed or _chaos(c.change))
        and app in c.apps
        and c.change.entity != entity
        and c.change.change not in ("observed", "deleted")
        and c.change.kind not in unfit
    ]
    return _strongest(candidates, causes)


#: configuration a workload's pods take from outside its spec: what they read at run time (an
#: edit changes what the unchanged pods do), the account they run as (its pull secrets: an edit
#: changes whether its next pods can pull their images) and the defaults they get when admitted
#: (a LimitRange's: an edit changes what its next pods get)
CONFIGURATION = frozenset({"ConfigMap", "Secret", "ServiceAccount", "LimitRange"})
#: the configuration that sets what the scheduler must find room for (default requests)
PLACING_CONFIGURATION = frozenset({"LimitRange"})
#: what pods read once running, which decides nothing about where they fit
RUNTIME_CONFIGURATION = CONFIGURATION - PLACING_CONFIGURATION


def _configured_cause(candidates: list[Candidate], state: FailingState) -> int | None:
    """An edit (or deletion) of configuration the application reads, made before the failing
    state was seen, when the application's own workload did not change after it just before
    the incident: the pods did what the new configuration told them (a flag that leaks memory
    leaves the pods OOMKilled; a renamed key crashes the pod that starts next), however long the
    state took to show. A workload edit that came earlier and was not followed by the incident
    ran fine until the configuration changed under it. None when the workload's own edit is as
    likely (it came with or after the configuration's, or just before the incident)."""
    if state.kind not in WORKLOADS:
        return None
    own = [
        c
        for c in candidates
        if c.change.kind in WORKLOADS and app_of(c.change.kind, c.change.name) == state.app
        and c.change.change == "modified"
    ]  # fmt: skip
    if any(c.timed for c in own):
        return None
    # what a pod reads at run time does not decide where it can be placed: only defaults it
    # gets when admitted (a LimitRange's requests) can leave it unschedulable
    kinds = PLACING_CONFIGURATION if state.unplaced else CONFIGURATION
    causes = [
        i
        for i, c in enumerate(candidates)
        if c.change.kind in kinds
        and c.change.change in ("modified", "deleted")
        and state.app in c.apps
        and (state.time is None or c.change.time <= state.time)
        and all(o.change.time < (c.change.since or c.change.time) for o in own)
    ]
    return _strongest(candidates, causes)


#: labels and annotations of the object itself: bookkeeping (an owner, a cost centre) that
#: changes nothing it does; a Node's and a Namespace's labels are selected on, a Pod's too
METADATA = ("metadata.labels", "metadata.annotations")
SELECTED_ON = frozenset({"Node", "Namespace", "Pod"})


def _bookkeeping(change: Change) -> bool:
    """An edit of the object's own labels or annotations only."""
    return (
        change.change == "modified"
        and change.kind not in SELECTED_ON
        and bool(change.paths)
        and all(p.startswith(METADATA) for p in change.paths)
    )


def _unusual(change: Change) -> bool:
    if _bookkeeping(change):
        return False
    if change.kind in RARELY_CHANGED or _chaos(change):
        return True
    if change.change != "modified":
        return change.change in ("created", "deleted") and change.kind not in (
            "Job", "Pod", "ReplicaSet"
        )  # fmt: skip
    # a rollout changes the image (and the pod template's annotations); anything else is not one
    return any(not p.endswith(".image") and "annotations" not in p for p in change.paths)


__all__ = ["Candidate", "HOUSEKEEPING_ALERTS", "blame", "blamed_apps", "rank", "touched_apps"]
