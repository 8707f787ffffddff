"""User-written Kubernetes cost scenarios: one folder each, read and checked field by field.

A folder (its name is the scenario's id) holds:

- ``manifests.yaml``: the namespace's objects as the agent finds them on the incident day:
  ``apps/v1`` Deployments (one container each), ``autoscaling/v2`` HorizontalPodAutoscalers
  (Resource metrics, cpu or memory ``Utilization``) and the ``cost-alert`` ConfigMap
  (``variancePct``, optional ``budgetPerDay``); YAML documents or a ``List``;
- ``history.yaml`` (optional): the same objects as they were during the history week (days 0-6,
  the alert's reference); without it the history week ran on ``manifests.yaml``;
- ``model.yaml``: what the cluster does not show: the namespace, the node type's prices, each
  workload's usage model and load (a series of requests/s per step, or a profile), load
  generators, the replicas the HPAs start the incident day from;
- ``ground_truth.yaml``: the cause, the remedy's direction, the diagnoses also accepted and the
  optimum (as JSON patches of the manifests; without it, the generator's search over the cause's
  knobs). Never shown to an agent: the folder is the scenario's ``source_dir``, hidden from
  sandboxed agents, and the trial's cluster serves only ``manifests.yaml``.

Every field is checked; a problem is an ``InputError`` naming the file, the object and the field.
The format is documented in ``docs/finops/kubernetes.md``.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import yaml

from finops.k8s.cost import NodeType, SpendAlert
from finops.k8s.objects import read_config
from finops.k8s.scenario import (
    ALERT_KIND,
    ALERT_OBJECT,
    EVAL_DAYS,
    INCIDENT_DAY,
    Cause,
    K8sScenario,
    optimise,
)
from finops.k8s.simulate import STEP_S, Config, WorkloadConfig, replay
from finops.k8s.workload import DAY_S, LoadProfile, LoadSeries, Resources, Service, Spike, Step
from itbench.cluster.apiserver_rules import object_errors
from itbench.cluster.decoding import decode
from itbench.cluster.manifests import check_object
from itbench.cluster.patch import json_patch
from itbench.cluster.quantity import parse_quantity
from itbench.cluster.state import ClusterError
from itbench.errors import InputError, UsageError
from itbench.yamlsafe import load_all

__all__ = [
    "GROUND_TRUTH_FILE",
    "apply_changes",
    "read_manifests",
    "HISTORY_FILE",
    "MANIFESTS_FILE",
    "MODEL_FILE",
    "discover_k8s_folders",
    "is_k8s_folder",
    "load_k8s_folder",
]

MANIFESTS_FILE = "manifests.yaml"
HISTORY_FILE = "history.yaml"
MODEL_FILE = "model.yaml"
GROUND_TRUTH_FILE = "ground_truth.yaml"
#: the simulated days a load series must cover: the history week, the incident day, the next
SERIES_DAYS = INCIDENT_DAY + EVAL_DAYS
#: the kinds a scenario's manifests may hold, by kind: (apiVersion, resource key group, plural)
_KINDS = {
    "Deployment": ("apps/v1", "apps", "deployments"),
    "HorizontalPodAutoscaler": ("autoscaling/v2", "autoscaling", "horizontalpodautoscalers"),
    "ConfigMap": ("v1", "", "configmaps"),
}
_ID = re.compile(r"^[a-z0-9][a-z0-9._-]{0,62}$")
#: the cause fields the generator's optimum search knows (``scenario._candidates``)
_SEARCHABLE = (
    "spec.replicas",
    "spec.minReplicas",
    "spec.metrics[0].resource.target.averageUtilization",
    "spec.template.spec.containers[0].resources.requests",
    "spec.template.spec.containers[0].resources.limits.memory",
)
Key = tuple[str, str, str, str]
_NO_ALERT = SpendAlert(math.inf)


def is_k8s_folder(path: Path) -> bool:
    """A Kubernetes cost scenario folder, or a folder of them."""
    if not path.is_dir():
        return False
    if (path / MODEL_FILE).is_file():
        return True
    return any((p / MODEL_FILE).is_file() for p in path.iterdir() if p.is_dir())


def discover_k8s_folders(root: Path) -> list[Path]:
    if (root / MODEL_FILE).is_file():
        return [root]
    found = sorted(p for p in root.iterdir() if p.is_dir() and (p / MODEL_FILE).is_file())
    if not found:
        raise UsageError(
            f"{root}: no Kubernetes cost scenario folders (<id>/ with {MODEL_FILE} and "
            f"{MANIFESTS_FILE})"
        )
    return found


# -- reading fields -----------------------------------------------------------------------------


@dataclass(frozen=True)
class _At:
    """Where a value sits: the file and the object, for an error naming both and the field."""

    file: Path
    obj: str

    def error(self, field: str, problem: str) -> InputError:
        return InputError(f"{self.file}: {self.obj}: field {field!r}: {problem}")

    def mapping(self, doc: Mapping[str, Any], field: str, required: bool = True) -> dict:
        value = doc.get(field)
        if value is None and not required:
            return {}
        if not isinstance(value, dict):
            raise self.error(field, "missing" if value is None else "must be a mapping")
        return value

    def number(
        self,
        doc: Mapping[str, Any],
        field: str,
        *,
        low: float = 0.0,
        strict: bool = False,
        default: float | None = None,
    ) -> float:
        value = doc.get(field)
        if value is None:
            if default is not None:
                return default
            raise self.error(field, "missing")
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
        ):
            raise self.error(field, f"must be a number, not {value!r}")
        if value < low or (strict and value == low):
            raise self.error(
                field, f"{value!r} must be {'above' if strict else 'at least'} {low:g}"
            )
        return float(value)

    def integer(self, doc: Mapping[str, Any], field: str, low: int = 0) -> int:
        value = doc.get(field)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(
                field, "missing" if value is None else f"must be an integer, not {value!r}"
            )
        if value < low:
            raise self.error(field, f"{value} must be at least {low}")
        return value

    def text(self, doc: Mapping[str, Any], field: str, choices: tuple[str, ...] = ()) -> str:
        value = doc.get(field)
        if not isinstance(value, str) or not value:
            raise self.error(field, "missing" if value is None else "must be a non-empty string")
        if choices and value not in choices:
            raise self.error(field, f"{value!r} is not one of {', '.join(choices)}")
        return value

    def only(self, doc: Mapping[str, Any], known: tuple[str, ...]) -> None:
        unknown = sorted(str(k) for k in doc if k not in known)
        if unknown:
            raise self.error(unknown[0], f"unknown field (known: {', '.join(known)})")


def _documents(path: Path) -> list[Any]:
    try:
        return [d for d in load_all(path.read_text(encoding="utf-8")) if d is not None]
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8 text") from None
    except yaml.YAMLError as exc:
        raise InputError(f"{path}: not valid YAML ({str(exc).splitlines()[0]})") from None


def _mapping_file(path: Path) -> dict:
    if not path.is_file():
        raise InputError(f"{path}: missing (a Kubernetes cost scenario folder needs it)")
    docs = _documents(path)
    if len(docs) != 1 or not isinstance(docs[0], dict):
        raise InputError(f"{path}: expected one YAML mapping")
    return docs[0]


# -- manifests ----------------------------------------------------------------------------------


def _objects(path: Path) -> list[dict[str, Any]]:
    """The manifests' objects, each checked as the API server would take it and as the model
    reads it."""
    if not path.is_file():
        raise InputError(f"{path}: missing (a Kubernetes cost scenario folder needs it)")
    out = []
    for i, doc in enumerate(_documents(path)):
        items = (
            doc["items"]
            if isinstance(doc, dict)
            and str(doc.get("kind", "")).endswith("List")
            and isinstance(doc.get("items"), list)
            else [doc]
        )
        for j, item in enumerate(items):
            out.append(
                check_object(
                    item,
                    f"{path}: document {i}"
                    + (f", items[{j}]" if len(items) > 1 or item is not doc else ""),
                )
            )
    if not out:
        raise InputError(f"{path}: no objects")
    return out


def _check_object(obj: dict[str, Any], path: Path, namespace: str) -> Key:
    kind, name = obj["kind"], obj["metadata"]["name"]
    at = _At(path, f"{kind} {name!r}")
    if kind not in _KINDS:
        raise at.error("kind", f"not modelled; use {', '.join(_KINDS)}")
    api_version, group, plural = _KINDS[kind]
    if obj["apiVersion"] != api_version:
        raise at.error("apiVersion", f"{obj['apiVersion']!r}: use {api_version}")
    ns = obj["metadata"].get("namespace", namespace)
    if ns != namespace:
        raise at.error(
            "metadata.namespace", f"{ns!r} is not the scenario's namespace {namespace!r}"
        )
    found = decode(obj)
    if found is not None and found.wrong_types:
        raise at.error("", found.wrong_types[0])
    if found is not None and found.unknown:
        raise at.error(found.unknown[0], "unknown field")
    errors = object_errors(group, kind, obj)
    if errors:
        field, _, problem = errors[0].partition(": ")
        raise at.error(field, problem)
    spec = obj.get("spec") or {}
    if kind == "Deployment":
        containers = ((spec.get("template") or {}).get("spec") or {}).get("containers") or []
        if len(containers) != 1:
            raise at.error(
                "spec.template.spec.containers", "exactly one container per Deployment is modelled"
            )
        requests = (containers[0].get("resources") or {}).get("requests") or {}
        for resource in ("cpu", "memory"):
            field = f"spec.template.spec.containers[0].resources.requests.{resource}"
            if resource not in requests:
                raise at.error(field, "missing (the cost model allocates by requests)")
            if parse_quantity(requests[resource]) is None:
                raise at.error(field, f"{requests[resource]!r} is not a quantity")
        if not isinstance(spec.get("replicas"), int):
            raise at.error("spec.replicas", "missing")
    elif kind == "HorizontalPodAutoscaler":
        ref = spec.get("scaleTargetRef") or {}
        if ref.get("kind") != "Deployment":
            raise at.error("spec.scaleTargetRef.kind", "must be Deployment")
        if not isinstance(spec.get("maxReplicas"), int):
            raise at.error("spec.maxReplicas", "missing")
        metrics = spec.get("metrics") or []
        if not metrics:
            raise at.error("spec.metrics", "missing (the model's HPAs scale on cpu or memory)")
        for i, m in enumerate(metrics):
            source = (m or {}).get("resource") or {}
            target = source.get("target") or {}
            if (
                m.get("type") != "Resource"
                or source.get("name") not in ("cpu", "memory")
                or target.get("type") != "Utilization"
                or not isinstance(target.get("averageUtilization"), int)
            ):
                raise at.error(
                    f"spec.metrics[{i}]",
                    "only Resource metrics of cpu or memory with a Utilization target "
                    "(averageUtilization) are modelled",
                )
    elif name == ALERT_OBJECT:
        data = obj.get("data") or {}
        for field, required in (("variancePct", True), ("budgetPerDay", False)):
            if field not in data:
                if required:
                    raise at.error(f"data.{field}", "missing")
                continue
            try:
                value = float(data[field])
            except (TypeError, ValueError):
                value = math.nan
            if not math.isfinite(value) or value < 0:
                raise at.error(f"data.{field}", f"{data[field]!r} must be a number, at least 0")
    return (group, plural, namespace, name)


def read_manifests(path: Path, namespace: str) -> dict[Key, dict[str, Any]]:
    declared: dict[Key, dict[str, Any]] = {}
    for obj in _objects(path):
        key = _check_object(obj, path, namespace)
        if key in declared:
            raise _At(path, f"{obj['kind']} {key[3]!r}").error("metadata.name", "declared twice")
        obj.setdefault("metadata", {})["namespace"] = namespace
        declared[key] = obj
    deployments = {k[3] for k in declared if k[1] == "deployments"}
    targets: set[str] = set()
    for k, obj in declared.items():
        if k[1] == "horizontalpodautoscalers":
            at = _At(path, f"HorizontalPodAutoscaler {k[3]!r}")
            target = obj["spec"]["scaleTargetRef"].get("name")
            if target not in deployments:
                raise at.error("spec.scaleTargetRef.name", f"{target!r} is not a Deployment here")
            if target in targets:
                raise at.error("spec.scaleTargetRef.name", f"{target!r} has a second HPA")
            targets.add(target)
    if ("", "configmaps", namespace, ALERT_OBJECT) not in declared:
        raise InputError(f"{path}: ConfigMap {ALERT_OBJECT!r} (the spend alert's rule) is missing")
    return declared


# -- model --------------------------------------------------------------------------------------


def _load(at: _At, doc: Mapping[str, Any]) -> LoadProfile | LoadSeries:
    at.only(doc, ("series", "profile"))
    if ("series" in doc) == ("profile" in doc):
        raise at.error("load", "give exactly one of 'series' and 'profile'")
    if "series" in doc:
        series = at.mapping(doc, "series")
        at.only(series, ("stepMinutes", "rps"))
        minutes = at.number(series, "stepMinutes", low=0, strict=True)
        per_day = DAY_S / (minutes * 60)
        if per_day != int(per_day) or (minutes * 60) % STEP_S and STEP_S % (minutes * 60):
            raise at.error(
                "load.series.stepMinutes",
                f"{minutes:g} must divide a day into 5-minute multiples or fractions",
            )
        rps = series.get("rps")
        if not isinstance(rps, list) or not rps:
            raise at.error("load.series.rps", "missing (requests/s per step, or a list per day)")
        flat: list[float] = []
        for d, day in enumerate(rps):
            row = day if isinstance(day, list) else [day]
            if isinstance(day, list) and len(day) != int(per_day):
                raise at.error(
                    f"load.series.rps[{d}]", f"{len(day)} values; a day has {int(per_day)} steps"
                )
            for i, v in enumerate(row):
                if (
                    isinstance(v, bool)
                    or not isinstance(v, int | float)
                    or not math.isfinite(v)
                    or v < 0
                ):
                    where = (
                        f"load.series.rps[{d}][{i}]"
                        if isinstance(day, list)
                        else f"load.series.rps[{d}]"
                    )
                    raise at.error(where, f"{v!r} must be a number, at least 0")
                flat.append(float(v))
        if len(flat) < SERIES_DAYS * per_day:
            raise at.error(
                "load.series.rps",
                f"{len(flat)} steps; the series must cover days 0-{SERIES_DAYS - 1} "
                f"({int(SERIES_DAYS * per_day)} steps of {minutes:g} minutes)",
            )
        return LoadSeries(minutes * 60, tuple(flat))
    p = at.mapping(doc, "profile")
    at.only(p, ("baseRps", "diurnal", "peakHour", "steps", "spikes"))
    steps, spikes = [], []
    for i, s in enumerate(p.get("steps") or []):
        sat = _At(at.file, f"{at.obj} load.profile.steps[{i}]")
        if not isinstance(s, dict):
            raise sat.error("steps", "must be a mapping {day, factor}")
        sat.only(s, ("day", "factor"))
        steps.append(Step(sat.number(s, "day"), sat.number(s, "factor")))
    for i, s in enumerate(p.get("spikes") or []):
        sat = _At(at.file, f"{at.obj} load.profile.spikes[{i}]")
        if not isinstance(s, dict):
            raise sat.error("spikes", "must be a mapping {startHour, hours, factor}")
        sat.only(s, ("startHour", "hours", "factor"))
        spikes.append(
            Spike(sat.number(s, "startHour"), sat.number(s, "hours"), sat.number(s, "factor"))
        )
    return LoadProfile(
        at.number(p, "baseRps"),
        diurnal=at.number(p, "diurnal", default=0.0),
        peak_hour=at.number(p, "peakHour", default=14.0),
        steps=tuple(steps),
        spikes=tuple(spikes),
    )


@dataclass(frozen=True)
class _Model:
    namespace: str
    node: NodeType
    services: tuple[Service, ...]
    #: load generators: workload -> (target, requests/s per replica)
    generators: tuple[tuple[str, str, float], ...]
    start_replicas: tuple[tuple[str, int], ...] | None


def _model(path: Path) -> _Model:
    doc = _mapping_file(path)
    at = _At(path, "model")
    at.only(doc, ("namespace", "node", "workloads", "startReplicas"))
    namespace = at.text(doc, "namespace")
    node_doc = at.mapping(doc, "node")
    nat = _At(path, "node")
    nat.only(node_doc, ("name", "coreHour", "gibHour"))
    node = NodeType(
        nat.text(node_doc, "name"),
        # the node's allocatable size is no part of the cost model (idle cost is not modelled)
        0.0,
        0.0,
        nat.number(node_doc, "coreHour", strict=True),
        nat.number(node_doc, "gibHour", strict=True),
    )
    services, generators = [], []
    workloads = at.mapping(doc, "workloads")
    if not workloads:
        raise at.error("workloads", "empty")
    for name, w in workloads.items():
        wat = _At(path, f"workload {name!r}")
        if not isinstance(w, dict):
            raise wat.error(str(name), "must be a mapping")
        wat.only(
            w,
            (
                "cpuFloor",
                "cpuPerRps",
                "memoryFloorMiB",
                "memoryPerRpsMiB",
                "capacityRps",
                "load",
                "loadGenerator",
            ),
        )
        load: LoadProfile | LoadSeries = LoadProfile(0.0, 0.0)
        if "load" in w:
            load = _load(wat, wat.mapping(w, "load"))
        services.append(
            Service(
                name=str(name),
                load=load,
                cpu_floor=wat.number(w, "cpuFloor"),
                cpu_per_rps=wat.number(w, "cpuPerRps"),
                memory_floor=wat.number(w, "memoryFloorMiB") / 1024,
                memory_per_rps=wat.number(w, "memoryPerRpsMiB") / 1024,
                capacity_rps=wat.number(w, "capacityRps", strict=True, default=math.inf),
            )
        )
        if "loadGenerator" in w:
            g = wat.mapping(w, "loadGenerator")
            gat = _At(path, f"workload {name!r} loadGenerator")
            gat.only(g, ("target", "rpsPerReplica"))
            target = gat.text(g, "target")
            if target not in workloads or target == name:
                raise gat.error("target", f"{target!r} is not another workload of the model")
            generators.append((str(name), target, gat.number(g, "rpsPerReplica", strict=True)))
    start = None
    if "startReplicas" in doc:
        sr = at.mapping(doc, "startReplicas")
        for name in sr:
            if name not in workloads:
                raise at.error(f"startReplicas.{name}", "not a workload of the model")
        start = tuple((str(n), at.integer(sr, n)) for n in sr)
    return _Model(namespace, node, tuple(services), tuple(generators), start)


# -- ground truth -------------------------------------------------------------------------------


def _cause(at: _At, doc: Any, field: str, names: set[str]) -> Cause:
    if not isinstance(doc, dict):
        raise at.error(field, "must be a mapping {workload, kind, field}")
    cat = _At(at.file, f"{at.obj} {field}")
    cat.only(doc, ("workload", "kind", "name", "field"))
    workload = cat.text(doc, "workload")
    if workload not in names:
        raise cat.error("workload", f"{workload!r} is not a workload of the model")
    kind = cat.text(doc, "kind", tuple(_KINDS))
    default = ALERT_OBJECT if kind == ALERT_KIND else workload
    name = doc.get("name", default)
    return Cause(workload, kind, str(name), cat.text(doc, "field"))


def apply_changes(
    declared: dict[Key, dict[str, Any]], changes: Any, path: Path, namespace: str
) -> dict[Key, dict[str, Any]]:
    at = _At(path, "ground truth")
    if not isinstance(changes, list) or not changes:
        raise at.error("optimum", "must be a list of {kind, name, patch | delete}")
    out = dict(declared)
    touched: dict[Key, int] = {}
    for i, change in enumerate(changes):
        cat = _At(path, f"optimum[{i}]")
        if not isinstance(change, dict):
            raise at.error(f"optimum[{i}]", "must be a mapping {kind, name, patch | delete}")
        cat.only(change, ("kind", "name", "patch", "delete"))
        kind = cat.text(change, "kind", tuple(_KINDS))
        name = cat.text(change, "name")
        _, group, plural = _KINDS[kind]
        key = (group, plural, namespace, name)
        if key not in out:
            raise cat.error("name", f"no {kind} {name!r} in {MANIFESTS_FILE}")
        if change.get("delete") is True:
            del out[key]
            continue
        try:
            patched = json_patch(out[key], change.get("patch"))
        except ClusterError as exc:
            raise cat.error("patch", str(exc)) from None
        except (AttributeError, TypeError, KeyError, IndexError, ValueError) as exc:
            raise cat.error("patch", f"does not apply: {exc}") from None
        out[key] = patched
        touched[key] = i
    # checked once all changes are made: a request and its limit may be raised one at a time
    for key, i in touched.items():
        if key not in out:
            continue
        try:
            _check_object(out[key], path, namespace)
        except InputError as exc:
            raise _At(path, f"optimum[{i}]").error(
                "patch", f"gives an object the model refuses ({exc})"
            ) from None
    return out


# -- the scenario -------------------------------------------------------------------------------


def load_k8s_folder(folder: Path) -> K8sScenario:
    """The scenario of one folder, checked; InputError names the file, object and field."""
    if not _ID.match(folder.name):
        raise UsageError(
            f"{folder}: the folder's name is the scenario's id: lower-case letters, digits, "
            "'.', '_' and '-'"
        )
    model = _model(folder / MODEL_FILE)
    ns = model.namespace
    declared = read_manifests(folder / MANIFESTS_FILE, ns)
    history_path = folder / HISTORY_FILE
    history_declared = read_manifests(history_path, ns) if history_path.exists() else declared
    names = {s.name for s in model.services}
    for path, objs in ((folder / MANIFESTS_FILE, declared), (history_path, history_declared)):
        deployments = {k[3] for k in objs if k[1] == "deployments"}
        if deployments != names:
            extra = sorted(deployments - names) or sorted(names - deployments)
            raise InputError(
                f"{path}: Deployment {extra[0]!r}: field 'metadata.name': the Deployments and "
                f"{MODEL_FILE}'s workloads must be the same set"
            )
    truth = _mapping_file(folder / GROUND_TRUTH_FILE)
    gt = _At(folder / GROUND_TRUTH_FILE, "ground truth")
    gt.only(truth, ("family", "cause", "remedy", "alsoAccepted", "fieldWords", "optimum"))
    family = truth.get("family", "custom")
    if not isinstance(family, str) or not re.match(r"^[a-z0-9-]+$", family):
        raise gt.error("family", f"{family!r}: lower-case letters, digits and '-'")
    cause = _cause(gt, truth.get("cause"), "cause", names)
    _, group, plural = _KINDS[cause.kind]
    if (group, plural, ns, cause.name) not in declared:
        raise _At(gt.file, "cause").error(
            "name", f"no {cause.kind} {cause.name!r} in {MANIFESTS_FILE}"
        )
    remedy = gt.text(truth, "remedy", ("alert", "workload"))
    accepted = truth.get("alsoAccepted") or []
    if not isinstance(accepted, list):
        raise gt.error("alsoAccepted", "must be a list of {workload, kind, field}")
    also = tuple(_cause(gt, a, f"alsoAccepted[{i}]", names) for i, a in enumerate(accepted))
    words_doc = truth.get("fieldWords") or {}
    if not isinstance(words_doc, dict):
        raise gt.error("fieldWords", "must map a field to the words a diagnosis may use")
    words = []
    for f, ws in words_doc.items():
        if not isinstance(ws, list) or not ws or not all(isinstance(w, str) and w for w in ws):
            raise gt.error(f"fieldWords.{f}", "must be a non-empty list of words")
        words.append((str(f), tuple(w.lower().replace(" ", "") for w in ws)))

    skeleton = Config(_skeleton_workloads(model), _NO_ALERT)
    shell = K8sScenario(
        id=folder.name,
        family=family,
        seed=0,
        namespace=ns,
        node=model.node,
        services=model.services,
        before=skeleton,
        incident=skeleton,
        cause=cause,
        remedy=remedy,
        optimal=skeleton,
        history=(),
        history_by_workload=(),
        history_replicas=(),
        accepted=also,
        field_words=tuple(words),
        manifests_json=json.dumps(list(declared.values()), sort_keys=True),
    )
    incident = read_config(shell, declared)
    before = read_config(shell, history_declared)
    week = replay({s.name: s for s in model.services}, before, model.node, INCIDENT_DAY)
    start = model.start_replicas if model.start_replicas is not None else week.final_replicas
    s = replace(
        shell,
        before=before,
        incident=incident,
        optimal=incident,
        history=tuple(d.spend for d in week.days),
        history_by_workload=tuple(tuple(sorted(d.by_workload.items())) for d in week.days),
        history_replicas=tuple(sorted(start)),
    )
    if "optimum" in truth:
        optimal = read_config(s, apply_changes(declared, truth["optimum"], gt.file, ns))
    elif remedy == "alert" or cause.field in _SEARCHABLE:
        try:
            optimal = optimise(s)
        except RuntimeError:
            raise gt.error(
                "optimum", "missing, and no configuration the search tries keeps the SLO"
            ) from None
    else:
        raise gt.error(
            "optimum",
            f"missing: the search knows the fields {', '.join(_SEARCHABLE)}; for "
            f"{cause.field!r} give the optimum as patches",
        )
    return replace(s, optimal=optimal)


def _skeleton_workloads(model: _Model) -> tuple[tuple[str, WorkloadConfig], ...]:
    """The configuration ``read_config`` fills from the objects: what the cluster does not show
    (a load generator's target and rate) comes from the model."""
    gens = {g: (t, r) for g, t, r in model.generators}
    out = []
    for s in model.services:
        target, rate = gens.get(s.name, (None, 0.0))
        out.append((s.name, WorkloadConfig(Resources(0.0, 0.0), 0, None, target, rate)))
    return tuple(out)
