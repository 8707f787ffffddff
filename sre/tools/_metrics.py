"""Selecting metric series: which ``metrics/<kind>_<name>.tsv`` objects a reference names, and
their tags read as labels (JSON or Python-dict text, parsed as literals, never evaluated)."""

from __future__ import annotations

import ast
import json
import math
from dataclasses import dataclass
from typing import Any

from sre.snapshot.index import IndexedSource
from sre.snapshot.sql import unquote
from sre.tools._common import EntityRef, glob_match, match_entities

#: tag keys that identify scrape plumbing rather than the workload; dropped from labels
NOISY_TAGS = {"__name__", "id", "uid", "image", "instance", "job", "endpoint", "prometheus", "name"}


def objects(src: IndexedSource) -> list[tuple[str, str]]:
    return [
        (k, n)
        for k, n in src.con.cursor()
        .execute("SELECT DISTINCT object_kind, object_name FROM data ORDER BY 1, 2")
        .fetchall()
    ]


def select_objects(
    src: IndexedSource, reference: str | None, pattern: str | None
) -> tuple[list[tuple[str, str]], bool]:
    """Objects named by ``reference`` (exact name, never a prefix: ``frontend`` is not
    ``frontend-proxy``; a substring only when nothing matches exactly) and by ``pattern``, a
    glob over ``kind/name``; the flag says whether the substring fallback was used."""
    known = objects(src)
    chosen = known
    loose = False
    if reference:
        ref = EntityRef.parse(reference)
        ref = EntityRef(None, ref.kind, ref.name)  # metric files carry no namespace
        idx, loose = match_entities(ref, [(None, k, n) for k, n in known])
        chosen = [known[i] for i in idx]
    if pattern and pattern != "*":
        chosen = [(k, n) for k, n in chosen if glob_match(pattern, f"{k}/{n}")]
    return chosen, loose


def object_filter(chosen: list[tuple[str, str]]) -> tuple[str, list[Any]]:
    if not chosen:
        return "false", []
    return (
        "(object_kind, object_name) IN (" + ", ".join("(?, ?)" for _ in chosen) + ")",
        [v for c in chosen for v in c],
    )


def parse_tags(tags: str | None) -> dict[str, Any]:
    """The tags column as a dict (JSON, or a Python-dict literal, CSV-quoted or not; anything
    else: empty)."""
    tags = unquote(tags)
    if not tags:
        return {}
    try:
        parsed = json.loads(tags)
    except ValueError:
        try:
            parsed = ast.literal_eval(tags)
        except (ValueError, SyntaxError):
            return {}
    return parsed if isinstance(parsed, dict) else {}


def labels(tags: str | None, keep: list[str] | None = None) -> dict[str, Any]:
    parsed = parse_tags(tags)
    if keep:
        return {k: v for k, v in parsed.items() if k in keep}
    return {k: v for k, v in parsed.items() if k not in NOISY_TAGS}


def optional_columns(src: IndexedSource) -> dict[str, frozenset[str]]:
    """The optional columns (pod_name, bucket_le ...) each metrics file's header has, filled or
    not: the original answers a column its files have, as null where a cell is empty."""
    found: dict[str, set[str]] = {}
    for file, column in src.query("SELECT file, name FROM file_columns"):
        found.setdefault(file, set()).add(column)
    return {file: frozenset(columns) for file, columns in found.items()}


@dataclass(frozen=True)
class ExtraColumn:
    """A column of a metrics file the tools do not read (a pandas row index ``Unnamed: 0``, an
    exporter's own), typed as pandas types it: ``integer``, ``number`` or ``text``."""

    name: str
    type: str

    def value(self, text: str | None) -> Any:
        if text is None:
            return None
        if self.type == "integer":
            return int(text)
        if self.type == "number":
            number = float(text)
            return None if math.isnan(number) or math.isinf(number) else number
        return text


def extra_columns(src: IndexedSource) -> dict[str, tuple[ExtraColumn, ...]]:
    """The extra columns of each metrics file, in the file's order."""
    found: dict[str, list[ExtraColumn]] = {}
    for file, name, kind in src.query(
        "SELECT file, name, type FROM file_extras ORDER BY file, position"
    ):
        found.setdefault(file, []).append(ExtraColumn(name, kind))
    return {file: tuple(columns) for file, columns in found.items()}


def extra_cells(extra: str | None, columns: tuple[ExtraColumn, ...]) -> dict[str, Any]:
    """A row's extra cells (``data.extra``, a JSON object of texts) as the original's row holds
    them: every extra column of its file, typed."""
    texts = json.loads(extra) if extra else {}
    return {c.name: c.value(texts.get(c.name)) for c in columns}
