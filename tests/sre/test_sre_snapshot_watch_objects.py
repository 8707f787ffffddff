"""An objects file written by a k8sobjects receiver in watch mode: each Body is a watch event
(``{"type": "MODIFIED", "object": {...}}``). The objects it carries are read; a DELETED event is
not an observation of an object that is there. Before, every such row was skipped as malformed,
and no change of any object was seen."""

from __future__ import annotations

import json
from pathlib import Path

from sre.snapshot import SourceKind, open_source
from sre.tools import run_tool

_HEADER = "Timestamp\tSeverityText\tBody\tResourceAttributes\n"


def _config_map(rules: str, version: str) -> dict:
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "ledger-rules", "namespace": "shop", "resourceVersion": version},
        "data": {"rules.yaml": rules},
    }


def _secret() -> dict:
    return {
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": {"name": "registry-creds", "namespace": "shop", "resourceVersion": "7"},
    }


def _write(tmp_path: Path, rows: list[tuple[str, dict]]) -> Path:
    path = tmp_path / "k8s_objects_raw.tsv"
    lines = [f"{at}\t\t{json.dumps(body)}\t{{}}\n" for at, body in rows]
    path.write_text(_HEADER + "".join(lines))
    return path


def test_watch_events_read_as_the_objects_they_carry(tmp_path):
    path = _write(
        tmp_path,
        [
            ("2026-03-02T09:00:00Z", {"type": "ADDED", "object": _config_map("limit: 5", "10")}),
            ("2026-03-02T09:00:00Z", {"type": "ADDED", "object": _secret()}),
            ("2026-03-02T09:10:00Z", {"type": "MODIFIED", "object": _config_map("limit: 0", "11")}),
            ("2026-03-02T09:12:00Z", {"type": "DELETED", "object": _secret()}),
            # a plain object whose own fields include "object" is not a watch event
            ("2026-03-02T09:15:00Z", _secret() | {"object": {"kind": "Widget"}}),
        ],
    )
    src = open_source(path, SourceKind.OBJECTS)
    assert src.malformed == 0, src.warnings()
    got = src.query("SELECT kind, name, namespace, ts::VARCHAR FROM data ORDER BY ts, kind")
    assert got == [
        ("ConfigMap", "ledger-rules", "shop", "2026-03-02 09:00:00"),
        ("Secret", "registry-creds", "shop", "2026-03-02 09:00:00"),
        ("ConfigMap", "ledger-rules", "shop", "2026-03-02 09:10:00"),
        ("Secret", "registry-creds", "shop", "2026-03-02 09:15:00"),
    ]


def test_a_change_carried_by_watch_events_is_seen(tmp_path):
    path = _write(
        tmp_path,
        [
            ("2026-03-02T09:00:00Z", {"type": "ADDED", "object": _config_map("limit: 5", "10")}),
            ("2026-03-02T09:10:00Z", {"type": "MODIFIED", "object": _config_map("limit: 0", "11")}),
        ],
    )
    answer = run_tool("k8s_spec_change_analysis", {"k8s_objects_file": str(path)}).body
    changed = {e["entity"]: e for e in answer["entities_with_changes"]}
    assert "shop/ConfigMap/ledger-rules" in changed, answer
    paths = [
        item["path"]
        for change in changed["shop/ConfigMap/ledger-rules"]["changes"]
        for item in change.get("changes", [])
        if "path" in item
    ]
    assert any("rules.yaml" in p for p in paths), paths
