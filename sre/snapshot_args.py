"""Filling a tool's file arguments from a snapshot directory, so ``--snapshot DIR`` is enough."""

from __future__ import annotations

import typing
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from itbench.errors import UsageError
from sre.snapshot.layout import SnapshotLayout
from sre.tools._common import ToolSpec


def snapshot_path(layout: SnapshotLayout, relative: str) -> Path:
    by_name = {
        "k8s_events_raw.tsv": layout.events,
        "k8s_objects_raw.tsv": layout.objects,
        "otel_logs_raw.tsv": layout.logs,
        "otel_traces_raw.tsv": layout.traces,
        "alerts": layout.alerts,
        "metrics": layout.metrics,
        "operational_topology.json": layout.topology,
        ".": layout.root,
    }
    return by_name.get(relative, layout.root / relative)


def with_snapshot_defaults(
    spec: ToolSpec, arguments: dict[str, Any], snapshot: Path | None
) -> dict[str, Any]:
    out = dict(arguments)
    if snapshot is not None:
        layout = SnapshotLayout(snapshot)
        for field, relative in (spec.snapshot_paths or {}).items():
            if out.get(field) in (None, ""):
                out[field] = str(snapshot_path(layout, relative))
        if spec.name == "topology_analysis" and not out.get("topology_file"):
            out["topology_file"] = str(layout.topology)
    return out


def validate(spec: ToolSpec, arguments: dict[str, Any]):
    try:
        return spec.args.model_validate(arguments)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or '(arguments)'}: {e['msg']}"
            for e in exc.errors()
        )
        raise UsageError(f"{spec.name}: {problems}") from None


def accepts_only_text(spec: ToolSpec, field: str) -> bool:
    """Whether a command-line value for ``field`` stays a string (not parsed as JSON)."""
    info = spec.args.model_fields.get(field)
    if info is None:
        return False
    args = set(typing.get_args(info.annotation)) or {info.annotation}
    return args <= {str, type(None)}
