"""Each investigation tool through the Python API, asserting what it finds in the fixture incident:
checkout's Deployment was changed at 02:20 to an image that does not exist (and a flag flipped);
checkout's spans fail from then on, frontend's fail because of it, payment is no longer called."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from itbench.errors import UsageError
from sre.snapshot import SnapshotFileMissing
from sre.tools import (
    TOOL_NAMES,
    alert_analysis,
    alert_summary,
    build_topology,
    event_analysis,
    get_context_contract,
    get_k8_spec,
    get_metric_anomalies,
    get_trace_error_tree,
    k8s_spec_change_analysis,
    log_analysis,
    metric_analysis,
    tool_specs,
    topology_analysis,
)
from tests._support.cli import SHARED

ARCH = SHARED / "corpora/itbench/sre/app_topology/architecture.json"
needs_arch = pytest.mark.skipif(
    not ARCH.exists(), reason=f"{ARCH} is absent (../shared not mounted)"
)


def test_every_original_tool_is_registered_with_its_original_name():
    assert sorted(tool_specs()) == sorted(TOOL_NAMES)
    assert len(TOOL_NAMES) == 12


def test_alert_summary_groups_by_alert_entity_and_severity(incident: Path):
    r = alert_summary.run(alert_summary.Args(base_dir=str(incident / "alerts")))
    answer = r.answer()  # the original's shape: the list itself, times as str(datetime)
    got = {
        (a["alertname"], a["entity"]): (a["first_seen"], a["last_seen"], a["duration_min"],
                                        a["occurrences"])
        for a in answer
    }  # fmt: skip
    assert got == {
        ("RequestErrorRate", "checkout"): ("2025-12-12 02:25:00", "2025-12-12 02:30:00", 5.0, 2),
        ("KubeJobFailed", "nightly-report"): ("2025-12-12 02:25:00", "2025-12-12 02:30:00", 5.0, 2),
        ("RequestErrorRate", "frontend"): ("2025-12-12 02:30:00", "2025-12-12 02:30:00", 0.0, 1),
    }
    assert answer[-1]["entity"] == "frontend"  # sorted by duration
    assert any("alerts_at_2025-12-12T02-35-00.000000.json: skipped" in w for w in r.warnings)


def test_alert_summary_active_at_basis_and_minimum_duration(incident: Path):
    r = alert_summary.run(
        alert_summary.Args(base_dir=str(incident), time_basis="activeAt", min_duration_min=7)
    )
    got = {(a.alertname, a.entity): (a.first_seen, a.duration_min) for a in r.alerts}
    # by activeAt, as the original: one activeAt per alert, so no duration across dumps
    assert got == {}
    window = alert_summary.run(
        alert_summary.Args(base_dir=str(incident), start_time="2024-01-01T00:00:00Z",
                           end_time="2024-01-01T01:00:00Z")
    )  # fmt: skip
    assert window.answer() == []
    assert any("lies outside the alert dumps" in w for w in window.warnings)


def test_alert_analysis_flattens_labels_and_pages(incident: Path):
    r = alert_analysis.run(
        alert_analysis.Args(base_dir=str(incident), filters={"labels.severity": "critical"},
                            group_by="labels.service_name")
    )  # fmt: skip
    assert r.total_count == 2
    assert r.data == [
        {"labels.service_name": "checkout", "count": 2},
        {"labels.service_name": "frontend", "count": 1},
    ]
    rows = alert_analysis.run(alert_analysis.Args(base_dir=str(incident), limit=2, offset=4))
    assert (rows.total_count, rows.returned_count) == (5, 1)
    assert rows.data[0]["duration_active_min"] == 6.0  # frontend: active 02:24, seen 02:30


def test_alert_analysis_unknown_column_lists_the_columns(incident: Path):
    with pytest.raises(UsageError, match="unknown column 'labels.nope'; columns: labels.alertname"):
        alert_analysis.run(alert_analysis.Args(base_dir=str(incident), group_by="labels.nope"))


def test_event_analysis_warnings_by_deployment_and_reason(incident: Path):
    r = event_analysis.run(
        event_analysis.Args(
            events_file=str(incident / "k8s_events_raw.tsv"),
            filters={"event_kind": "Warning"}, group_by=["deployment", "reason"],
        )
    )  # fmt: skip
    assert sorted((d["deployment"], d["reason"], d["count"]) for d in r.data) == [
        ("checkout", "BackOff", 1), ("checkout", "Failed", 1), ("frontend", "Unhealthy", 1),
    ]  # fmt: skip
    assert r.warnings[0].endswith("k8s_events_raw.tsv: 2 malformed row(s) skipped")


def test_event_analysis_first_event_and_time_window(incident: Path):
    r = event_analysis.run(
        event_analysis.Args(
            events_file=str(incident / "k8s_events_raw.tsv"), group_by="object_name", agg="first",
            start_time="2025-12-12T02:20:00Z", end_time="2025-12-12 02:21:00",
        )
    )  # fmt: skip
    assert {d["object_name"]: d["reason"] for d in r.data} == {
        "checkout": "ScalingReplicaSet", "checkout-6f7b9c-x2k4q": "Failed",
    }  # fmt: skip


def test_spec_change_analysis_finds_the_faulty_change(incident: Path):
    r = k8s_spec_change_analysis.run(
        k8s_spec_change_analysis.Args(k8s_objects_file=str(incident / "k8s_objects_raw.tsv"))
    )
    answer = r.answer()
    assert answer["entity_order"] == [
        "otel-demo/Deployment/checkout",
        "otel-demo/Deployment/frontend",
        "otel-demo/NetworkPolicy/deny-payment",
    ]
    entities = {e["entity"]: e for e in answer["entities_with_changes"]}
    (change,) = [c for c in entities["otel-demo/Deployment/checkout"]["changes"]
                 if c["change"] == "modified"]  # fmt: skip
    assert change["timestamp"] == "2025-12-12 02:20:00+00:00"
    assert {(i["path"], i["old"], i["new"]) for i in change["changes"]} == {
        ("spec.template.spec.containers[0].image", "ghcr.io/otel/demo:checkout-1.12.0",
         "ghcr.io/otel/demo:checkout-2.0.0-missing"),
        ("spec.template.spec.containers[0].env[0].value", "on", "off"),
    }  # fmt: skip
    # frontend changed only resourceVersion, generation and the revision annotation: no spec
    # change, only the original's entity_modified for its resourceVersion
    assert [c["change"] for c in entities["otel-demo/Deployment/frontend"]["changes"]] == [
        "resource_version"
    ]
    assert entities["otel-demo/NetworkPolicy/deny-payment"]["changes"][0]["change"] == "created"
    assert answer["entities"]["otel-demo/NetworkPolicy/deny-payment"]["lifecycle"]["inferred_added"]


def test_spec_change_analysis_window_after_the_change_and_no_change_listing(incident: Path):
    late = k8s_spec_change_analysis.run(
        k8s_spec_change_analysis.Args(
            k8s_objects_file=str(incident / "k8s_objects_raw.tsv"),
            start_time="2025-12-12T02:21:00Z",
        )
    )
    assert late.answer()["entity_order"] == ["otel-demo/NetworkPolicy/deny-payment"]
    every = k8s_spec_change_analysis.run(
        k8s_spec_change_analysis.Args(
            k8s_objects_file=str(incident / "k8s_objects_raw.tsv"), k8_object_name="frontend",
            include_no_change=True, include_reference_spec=True,
        )
    )  # fmt: skip
    entities = every.answer()["entities"]
    assert sorted(entities) == ["otel-demo/Deployment/frontend", "otel-demo/Service/frontend"]
    assert entities["otel-demo/Service/frontend"]["change_event_count"] == 0
    # the Deployment's only change is its resourceVersion (the original's entity_modified)
    assert entities["otel-demo/Deployment/frontend"]["change_event_count"] == 1
    reference = entities["otel-demo/Service/frontend"]["reference_spec"]["spec"]
    assert reference["spec"]["ports"][0]["port"] == 8080


def test_get_k8_spec_latest_exact_then_substring(incident: Path):
    f = str(incident / "k8s_objects_raw.tsv")
    r = get_k8_spec.run(
        get_k8_spec.Args(k8s_objects_file=f, k8_object_name="otel-demo/Deployment/checkout")
    )
    exact = r.answer()  # the original's single-entity shape: the whole object under "spec"
    assert (exact["matched_by"], exact["entity_id"]) == ("exact", "otel-demo/Deployment/checkout")
    assert (
        exact["spec"]["spec"]["template"]["spec"]["containers"][0]["image"]
        == "ghcr.io/otel/demo:checkout-2.0.0-missing"
    )
    loose = get_k8_spec.run(get_k8_spec.Args(k8s_objects_file=f, k8_object_name="deny")).answer()
    assert (loose["matched_by"], loose["entity_id"]) == (
        "substring",
        "otel-demo/NetworkPolicy/deny-payment",
    )
    history = get_k8_spec.run(
        get_k8_spec.Args(
            k8s_objects_file=f, k8_object_name="Deployment/checkout", return_all_observations=True
        )
    ).answer()
    assert "kind/name" in history["identifier_format"] and "warning" in history
    assert [o["timestamp"] for o in history["observations"]] == [
        "2025-12-12 02:00:00+00:00", "2025-12-12 02:20:00+00:00",
    ]  # fmt: skip
    missing = get_k8_spec.run(get_k8_spec.Args(k8s_objects_file=f, k8_object_name="a/B/zqx"))
    assert (missing.answer()["found"], missing.answer()["spec"]) == (False, None)


def test_trace_error_tree_points_at_the_faulty_service(incident: Path):
    r = get_trace_error_tree.run(
        get_trace_error_tree.Args(
            trace_file=str(incident / "otel_traces_raw.tsv"),
            pivot_time="2025-12-12T02:20:30Z",
            delta_time="15m",
        )
    )
    answer = r.answer()
    got = {
        c["path"]: (c["severity"], c.get("root_cause_suspect", {}).get("service"))
        for c in answer["span_critical_paths"]
    }
    assert got == {
        "frontend → checkout": ("CRITICAL", "checkout"),
        "frontend": ("CRITICAL", "checkout"),
        "frontend → checkout → payment": ("DISAPPEARED", "checkout"),
    }
    first = answer["span_critical_paths"][0]
    assert first["path"] == "frontend → checkout" and first["sample_errors"] == [
        "rpc error: code = Unavailable"
    ]
    # the original's hops: each service's own figures, before → after
    assert [h["service"] for h in first["hops"]] == ["frontend", "checkout"]
    assert first["hops"][1]["latency_p99"] == "80ms → 850ms"  # from Duration (ns)
    assert (first["pre"]["mean_latency_ms"], first["post"]["mean_latency_ms"]) == (80.0, 850.0)
    assert answer["summary"]["post"]["errors"] == 12 and answer["summary"]["pre"]["errors"] == 0
    # the healthy sibling call is a span path of its own, unflagged
    assert "frontend → cart" in {p["path"] for p in answer["paths"]}
    assert "frontend → cart" not in got


def test_trace_error_tree_service_filter_finds_a_service_beside_a_deeper_chain(incident: Path):
    r = get_trace_error_tree.run(
        get_trace_error_tree.Args(
            trace_file=str(incident / "otel_traces_raw.tsv"), service_name="cart",
            pivot_time="2025-12-12T02:20:30Z", delta_time="15m",
        )
    )  # fmt: skip
    assert [p.path for p in r.paths] == ["frontend → cart"]
    assert r.span_critical_paths == []


def test_log_analysis_mines_the_error_pattern(incident: Path):
    r = log_analysis.run(
        log_analysis.Args(logs_file=str(incident / "otel_logs_raw.tsv"), severity_filter="error")
    )
    assert (r.answer()["total_logs"], r.answer()["pattern_count"]) == (8, 1)
    p = r.patterns[0]
    assert p.pattern == "failed to charge card for order <UUID> via <IP>: connection refused"
    assert (p.count, p.severity_breakdown, p.service_breakdown) == (
        8,
        {"ERROR": 8},
        {"checkout": 8},
    )
    lines = log_analysis.run(
        log_analysis.Args(logs_file=str(incident / "otel_logs_raw.tsv"), k8_object="otel-demo/Pod/frontend-5c6d-abcde",
                          pattern_analysis=False, limit=2)
    )  # fmt: skip
    rows = lines.answer()  # newest first, as the original pages them
    assert rows["total_count"] == 5 and [entry["Body"] for entry in rows["data"]] == [
        "GET /api/products/1004 200 in 14ms", "GET /api/products/1003 200 in 13ms",
    ]  # fmt: skip


def test_metric_anomalies_per_metric_not_pooled(incident: Path):
    r = get_metric_anomalies.run(
        get_metric_anomalies.Args(
            k8_object_name="pod/checkout-6f7b9c-x2k4q", base_dir=str(incident / "metrics")
        )
    )
    by_metric = {m.metric_name: m for m in r.metrics}
    cpu = by_metric["container_cpu_usage_seconds_total"]
    # pooled with the 5e8-byte memory series the 0.95 spike would sit far below one threshold
    assert [(a["timestamp"], a["value"]) for a in cpu.anomalies] == [
        ("2025-12-12 02:21:00+00:00", 0.95)
    ]
    assert by_metric["container_memory_working_set_bytes"].anomaly_count == 0
    assert len(cpu.data) == 10


def test_metric_lookup_is_by_exact_name_not_prefix(incident: Path):
    r = get_metric_anomalies.run(
        get_metric_anomalies.Args(
            k8_object_name="frontend", base_dir=str(incident / "metrics"), raw_content=False
        )
    )
    assert (r.object, r.objects) == ("frontend", ["service/frontend"])
    assert "data" not in r.answer()["metrics"][0]  # raw_content=false: the key is left out
    assert {m.file for m in r.metrics} == {"service_frontend.tsv"}
    constant = r.metrics[0]
    assert (constant.std, constant.anomaly_count) == (0.0, 0)


def test_metric_analysis_group_by_deployment_and_eval(incident: Path):
    base = str(incident / "metrics")
    r = metric_analysis.run(
        metric_analysis.Args(base_dir=base, object_pattern="pod/*", group_by="deployment", agg="max",
                             metric_names=["container_cpu_usage_seconds_total"])
    )  # fmt: skip
    assert {d["deployment"]: d["value"] for d in r.answer()} == {"checkout": 0.95, "frontend": 0.2}
    derived = metric_analysis.run(
        metric_analysis.Args(
            base_dir=base, k8_object_name="checkout-6f7b9c-x2k4q",
            eval="cpu_per_gb = container_cpu_usage_seconds_total / container_memory_working_set_bytes * 1e9",
            group_by="timestamp", agg="max",
        )
    )  # fmt: skip
    rows = derived.answer()  # one row per timestamp, the metrics and the derived column
    assert len(rows) == 10
    top = rows[0]  # sorted by the derived column, highest first
    assert top["timestamp"] == 1765506060000  # 02:21:00 in epoch ms, as pandas writes it
    assert top["cpu_per_gb"] == pytest.approx(0.95 / 5.0e8 * 1e9)


def test_metric_analysis_compact_drops_buckets_and_keeps_labels(incident: Path):
    base = str(incident / "metrics")
    compact = metric_analysis.run(
        metric_analysis.Args(base_dir=base, object_pattern="service/checkout")
    )
    assert [d["metric_name"] for d in compact.answer()] == ["traces_span_metrics_calls_total"]
    row = compact.answer()[0]
    assert (row["count"], row["min"], row["max"], row["last_value"]) == (10, 35.0, 102.0, 35.0)
    assert row["labels"] == {"status_code": "STATUS_CODE_ERROR"}  # the original's labels_keep
    buckets = metric_analysis.run(
        metric_analysis.Args(base_dir=base, object_pattern="service/checkout", include_buckets=True)
    )
    assert len(buckets.answer()) == 2
    quantiles = metric_analysis.run(
        metric_analysis.Args(base_dir=base, object_pattern="service/checkout",
                             metric_names=["traces_span_metrics_duration_milliseconds_bucket"])
    ).answer()  # fmt: skip
    assert set(quantiles[0]["duration_ms"]) == {"p50", "p90", "p95", "p99"}


def test_metric_analysis_eval_refuses_code(incident: Path):
    with pytest.raises(UsageError, match="only metric names, numbers"):
        metric_analysis.run(
            metric_analysis.Args(
                base_dir=str(incident / "metrics"), eval="x = __import__('os').getcwd()"
            )
        )


@needs_arch
def test_build_topology_from_raw_bodies_then_analysis(incident: Path, tmp_path: Path):
    out = tmp_path / "topology.json"
    r = build_topology.run(
        build_topology.Args(arch_file=str(ARCH), k8s_objects_file=str(incident / "k8s_objects_raw.tsv"),
                            output_file=str(out))
    )  # fmt: skip
    doc = json.loads(out.read_text())
    edges = {(e["source"], e["relation"], e["target"]) for e in doc["edges"]}
    assert ("Service/checkout", "is_alias", "Deployment/checkout") in edges
    assert ("Deployment/checkout", "contains", "ReplicaSet/checkout-6f7b9c") in edges
    assert ("ReplicaSet/checkout-6f7b9c", "contains", "Pod/checkout-6f7b9c-x2k4q") in edges
    assert ("Service/frontend", "calls", "Service/checkout") in edges
    assert r.relations["is_alias"] == 2 and r.node_count == len(doc["nodes"])
    t = topology_analysis.run(
        topology_analysis.Args(topology_file=str(out), entity="Pod/checkout-6f7b9c-x2k4q")
    )
    assert t.matches == ["Pod/checkout-6f7b9c-x2k4q"]
    assert t.backing_infrastructure == [
        "Deployment/checkout",
        "Namespace/otel-demo",
        "ReplicaSet/checkout-6f7b9c",
    ]
    svc = topology_analysis.run(
        topology_analysis.Args(topology_file=str(out), entity="Service/checkout")
    )
    assert svc.aliases == ["Deployment/checkout"]
    assert svc.callers == ["Service/frontend"]
    assert ["Service/frontend", "Service/checkout"] in svc.call_chains_to_root


def test_context_contract_gathers_every_source(incident: Path):
    r = get_context_contract.run(
        get_context_contract.Args(
            k8_object="otel-demo/Deployment/checkout", snapshot_dir=str(incident)
        )
    )
    ctx = r.answer()  # the original's page 1: the entity's context at the top level
    assert (ctx["context_type"], ctx["identifier_format"]) == ("main_entity", "namespace/kind/name")
    image = ctx["k8s_spec"]["spec"]["spec"]["template"]["spec"]["containers"][0]["image"]
    assert image.endswith("checkout-2.0.0-missing")
    assert {(d["event_kind"], d["reason"]) for d in ctx["events"]["items"]["data"]} >= {
        ("Warning", "Failed"),
        ("Warning", "BackOff"),
    }
    # the original's alerts section always failed (alerts_error); ours answers it
    assert [a["alertname"] for a in ctx["alerts"]["items"]] == ["RequestErrorRate"]
    assert "alerts_error" not in ctx
    assert (
        ctx["trace_errors"]["span_critical_paths"][0]["root_cause_suspect"]["service"] == "checkout"
    )
    assert ctx["log_patterns"]["patterns"][0]["service_breakdown"] == {"checkout": 8}
    assert ctx["spec_changes"]["entity_order"] == ["otel-demo/Deployment/checkout"]
    assert ctx["pagination"]["total_pages"] == 2 and ctx["dependencies"] == ["Service/payment"]
    # no topology file: it is derived, so nothing is missing and checkout's callee is paged
    assert r.missing_sources == []
    assert r.topology_source == "derived from k8s_objects_raw.tsv, otel_traces_raw.tsv"
    assert (r.dependencies, r.total_pages) == (["Service/payment"], 2)


def test_context_contract_derives_dependencies_from_objects_and_traces(incident: Path):
    """Without a topology file the callees come from the traces' call paths, reached through the
    Service a Deployment is an alias of; page 2 is the context of the callee."""
    frontend = get_context_contract.run(
        get_context_contract.Args(k8_object="otel-demo/Deployment/frontend", snapshot_dir=str(incident))
    )  # fmt: skip
    assert frontend.dependencies == ["Service/cart", "Service/checkout"]
    page2 = get_context_contract.run(
        get_context_contract.Args(
            k8_object="otel-demo/Deployment/checkout", snapshot_dir=str(incident), page=2
        )
    )
    assert [c["entity"] for c in page2.contexts] == ["payment"]
    assert page2.answer()["dependencies_on_page"] == ["Service/payment"]
    # payment stopped answering once checkout broke: its own spans are the pre-fault ones
    assert page2.contexts[0]["trace_errors"]["critical_paths"] == []


def test_context_contract_prefers_a_topology_file(incident: Path, tmp_path: Path):
    snapshot = tmp_path / "snap"
    snapshot.mkdir()
    for name in ("k8s_objects_raw.tsv", "otel_traces_raw.tsv"):
        (snapshot / name).symlink_to(incident / name)
    edges = [{"source": "Service/checkout", "relation": "calls", "target": "Service/email"}]
    (snapshot / "operational_topology.json").write_text(json.dumps({"nodes": [
        {"id": "Service/checkout"}, {"id": "Service/email"}], "edges": edges}))  # fmt: skip
    r = get_context_contract.run(
        get_context_contract.Args(k8_object="checkout", snapshot_dir=str(snapshot))
    )
    assert r.dependencies == ["Service/email"]
    assert r.topology_source == str(snapshot / "operational_topology.json")


def test_context_contract_without_objects_traces_or_topology(tmp_path: Path, incident: Path):
    snapshot = tmp_path / "alerts-only"
    snapshot.mkdir()
    (snapshot / "alerts").symlink_to(incident / "alerts")
    r = get_context_contract.run(
        get_context_contract.Args(k8_object="checkout", snapshot_dir=str(snapshot))
    )
    assert (r.dependencies, r.total_pages, r.topology_source) == ([], 1, None)
    assert str(snapshot / "operational_topology.json") in r.missing_sources
    assert r.contexts[0]["alerts"]["items"][0]["entity"] == "checkout"


def test_missing_sources_are_named_and_the_rest_answer(sparse_incident: Path):
    r = get_context_contract.run(
        get_context_contract.Args(k8_object="checkout", snapshot_dir=str(sparse_incident))
    )
    names = {Path(m).name for m in r.missing_sources}
    assert names == {
        "k8s_objects_raw.tsv",
        "k8s_events_raw.tsv",
        "metrics",
        "otel_logs_raw.tsv",
    }
    # the traces alone give the call graph the missing topology file would have
    assert r.topology_source == "derived from otel_traces_raw.tsv"
    assert r.dependencies == ["Service/payment"]
    ctx = r.contexts[0]
    assert set(ctx) == {"entity", "alerts", "trace_errors"}
    assert ctx["alerts"]["items"][0]["entity"] == "checkout"
    with pytest.raises(
        SnapshotFileMissing, match=r"k8s_events_raw.tsv: the events file is missing"
    ):
        event_analysis.run(
            event_analysis.Args(events_file=str(sparse_incident / "k8s_events_raw.tsv"))
        )


def test_bad_times_are_usage_errors_naming_the_argument(incident: Path):
    with pytest.raises(UsageError, match="start_time: 'yesterday' is not an ISO 8601 time"):
        event_analysis.run(
            event_analysis.Args(
                events_file=str(incident / "k8s_events_raw.tsv"), start_time="yesterday"
            )
        )


def test_spec_changes_from_a_processed_objects_file(tmp_path: Path):
    """The other objects layout the original reads: timestamp, object_kind, object_name, body."""
    rows = ["timestamp\tobject_kind\tobject_name\tbody"]
    for ts, port in (("2025-12-12T02:00:00Z", 8080), ("2025-12-12T02:10:00Z", 9090)):
        body = {
            "metadata": {"name": "cart", "namespace": "shop"},
            "spec": {"ports": [{"targetPort": port}]},
        }
        rows.append(f"{ts}\tService\tcart\t{json.dumps(body)}")
    f = tmp_path / "k8s_objects.tsv"
    f.write_text("\n".join(rows) + "\n")
    r = k8s_spec_change_analysis.run(k8s_spec_change_analysis.Args(k8s_objects_file=str(f)))
    assert r.answer()["entity_order"] == ["shop/Service/cart"]
    item = r.answer()["entities_with_changes"][0]["changes"][0]["changes"][0]
    assert (item["path"], item["old"], item["new"]) == ("spec.ports[0].targetPort", 8080, 9090)


#: the same instant (02:20:00 UTC) in every form the original accepts, and as epoch numbers
SAME_START = [
    "2025-12-12T02:20:00Z", "2025-12-12T02:20:00", "2025-12-12 02:20:00",
    "2025-12-12T02:20:00.000000+00:00", "2025-12-12T03:20:00+01:00", "2025-12-12 02:20:00.000",
    "1765506000", "1765506000000", 1765506000, 1765506000000,
]  # fmt: skip


@pytest.mark.parametrize("start", SAME_START, ids=[repr(s) for s in SAME_START])
def test_every_time_form_gives_the_same_window(incident: Path, start):
    r = event_analysis.run(
        event_analysis.Args(
            events_file=str(incident / "k8s_events_raw.tsv"), start_time=start,
            end_time="2025-12-12T02:21:00Z",
        )
    )  # fmt: skip
    assert [d["reason"] for d in r.data] == ["ScalingReplicaSet", "Failed"], start
    assert not [w for w in r.warnings if "window" in w], r.warnings


#: one call per tool taking a window, with a window in 2024 (the data is from 2025-12-12)
OUTSIDE = {"start_time": "2024-01-01T00:00:00Z", "end_time": "2024-01-01T01:00:00Z"}
WINDOWED = {
    "alert_summary": {"base_dir": "alerts", **OUTSIDE},
    "alert_analysis": {"base_dir": "alerts", **OUTSIDE},
    "event_analysis": {"events_file": "k8s_events_raw.tsv", **OUTSIDE},
    "metric_analysis": {"base_dir": "metrics", "k8_object_name": "pod/checkout-6f7b9c-x2k4q", **OUTSIDE},
    "get_metric_anomalies": {"base_dir": "metrics", "k8_object_name": "pod/checkout-6f7b9c-x2k4q", **OUTSIDE},
    "log_analysis": {"logs_file": "otel_logs_raw.tsv", **OUTSIDE},
    "k8s_spec_change_analysis": {"k8s_objects_file": "k8s_objects_raw.tsv", **OUTSIDE},
    "get_trace_error_tree": {"trace_file": "otel_traces_raw.tsv", "pivot_time": OUTSIDE["start_time"]},
    "get_context_contract": {"snapshot_dir": ".", "k8_object": "otel-demo/Deployment/checkout", **OUTSIDE},
}  # fmt: skip


@pytest.mark.parametrize("tool", sorted(WINDOWED))
def test_a_window_outside_the_data_says_so(incident: Path, tool: str):
    from sre.tools import run_tool

    args = {
        k: str(incident / v) if k.endswith(("_dir", "_file")) else v
        for k, v in WINDOWED[tool].items()
    }
    answer = run_tool(tool, args)
    assert any("outside" in w and "2025-12-12" in w for w in answer.warnings), answer.warnings
    assert "warnings" not in answer.body or tool == "get_trace_error_tree"  # never in the shape
