"""Where the files of a v0.2 snapshot live (``../shared/reference/itbench-formats.md`` §3)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from itbench.errors import InputError
from sre.snapshot.hidden import check_hidden

EVENTS = "k8s_events_raw.tsv"
OBJECTS = "k8s_objects_raw.tsv"
LOGS = "otel_logs_raw.tsv"
TRACES = "otel_traces_raw.tsv"
ALERTS = "alerts"
METRICS = "metrics"
TOPOLOGY = "operational_topology.json"


#: the endings other exporters give these files, in the order they are preferred
EXPORT_SUFFIXES = (".tsv", ".tsv.gz", ".json", ".jsonl", ".ndjson", ".json.gz", ".jsonl.gz")
LOG_SUFFIXES = (".log", ".txt", ".log.gz")


#: ``kubectl get -o yaml`` dumps of objects or events
YAML_SUFFIXES = (".yaml", ".yml")


def _exported(word: str) -> tuple[str, ...]:
    suffixes = EXPORT_SUFFIXES + (LOG_SUFFIXES if word == "logs" else ())
    suffixes += YAML_SUFFIXES if word in ("objects", "events") else ()
    return tuple(f"*{word}*{suffix}" for suffix in suffixes)


class SnapshotFileMissing(InputError):
    """A file a tool reads is not in the snapshot; the message names it (other tools still work)."""

    def __init__(self, path: Path, what: str) -> None:
        super().__init__(f"{path}: {what} is missing from the snapshot")
        self.path = path
        self.what = what


@dataclass(frozen=True)
class SnapshotLayout:
    """The paths of one snapshot directory, whether or not each exists."""

    root: Path

    @property
    def events(self) -> Path:
        return self._first_glob(EVENTS, *_exported("events"))

    @property
    def objects(self) -> Path:
        return self._first_glob(OBJECTS, *_exported("objects"))

    @property
    def logs(self) -> Path:
        return self._first_glob(LOGS, *_exported("logs"))

    @property
    def traces(self) -> Path:
        return self._first_glob(TRACES, *_exported("traces"))

    @property
    def alerts(self) -> Path:
        return self.root / ALERTS

    @property
    def metrics(self) -> Path:
        return self.root / METRICS

    @property
    def topology(self) -> Path:
        return self._first_glob(TOPOLOGY, "*topology*.json")

    def _first_glob(self, name: str, *patterns: str) -> Path:
        # the canonical name first; renamed exports ("k8s_events.tsv") are found as the original
        # tools find them, by glob, and other exporters' files (OTLP JSON, JSON lines, gzip) after
        exact = self.root / name
        if exact.exists():
            return exact
        for pattern in patterns:
            found = sorted(self.root.glob(pattern)) if self.root.is_dir() else []
            if found:
                return found[0]
        return exact


def require_file(path: str | Path, what: str) -> Path:
    p = Path(path)
    if not p.is_file():
        check_hidden(p)
        raise SnapshotFileMissing(p, what)
    return p


def require_dir(path: str | Path, what: str) -> Path:
    p = Path(path)
    if not p.is_dir():
        check_hidden(p)
        raise SnapshotFileMissing(p, what)
    return p
