"""Reading and writing results files: plain ITBench documents, or AgentBeats files wrapping them.

The document itself is :class:`itbench.scoring.document.ResultsDocument`; this module finds the
documents in a file, recomputes their statistics, and writes them back atomically.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from itbench import jsonsafe
from itbench.errors import InputError
from itbench.fsutil import atomic_write_text
from itbench.scoring.document import ResultsDocument, dumps_document

__all__ = [
    "LoadedResults",
    "ResultsDocument",
    "dumps_document",
    "load_results_document",
    "load_results_file",
    "write_results_document",
]


@dataclass(frozen=True)
class LoadedResults:
    """A results file as read: the documents it holds and how to put them back."""

    path: Path
    original: Any
    #: JSON paths of each results document inside the file (``""`` for a plain document).
    locations: tuple[str, ...]
    #: every document, statistics recomputed from its raw results.
    documents: tuple[ResultsDocument, ...]

    def to_jsonable(self) -> Any:
        """The original file's structure with each document written anew (AgentBeats wrappers
        kept as they were)."""
        if self.locations == ("",):
            return self.documents[0].to_jsonable()
        wrapped = orjson.loads(orjson.dumps(self.original))
        for location, document in zip(self.locations, self.documents, strict=True):
            index = int(location.split("[")[1].split("]")[0])
            wrapped["results"][index]["evaluation_results"] = document.to_jsonable()
        return wrapped


def load_results_file(path: Path) -> LoadedResults:
    """Read a results document, or an AgentBeats file wrapping them under
    ``results[].evaluation_results`` (every wrapped document is kept, in order)."""
    try:
        text = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    jsonsafe.check(text, str(path))
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise InputError(
            f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from exc
    if isinstance(data, dict) and "raw_results" in data:
        return LoadedResults(path, data, ("",), (ResultsDocument.read(data, path),))
    if isinstance(data, dict) and isinstance(data.get("results"), list):
        locations: list[str] = []
        documents: list[ResultsDocument] = []
        for i, item in enumerate(data["results"]):
            if isinstance(item, dict) and "evaluation_results" in item:
                where = f"results[{i}].evaluation_results"
                locations.append(where)
                documents.append(ResultsDocument.read(item["evaluation_results"], path, where))
        if documents:
            return LoadedResults(path, data, tuple(locations), tuple(documents))
    raise InputError(
        f"{path}: not a results document (expected raw_results, or results[].evaluation_results)"
    )


def load_results_document(path: Path) -> ResultsDocument:
    """The single (first) results document in a file."""
    return load_results_file(path).documents[0]


def write_results_document(document: ResultsDocument, path: Path) -> None:
    atomic_write_text(path, document.to_json_bytes().decode())
