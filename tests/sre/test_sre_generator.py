"""The incident generator: per fault type, the snapshot carries the faulty change at the fault
time, Warning events naming the faulty entity (where Kubernetes emits any), error traces rooted at
the faulty service, and a ground truth that passes the same loader as the real ITBench ones.

The snapshot files are read back with pandas' ``read_csv(sep="\\t")``, the parser the original
ITBench tools use, not with the generator's own code.
"""

from __future__ import annotations

import datetime as dt
import glob
import hashlib
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from sre.generator.cli import generate
from sre.generator.demo_flags import FLAG_EFFECTS
from sre.generator.faults import FAULT_TYPES
from sre.generator.faults.flagd_flags import fault_name
from sre.generator.ground_truth import GroundTruth, load_ground_truth, parse_ground_truth
from sre.generator.snapshot import GeneratedIncident, write_incident
from sre.generator.topology import OTEL_DEMO, load_architecture

# the repository's sibling ``../shared`` (tests/conftest.py: SHARED), found the same way here
# because tests/sre has a conftest of its own
SHARED = Path(__file__).resolve().parents[2].parent / "shared"
SRE_CORPUS = SHARED / "corpora" / "itbench" / "sre"
SEED = 11
MB = 1_000_000

#: mechanisms that make Kubernetes itself report nothing: the data show the fault elsewhere
SILENT_IN_EVENTS = {
    "feature-flag",  # flagd reloads its ConfigMap; pods stay healthy
    "network-partition",  # kubelet probes come from the node, outside the partition
    "wrong-target-port",  # a Service pointing at a closed port is valid
    "network-policy",  # kubelet probes are exempt from NetworkPolicies on common CNIs
    "scaled-to-zero",  # a valid request: only Normal ScalingReplicaSet events
    "dns-failure",  # lookups fail inside the application
    "network-loss",  # the kubelet's probes get through on a retransmission
    "http-abort",  # the probe is a TCP connect, HTTPChaos lets it through
    "jvm-exception",  # the JVM runs; only a method throws
    "io-fault",  # the process runs and answers its TCP probe
    "service-selector",  # a selector matching nothing is valid
    "dns-policy",  # a valid policy: lookups fail inside the application
    "valkey-password",  # Valkey runs; its client is refused
    "valkey-memory",  # Valkey runs; its writes are refused
    "deleted-service",  # a deletion emits no Warning; the pods run
    "corrupted-secret",  # a Secret's content is not checked by Kubernetes
    "strict-mtls",  # valid objects; the mesh resets the calls
    "gateway-deny",  # the Gateway answers 403
    "ambient-off",  # a namespace label; nothing fails
    "hpa-misconfigured",  # the autoscaler scales as told
}
#: the application keeps answering: the fault shows in the autoscaler or the mesh, not in spans
NO_REQUEST_SYMPTOM = {"ambient-off", "hpa-misconfigured"}
#: the faulty object is deleted at the fault time
DELETED = {"deleted-service"}
LATENCY_FAULTS = {"network-delay", "cpu-stress"}
#: the faulty service's own outgoing calls fail (it cannot resolve anything)
CLIENT_SIDE_FAULTS = {"dns-failure", "dns-policy", "strict-mtls"}


def _container(body: dict) -> dict:
    return body["spec"]["template"]["spec"]["containers"][0]


#: what the faulty object must look like after the fault, per fault type
FAULTY_CONTENT = {
    "feature-flag": lambda b: any(
        f["defaultVariant"] == "on"
        for f in json.loads(b["data"]["demo.flagd.json"])["flags"].values()
    ),
    "network-delay": lambda b: b["spec"]["action"] == "delay",
    "network-partition": lambda b: b["spec"]["action"] == "partition",
    "cpu-stress": lambda b: "cpu" in b["spec"]["stressors"],
    "memory-stress": lambda b: "memory" in b["spec"]["stressors"],
    "oom-killed": lambda b: _container(b)["resources"]["limits"]["memory"] == "20Mi",
    "nonexistent-image": lambda b: _container(b)["image"].endswith("-missing"),
    "wrong-target-port": lambda b: (
        b["spec"]["ports"][0]["targetPort"] != b["spec"]["ports"][0]["port"]
    ),
    "network-policy": lambda b: (
        b["spec"]["ingress"] == [] and b["spec"]["policyTypes"] == ["Ingress"]
    ),
    "resource-quota": lambda b: b["spec"]["hard"]["pods"] == "19",
    "bad-command": lambda b: _container(b).get("command", [""])[0].endswith("-server-v2"),
    "readiness-probe": lambda b: (
        _container(b)["readinessProbe"]["tcpSocket"]["port"]
        != _container(b)["ports"][0]["containerPort"]
    ),
    "scaled-to-zero": lambda b: b["spec"]["replicas"] == 0,
    "node-selector": lambda b: (
        b["spec"]["template"]["spec"].get("nodeSelector")
        == {"kubernetes.io/hostname": "gpu-node-7"}
    ),
    "node-disk-pressure": lambda b: (
        {"type": "DiskPressure", "status": "True"} in b["status"]["conditions"]
    ),
    "wrong-env-var": lambda b: any(e["value"] == "eighty-eighty" for e in _container(b)["env"]),
    "dns-failure": lambda b: b["kind"] == "DNSChaos" and b["spec"]["action"] == "error",
    # Chaos Mesh kinds and misconfigurations of ITBench's library
    "network-loss": lambda b: b["spec"]["action"] == "loss",
    "http-abort": lambda b: b["kind"] == "HTTPChaos" and b["spec"]["abort"] is True,
    "jvm-exception": lambda b: b["kind"] == "JVMChaos" and b["spec"]["action"] == "exception",
    "io-fault": lambda b: b["kind"] == "IOChaos" and b["spec"]["action"] == "fault",
    "pod-failure": lambda b: b["kind"] == "PodChaos" and b["spec"]["action"] == "pod-failure",
    "service-selector": lambda b: (
        b["spec"]["selector"]["app.kubernetes.io/name"] != b["metadata"]["name"]
    ),
    "cordoned-node": lambda b: b["spec"].get("unschedulable") is True,
    "missing-secret": lambda b: any("valueFrom" in e for e in _container(b)["env"]),
    "init-container": lambda b: bool(b["spec"]["template"]["spec"].get("initContainers")),
    "missing-pvc": lambda b: bool(b["spec"]["template"]["spec"].get("volumes")),
    "dns-policy": lambda b: b["spec"]["template"]["spec"].get("dnsPolicy") == "Default",
    "wrong-arch-image": lambda b: _container(b)["image"].startswith(
        "ghcr.io/open-telemetry/demo-arm64"
    ),
    "valkey-password": lambda b: _container(b).get("args", [""])[0] == "--requirepass",
    "valkey-memory": lambda b: _container(b).get("args", [""])[0] == "--maxmemory",
    "anti-affinity": lambda b: (
        "podAntiAffinity" in b["spec"]["template"]["spec"].get("affinity", {})
    ),
    # the rest of ITBench's mechanisms
    "corrupted-secret": lambda b: b["data"]["password"] != "Y2FydC12YWxrZXktN2YzazJx",
    "strict-mtls": lambda b: (
        b["spec"]["template"]["metadata"]["labels"].get("istio.io/dataplane-mode") == "none"
    ),
    "gateway-deny": lambda b: b["spec"]["action"] == "DENY",
    "ambient-off": lambda b: b["metadata"]["labels"]["istio.io/dataplane-mode"] == "none",
    "hpa-misconfigured": lambda b: (
        b["spec"]["metrics"][0]["resource"]["target"]["averageUtilization"] == 20
    ),
    "priority-preemption": lambda b: (
        b["spec"]["template"]["spec"].get("priorityClassName") == "application-non-critical"
    ),
    "api-surge": lambda b: _container(b)["env"] == [{"name": "REQUESTS_PER_SECOND", "value": "60"}],
}
#: fault types whose faulty object is new at the fault time (a Chaos Mesh experiment, a policy,
#: a workload)
CREATED = (
    "network-loss", "http-abort", "jvm-exception", "io-fault", "pod-failure", "gateway-deny",
    "api-surge",
)  # fmt: skip


def _flag_selected(flag: str):
    """The flag picks a variant other than off: by its defaultVariant or its targeting rule."""

    def check(b: dict) -> bool:
        entry = json.loads(b["data"]["demo.flagd.json"])["flags"][flag]
        picks = {entry["defaultVariant"]} | {
            v for v in entry["variants"] if f'"{v}"' in json.dumps(entry.get("targeting"))
        }
        return picks != {"off"}

    return check


FAULTY_CONTENT.update({fault_name(e.flag): _flag_selected(e.flag) for e in FLAG_EFFECTS})
# flagd reloads its ConfigMap: only a flag whose memory grows makes the kubelet speak
SILENT_IN_EVENTS |= {fault_name(e.flag) for e in FLAG_EFFECTS if not e.leaks}
LATENCY_FAULTS |= {
    fault_name(e.flag)
    for e in FLAG_EFFECTS
    if e.latency_ms and not (e.errors or e.unreachable or e.leaks)
}
#: the queue flag slows the queue's consumers (lag), not the broker (it has no spans of its own)
SLOWED = {fault_name("kafkaQueueProblems"): ("accounting", "Consumer")}


@pytest.fixture(scope="module")
def incidents(tmp_path_factory: pytest.TempPathFactory) -> dict[str, GeneratedIncident]:
    root = tmp_path_factory.mktemp("incidents")
    return {kind: write_incident(root / kind, kind, SEED) for kind in FAULT_TYPES}


def _tsv(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)


def _time(text: str) -> dt.datetime:
    # ClickHouse DateTime64(9): keep microseconds, as datetime cannot hold nanoseconds
    return dt.datetime.strptime(text[:26], "%Y-%m-%d %H:%M:%S.%f").replace(tzinfo=dt.UTC)


def _truth(inc: GeneratedIncident) -> GroundTruth:
    return load_ground_truth(inc.path / "ground_truth.yaml")


def _target_entities(inc: GeneratedIncident, truth: GroundTruth) -> list[re.Pattern[str]]:
    """Names that denote the faulty entity: the root-cause object and the target's pods."""
    pod_group = truth.group(f"{inc.target}-pod-1")
    names = [re.compile(f"^{re.escape(g.name)}$") for g in truth.root_causes if g.name]
    names += [re.compile(f) for f in pod_group.filter or []]
    names.append(re.compile(f"^{re.escape(inc.target)}-[a-z0-9]+$"))  # its ReplicaSet
    return names


def test_there_are_at_least_fifteen_fault_types() -> None:
    required = {
        "feature-flag",
        "network-delay",
        "network-partition",
        "cpu-stress",
        "memory-stress",
        "oom-killed",
        "nonexistent-image",
        "wrong-target-port",
        "network-policy",
        "resource-quota",
        "bad-command",
        "readiness-probe",
        "scaled-to-zero",
        "node-selector",
        "node-disk-pressure",
        "wrong-env-var",
        "dns-failure",
    }
    assert required <= set(FAULT_TYPES)


@pytest.mark.parametrize("kind", sorted(FAULT_TYPES))
def test_faulty_object_changes_at_the_fault_time(
    incidents: dict[str, GeneratedIncident], kind: str
) -> None:
    inc = incidents[kind]
    truth = _truth(inc)
    entity = truth.fault[0].entity
    objects = _tsv(inc.path / "k8s_objects_raw.tsv")
    bodies = [
        (_time(ts), json.loads(body))
        for ts, body in zip(objects.Timestamp, objects.Body, strict=True)
    ]
    seen = [
        (t, b)
        for t, b in bodies
        if b["kind"] == entity.kind and b["metadata"]["name"] == entity.name
    ]
    assert seen, f"{entity.kind}/{entity.name} never observed"
    before = [b for t, b in seen if t < inc.fault_time]
    after = [(t, b) for t, b in seen if t >= inc.fault_time]
    if kind in DELETED:
        assert before and after == [], "observed after its deletion, or never before it"
        return
    check = FAULTY_CONTENT[kind]
    assert after and all(check(b) for _, b in after), (
        "the faulty spec is not in force after the fault"
    )
    assert not any(check(b) for b in before), "the faulty spec was there before the fault"
    first_faulty = min(t for t, _ in after)
    assert inc.fault_time <= first_faulty < inc.fault_time + dt.timedelta(seconds=1)
    created = entity.kind in ("NetworkPolicy", "ResourceQuota") or kind in (
        "network-delay",
        "network-partition",
        "cpu-stress",
        "memory-stress",
        "dns-failure",
        *CREATED,
    )
    assert (before == []) == created


@pytest.mark.parametrize("kind", sorted(FAULT_TYPES))
def test_objects_the_fault_creates_are_born_at_the_fault(
    incidents: dict[str, GeneratedIncident], kind: str
) -> None:
    # an exporter that sees an object once tells a new one from an old one by its
    # creationTimestamp: what the fault creates must carry the fault's time, in every observation,
    # and what was there before the window a time before it
    inc = incidents[kind]
    objects = _tsv(inc.path / "k8s_objects_raw.tsv")
    first: dict[tuple[str, str, str], dt.datetime] = {}
    born: dict[tuple[str, str, str], set[str]] = {}
    for ts, text in zip(objects.Timestamp, objects.Body, strict=True):
        body = json.loads(text)
        meta = body["metadata"]
        key = (body["kind"], meta.get("namespace", ""), meta["name"])
        first[key] = min(first.get(key, _time(ts)), _time(ts))
        born.setdefault(key, set()).add(meta["creationTimestamp"])
    start = min(first.values())
    for key, seen in first.items():
        if key[0] == "Pod":  # pods come and go with rollouts, not with the fault alone
            continue
        (stamp,) = born[key]  # one creation time, whichever observation shows it
        at = dt.datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.UTC)
        if seen >= inc.fault_time:
            assert at == inc.fault_time.replace(microsecond=0), f"{key} created {stamp}"
        else:
            assert at < start, f"{key} was there before the window but created {stamp}"


@pytest.mark.parametrize("kind", sorted(FAULT_TYPES))
def test_warning_events_name_the_faulty_entity(
    incidents: dict[str, GeneratedIncident], kind: str
) -> None:
    inc = incidents[kind]
    names = _target_entities(inc, _truth(inc))
    events = [json.loads(b) for b in _tsv(inc.path / "k8s_events_raw.tsv").Body]
    warnings = [e["object"] for e in events if e["object"]["type"] == "Warning"]
    about_fault = [w for w in warnings if any(n.search(w["involvedObject"]["name"]) for n in names)]
    # the noise (a flaky collector probe) is there in every incident and names something else
    assert any(w["involvedObject"]["namespace"] == "opentelemetry-collectors" for w in warnings)
    if kind in SILENT_IN_EVENTS:
        assert about_fault == []
        return
    assert about_fault, f"no Warning event names the faulty entity ({[n.pattern for n in names]})"
    for w in about_fault:
        assert _time(w["lastTimestamp"].replace("T", " ").replace("Z", ".000000")) >= (
            inc.fault_time.replace(microsecond=0)
        )
    assert max(w["count"] for w in about_fault) > 1, "a lasting fault repeats its events"


def _error_roots(spans: pd.DataFrame, client_side: bool) -> Counter[str]:
    """The service each failing trace's error starts at: the errored span with no errored child.
    A client span that never reached its callee points at the callee, unless the caller itself
    could not place the call (``client_side``)."""
    errors = spans[spans.StatusCode == "Error"]
    parents_with_error_child = set(errors.ParentSpanId)
    roots: Counter[str] = Counter()
    for row in errors.itertuples():
        if row.SpanId in parents_with_error_child:
            continue
        if row.SpanKind in ("Client", "Producer") and not client_side:
            roots[json.loads(row.SpanAttributes)["peer.service"]] += 1
        else:
            roots[row.ServiceName] += 1
    return roots


@pytest.mark.parametrize("kind", sorted(FAULT_TYPES))
def test_error_traces_are_rooted_at_the_faulty_service(
    incidents: dict[str, GeneratedIncident], kind: str
) -> None:
    inc = incidents[kind]
    spans = _tsv(inc.path / "otel_traces_raw.tsv")
    at = spans.Timestamp.map(_time)
    pre, post = spans[at < inc.fault_time], spans[at >= inc.fault_time + dt.timedelta(seconds=30)]
    assert (pre.StatusCode == "Error").sum() == 0
    if kind in NO_REQUEST_SYMPTOM:
        assert (post.StatusCode == "Error").sum() == 0
        return
    if kind in LATENCY_FAULTS:
        service, span_kind = SLOWED.get(kind, (inc.target, "Server"))
        served = spans[(spans.ServiceName == service) & (spans.SpanKind == span_kind)]
        t = served.Timestamp.map(_time)
        slow = served[t >= inc.fault_time + dt.timedelta(seconds=30)].Duration.astype(int).median()
        normal = served[t < inc.fault_time].Duration.astype(int).median()
        assert slow > 20 * normal
        # the latency climbs to the entry point
        proxy = spans[(spans.ServiceName == "frontend-proxy") & (spans.ParentSpanId == "")]
        pt = proxy.Timestamp.map(_time)
        assert proxy[pt >= inc.fault_time].Duration.astype(int).quantile(0.9) > proxy[
            pt < inc.fault_time
        ].Duration.astype(int).quantile(0.9)
        return
    roots = _error_roots(post, kind in CLIENT_SIDE_FAULTS)
    assert roots, "no failing trace after the fault"
    assert set(roots) == {inc.target}, roots
    # the failure reaches the user-facing proxy
    proxy_errors = post[(post.ServiceName == "frontend-proxy") & (post.StatusCode == "Error")]
    assert len(proxy_errors) > 0


@pytest.mark.parametrize("kind", sorted(FAULT_TYPES))
def test_ground_truth_follows_the_itbench_schema(
    incidents: dict[str, GeneratedIncident], kind: str
) -> None:
    inc = incidents[kind]
    truth = _truth(inc)
    assert truth.problems() == []
    [root] = truth.root_causes
    assert truth.fault[0].entity.group_id == root.id
    assert truth.fault[0].fault_mechanism
    # the chain starts at the root cause and ends at the proxy, through the target's groups
    assert truth.propagations[0].source == root.id
    assert truth.propagations[-1].target == "frontend-proxy-service-1"
    alias_of_target = [a for a in truth.aliases if f"{inc.target}-pod-1" in a]
    assert len(alias_of_target) == 1
    # every ground-truth alert fired, on the entity it is attributed to
    fired = set()
    for path in sorted((inc.path / "alerts").glob("alerts_at_*.json")):
        doc = json.loads(path.read_text())
        for alert in (doc.get("data") or doc)["alerts"]:
            if alert["state"] == "firing":
                labels = alert["labels"]
                fired.add((labels["alertname"], labels.get("service_name") or labels.get("node")))
    assert truth.alerts, "a fault that breaks the shop fires alerts"
    for alert in truth.alerts:
        group = truth.group(alert.group_id)
        subject = group.name if group.kind == "Node" else alert.group_id.rsplit("-", 2)[0]
        if group.kind == "Service" and group.name:
            subject = group.name
        assert (alert.id, subject) in fired, (alert.id, subject)


def test_corpus_and_generated_ground_truths_pass_the_same_loader(
    incidents: dict[str, GeneratedIncident],
) -> None:
    if not SRE_CORPUS.is_dir():
        pytest.skip(f"the ITBench SRE corpus is not at {SRE_CORPUS} (../shared absent)")
    repo = sorted(glob.glob(str(SRE_CORPUS / "itbench_repo_gt" / "*" / "groundtruth_v1.yaml")))
    flat = json.loads((SRE_CORPUS / "evaluations_sample/data/ground_truths.json").read_text())
    loaded = [load_ground_truth(Path(p)) for p in repo]
    loaded += [parse_ground_truth(d, f"ground_truths.json[{i}]") for i, d in enumerate(flat)]
    assert len(loaded) == len(repo) + len(flat) == 105
    assert all(gt.root_causes for gt in loaded if not gt.problems())
    for inc in incidents.values():
        assert load_ground_truth(inc.path / "ground_truth.yaml").problems() == []


def test_loader_names_the_file_and_field_of_a_bad_ground_truth(tmp_path: Path) -> None:
    bad = tmp_path / "ground_truth.yaml"
    bad.write_text("groups:\n  - id: x\n    namespace: otel-demo\n")
    with pytest.raises(Exception, match=r"ground_truth\.yaml: ground truth field groups\.0\.kind"):
        load_ground_truth(bad)


def test_same_seed_same_bytes_other_seed_other_incident(tmp_path: Path) -> None:
    def digest(folder: Path) -> dict[str, str]:
        return {
            str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*"))
            if p.is_file()
        }

    a = write_incident(tmp_path / "a", "oom-killed", 7)
    b = write_incident(tmp_path / "b", "oom-killed", 7)
    c = write_incident(tmp_path / "c", "oom-killed", 8)
    assert digest(a.path) == digest(b.path)
    assert digest(a.path)["otel_traces_raw.tsv"] != digest(c.path)["otel_traces_raw.tsv"]


def test_small_incidents_stay_under_five_megabytes(
    incidents: dict[str, GeneratedIncident],
) -> None:
    for kind, inc in incidents.items():
        files = [p for p in inc.path.rglob("*") if p.is_file()]
        total = sum(p.stat().st_size for p in files)
        assert 1 * MB < total <= 5 * MB, (kind, total)
        assert total == inc.bytes
        names = {p.relative_to(inc.path).parts[0] for p in files}
        assert names == {
            "alerts",
            "metrics",
            "k8s_events_raw.tsv",
            "k8s_objects_raw.tsv",
            "otel_logs_raw.tsv",
            "otel_traces_raw.tsv",
            "ground_truth.yaml",
        }


def test_noise_is_present_and_kept_out_of_the_ground_truth(
    incidents: dict[str, GeneratedIncident],
) -> None:
    inc = incidents["nonexistent-image"]
    truth = _truth(inc)
    in_truth = {g.name or g.id.rsplit("-", 2)[0] for g in truth.groups}
    root_causes = {g.name or g.id.rsplit("-", 2)[0] for g in truth.groups if g.root_cause}
    objects = _tsv(inc.path / "k8s_objects_raw.tsv")
    images: dict[str, dict[str, str]] = {}
    cpu_limits: dict[str, set[str | None]] = {}
    for ts, body in zip(objects.Timestamp, map(json.loads, objects.Body), strict=True):
        if body["kind"] == "Deployment":
            name, c = body["metadata"]["name"], _container(body)
            images.setdefault(name, {}).setdefault(c["image"], ts)
            cpu_limits.setdefault(name, set()).add(
                c.get("resources", {}).get("limits", {}).get("cpu")
            )
    rolled = {name: seen for name, seen in images.items() if len(seen) > 1 and name != inc.target}
    assert rolled and root_causes.isdisjoint(rolled), "normal rollouts, never the root cause"
    fault = inc.fault_time.replace(tzinfo=None)
    neighbours = set(OTEL_DEMO.callers(inc.target)) | set(OTEL_DEMO.callees(inc.target))
    near = {
        name for name, seen in rolled.items()
        if abs((pd.Timestamp(max(seen.values())) - pd.Timestamp(fault)).total_seconds()) <= 150
    }  # fmt: skip
    assert near and near <= neighbours, "the faulty service's neighbours roll out around the fault"
    assert rolled.keys() - near, "and one unrelated service rolls out well away from it"
    # the second degraded service has a spec change of its own (its CPU limit cut)
    assert cpu_limits["image-provider"] == {None, "50m"}
    reasons = Counter(
        json.loads(b)["object"]["reason"] for b in _tsv(inc.path / "k8s_events_raw.tsv").Body
    )
    assert reasons["Completed"] >= 2, "the periodic job runs"
    alerts = set()
    for path in (inc.path / "alerts").glob("*.json"):
        doc = json.loads(path.read_text())
        alerts |= {
            (a["labels"]["alertname"], a["labels"].get("service_name", ""))
            for a in (doc.get("data") or doc)["alerts"]
        }
    assert ("Watchdog", "") in alerts and ("CPUThrottlingHigh", "") in alerts
    # the second, unrelated degraded service alerts too, and is not in the ground truth
    assert ("RequestLatency", "image-provider") in alerts
    assert "image-provider" not in in_truth
    assert {a.id for a in truth.alerts}.isdisjoint({"Watchdog", "CPUThrottlingHigh"})


def test_alert_files_use_both_envelope_shapes(tmp_path: Path) -> None:
    shapes = set()
    for seed in (1, 2):
        inc = write_incident(tmp_path / str(seed), "scaled-to-zero", seed)
        doc = json.loads(next((inc.path / "alerts").glob("alerts_at_*.json")).read_text())
        shapes.add("data" in doc)
    assert shapes == {True, False}


def test_built_in_topology_agrees_with_the_itbench_architecture() -> None:
    arch = SRE_CORPUS / "app_topology" / "architecture.json"
    if not arch.is_file():
        pytest.skip(f"{arch} absent (../shared not checked out)")
    ours = {(c.source, c.target) for c in OTEL_DEMO.calls}
    theirs = {(c.source, c.target) for c in load_architecture(arch)}
    assert theirs <= ours
    # the only additions are the proxy's routes, which the architecture file leaves implicit
    assert ours - theirs == {("frontend-proxy", "frontend"), ("frontend-proxy", "image-provider")}


def test_cli_writes_incidents_and_prints_their_folders(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        generate,
        [
            "--fault",
            "bad-command",
            "--n",
            "2",
            "--seed",
            "4",
            "--out",
            str(tmp_path),
            "--format",
            "json",
        ],
        standalone_mode=False,
    )
    assert result.exception is None, result.output
    doc = json.loads(result.stdout)
    assert [Path(d["path"]).name for d in doc] == ["Scenario-1", "Scenario-2"]
    assert {d["fault_type"] for d in doc} == {"bad-command"}
    assert [d["seed"] for d in doc] == [4, 5]
    assert "bad-command on" in result.stderr
    for d in doc:
        assert (Path(d["path"]) / "ground_truth.yaml").is_file()


def test_cli_rejects_an_unknown_fault_type(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        generate, ["--fault", "bogus", "--seed", "1", "--out", str(tmp_path)]
    )
    assert result.exit_code == 2
    assert "bogus" in result.output and "dns-failure" in result.output


def _itbench(*args: str) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).parent / "itbench"
    return subprocess.run(
        [str(exe), "sre", "generate", *args],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


def test_itbench_sre_generate_follows_the_cli_contract(tmp_path: Path) -> None:
    ok = _itbench("--fault", "scaled-to-zero", "--seed", "3", "--out", str(tmp_path / "out"))
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.splitlines() == [str(tmp_path / "out" / "Scenario-1")]
    assert "scaled-to-zero on" in ok.stderr
    # rerunning replaces a generated incident in place
    again = _itbench("--fault", "scaled-to-zero", "--seed", "3", "--out", str(tmp_path / "out"))
    assert again.returncode == 0, again.stderr

    foreign = tmp_path / "mine" / "Scenario-1"
    foreign.mkdir(parents=True)
    (foreign / "notes.txt").write_text("keep me")
    refused = _itbench("--seed", "1", "--out", str(tmp_path / "mine"))
    assert refused.returncode == 2
    assert "Scenario-1: exists and is not a generated incident" in refused.stderr
    assert (foreign / "notes.txt").read_text() == "keep me"

    blocker = tmp_path / "a-file"
    blocker.write_text("")
    unwritable = _itbench("--seed", "1", "--out", str(blocker / "sub"))
    assert unwritable.returncode == 3
    assert "cannot create the incident folder" in unwritable.stderr
    assert "Traceback" not in unwritable.stderr

    unknown = _itbench("--fault", "bogus", "--seed", "1", "--out", str(tmp_path / "x"))
    assert unknown.returncode == 2 and "bogus" in unknown.stderr


def test_a_list_written_empty_as_a_bare_key_is_empty(tmp_path: Path) -> None:
    # `alerts:` with nothing after it (no alert fired beyond the housekeeping ones) is YAML null
    truth = tmp_path / "ground_truth.yaml"
    truth.write_text(
        "groups:\n  - {id: cm, kind: ConfigMap, namespace: otel-demo, name: flagd-config,"
        " root_cause: true}\nalerts:\npropagations:\naliases:\n"
    )
    loaded = load_ground_truth(truth)
    assert (loaded.alerts, loaded.propagations, loaded.aliases) == ([], [], [])
