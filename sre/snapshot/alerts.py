"""Prometheus alert dumps: every ``*.json`` of the alerts folder, in any of the envelope shapes the
snapshots use, observed at the time the file name (or a top-level ``timestamp``) gives."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from itbench import jsonsafe

_NAME_TIME = re.compile(r"(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d+)?)")
#: the first label naming what the alert is about; a volume alert names its claim
ENTITY_LABELS = (
    "service_name", "service", "pod", "deployment", "persistentvolumeclaim", "instance", "job",
    "namespace",
)  # fmt: skip


@dataclass(frozen=True)
class Alert:
    labels: dict[str, str]
    annotations: dict[str, Any]
    state: str | None
    active_at: datetime | None
    observed_at: datetime | None
    value: Any
    file: str
    #: the alert object as the dump holds it (for the tools that show every field)
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def entity(self) -> str:
        for key in ENTITY_LABELS:
            if self.labels.get(key):
                return str(self.labels[key])
        return "cluster-wide"


@dataclass(frozen=True)
class AlertDump:
    alerts: tuple[Alert, ...]
    warnings: tuple[str, ...] = field(default_factory=tuple)


def _time(text: Any) -> datetime | None:
    if not isinstance(text, str) or not text:
        return None
    t = text.strip().replace(" ", "T")
    if t.endswith("Z"):
        t = t[:-1] + "+00:00"
    t = re.sub(r"(\.\d{6})\d+", r"\1", t)  # Prometheus writes nanoseconds
    try:
        parsed = datetime.fromisoformat(t)
    except ValueError:
        return None
    return parsed.astimezone(UTC).replace(tzinfo=None) if parsed.tzinfo else parsed


def _name_time(name: str) -> datetime | None:
    m = _NAME_TIME.search(name)
    if not m:
        return None
    date, _, clock = m.group(1).partition("T")
    return _time(f"{date}T{clock.replace('-', ':')}")


def _alert_list(doc: Any) -> list[Any] | None:
    if isinstance(doc, list):
        return doc
    if isinstance(doc, dict):
        data = doc.get("data")
        if isinstance(data, dict) and isinstance(data.get("alerts"), list):
            return data["alerts"]
        if isinstance(data, list):
            return data
        if isinstance(doc.get("alerts"), list):
            return doc["alerts"]
        if "labels" in doc:
            return [doc]
    return None


#: Alertmanager's API v2 states as Prometheus names them: an active alert is firing (neither
#: silenced nor inhibited), a suppressed one is firing but muted
_ALERTMANAGER_STATES = {"active": "firing", "suppressed": "firing", "unprocessed": "pending"}


def _state(item: dict[str, Any]) -> str | None:
    """Prometheus' ``state`` (firing, pending, inactive), or Alertmanager's ``status.state``."""
    if isinstance(item.get("state"), str) and item["state"]:
        return item["state"]
    status = item.get("status")
    if isinstance(status, dict) and isinstance(status.get("state"), str):
        return _ALERTMANAGER_STATES.get(status["state"], status["state"])
    if isinstance(status, str) and status:  # webhook payloads: "firing" / "resolved"
        return status
    return None


def _ungrouped(items: list[Any]) -> list[Any]:
    """Alertmanager's ``/api/v2/alerts/groups`` answer (groups holding ``alerts``) as the
    alerts themselves; other lists as they are."""
    out: list[Any] = []
    for item in items:
        if isinstance(item, dict) and isinstance(item.get("alerts"), list):
            out += item["alerts"]
        else:
            out.append(item)
    return out


def alerts_folder(base_dir: Path) -> Path:
    """The folder holding the dumps: ``base_dir`` itself, or its ``alerts/``."""
    nested = base_dir / "alerts"
    return nested if nested.is_dir() and not any(base_dir.glob("*.json")) else base_dir


def load_alerts(base_dir: Path) -> AlertDump:
    """The alerts of the dumps in ``base_dir`` or its ``alerts/`` (as the original chooses);
    when the snapshot's own top-level ``*.json`` hold no alert (OTLP exports of logs and traces
    beside ``alerts/``, where the original reads them as alerts named "Unknown"), ``alerts/``."""
    folder = alerts_folder(base_dir)
    dump = _load(folder)
    nested = base_dir / "alerts"
    if folder == base_dir and not dump.alerts and nested.is_dir() and any(nested.glob("*.json")):
        inner = _load(nested)
        note = f"{base_dir}: its *.json files hold no alert; the dumps of {nested} are read"
        return AlertDump(inner.alerts, (note, *inner.warnings))
    return dump


def _load(folder: Path) -> AlertDump:
    alerts: list[Alert] = []
    warnings: list[str] = []
    for path in sorted(folder.glob("*.json")):
        try:
            doc = jsonsafe.load_file(path)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            where = (
                f"line {exc.lineno}, column {exc.colno}: {exc.msg}"
                if isinstance(exc, json.JSONDecodeError)
                else str(exc)
            )
            warnings.append(f"{path}: skipped, not JSON ({where})")
            continue
        items = _alert_list(doc)
        items = None if items is None else _ungrouped(items)
        if items is None:
            warnings.append(
                f"{path}: skipped, no alert list (expected data.alerts, alerts or a list)"
            )
            continue
        observed = (_time(doc.get("timestamp")) if isinstance(doc, dict) else None) or _name_time(
            path.name
        )
        for i, item in enumerate(items):
            if not isinstance(item, dict) or not isinstance(item.get("labels"), dict):
                warnings.append(f"{path}: alert [{i}] skipped, it has no labels object")
                continue
            alerts.append(
                Alert(
                    labels={k: str(v) for k, v in item["labels"].items()},
                    annotations=item.get("annotations") or {},
                    state=_state(item),
                    active_at=_time(item.get("activeAt") or item.get("startsAt")),
                    observed_at=observed,
                    value=item.get("value"),
                    file=path.name,
                    raw=item,
                )
            )
    return AlertDump(tuple(alerts), tuple(warnings))
