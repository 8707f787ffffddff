"""A fourth, stdlib-only writer of incident snapshots, for four kinds of evidence only: a flagd
flag flipped with no pod change, a plain Chaos Mesh StressChaos, a PodChaos ``pod-failure`` and a
Service ``targetPort`` changed while its pods stay Ready. It shares no code with
``sre/generator`` nor with ``tests/sre/shapes``, ``shapes2`` or ``shapes3``.

The shop is an OpenTelemetry demo as its Helm chart installs it (namespace ``otel-demo``,
Deployments and Services named ``cart``, ``product-catalog``, ..., pods labelled
``opentelemetry.io/name`` and ``app.kubernetes.io/name``; flagd reading its flags from a
ConfigMap). Each incident is a timeline: a world of objects, changes at given times (the fault
and decoys), and what the fault does to the requests, logs and metrics. How the objects reach
the snapshot is the incident's ``export``:

- ``periodic``: the v0.2 TSV, every object every four minutes (a pull exporter);
- ``two``: the v0.2 TSV with two observations only, at the start and at the end;
- ``watch``: JSON lines of watch events (``ADDED`` / ``MODIFIED``), one per write, no wrapper
  time (the object's ``managedFields`` date it);
- ``list``: JSON lines, one ``kubectl get -o json`` ``List`` per observation (every four
  minutes), ``managedFields`` stripped and an observation time in each List's wrapper;
- ``yaml``: ``kubectl get -o yaml --show-managed-fields`` dumps, one ``List`` document per
  observation, no observation time (the ``managedFields`` date the objects).

Normal life is not the cause: ``ad`` fails one request in twenty-five all along, an alert on
``kafka`` fires all along, and other services roll out or scale inside the window."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

NS = "otel-demo"
BEGIN = datetime(2026, 10, 3, 8, 0, tzinfo=UTC)
FAULT_AT = BEGIN + timedelta(minutes=19, seconds=40)
FINISH = BEGIN + timedelta(minutes=36)
INSTALLED = BEGIN - timedelta(days=3, hours=5)

#: caller -> callees, as the demo's requests flow
GRAPH: dict[str, list[str]] = {
    "frontend-proxy": ["frontend", "image-provider"],
    "frontend": ["product-catalog", "cart", "recommendation", "ad", "checkout", "currency"],
    "checkout": ["cart", "payment", "shipping", "email", "currency", "kafka"],
    "cart": ["valkey-cart"],
    "recommendation": ["product-catalog"],
    "shipping": ["quote"],
}
APPS = ("frontend-proxy", "frontend", "product-catalog", "cart", "recommendation", "ad",
        "checkout", "currency", "payment", "shipping", "email", "quote", "image-provider",
        "valkey-cart", "kafka", "accounting", "fraud-detection", "flagd", "load-generator")  # fmt: skip
#: not traced (datastores, flagd, the load generator)
SILENT = {"valkey-cart", "kafka", "flagd", "load-generator"}
PORT = {"valkey-cart": 6379, "kafka": 9092, "flagd": 8013, "frontend-proxy": 8080,
        "image-provider": 8081, "frontend": 8080}  # fmt: skip


def port_of(app: str) -> int:
    return PORT.get(app, 8080)


def stamp(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def tsv_time(t: datetime) -> str:
    return t.strftime("%Y-%m-%d %H:%M:%S.%f")


def suffix(seed: str, n: int) -> str:
    rnd = random.Random(seed)
    return "".join(rnd.choice("bcdfghjkmnpqrstvwxz256789") for _ in range(n))


def pod_of(app: str, generation: int = 1) -> str:
    return f"{app}-{suffix(app + str(generation), 10)}-{suffix(app + 'p' + str(generation), 5)}"


# --- the world -------------------------------------------------------------------------------


@dataclass
class Item:
    """An object and the writes made to it (manager, time)."""

    doc: dict[str, Any]
    born: datetime = INSTALLED
    writes: list[tuple[str, datetime]] = field(default_factory=list)
    #: exported in a List of its own kind (``kubectl get stresschaos -o json``) by ``list``
    listed: bool = False

    def touch(self, who: str, when: datetime) -> None:
        self.writes.append((who, when))

    def out(self, managed: bool) -> dict[str, Any]:
        doc = copy.deepcopy(self.doc)
        md = doc["metadata"]
        md["creationTimestamp"] = stamp(self.born)
        md["uid"] = suffix(f"{md.get('namespace')}{doc['kind']}{md['name']}", 8) + "-0a1b-4c2d-8e3f"
        md["resourceVersion"] = str(7100 + 37 * len(self.writes))
        md["generation"] = 1 + len(self.writes)
        if managed:
            md["managedFields"] = [
                {"manager": "helm", "operation": "Update", "time": stamp(self.born),
                 "apiVersion": doc.get("apiVersion", "v1"), "fieldsType": "FieldsV1"}
            ] + [{"manager": who, "operation": "Update", "time": stamp(at),
                  "apiVersion": doc.get("apiVersion", "v1"), "fieldsType": "FieldsV1"}
                 for who, at in self.writes]  # fmt: skip
        return doc


World = dict[tuple[str, str, str], Item]


def app_labels(app: str) -> dict[str, str]:
    return {"opentelemetry.io/name": app, "app.kubernetes.io/name": app,
            "app.kubernetes.io/instance": "opentelemetry-demo",
            "app.kubernetes.io/part-of": "opentelemetry-demo"}  # fmt: skip


def pod_doc(app: str, generation: int, template: dict[str, Any], rs: str) -> dict[str, Any]:
    spec = copy.deepcopy(template["spec"])
    spec["nodeName"] = "worker-2" if len(app) % 2 else "worker-1"
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": pod_of(app, generation), "namespace": NS,
                         "labels": dict(template["metadata"]["labels"]),
                         "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet",
                                              "name": rs, "controller": True}]},
            "spec": spec,
            "status": {"phase": "Running", "podIP": f"10.42.0.{len(app) * 7 % 250}",
                       "conditions": [{"type": "Ready", "status": "True"},
                                      {"type": "ContainersReady", "status": "True"}],
                       "containerStatuses": [{"name": app, "ready": True, "restartCount": 0,
                                              "image": spec["containers"][0]["image"],
                                              "state": {"running": {
                                                  "startedAt": stamp(INSTALLED)}}}]}}  # fmt: skip


def flagd_document(flip: dict[str, tuple[str, str]], layout: str) -> str:
    """The demo's flag file. ``flip``: flag -> (field, value) set on it (``defaultVariant`` or
    ``state``). ``layout``: ``schema`` ($schema, 2-space JSON), ``bare`` (no $schema, compact),
    ``evaluators`` ($evaluators and targeting beside the flags)."""

    def boolean(desc: str) -> dict[str, Any]:
        return {"description": desc, "state": "ENABLED", "variants": {"on": True, "off": False},
                "defaultVariant": "off"}  # fmt: skip

    flags: dict[str, Any] = {
        "productCatalogFailure": boolean("Fail product catalog service on a specific product"),
        "recommendationCacheFailure": boolean("Fail recommendation service cache"),
        "adManualGc": boolean("Triggers full manual garbage collections in the ad service"),
        "adHighCpu": boolean("Triggers high cpu load in the ad service"),
        "adFailure": boolean("Fail ad service"),
        "kafkaQueueProblems": {"description": "Overloads Kafka queue while simultaneously "
                               "introducing a consumer side delay leading to a lag spike",
                               "state": "ENABLED", "variants": {"on": 100, "off": 0},
                               "defaultVariant": "off"},
        "cartFailure": boolean("Fail cart service"),
        "paymentFailure": {"description": "Fail payment service charge requests n%",
                           "state": "ENABLED",
                           "variants": {"100%": 1, "90%": 0.95, "75%": 0.75, "50%": 0.5,
                                        "25%": 0.25, "10%": 0.1, "off": 0},
                           "defaultVariant": "off"},
        "paymentUnreachable": boolean("Payment service is unavailable"),
        "loadGeneratorFloodHomepage": {"description": "Flood the frontend with a large amount "
                                       "of requests.", "state": "ENABLED",
                                       "variants": {"on": 100, "off": 0},
                                       "defaultVariant": "off"},
        "imageSlowLoad": {"description": "slow loading images in the frontend",
                          "state": "ENABLED",
                          "variants": {"10sec": 10000, "5sec": 5000, "off": 0},
                          "defaultVariant": "off"},
        "emailMemoryLeak": {"description": "Memory leak in the email service.",
                            "state": "ENABLED",
                            "variants": {"off": 0, "1x": 1, "10x": 10, "100x": 100},
                            "defaultVariant": "off"},
    }  # fmt: skip
    if layout == "disabled":  # every fault flag shipped switched on but DISABLED
        for spec in flags.values():
            spec["state"] = "DISABLED"
            spec["defaultVariant"] = next(k for k in spec["variants"] if k != "off")
    for name, (key, value) in flip.items():
        flags[name][key] = value
    if layout == "bare":
        return json.dumps({"flags": flags}, separators=(",", ":"))
    doc: dict[str, Any] = {"$schema": "https://flagd.dev/schema/v0/flags.json", "flags": flags}
    if layout == "evaluators":
        doc["$evaluators"] = {"isSynthetic": {"in": ["synthetic", {"var": "session"}]}}
        flags["productCatalogFailure"]["targeting"] = {
            "if": [{"$ref": "isSynthetic"}, "off", None]}  # fmt: skip
    return json.dumps(doc, indent=2)


@dataclass(frozen=True)
class Install:
    """How the demo was installed: the flag ConfigMap's name and key, and its flag file."""

    configmap: str = "flagd-config"
    key: str = "demo.flagd.json"
    layout: str = "schema"
    #: containers declare their ``containerPort`` (many charts leave it out)
    ports: bool = True


def build(install: Install) -> World:
    world: World = {}
    for app in APPS:
        container: dict[str, Any] = {
            "name": app, "image": f"ghcr.io/open-telemetry/demo:2.0.2-{app}",
            "imagePullPolicy": "IfNotPresent",
            "ports": [{"containerPort": port_of(app), "name": "service", "protocol": "TCP"}],
            "env": [{"name": "OTEL_SERVICE_NAME", "value": app},
                    {"name": "FLAGD_HOST", "value": "flagd"},
                    {"name": "FLAGD_PORT", "value": "8013"}],
            "resources": {"limits": {"memory": "300Mi"}}}  # fmt: skip
        if not install.ports:
            del container["ports"]
        template = {"metadata": {"labels": app_labels(app)}, "spec": {"containers": [container]}}
        if app == "flagd":
            template["spec"]["volumes"] = [{"name": "config-ro",
                                            "configMap": {"name": install.configmap}}]  # fmt: skip
            container["volumeMounts"] = [{"name": "config-ro", "mountPath": "/etc/flagd"}]
            container["command"] = ["/flagd-build", "start", "--uri",
                                    f"file:./etc/flagd/{install.key}"]  # fmt: skip
        rs = f"{app}-{suffix(app + '1', 10)}"
        world[NS, "Deployment", app] = Item({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": app, "namespace": NS, "labels": app_labels(app),
                         "annotations": {"deployment.kubernetes.io/revision": "1",
                                         "meta.helm.sh/release-name": "opentelemetry-demo"}},
            "spec": {"replicas": 1, "revisionHistoryLimit": 10,
                     "selector": {"matchLabels": {"opentelemetry.io/name": app}},
                     "template": template},
            "status": {"replicas": 1, "readyReplicas": 1, "availableReplicas": 1,
                       "updatedReplicas": 1, "observedGeneration": 1}})  # fmt: skip
        world[NS, "ReplicaSet", rs] = Item({
            "apiVersion": "apps/v1", "kind": "ReplicaSet",
            "metadata": {"name": rs, "namespace": NS, "labels": app_labels(app),
                         "annotations": {"deployment.kubernetes.io/revision": "1"},
                         "ownerReferences": [{"apiVersion": "apps/v1", "kind": "Deployment",
                                              "name": app, "controller": True}]},
            "spec": {"replicas": 1, "template": copy.deepcopy(template)},
            "status": {"replicas": 1, "readyReplicas": 1}})  # fmt: skip
        world[NS, "Pod", pod_of(app)] = Item(pod_doc(app, 1, template, rs))
        if app != "load-generator":
            world[NS, "Service", app] = Item({
                "apiVersion": "v1", "kind": "Service",
                "metadata": {"name": app, "namespace": NS, "labels": app_labels(app)},
                "spec": {"type": "ClusterIP", "clusterIP": f"10.96.{len(app)}.{ord(app[0])}",
                         "selector": {"opentelemetry.io/name": app},
                         "ports": [{"name": "tcp-service", "port": port_of(app),
                                    "protocol": "TCP", "targetPort": port_of(app)}]}})  # fmt: skip
            world[NS, "Endpoints", app] = Item({
                "apiVersion": "v1", "kind": "Endpoints",
                "metadata": {"name": app, "namespace": NS, "labels": app_labels(app)},
                "subsets": [{"addresses": [{"ip": f"10.42.0.{len(app) * 7 % 250}",
                                            "targetRef": {"kind": "Pod", "name": pod_of(app),
                                                          "namespace": NS}}],
                             "ports": [{"name": "tcp-service", "port": port_of(app),
                                        "protocol": "TCP"}]}]})  # fmt: skip
    world[NS, "ConfigMap", install.configmap] = Item({
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": install.configmap, "namespace": NS, "labels": app_labels("flagd"),
                     "annotations": {"meta.helm.sh/release-name": "opentelemetry-demo"}},
        "data": {install.key: flagd_document({}, install.layout)}})  # fmt: skip
    world[NS, "ConfigMap", "grafana-dashboards"] = Item({
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "grafana-dashboards", "namespace": NS},
        "data": {"demo.json": json.dumps({"title": "Demo", "panels": [{"id": 1}]})}})  # fmt: skip
    return world


# --- changes (fault and decoys) ----------------------------------------------------------------

#: one change: applied to the world when the observation is at or after its time
Change = tuple[datetime, Callable[[World, datetime], None]]


def roll(app: str, tag: str, who: str = "argocd-application-controller") -> Callable[[World, datetime], None]:  # fmt: skip
    """A new image for ``app``: the Deployment written, a new ReplicaSet and pod, the old pod gone."""

    def apply(world: World, when: datetime) -> None:
        dep = world[NS, "Deployment", app]
        c = dep.doc["spec"]["template"]["spec"]["containers"][0]
        c["image"] = f"ghcr.io/open-telemetry/demo:{tag}-{app}"
        dep.doc["metadata"]["annotations"]["deployment.kubernetes.io/revision"] = "2"
        dep.touch(who, when)
        rs = f"{app}-{suffix(app + '2', 10)}"
        template = copy.deepcopy(dep.doc["spec"]["template"])
        world[NS, "ReplicaSet", rs] = Item({
            "apiVersion": "apps/v1", "kind": "ReplicaSet",
            "metadata": {"name": rs, "namespace": NS, "labels": app_labels(app),
                         "annotations": {"deployment.kubernetes.io/revision": "2"},
                         "ownerReferences": [{"apiVersion": "apps/v1", "kind": "Deployment",
                                              "name": app, "controller": True}]},
            "spec": {"replicas": 1, "template": template},
            "status": {"replicas": 1, "readyReplicas": 1}}, when + timedelta(seconds=1))  # fmt: skip
        old = f"{app}-{suffix(app + '1', 10)}"
        world[NS, "ReplicaSet", old].doc["spec"]["replicas"] = 0
        world[NS, "ReplicaSet", old].doc["status"] = {"replicas": 0}
        world[NS, "ReplicaSet", old].touch("kube-controller-manager", when + timedelta(seconds=30))
        del world[NS, "Pod", pod_of(app)]
        world[NS, "Pod", pod_of(app, 2)] = Item(pod_doc(app, 2, template, rs),
                                                when + timedelta(seconds=2))  # fmt: skip

    return apply


def scale(app: str, replicas: int) -> Callable[[World, datetime], None]:
    def apply(world: World, when: datetime) -> None:
        dep = world[NS, "Deployment", app]
        dep.doc["spec"]["replicas"] = replicas
        dep.doc["status"].update(replicas=replicas, readyReplicas=replicas)
        dep.touch("kubectl-scale", when)

    return apply


def flip(install: Install, **flags: tuple[str, str]) -> Callable[[World, datetime], None]:
    def apply(world: World, when: datetime) -> None:
        cm = world[NS, "ConfigMap", install.configmap]
        cm.doc["data"][install.key] = flagd_document(dict(flags), install.layout)
        cm.touch("kubectl-edit", when)

    return apply


def chaos(kind: str, name: str, spec: dict[str, Any], namespace: str = "chaos-mesh",
          listed: bool = False) -> Callable[[World, datetime], None]:  # fmt: skip
    """A Chaos Mesh experiment created at the change's time (``listed``: the ``list`` export
    writes it in a ``List`` of its own, as ``kubectl get stresschaos -o json`` does)."""

    def apply(world: World, when: datetime) -> None:
        doc = {"apiVersion": "chaos-mesh.org/v1alpha1", "kind": kind,
               "metadata": {"name": name, "namespace": namespace,
                            "finalizers": ["chaos-mesh/records"]},
               "spec": spec,
               "status": {"conditions": [{"type": "AllInjected", "status": "True"},
                                         {"type": "Selected", "status": "True"}],
                          "experiment": {"desiredPhase": "Run"}}}  # fmt: skip
        world[namespace, kind, name] = Item(doc, when, listed=listed)

    return apply


def pause_pods(app: str, ready: bool) -> Callable[[World, datetime], None]:
    """What pod-failure does to a pod: its container's image becomes the pause image; the kubelet
    restarts it; the pod is not Ready (``ready``: still Ready, only its calls fail)."""

    def apply(world: World, when: datetime) -> None:
        pod = world[NS, "Pod", pod_of(app)]
        pod.doc["spec"]["containers"][0]["image"] = "gcr.io/google-containers/pause:latest"
        st = pod.doc["status"]["containerStatuses"][0]
        st["image"] = "gcr.io/google-containers/pause:latest"
        st["restartCount"] = 1
        st["lastState"] = {"terminated": {"exitCode": 137, "reason": "Error",
                                          "finishedAt": stamp(when + timedelta(seconds=3))}}  # fmt: skip
        st["state"] = {"running": {"startedAt": stamp(when + timedelta(seconds=5))}}
        if not ready:
            st["ready"] = False
            pod.doc["status"]["conditions"] = [{"type": "Ready", "status": "False",
                                                "reason": "ContainersNotReady"},
                                               {"type": "ContainersReady", "status": "False"}]  # fmt: skip
        pod.touch("kubelet", when + timedelta(seconds=5))

    return apply


def retarget(app: str, port: int | str, who: str = "kubectl-patch") -> Callable[[World, datetime], None]:  # fmt: skip
    """The Service of ``app`` now sends to ``port`` (nothing listens there); its Endpoints
    follow with the new port, the pod stays Ready."""

    def apply(world: World, when: datetime) -> None:
        svc = world[NS, "Service", app]
        svc.doc["spec"]["ports"][0]["targetPort"] = port
        svc.touch(who, when)
        ep = world[NS, "Endpoints", app]
        if isinstance(port, int):
            ep.doc["subsets"][0]["ports"][0]["port"] = port
        else:
            ep.doc["subsets"] = []  # a port name nobody declares: no endpoint port
        ep.touch("endpoint-controller", when + timedelta(seconds=1))

    return apply


# --- the incident ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Effect:
    """What the fault does to the calls, logs and metrics from the fault on."""

    #: server spans of these apps fail (share of requests, message)
    fail: dict[str, tuple[float, str]] = field(default_factory=dict)
    #: server spans of these apps take this much longer (ms)
    slower: dict[str, float] = field(default_factory=dict)
    #: calls to these apps never reach them (the caller's client span fails with this message)
    refused: dict[str, str] = field(default_factory=dict)
    #: apps logging ERROR lines (message)
    log: dict[str, str] = field(default_factory=dict)
    #: apps whose CPU use climbs (metrics)
    cpu: tuple[str, ...] = ()
    #: apps whose memory climbs (metrics)
    memory: tuple[str, ...] = ()


@dataclass(frozen=True)
class Incident:
    name: str
    #: the root cause as ITBench's ground truths name it: namespace/Kind/name
    root_cause: str
    fault: Change
    effect: Effect
    decoys: tuple[Change, ...] = ()
    install: Install = Install()
    export: str = "periodic"  # periodic | two | watch | list | yaml
    #: symptoms begin this long after the fault's change (flagd re-reads its file)
    lag: timedelta = timedelta(seconds=15)
    alert_on: str = "frontend"
    #: alerts as Alertmanager's API v2 list instead of Prometheus' /api/v1/alerts
    alertmanager: bool = False
    #: Warning events the fault leaves: (kind, name, reason, message)
    warnings: tuple[tuple[str, str, str, str], ...] = ()


def world_at(incident: Incident, t: datetime) -> World:
    world = build(incident.install)
    for when, apply in sorted((*incident.decoys, incident.fault), key=lambda c: c[0]):
        if when <= t:
            apply(world, when)
    return world


def observations(incident: Incident) -> list[datetime]:
    if incident.export == "two":
        return [BEGIN + timedelta(minutes=1), FINISH - timedelta(seconds=30)]
    return [BEGIN + timedelta(minutes=1, seconds=4 * 60 * k) for k in range(9)]


def _managed(incident: Incident) -> bool:
    return incident.export != "list"


def write_objects(root: Path, incident: Incident) -> None:
    managed = _managed(incident)
    if incident.export in ("periodic", "two"):
        rows = ["Timestamp\tObservedTimestamp\tBody\tResourceAttributes\tLogAttributes"]
        for t in observations(incident):
            for item in world_at(incident, t).values():
                body = json.dumps(item.out(managed), separators=(",", ":"))
                rows.append(f"{tsv_time(t)}\t{tsv_time(t)}\t{body}\t{{}}\t{{}}")
        (root / "k8s_objects_raw.tsv").write_text("\n".join(rows) + "\n")
    elif incident.export == "watch":
        # every object once as ADDED at the start, then one MODIFIED/ADDED per write
        lines, seen = [], set()
        times = sorted({BEGIN} | {w for w, _ in (*incident.decoys, incident.fault)})
        for t in times:
            current = world_at(incident, t)
            for key, item in current.items():
                changed = key not in seen or any(at == t or (t < at <= t + timedelta(seconds=40))
                                                 for _, at in item.writes)  # fmt: skip
                if not changed and key in seen:
                    continue
                kind = "MODIFIED" if key in seen else "ADDED"
                seen.add(key)
                lines.append(json.dumps({"type": kind, "object": item.out(managed)}))
        (root / "k8s_objects_watch.jsonl").write_text("\n".join(lines) + "\n")
    elif incident.export == "yaml":
        # ``kubectl get -o yaml --show-managed-fields`` each observation, the dumps one after
        # the other: no observation time, the objects' own write times date them
        docs = []
        for t in observations(incident):
            items = [item.out(managed) for item in world_at(incident, t).values()]
            docs.append(yaml_text({"apiVersion": "v1", "kind": "List", "items": items}))
        (root / "k8s_objects_dump.yaml").write_text("---\n".join(docs))
    else:  # list
        lines = []
        for t in observations(incident):
            world = world_at(incident, t).values()
            # the chaos experiments in a List of their own (``kubectl get podchaos -o json``)
            for listed in (False, True):
                items = [item.out(managed) for item in world if item.listed == listed]
                if items:
                    doc = {"apiVersion": "v1", "kind": "List", "items": items}
                    lines.append(json.dumps({"timestamp": stamp(t), "object": doc}))
        (root / "objects.jsonl").write_text("\n".join(lines) + "\n")


def yaml_text(value: Any, indent: int = 0) -> str:
    """Block YAML as kubectl writes it (strings quoted as JSON strings, which YAML reads)."""
    pad = " " * indent
    if isinstance(value, dict):
        if not value:
            return "{}\n"
        out = []
        for key, item in value.items():
            if isinstance(item, dict | list) and item:
                out.append(f"{pad}{json.dumps(str(key))}:\n{yaml_text(item, indent + 2)}")
            else:
                out.append(f"{pad}{json.dumps(str(key))}: {yaml_text(item, 0).strip()}\n")
        return "".join(out)
    if isinstance(value, list):
        if not value:
            return "[]\n"
        out = []
        for item in value:
            body = yaml_text(item, indent + 2)
            out.append(f"{pad}- {body.lstrip()}" if isinstance(item, dict | list) and item
                       else f"{pad}- {body.strip()}\n")  # fmt: skip
        return "".join(out)
    return json.dumps(value) + "\n"


def write_events(root: Path, incident: Incident) -> None:
    def ev(n: int, kind: str, name: str, reason: str, msg: str, at: datetime, typ: str) -> str:
        body = {"apiVersion": "v1", "kind": "Event",
                "metadata": {"name": f"{name}.{0x17a3f0c2 + n:x}", "namespace": NS},
                "involvedObject": {"kind": kind, "name": name, "namespace": NS},
                "reason": reason, "message": msg, "type": typ, "count": 1,
                "firstTimestamp": stamp(at), "lastTimestamp": stamp(at),
                "source": {"component": "kubelet" if kind == "Pod" else "deployment-controller"}}  # fmt: skip
        return f"{tsv_time(at)}\t{json.dumps(body)}"

    rows = ["Timestamp\tBody",
            ev(1, "Pod", pod_of("kafka"), "Unhealthy", "Readiness probe failed: timeout",
               BEGIN - timedelta(hours=3), "Warning")]  # fmt: skip
    n = 2
    final = world_at(incident, FINISH)
    for (_ns, kind, name), item in sorted(final.items()):
        for _who, at in item.writes:
            if kind == "Deployment" and BEGIN <= at <= FINISH:
                n += 1
                rows.append(ev(n, "Deployment", name, "ScalingReplicaSet",
                               f"Scaled up replica set {name}-{suffix(name + '2', 10)} to 1", at,
                               "Normal"))  # fmt: skip
    for i, (kind, name, reason, msg) in enumerate(incident.warnings):
        at = FAULT_AT + timedelta(seconds=30 + 20 * i)
        rows.append(ev(100 + i, kind, name, reason, msg, at, "Warning"))
    rows[1:] = sorted(rows[1:])
    (root / "k8s_events_raw.tsv").write_text("\n".join(rows) + "\n")


class Spans:
    def __init__(self, incident: Incident) -> None:
        self.incident = incident
        self.rows: list[str] = []
        self.n = 0

    def sid(self) -> str:
        self.n += 1
        return f"{(self.n * 0x9E3779B97F4A7C15) % 2**64:016x}"

    def serve(self, app: str, parent: str, trace: str, at: datetime, req: int) -> tuple[bool, float]:  # fmt: skip
        eff = self.incident.effect
        on = at >= FAULT_AT + self.incident.lag
        me = self.sid()
        ms = 6.0 + (req * 7 + len(app)) % 9
        err = ""
        if app == "ad" and req % 25 == 4:
            err = "ad request timed out"
        if on and app in eff.slower:
            ms += eff.slower[app]
        if on and app in eff.fail:
            share, message = eff.fail[app]
            if (req % 100) < share * 100:
                err = message
        for callee in GRAPH.get(app, []):
            cid = self.sid()
            if on and callee in eff.refused:
                failed, cms, cerr = True, 1.5, eff.refused[callee]
            elif callee in SILENT:
                failed, cms, cerr = False, 0.9, ""
            else:
                failed, cms = self.serve(callee, cid, trace, at, req)
                cms += 0.4
                cerr = "upstream error" if failed else ""
            attrs = {"rpc.system": "grpc", "server.address": f"{callee}.{NS}.svc.cluster.local",
                     "server.port": port_of(callee), "rpc.service": f"oteldemo.{callee}"}  # fmt: skip
            if callee in SILENT:
                attrs = {"db.system": "redis" if "valkey" in callee else "kafka",
                         "server.address": callee, "server.port": port_of(callee)}  # fmt: skip
            self.add(trace, cid, me, f"{callee}/Call", "Client", app, at, cms,
                     cerr if failed else "", attrs)  # fmt: skip
            ms += cms
            if failed and not err:
                err = f"{callee}: {cerr}"
        self.add(trace, me, parent, f"{app}/Handle", "Server", app, at, ms, err, {})
        return bool(err), ms

    def add(self, trace: str, span: str, parent: str, name: str, kind: str, app: str,
            at: datetime, ms: float, err: str, attrs: dict[str, Any]) -> None:  # fmt: skip
        res = {"service.name": app, "k8s.namespace.name": NS, "k8s.pod.name": pod_of(app)}
        self.rows.append("\t".join([
            tsv_time(at), trace, span, parent, name, kind, app, json.dumps(res),
            json.dumps(attrs), str(int(ms * 1_000_000)), "Error" if err else "Unset", err]))  # fmt: skip


def write_traces(root: Path, incident: Incident) -> None:
    spans = Spans(incident)
    at, req = BEGIN, 0
    while at < FINISH:
        req += 1
        spans.serve("frontend-proxy", "", f"{req * 0x5BD1E995:032x}", at, req)
        at += timedelta(seconds=4)
    head = ("Timestamp\tTraceId\tSpanId\tParentSpanId\tSpanName\tSpanKind\tServiceName\t"
            "ResourceAttributes\tSpanAttributes\tDuration\tStatusCode\tStatusMessage")  # fmt: skip
    (root / "otel_traces_raw.tsv").write_text("\n".join([head, *spans.rows]) + "\n")


def write_logs(root: Path, incident: Incident) -> None:
    head = ("Timestamp\tTraceId\tSpanId\tSeverityText\tSeverityNumber\tServiceName\tBody\t"
            "ResourceAttributes\tLogAttributes")  # fmt: skip
    rows, at, k = [head], BEGIN, 0
    while at < FINISH:
        k += 1
        for app in APPS:
            level, msg = "Information", f"{app} processed request"
            if app == "ad" and k % 9 == 5:
                level, msg = "Error", "ad request timed out"
            if at >= FAULT_AT + incident.lag and app in incident.effect.log:
                level, msg = "Error", incident.effect.log[app]
            number = "17" if level == "Error" else "9"
            res = json.dumps({"service.name": app, "k8s.namespace.name": NS})
            rows.append(f"{tsv_time(at)}\t\t\t{level}\t{number}\t{app}\t{msg}\t{res}\t{{}}")
        at += timedelta(seconds=15)
    (root / "otel_logs_raw.tsv").write_text("\n".join(rows) + "\n")


def write_metrics(root: Path, incident: Incident) -> None:
    folder = root / "metrics"
    folder.mkdir()
    final = world_at(incident, FINISH)
    for (_ns, kind, name), item in final.items():
        if kind != "Pod":
            continue
        app = item.doc["metadata"]["labels"]["opentelemetry.io/name"]
        lines, at, cpu_s = ["metric_name\ttimestamp\tvalue\ttags"], BEGIN, 0.0
        tags = json.dumps({"pod": name, "namespace": NS, "container": app})
        while at < FINISH:
            on = at >= FAULT_AT + incident.lag
            cpu_s += 30 * (0.9 if on and app in incident.effect.cpu else 0.05)
            mem = 120e6 + (on * (at - FAULT_AT).total_seconds() * 2e5 if app in
                           incident.effect.memory else 0)  # fmt: skip
            t = at.strftime("%Y-%m-%d %H:%M:%S")
            lines.append(f"container_cpu_usage_seconds_total\t{t}\t{cpu_s:.3f}\t{tags}")
            lines.append(f"container_memory_working_set_bytes\t{t}\t{mem:.0f}\t{tags}")
            at += timedelta(seconds=30)
        (folder / f"pod_{name}.tsv").write_text("\n".join(lines) + "\n")


def write_alerts(root: Path, incident: Incident) -> None:
    folder = root / "alerts"
    folder.mkdir()
    fired = FAULT_AT + incident.lag + timedelta(seconds=90)
    at = BEGIN + timedelta(seconds=30)
    while at < FINISH:
        alerts = [({"alertname": "KafkaConsumerLagHigh", "service_name": "kafka",
                    "namespace": NS, "severity": "warning"}, BEGIN - timedelta(hours=20))]  # fmt: skip
        if at >= fired:
            alerts.append(({"alertname": "RequestErrorRate", "service_name": incident.alert_on,
                            "namespace": NS, "severity": "critical"}, fired))  # fmt: skip
        if incident.alertmanager:
            doc: Any = [{"labels": labels, "annotations": {}, "startsAt": stamp(since),
                         "endsAt": stamp(at + timedelta(minutes=4)),
                         "status": {"state": "active", "silencedBy": [], "inhibitedBy": []},
                         "fingerprint": suffix(str(labels), 16)} for labels, since in alerts]  # fmt: skip
        else:
            doc = {"status": "success", "data": {"alerts": [
                {"labels": labels, "annotations": {}, "state": "firing",
                 "activeAt": stamp(since), "value": "1e+00"} for labels, since in alerts]}}  # fmt: skip
        (folder / f"alerts_at_{at:%Y-%m-%dT%H-%M-%S}.000000.json").write_text(json.dumps(doc))
        at += timedelta(minutes=1)


def write(root: Path, incident: Incident) -> Path:
    root.mkdir(parents=True)
    write_objects(root, incident)
    write_events(root, incident)
    write_traces(root, incident)
    write_logs(root, incident)
    write_metrics(root, incident)
    write_alerts(root, incident)
    return root
