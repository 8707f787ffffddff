"""Well-formedness of the independent writer's snapshots, by the public format alone.

Does not call project code: it checks that each incident has the files itbench-formats.md §3
requires, that every file parses, and that the ground truth has the fields the format names.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import pytest
import yaml

from tests.sre.independent.writer import all_specs, write_incident

csv.field_size_limit(sys.maxsize)
SPECS = all_specs()
TSV_HEADERS = {
    "k8s_objects_raw.tsv": {"Timestamp", "Body", "ResourceAttributes"},
    "k8s_events_raw.tsv": {"Timestamp", "Body"},
    "otel_logs_raw.tsv": {
        "Timestamp",
        "TraceId",
        "SpanId",
        "SeverityText",
        "ServiceName",
        "Body",
        "ResourceAttributes",
        "LogAttributes",
    },
    "otel_traces_raw.tsv": {
        "Timestamp",
        "TraceId",
        "SpanId",
        "ParentSpanId",
        "SpanName",
        "SpanKind",
        "ServiceName",
        "Duration",
        "StatusCode",
    },
}


def _rows(path: Path) -> list[dict]:
    with path.open(newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


@pytest.fixture(scope="module", params=SPECS, ids=lambda s: f"{s.fault}-v{s.variant}")
def incident(request, tmp_path_factory):
    spec = request.param
    return spec, write_incident(spec, tmp_path_factory.mktemp("ind") / "Scenario-1")


def test_required_files_parse(incident):
    spec, d = incident
    for name, cols in TSV_HEADERS.items():
        rows = _rows(d / name)
        assert cols <= set(rows[0] if rows else cols), (spec.fault, name)
    for r in _rows(d / "k8s_objects_raw.tsv"):
        obj = json.loads(r["Body"])
        assert obj["kind"] and obj["metadata"]["name"] and obj["metadata"]["managedFields"]
    for r in _rows(d / "k8s_events_raw.tsv"):
        body = json.loads(r["Body"])
        ref = body["object"].get("involvedObject") or body["object"]["regarding"]
        assert "uid" not in ref and {"kind", "name", "namespace"} <= set(ref)
        assert body["type"] in ("ADDED", "MODIFIED", "DELETED")
    for r in _rows(d / "otel_traces_raw.tsv"):
        assert int(r["Duration"]) > 0 and r["StatusCode"] in ("Error", "Unset", "Ok")
    alerts = list((d / "alerts").glob("alerts_at_*.json"))
    assert len(alerts) == 1
    doc = json.loads(alerts[0].read_text())
    listed = doc["data"]["alerts"] if isinstance(doc, dict) else doc
    assert listed and all("alertname" in a["labels"] for a in listed)
    for m in (d / "metrics").glob("*.tsv"):
        assert m.name.startswith(("pod_", "service_"))
        assert {"metric_name", "timestamp", "value", "tags"} <= set(_rows(m)[0])


def test_ground_truth_fields(incident):
    spec, d = incident
    gt = yaml.safe_load((d / "ground_truth.yaml").read_text())
    assert gt["kind"] == "GroundTruth"
    g = gt["spec"]
    ids = {x["id"] for x in g["groups"]}
    for x in g["groups"]:
        assert {"id", "kind", "namespace"} <= set(x) and ("name" in x or x["filter"])
    roots = [x for x in g["groups"] if x.get("root_cause")]
    assert [(r["kind"], r["name"]) for r in roots] == [(spec.kind, spec.name)]
    for p in g["propagations"]:
        assert {p["source"], p["target"]} <= ids and p["condition"] and p["effect"]
    for f in g["fault"]:
        assert f["entity"]["group_id"] in ids and f["category"] and f["fault_mechanism"]
    assert all(a["group_id"] in ids for a in g["alerts"])
    assert all(set(al) <= ids for al in g["aliases"])


def test_fault_evidence_is_not_the_obvious_one(incident):
    """The evidence each fault promises: e.g. no Warning event for throttling or a flag flip."""
    spec, d = incident
    warnings = [
        json.loads(r["Body"])["object"]["type"] == "Warning"
        for r in _rows(d / "k8s_events_raw.tsv")
    ]
    if spec.fault in ("cpu-throttling", "networkpolicy-block", "flagd-flag", "service-targetport"):
        assert not any(warnings)
    traces = _rows(d / "otel_traces_raw.tsv")
    if spec.fault == "networkpolicy-block":
        errs = [t for t in traces if t["StatusCode"] == "Error"]
        assert errs and all(t["ServiceName"] != spec.service for t in errs)
    assert any(t["ParentSpanId"] == "" for t in traces)
