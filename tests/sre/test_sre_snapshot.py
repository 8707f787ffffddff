"""Reading snapshots: the index of each source, malformed rows located, double-encoded bodies,
both alert envelopes, rebuilds when a source changes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sre.snapshot import SnapshotFileMissing, SourceKind, open_source
from sre.snapshot.alerts import load_alerts
from sre.snapshot.layout import SnapshotLayout, require_file


@pytest.mark.parametrize(
    ("name", "kind", "rows", "problems"),
    [
        ("k8s_events_raw.tsv", SourceKind.EVENTS, 5,
         ["k8s_events_raw.tsv:7: wrong number of fields", "k8s_events_raw.tsv:8: Body is not a JSON object"]),
        ("k8s_objects_raw.tsv", SourceKind.OBJECTS, 11, ["k8s_objects_raw.tsv:13: Body is not a JSON object"]),
        ("otel_traces_raw.tsv", SourceKind.TRACES, 42, ["otel_traces_raw.tsv:44: wrong number of fields"]),
        ("otel_logs_raw.tsv", SourceKind.LOGS, 13, ["otel_logs_raw.tsv:15: wrong number of fields"]),
        ("metrics", SourceKind.METRICS, 70, ["metrics/service_checkout.tsv:22: wrong number of fields"]),
    ],
)  # fmt: skip
def test_each_source_counts_skips_and_locates_malformed_rows(incident, name, kind, rows, problems):
    src = open_source(incident / name, kind)
    assert src.rows == rows
    assert src.malformed == len(problems)
    warnings = src.warnings()
    assert warnings[0] == f"{incident / name}: {len(problems)} malformed row(s) skipped"
    for expected, got in zip(problems, warnings[1:], strict=True):
        assert got.startswith(str(incident / expected)), got


def test_double_encoded_bodies_and_both_event_shapes_are_read(incident):
    events = open_source(incident / "k8s_events_raw.tsv", SourceKind.EVENTS)
    # the events.k8s.io shape (regarding/note/deprecatedCount) in a double-encoded body
    row = events.query(
        "SELECT object_kind, object_name, message, count, event_kind, watch_type, deployment "
        "FROM data WHERE reason = 'BackOff'"
    )
    assert row == [
        (
            "Pod",
            "checkout-6f7b9c-x2k4q",
            "Back-off pulling image",
            4,
            "Warning",
            "MODIFIED",
            "checkout",
        )
    ]
    objects = open_source(incident / "k8s_objects_raw.tsv", SourceKind.OBJECTS)
    assert objects.query(
        "SELECT namespace FROM data WHERE kind = 'Service' AND name = 'frontend'"
    ) == [("otel-demo",)]


def test_log_attributes_in_python_dict_form_are_read_without_eval(incident):
    logs = open_source(incident / "otel_logs_raw.tsv", SourceKind.LOGS)
    assert logs.query(
        "SELECT DISTINCT pod, namespace, deployment FROM data WHERE service_name = 'frontend'"
    ) == [("frontend-5c6d-abcde", "otel-demo", "frontend")]


def test_the_index_is_reused_and_rebuilt_when_the_source_changes(tmp_path: Path, incident):
    copy = tmp_path / "k8s_events_raw.tsv"
    shutil.copy(incident / "k8s_events_raw.tsv", copy)
    first = open_source(copy, SourceKind.EVENTS)
    assert open_source(copy, SourceKind.EVENTS) is first  # same fingerprint: no rebuild
    built_at = first.database.stat().st_mtime_ns
    lines = copy.read_text().splitlines(keepends=True)
    copy.write_text("".join(lines[:3]))  # header and two events
    second = open_source(copy, SourceKind.EVENTS)
    assert second.rows == 2 and second.malformed == 0
    assert second.database == first.database and second.database.stat().st_mtime_ns != built_at


def test_both_alert_envelopes_and_an_unreadable_dump(incident):
    dump = load_alerts(incident / "alerts")
    by_file: dict[str, list[str]] = {}
    for a in dump.alerts:
        by_file.setdefault(a.file, []).append(f"{a.labels['alertname']}@{a.entity}")
    assert by_file == {
        "alerts_at_2025-12-12T02-25-00.000000.json": ["RequestErrorRate@checkout", "KubeJobFailed@nightly-report"],
        "alerts_at_2025-12-12T02-30-00.000000.json": [
            "RequestErrorRate@checkout", "KubeJobFailed@nightly-report", "RequestErrorRate@frontend",
        ],
    }  # fmt: skip
    assert len(dump.warnings) == 1
    assert (
        "alerts_at_2025-12-12T02-35-00.000000.json: skipped, not JSON (line 1" in dump.warnings[0]
    )


def test_alerts_envelope_alerts_key_and_single_alert(tmp_path: Path):
    (tmp_path / "alerts_at_2025-01-01T00-00-00.000000.json").write_text(
        '{"alerts": [{"labels": {"alertname": "A", "pod": "p-1"}, "state": "firing"}]}'
    )
    (tmp_path / "one.json").write_text(
        '{"timestamp": "2025-01-01T00:05:00Z", "labels": {"alertname": "B"}, "state": "pending"}'
    )
    dump = load_alerts(tmp_path)
    got = sorted((a.labels["alertname"], a.entity, a.observed_at.isoformat()) for a in dump.alerts)
    assert got == [
        ("A", "p-1", "2025-01-01T00:00:00"),
        ("B", "cluster-wide", "2025-01-01T00:05:00"),
    ]


def test_a_missing_source_names_the_file(tmp_path: Path):
    layout = SnapshotLayout(tmp_path)
    with pytest.raises(SnapshotFileMissing) as err:
        require_file(layout.events, "the events file")
    assert (
        str(err.value)
        == f"{tmp_path / 'k8s_events_raw.tsv'}: the events file is missing from the snapshot"
    )


def test_a_header_only_file_is_an_empty_source(tmp_path: Path):
    f = tmp_path / "otel_traces_raw.tsv"
    f.write_text("Timestamp\tTraceId\tSpanId\tParentSpanId\tServiceName\tDuration\tStatusCode\n")
    src = open_source(f, SourceKind.TRACES)
    assert (src.rows, src.malformed) == (0, 0)


def test_an_unwritable_cache_falls_back_to_a_temporary_index(
    tmp_path: Path, incident, monkeypatch: pytest.MonkeyPatch
):
    blocked = tmp_path / "cache-is-a-file"
    blocked.write_text("")  # the cache path cannot be created: as under the sandbox's mount
    monkeypatch.setenv("ITBENCH_CACHE_DIR", str(blocked))
    src = open_source(incident / "k8s_events_raw.tsv", SourceKind.EVENTS)
    assert src.rows == 5
    assert not src.database.is_relative_to(blocked)
