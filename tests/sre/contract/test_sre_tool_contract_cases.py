"""On small snapshots of our own writing, each holding one way an exporter writes rows that the
original tools read differently (``cases.py``), our answer has the shape of the original's recorded
answer (``cases/``) and the data the original finds there, while keeping what only ours reads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sre.tools import call
from tests.sre.contract.cases import CASES, Case, filled, recording
from tests.sre.contract.tool_shapes import differences


def _ours(case: Case, tmp_path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    folder = tmp_path / case.name
    case.write(folder)
    return recording(case)["answer"], call(case.tool, filled(case.args, folder))


def _case(name: str) -> Case:
    return next(c for c in CASES if c.name == name)


def _removed(answer: dict[str, Any]) -> set[tuple[str, str]]:
    return {
        (entity["entity"], str(window["timestamp"]))
        for entity in answer["entities_with_changes"]
        for window in entity["changes"]
        for item in window["changes"]
        if item["type"] == "entity_removed"
    }


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_answer_has_the_original_shape(case: Case, tmp_path: Path):
    original, ours = _ours(case, tmp_path)
    assert differences(original, ours) == []


def test_one_object_the_original_reads_of_two_keeps_its_one_object_answer(tmp_path: Path):
    original, ours = _ours(_case("one-readable-of-two"), tmp_path)
    assert [o["entity_id"] for o in ours["observations"]] == [
        o["entity_id"] for o in original["observations"]
    ]
    # the Service the original cannot read is still answered, under the several-objects keys
    assert ours["matched_entities"] == ["bank/Deployment/ledger", "bank/Service/ledger"]
    assert ours["entities"]["bank/Service/ledger"]["latest_spec"]["kind"] == "Service"


def test_an_object_only_ours_reads_is_answered_beside_the_originals_fallback(tmp_path: Path):
    original, ours = _ours(_case("exact-one-unreadable"), tmp_path)
    assert ours["entity_id"] == "bank/Service/teller"  # the object asked for
    assert ours["spec"]["spec"] == {"ports": [{"port": 8080}]}
    assert set(original["entities"]) <= set(ours["entities"])


def test_a_deletion_seen_once_in_the_window_is_reported_whatever_its_stamp(tmp_path: Path):
    original, ours = _ours(_case("deleted-once-before-window"), tmp_path)
    assert (
        _removed(ours)
        == _removed(original)
        == {("bank/Pod/ledger-7c9d8-x2v4q", "2026-04-02T10:20:00Z")}
    )


def test_a_removal_a_watch_export_states_is_listed(tmp_path: Path):
    _, ours = _ours(_case("watch-deleted-secret"), tmp_path)
    # the original reads no watch event (it answers nothing); ours lists the DELETED Secret
    assert _removed(ours) == {("bank/Secret/ledger-registry", "2026-04-02T10:20:00Z")}
    (entity,) = [e for e in ours["entities_with_changes"] if e["entity"].endswith("registry")]
    (item,) = entity["changes"][-1]["changes"]
    assert (item["source"], item["reason"], item["confirmed"]) == ("k8s_watch", "DELETED", True)
    assert entity["change_items"] == []  # not a spec change
    # its lifecycle says removed, though no manifest of it carries a deletionTimestamp
    assert entity["lifecycle"]["metadata_removed"] is True


def test_quoted_cells_with_line_breaks_keep_their_rows(tmp_path: Path):
    original, ours = _ours(_case("stack-traces-in-quoted-cells"), tmp_path)
    assert ours["total_count"] == original["total_count"] == 4
    assert [r["Body"] for r in ours["data"]] == [r["Body"] for r in original["data"]]


def test_several_objects_the_original_cannot_read_carry_its_not_found_spec_key(tmp_path: Path):
    original, ours = _ours(_case("several-objects-none-readable"), tmp_path)
    assert original["found"] is False and original["spec"] is None
    # ours answers both objects, and the key the original's not-found answer has, null: no one
    # object is the answer
    assert ours["matched_entities"] == ["bank/Deployment/vault", "bank/Service/vault"]
    assert "spec" in ours and ours["spec"] is None


def test_one_objects_history_the_original_cannot_read_carries_its_latest_spec(tmp_path: Path):
    original, ours = _ours(_case("one-history-none-readable"), tmp_path)
    assert original["found"] is False
    assert [o["entity_id"] for o in ours["observations"]] == ["bank/Service/vault"]
    assert ours["spec"]["kind"] == "Service"


@pytest.mark.parametrize(
    ("name", "path"),
    [
        ("side-call-off-the-chain", "teller → audit"),
        ("callee-without-spans", "teller → ledger → ledgerdb"),
    ],
)
def test_a_service_on_no_chain_of_span_services_gets_the_originals_no_trace_keys(
    name: str, path: str, tmp_path: Path
):
    original, ours = _ours(_case(name), tmp_path)
    traces = ours["trace_errors"]
    assert traces["variants_tried"] == original["trace_errors"]["variants_tried"]
    assert traces["message"].startswith("No trace data found for entity")
    # what only ours finds is still there: the call path of the service's spans
    assert path in [p["path"] for p in traces["paths"]]


def test_a_service_on_a_chain_of_span_services_answers_its_trace_data_alone(tmp_path: Path):
    original, ours = _ours(_case("service-on-the-chain"), tmp_path)
    assert original["trace_errors"]["all_paths"] and ours["trace_errors"]["all_paths"]
    assert "message" not in ours["trace_errors"]


def test_a_dependency_page_only_ours_fills_also_answers_the_originals_message(tmp_path: Path):
    original, ours = _ours(_case("dependencies-without-topology-file"), tmp_path)
    assert original["pagination"]["total_dependencies"] == 0  # no topology file to read
    assert ours["dependencies_on_page"] == ["Service/audit"]
    assert ours["message"] == "Dependencies 1-1 of 2 on page 2. Total pages: 3"


def test_a_deployments_logs_found_by_pod_also_answer_the_originals_total_count(tmp_path: Path):
    original, ours = _ours(_case("deployment-logs-by-pod-only"), tmp_path)
    assert original["total_count"] == 0 and original["patterns"] == []
    assert ours["total_count"] == ours["total_logs"] == 6
    assert sum(p["count"] for p in ours["patterns"]) == 6
