"""The observability ablation (the paper's trace ablation, generalised): sources left out of an
agent's snapshot by ``itbench sre run --hide``, and the marker that tells the tools so.

A trial's workspace lacks the hidden sources' files and holds :data:`MARKER` naming them; a tool
asked to read one answers that the source is hidden in this trial (:class:`SourceHidden`), not
that it is empty or that the snapshot is broken.
"""

from __future__ import annotations

import json
from pathlib import Path

from itbench.errors import InputError

#: Each hideable source and the snapshot entries that hold it (files, or the metrics folder).
SOURCES: dict[str, tuple[str, ...]] = {
    "traces": ("otel_traces_raw.tsv",),
    "logs": ("otel_logs_raw.tsv",),
    "metrics": ("metrics",),
    "events": ("k8s_events_raw.tsv",),
}
#: The file in a workspace naming what is hidden (the agent may read it: it says only what the
#: agent cannot see).
MARKER = "hidden_sources.json"


class SourceHidden(InputError):
    """A tool asked for a source this trial hides."""

    def __init__(self, path: Path, source: str) -> None:
        super().__init__(
            f"{path.name}: the {source} are hidden in this trial (observability ablation, "
            f"--hide {source}); no tool can read them"
        )
        self.path = path
        self.source = source


def source_of(name: str) -> str | None:
    """The source a snapshot entry holds (renamed exports and other exporters' files —
    ``traces.otlp.json``, ``app_logs.txt`` — found by their word, as the layout's globs find
    them)."""
    for source, entries in SOURCES.items():
        if name in entries or ("." in name and name != MARKER and source in name.lower()):
            return source
    return None


def hidden_sources(snapshot: Path) -> frozenset[str]:
    """What the snapshot's marker hides; nothing without a (readable) marker."""
    try:
        doc = json.loads((snapshot / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return frozenset()
    hidden = doc.get("hidden") if isinstance(doc, dict) else None
    return frozenset(h for h in hidden or () if h in SOURCES)


def check_hidden(path: Path) -> None:
    """Raise :class:`SourceHidden` when the missing ``path`` (or the folder it lies in) is a
    source its snapshot hides."""
    for candidate in (path, path.parent):
        source = source_of(candidate.name)
        if source is not None and source in hidden_sources(candidate.parent):
            raise SourceHidden(path, source)


def marker_text(hidden: frozenset[str]) -> str:
    return json.dumps(
        {
            "hidden": sorted(hidden),
            "why": "observability ablation (itbench sre run --hide): these sources are not in "
            "this snapshot",
        },
        indent=1,
    )
