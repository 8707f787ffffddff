"""The baseline on incidents shaped as ITBench's scenarios leave them (``incidents.py``): the
root cause named as ITBench's ground truths name it, per incident, with a pull exporter's
ten-minute observations, gRPC callees named only by ``rpc.service``, events in
events.k8s.io/v1 shape, log lines without a level, a steady background error rate, an alert
firing all along and a routine rollout of another service in the window."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest

from tests.sre.shapes2.incidents import INCIDENTS
from tests.sre.shapes2.writer import FAULT, write


def _root_causes(snapshot: Path) -> list[str]:
    from sre.agents.baseline import diagnose

    return [e["name"] for e in diagnose(snapshot).entities if e["contributing_factor"]]


@pytest.mark.parametrize("name", sorted(INCIDENTS))
def test_baseline_names_the_root_cause_as_itbench_does(
    private_cache: Path, tmp_path: Path, name: str
):
    incident = INCIDENTS[name]
    assert _root_causes(write(tmp_path / "snap", incident)) == [incident.root_cause]


def test_grpc_callee_named_by_the_service_serving_its_rpc_service(
    private_cache: Path, tmp_path: Path
):
    """checkout's client spans to cart name it only by ``oteldemo.CartService``: the error tree
    blames cart, the application whose server spans carry that rpc.service."""
    from sre.tools import call

    snap = write(tmp_path / "snap", INCIDENTS["schedule-partition-grpc"])
    tree = call(
        "get_trace_error_tree",
        {"trace_file": str(snap / "otel_traces_raw.tsv"), "pivot_time": FAULT.isoformat()},
    )
    failing = [c for c in tree["span_critical_paths"] if c["severity"] == "CRITICAL"]
    # without the rpc.service the client spans end at checkout, which the tree then blames
    assert {c["root_cause_suspect"]["service"] for c in failing} == {"cart"}
    assert "frontend → checkout → cart" in {c["path"] for c in failing}


def test_grpc_callee_without_server_spans_named_from_the_grpc_name(
    private_cache: Path, tmp_path: Path
):
    """No span of the callee at all: ``oteldemo.ProductCatalogService`` reads as
    product-catalog."""
    from sre.snapshot import SourceKind, open_source

    cols = "Timestamp\tTraceId\tSpanId\tParentSpanId\tSpanName\tSpanKind\tServiceName\t"
    cols += "SpanAttributes\tDuration\tStatusCode\tStatusMessage"
    rows = [cols]
    for i in range(3):
        attrs = json.dumps({"rpc.service": "oteldemo.ProductCatalogService", "rpc.system": "grpc"})
        rows.append(
            f"2026-05-04 08:0{i}:00.000000000\tt{i}\ts{i}\t\tListProducts\tSPAN_KIND_CLIENT\t"
            f"frontend\t{attrs}\t1000000\tSTATUS_CODE_ERROR\tunavailable"
        )
    path = tmp_path / "otel_traces_raw.tsv"
    path.write_text("\n".join(rows) + "\n")
    got = open_source(path, SourceKind.TRACES).query("SELECT DISTINCT peer_service FROM data")
    assert got == [("product-catalog",)]


def test_a_change_is_dated_by_its_write_not_by_the_observation_that_showed_it():
    from sre.agents.baseline.evidence import write_time

    before, seen = datetime(2026, 5, 4, 8, 14), datetime(2026, 5, 4, 8, 24)
    obj = {"metadata": {"creationTimestamp": "2026-05-01T00:00:00Z", "managedFields": [
        {"manager": "helm", "time": "2026-05-01T00:00:00Z"},
        {"manager": "kubectl-edit", "time": "2026-05-04T08:21:40Z"},
        {"manager": "kube-controller-manager", "time": "not a time"}]}}  # fmt: skip
    assert write_time(obj, "modified", before, seen) == datetime(2026, 5, 4, 8, 21, 40)
    # a write outside the span between the two observations says nothing about this change
    assert write_time(obj, "modified", datetime(2026, 5, 4, 8, 22), seen) is None
    created = {"metadata": {"creationTimestamp": "2026-05-04T08:19:00Z"}}
    assert write_time(created, "created", before, seen) == datetime(2026, 5, 4, 8, 19)


def _objects_file(tmp_path: Path, observations: list[tuple[str, list[dict]]]) -> Path:
    lines = ["Timestamp\tBody"]
    for at, objs in observations:
        lines += [f"{at}\t{json.dumps(o)}" for o in objs]
    path = tmp_path / "k8s_objects_raw.tsv"
    path.write_text("\n".join(lines) + "\n")
    return path


def _svc(name: str) -> dict:
    return {"kind": "Service", "apiVersion": "v1",
            "metadata": {"name": name, "namespace": "shop"},
            "spec": {"selector": {"app": name}}}  # fmt: skip


def test_a_service_missing_from_later_periodic_observations_is_deleted(
    private_cache: Path, tmp_path: Path
):
    from sre.agents.baseline.vanished import vanished

    path = _objects_file(tmp_path, [
        ("2026-05-04 08:04:00", [_svc("cart"), _svc("email")]),
        ("2026-05-04 08:14:00", [_svc("cart"), _svc("email")]),
        ("2026-05-04 08:24:00", [_svc("cart")]),
        ("2026-05-04 08:34:00", [_svc("cart")]),
    ])  # fmt: skip
    (gone,) = vanished(path)
    assert (gone.kind, gone.name, gone.change) == ("Service", "email", "deleted")
    assert (gone.since, gone.time) == (datetime(2026, 5, 4, 8, 14), datetime(2026, 5, 4, 8, 24))
    assert gone.spec == {"selector": {"app": "email"}}


def test_an_export_of_changes_only_deletes_nothing(private_cache: Path, tmp_path: Path):
    """An exporter that writes an object only when it changes does not observe the unchanged
    ones again: an object not seen at the end is not gone."""
    from sre.agents.baseline.vanished import vanished

    edited = _svc("cart") | {"spec": {"selector": {"app": "cart"}, "type": "NodePort"}}
    path = _objects_file(tmp_path, [
        ("2026-05-04 08:04:00", [_svc("cart"), _svc("email")]),
        ("2026-05-04 08:24:00", [edited]),
    ])  # fmt: skip
    assert vanished(path) == []


def test_a_secret_acts_on_the_workloads_that_read_it():
    """By an environment variable, envFrom, a volume or a projected volume; a Secret nobody
    reads acts on no workload."""
    from datetime import datetime as dt

    from sre.agents.baseline.states.config_users import users
    from sre.agents.baseline.states.objects import ObjectView

    def dep(name: str, pod_spec: dict) -> tuple[dt, dict]:
        return dt(2026, 5, 4), {
            "kind": "Deployment", "metadata": {"name": name, "namespace": "shop"},
            "spec": {"template": {"spec": pod_spec}},
        }  # fmt: skip

    view = ObjectView.of([
        dep("cart", {"containers": [{"env": [{"name": "P", "valueFrom": {
            "secretKeyRef": {"name": "valkey-pass", "key": "p"}}}]}]}),
        dep("email", {"containers": [{"envFrom": [{"secretRef": {"name": "smtp"}}]}]}),
        dep("ad", {"volumes": [{"name": "v", "secret": {"secretName": "smtp"}}]}),
        dep("quote", {"volumes": [{"name": "v", "projected": {"sources": [
            {"configMap": {"name": "quote-config"}}]}}]}),
    ])  # fmt: skip
    assert users(view) == {
        "shop/Secret/valkey-pass": frozenset({"cart"}),
        "shop/Secret/smtp": frozenset({"email", "ad"}),
        "shop/ConfigMap/quote-config": frozenset({"quote"}),
        # and each runs as its namespace's default account, whose pull secrets its pods take
        "shop/ServiceAccount/default": frozenset({"cart", "email", "ad", "quote"}),
    }


def _secret(rv: str, written: str) -> dict:
    return {"kind": "Secret", "apiVersion": "v1",
            "metadata": {"name": "smtp", "namespace": "shop", "resourceVersion": rv,
                         "managedFields": [{"manager": "kubectl-edit", "time": written}]}}  # fmt: skip


def _config(rv: str) -> dict:
    return {"kind": "ConfigMap", "apiVersion": "v1", "data": {"a": "1"},
            "metadata": {"name": "settings", "namespace": "shop", "resourceVersion": rv}}  # fmt: skip


def test_a_secret_written_with_its_data_withheld_is_a_change(private_cache: Path, tmp_path: Path):
    from sre.agents.baseline.vanished import rewritten

    path = _objects_file(tmp_path, [
        ("2026-05-04 08:14:00", [_secret("100", "2026-05-01T00:00:00Z"), _config("7")]),
        ("2026-05-04 08:24:00", [_secret("230", "2026-05-04T08:21:40Z"), _config("7")]),
    ])  # fmt: skip
    (change,) = rewritten(path)
    assert (change.kind, change.name, change.change) == ("Secret", "smtp", "modified")
    assert change.time == datetime(2026, 5, 4, 8, 21, 40)
    assert change.values == (("metadata.resourceVersion", "100", "230"),)


def test_versions_renumbered_at_every_observation_say_nothing(private_cache: Path, tmp_path: Path):
    from sre.agents.baseline.vanished import rewritten

    path = _objects_file(tmp_path, [
        ("2026-05-04 08:14:00", [_secret("100", "2026-05-04T08:14:00Z"), _config("100")]),
        ("2026-05-04 08:24:00", [_secret("200", "2026-05-04T08:24:00Z"), _config("200")]),
    ])  # fmt: skip
    assert rewritten(path) == []
