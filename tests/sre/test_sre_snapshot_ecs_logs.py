"""Log lines in Elastic Common Schema (Filebeat's ndjson): the service, the level and the pod are
nested objects (``{"service": {"name": ..., "environment": ...}}``, ``{"log": {"level": ...}}``,
``{"kubernetes": {"pod": {"name": ...}}}``); the snapshot reads their values, not the objects."""

from __future__ import annotations

import json
from pathlib import Path

from sre.snapshot import SourceKind, open_source


def _line(second: int, service: str, level: str, message: str) -> str:
    return json.dumps({
        "@timestamp": f"2026-04-02T08:15:{second:02d}.250Z",
        "log": {"level": level, "logger": service},
        "message": message,
        "service": {"name": service, "environment": "prod"},
        "kubernetes": {"namespace": "shop", "pod": {"name": f"{service}-5f6d8-zt9qk"}},
    })  # fmt: skip


def test_ecs_lines_name_their_service_and_level(private_cache: Path, tmp_path: Path):
    path = tmp_path / "filebeat_logs.ndjson"
    lines = [_line(1, "basket", "info", "item added"),
             _line(2, "basket", "error", "store write refused"),
             _line(3, "billing", "warn", "retrying charge")]  # fmt: skip
    path.write_text("\n".join(lines) + "\n")
    rows = (
        open_source(path, SourceKind.LOGS)
        .con.cursor()
        .execute("SELECT service_name, severity_text, body FROM data ORDER BY ts")
        .fetchall()
    )
    assert rows == [("basket", "INFO", "item added"), ("basket", "ERROR", "store write refused"),
                    ("billing", "WARN", "retrying charge")]  # fmt: skip
