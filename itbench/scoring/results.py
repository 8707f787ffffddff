"""The ITBench results document: read (plain or AgentBeats-wrapped), build, and write atomically.

``{"raw_results": [...], "statistics": {"per_incident": ..., "overall": ...}, "config": {...}}``
is the shape every domain writes and every ITBench dashboard reads.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from itbench.errors import InputError
from itbench.fsutil import atomic_write_text
from itbench.scoring.aggregate import ScoreShapeError, compute_statistics


def build_results_document(
    raw_results: Sequence[Mapping[str, Any]], config: Mapping[str, Any]
) -> dict[str, Any]:
    raw = [dict(r) for r in raw_results]
    extra = config.get("pass_at_1_metrics") or ()
    return {
        "raw_results": raw,
        "statistics": compute_statistics(raw, extra),
        "config": dict(config),
    }


@dataclass(frozen=True)
class LoadedResults:
    """A results file as read: the documents it holds and how to put recomputed ones back."""

    path: Path
    original: Any
    #: JSON paths of each results document inside the file (``""`` for a plain document).
    locations: tuple[str, ...]
    documents: tuple[dict[str, Any], ...]

    def with_documents(self, documents: Sequence[dict[str, Any]]) -> Any:
        """The original file's structure with each document replaced (AgentBeats wrappers kept)."""
        if self.locations == ("",):
            return documents[0]
        wrapped = orjson.loads(orjson.dumps(self.original))
        for location, document in zip(self.locations, documents, strict=True):
            index = int(location.split("[")[1].split("]")[0])
            wrapped["results"][index]["evaluation_results"] = document
        return wrapped


def _check_document(doc: Any, where: str, path: Path) -> dict[str, Any]:
    if not isinstance(doc, dict):
        raise InputError(f"{path}: {where or 'document'} is not a JSON object")
    raw = doc.get("raw_results")
    if not isinstance(raw, list):
        raise InputError(
            f"{path}: {where + '.' if where else ''}raw_results is missing or not a list"
        )
    for i, entry in enumerate(raw):
        prefix = f"{where + '.' if where else ''}raw_results[{i}]"
        if not isinstance(entry, dict):
            raise InputError(f"{path}: {prefix} is not an object")
        if "incident_id" not in entry:
            raise InputError(f"{path}: {prefix}.incident_id is missing")
        if "scores" not in entry and "error" not in entry:
            raise InputError(f"{path}: {prefix} has neither scores nor error")
    if "config" in doc and not isinstance(doc["config"], dict):
        raise InputError(f"{path}: {where + '.' if where else ''}config is not an object")
    return doc


def load_results_file(path: Path) -> LoadedResults:
    """Read a results document, or an AgentBeats file wrapping them under
    ``results[].evaluation_results`` (every wrapped document is kept, in order)."""
    try:
        text = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise InputError(
            f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from exc
    if isinstance(data, dict) and "raw_results" in data:
        return LoadedResults(path, data, ("",), (_check_document(data, "", path),))
    if isinstance(data, dict) and isinstance(data.get("results"), list):
        locations, documents = [], []
        for i, item in enumerate(data["results"]):
            if isinstance(item, dict) and "evaluation_results" in item:
                where = f"results[{i}].evaluation_results"
                locations.append(where)
                documents.append(_check_document(item["evaluation_results"], where, path))
        if documents:
            return LoadedResults(path, data, tuple(locations), tuple(documents))
    raise InputError(
        f"{path}: not a results document (expected raw_results, or results[].evaluation_results)"
    )


def load_results_document(path: Path) -> dict[str, Any]:
    """The single (first) results document in a file."""
    return load_results_file(path).documents[0]


def recompute(document: Mapping[str, Any], path: Path | None = None) -> dict[str, Any]:
    """The document with ``statistics`` recomputed from ``raw_results`` (config kept as is)."""
    config = document.get("config") or {}
    try:
        statistics = compute_statistics(
            document["raw_results"], config.get("pass_at_1_metrics") or ()
        )
    except ScoreShapeError as exc:
        raise InputError(f"{path or 'results'}: {exc}") from exc
    out = dict(document)
    out["statistics"] = statistics
    return out


def dumps_document(document: Any) -> bytes:
    """Indented JSON (UTF-8 bytes, newline-terminated), fast enough for 100,000 raw results."""
    option = orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS | orjson.OPT_APPEND_NEWLINE
    return orjson.dumps(document, option=option, default=str)


def write_results_document(document: Mapping[str, Any], path: Path) -> None:
    atomic_write_text(path, dumps_document(document).decode())
