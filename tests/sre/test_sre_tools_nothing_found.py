"""What the original tools answer when a source holds nothing on the object asked for, answered
the same way by ours (measured on independently written snapshots, where ours answered [] or {}
and a client of the original expects its sentence or its message object):

- metric_analysis with no metrics file for the object: "No metric files found matching pattern";
- get_metric_anomalies likewise: "No metric files found for <object>";
- get_context_contract: no ``metric_anomalies`` key when there is no metrics file, a
  ``log_patterns`` message when no log line is the entity's, and a long spec also as the
  original's ``spec_truncated`` + ``spec_preview`` (ours keeps the whole ``spec`` beside them).
A window outside data that exists is not "nothing found": it stays an empty answer with a warning.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from sre.tools import call

FIXTURE = Path(__file__).parent / "fixtures" / "incident-checkout"


@pytest.fixture
def snapshot(tmp_path: Path) -> Path:
    """The checkout fixture plus a Deployment 'ledger' with a long spec, no metrics and no logs."""
    root = tmp_path / "incident"
    shutil.copytree(FIXTURE, root)
    body = {
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "ledger", "namespace": "otel-demo", "uid": "uid-ledger",
                     "annotations": {f"note-{i}": "x" * 60 for i in range(40)}},
        "spec": {"replicas": 2, "template": {"spec": {"containers": [
            {"name": "ledger", "image": "registry.example/ledger:1.4"}]}}},
    }  # fmt: skip
    with (root / "k8s_objects_raw.tsv").open("a") as fh:
        fh.write(f"2025-12-12 02:00:00.000000000\t{json.dumps(body)}\n")
    return root


def test_metric_analysis_of_an_object_without_metrics_answers_the_sentence(snapshot: Path):
    answer = call(
        "metric_analysis", {"base_dir": str(snapshot / "metrics"), "k8_object_name": "pod/ledger-1"}
    )
    assert answer == "No metric files found matching pattern"


def test_metric_analysis_outside_the_window_of_existing_data_stays_empty(snapshot: Path):
    answer = call(
        "metric_analysis",
        {"base_dir": str(snapshot / "metrics"), "k8_object_name": "service/checkout",
         "start_time": "2024-01-01T00:00:00Z", "end_time": "2024-01-01T01:00:00Z"},
    )  # fmt: skip
    assert answer == []


def test_get_metric_anomalies_without_metrics_answers_the_sentence(snapshot: Path):
    answer = call(
        "get_metric_anomalies", {"base_dir": str(snapshot / "metrics"), "k8_object_name": "ledger"}
    )
    assert answer == "No metric files found for ledger"


def test_the_context_of_an_entity_without_metrics_or_logs(snapshot: Path):
    context = call(
        "get_context_contract",
        {"k8_object": "otel-demo/Deployment/ledger", "snapshot_dir": str(snapshot)},
    )
    assert "metric_anomalies" not in context
    assert context["log_patterns"] == {
        "total_logs": 0,
        "message": "No logs found for entity in time window",
    }
    spec = context["k8s_spec"]
    assert spec["spec_truncated"] is True
    assert spec["spec_preview"].endswith("...") and len(spec["spec_preview"]) == 2003
    assert spec["spec"]["metadata"]["name"] == "ledger"  # the whole spec, kept


def test_the_context_of_an_entity_with_data_keeps_its_answers(snapshot: Path):
    context = call(
        "get_context_contract",
        {"k8_object": "otel-demo/Deployment/frontend", "snapshot_dir": str(snapshot)},
    )
    assert context["metric_anomalies"]["metrics"]
    assert context["log_patterns"]["total_logs"] > 0
    assert "spec_truncated" not in context["k8s_spec"]  # a short spec comes whole, as before


def test_an_object_of_another_kind_is_found_by_its_name_as_the_original_finds_it(snapshot: Path):
    """Asked for a Service that does not exist, the original's object tools fall back to the
    name inside every object's namespace/kind/name; ours does the same (saying it matched by
    substring) instead of answering not found."""
    answer = call(
        "get_k8_spec",
        {"k8s_objects_file": str(snapshot / "k8s_objects_raw.tsv"),
         "k8_object_name": "otel-demo/Service/ledger"},
    )  # fmt: skip
    assert answer["found"] is True
    assert answer["matched_by"] == "substring"
    assert answer["entity_id"] == "otel-demo/Deployment/ledger"
    changes = call(
        "k8s_spec_change_analysis",
        {"k8s_objects_file": str(snapshot / "k8s_objects_raw.tsv"),
         "k8_object_name": "otel-demo/Service/ledger", "include_no_change": True},
    )  # fmt: skip
    assert list(changes["entities"]) == ["otel-demo/Deployment/ledger"]


def test_a_name_found_nowhere_stays_not_found(snapshot: Path):
    answer = call(
        "get_k8_spec",
        {"k8s_objects_file": str(snapshot / "k8s_objects_raw.tsv"),
         "k8_object_name": "otel-demo/Service/zqx-none"},
    )  # fmt: skip
    assert (answer["found"], answer["spec"]) == (False, None)
