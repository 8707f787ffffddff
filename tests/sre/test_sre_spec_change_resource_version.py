"""k8s_spec_change_analysis reports, as the original ITBench tool does on raw object exports, an
object whose metadata.resourceVersion moved inside the window as ``entity_modified`` even when no
spec field changed (a status write, a label-less controller update), one whose creationTimestamp
lies inside a given window as ``entity_added``, one with a deletionTimestamp as ``entity_removed``
- and nothing of the kind on the processed layout, where the original infers lifecycle from
observation timing only."""

from __future__ import annotations

import json
from pathlib import Path

from sre.tools import k8s_spec_change_analysis


def _raw(path: Path, rows: list[tuple[str, str, str, int]]) -> str:
    """A raw OTEL objects export: (time, kind, name, resourceVersion), one unchanged spec each."""
    lines = ["Timestamp\tBody"]
    for ts, kind, name, version in rows:
        body = {
            "kind": kind,
            "metadata": {"name": name, "namespace": "bank", "resourceVersion": str(version)},
            "spec": {"replicas": 2},
        }
        lines.append(f"{ts}\t{json.dumps(body)}")
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def _analyse(path: str, **window: str) -> dict:
    args = k8s_spec_change_analysis.Args(k8s_objects_file=path, **window)
    return k8s_spec_change_analysis.run(args).answer()


def test_a_version_bump_alone_is_an_entity_modified_change(tmp_path: Path):
    path = _raw(tmp_path / "objects.tsv", [
        ("2026-04-01T08:00:00Z", "StatefulSet", "ledger", 40),
        ("2026-04-01T08:05:00Z", "StatefulSet", "ledger", 40),
        ("2026-04-01T08:10:00Z", "StatefulSet", "ledger", 57),
        ("2026-04-01T08:15:00Z", "StatefulSet", "ledger", 63),
        ("2026-04-01T08:00:00Z", "Service", "teller", 9),
        ("2026-04-01T08:15:00Z", "Service", "teller", 9),
    ])  # fmt: skip
    answer = _analyse(path)
    assert answer["entity_order"] == ["bank/StatefulSet/ledger"]
    (entity,) = answer["entities_with_changes"]
    (window,) = entity["changes"]
    assert (window["timestamp"], window["from_timestamp"]) == (
        "2026-04-01T08:15:00Z", "2026-04-01T08:00:00Z",
    )  # fmt: skip
    (item,) = window["changes"]
    assert (item["path"], item["type"], item["old"], item["new"]) == (
        "metadata.resourceVersion", "entity_modified", "40", "63",
    )  # fmt: skip
    assert item["evidence"] == {"resourceVersions": ["40", "57", "63"], "observation_count": 4}
    assert entity["change_items"] == []  # not a spec change: no flat change item
    assert entity["lifecycle"]["metadata_modified"] is True
    assert entity["lifecycle"]["resourceVersions"] == ["40", "57", "63"]


def test_the_window_chooses_the_observations_whose_versions_count(tmp_path: Path):
    path = _raw(tmp_path / "objects.tsv", [
        ("2026-04-01T08:00:00Z", "StatefulSet", "ledger", 40),
        ("2026-04-01T08:10:00Z", "StatefulSet", "ledger", 57),
        ("2026-04-01T08:20:00Z", "StatefulSet", "ledger", 57),
        ("2026-04-01T08:30:00Z", "StatefulSet", "ledger", 71),
    ])  # fmt: skip
    quiet = _analyse(path, start_time="2026-04-01T08:05:00Z", end_time="2026-04-01T08:25:00Z")
    assert quiet["entity_order"] == []
    late = _analyse(path, start_time="2026-04-01T08:15:00Z")
    (item,) = late["entities_with_changes"][0]["changes"][0]["changes"]
    assert (item["old"], item["new"]) == ("57", "71")


def test_the_processed_layout_reports_no_version_change(tmp_path: Path):
    rows = ["timestamp\tobject_kind\tobject_name\tbody"]
    for ts, version in (("2026-04-01T08:00:00Z", 40), ("2026-04-01T08:10:00Z", 57)):
        body = {"metadata": {"name": "ledger", "namespace": "bank", "resourceVersion": str(version)},
                "spec": {"replicas": 2}}  # fmt: skip
        rows.append(f"{ts}\tStatefulSet\tledger\t{json.dumps(body)}")
    path = tmp_path / "objects.tsv"
    path.write_text("\n".join(rows) + "\n")
    assert _analyse(str(path))["entity_order"] == []


def test_a_deletion_timestamp_is_a_confirmed_removal(tmp_path: Path):
    lines = ["Timestamp\tBody"]
    for ts, gone in (
        ("2026-04-01T08:00:00Z", None),
        ("2026-04-01T08:10:00Z", "2026-04-01T08:07:30Z"),
    ):
        meta = {"name": "teller-0", "namespace": "bank", "resourceVersion": "12"}
        if gone:
            meta["deletionTimestamp"] = gone
        lines.append(f"{ts}\t{json.dumps({'kind': 'Pod', 'metadata': meta, 'spec': {}})}")
    path = tmp_path / "objects.tsv"
    path.write_text("\n".join(lines) + "\n")
    (entity,) = _analyse(str(path))["entities_with_changes"]
    (window,) = entity["changes"]
    assert (window["change"], window["timestamp"]) == ("removed", "2026-04-01T08:07:30Z")
    (item,) = window["changes"]
    assert (item["type"], item["old"], item["confirmed"], item["reason"]) == (
        "entity_removed", "bank/Pod/teller-0", True, "deletionTimestamp",
    )  # fmt: skip
    assert entity["lifecycle"]["metadata_removed"] is True
    before = _analyse(str(path), end_time="2026-04-01T08:05:00Z")
    assert before["entity_order"] == []  # the deletion lies after the window


def _made(path: Path, made: str) -> str:
    """A raw export of one ConfigMap made at ``made``, seen twice unchanged (same version)."""
    lines = ["Timestamp\tBody"]
    for ts in ("2026-04-01T09:00:00Z", "2026-04-01T09:10:00Z"):
        meta = {"name": "rates", "namespace": "bank", "resourceVersion": "5",
                "creationTimestamp": made}  # fmt: skip
        lines.append(f"{ts}\t{json.dumps({'kind': 'ConfigMap', 'metadata': meta, 'data': {}})}")
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_a_creation_inside_the_window_is_an_entity_added_change(tmp_path: Path):
    path = _made(tmp_path / "objects.tsv", "2026-04-01T08:58:41.250Z")
    answer = _analyse(path, start_time="2026-04-01T08:50:00Z", end_time="2026-04-01T09:20:00Z")
    (entity,) = answer["entities_with_changes"]
    (window,) = entity["changes"]
    assert (window["change"], window["timestamp"], window["from_timestamp"]) == (
        "added", "2026-04-01T08:58:41Z", None,
    )  # fmt: skip
    (item,) = window["changes"]
    assert (item["path"], item["type"], item["new"], item["inferred"], item["source"]) == (
        "entity", "entity_added", "bank/ConfigMap/rates", False, "k8s_metadata",
    )  # fmt: skip
    assert item["evidence"] == {
        "creationTimestamp": "2026-04-01T08:58:41Z",
        "investigation_start": "2026-04-01T08:50:00Z",
        "investigation_end": "2026-04-01T09:20:00Z",
    }
    assert entity["change_items"] == []  # not a spec change: no flat change item
    assert entity["lifecycle"]["metadata_added"] is True


def test_a_creation_outside_the_window_or_without_one_adds_nothing(tmp_path: Path):
    path = _made(tmp_path / "objects.tsv", "2026-04-01T07:12:00Z")
    early = _analyse(path, start_time="2026-04-01T08:50:00Z")
    assert early["entity_order"] == []
    # the original dates an addition only against a window the call gives
    inside = _made(tmp_path / "inside.tsv", "2026-04-01T08:58:00Z")
    assert _analyse(inside)["entity_order"] == []
    assert _analyse(inside, end_time="2026-04-01T09:30:00Z")["entity_order"] == [
        "bank/ConfigMap/rates"
    ]
