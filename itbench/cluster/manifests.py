"""Read manifests: a file or a directory of multi-document YAML/JSON, ``List`` kinds unrolled.

YAML is streamed (:func:`iter_manifests_by_file`): objects come one at a time, an input over an
object limit is refused at the first object too many, and reading a large input reports its
progress (:class:`StderrProgress`) instead of sitting silent.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

import yaml

from itbench import jsonsafe
from itbench.errors import InputError
from itbench.yamlsafe import Progress, document_ranges, load_range
from itbench.yamlsafe import iter_file as iter_yaml

SUFFIXES = (".yaml", ".yml", ".json")
MAX_DEPTH = 100


def depth_ok(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether ``value`` nests at most ``limit`` levels: no value, scalar or not, lies deeper
    than ``limit`` (the value itself at 0). Checked level by level without recursion, looking
    only at the collections of each level (every object of a large input goes through it)."""
    level = [value] if isinstance(value, dict | list) else []
    for _ in range(limit):
        if not level:
            return True
        deeper: list[Any] = []
        for item in level:
            for child in item.values() if isinstance(item, dict) else item:
                if isinstance(child, dict | list):
                    deeper.append(child)
        level = deeper
    # the collections at depth ``limit``: any item in them would lie deeper
    return not any(level)


def _documents(path: Path, progress: Progress | None = None, start: int = 0) -> Iterator[Any]:
    if path.suffix == ".json":
        text = path.read_text(encoding="utf-8", errors="replace")
        try:
            yield jsonsafe.loads(text, f"{path}: document 0")
        except RecursionError:
            raise InputError(f"{path}: document 0: nested too deeply to read") from None
        except json.JSONDecodeError as exc:
            raise InputError(
                f"{path}: document 0: not valid JSON (line {exc.lineno}: {exc.msg})"
            ) from exc
        return
    try:
        yield from iter_yaml(path, progress, start)
    except yaml.YAMLError as exc:
        raise InputError(f"{path}: not valid YAML ({exc})") from exc


class StderrProgress:
    """Reading progress on stderr, only for inputs that take more than ``after`` seconds and at
    most every ``every`` seconds; one line rewritten in place on a terminal, plain lines
    otherwise."""

    def __init__(
        self,
        label: str = "reading",
        after: float = 1.0,
        every: float = 1.0,
        stream: TextIO | None = None,
    ) -> None:
        self.label, self.after, self.every = label, after, every
        self.stream = stream or sys.stderr
        self.started = time.monotonic()
        self.last = 0.0
        self.shown = False
        self.file = ""

    def for_file(self, path: Path) -> Progress:
        def report(done: int, total: int, documents: int) -> None:
            now = time.monotonic()
            early = now - self.started < self.after or now - self.last < self.every
            if early and not (self.shown and done >= total):  # always close a line we started
                return
            self.last = now
            percent = 100 * done // total if total else 100
            tty = self.stream.isatty()
            start = "\r" if tty else ""
            end = "" if tty and done < total else "\n"
            self.stream.write(
                f"{start}{self.label} {path}: {documents} documents, "
                f"{done / 2**20:.0f}/{total / 2**20:.0f} MB ({percent}%){end}"
            )
            self.stream.flush()
            self.shown = done < total

        return report


def check_object(obj: Any, where: str) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise InputError(
            f"{where}: expected a mapping (a Kubernetes object), got {type(obj).__name__}"
        )
    for field in ("apiVersion", "kind"):
        if not isinstance(obj.get(field), str) or not obj[field]:
            raise InputError(f"{where}: field {field!r} is missing")
    meta = obj.get("metadata")
    if not isinstance(meta, dict) or not isinstance(meta.get("name"), str) or not meta["name"]:
        raise InputError(f"{where}: field 'metadata.name' is missing ({obj['kind']})")
    if not depth_ok(obj):
        raise InputError(f"{where}: nested more than {MAX_DEPTH} levels deep")
    return obj


def iter_file(
    path: Path, progress: StderrProgress | None = None, start: int = 0
) -> Iterator[dict[str, Any]]:
    """The objects of one manifest file, one at a time, each checked (``List`` kinds unrolled).
    ``start``: a YAML file's objects from a range start of :func:`file_ranges` on (errors then
    count documents and lines from there)."""
    documents = _documents(path, progress.for_file(path) if progress else None, start)
    index = 0
    try:
        for index, doc in enumerate(documents):
            if doc is None:
                continue
            yield from _unrolled(doc, f"{path}: document {index}")
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from exc


def _unrolled(doc: Any, where: str) -> Iterator[dict[str, Any]]:
    """A document's objects, checked (a ``List`` kind's items, else the document itself)."""
    if (
        isinstance(doc, dict)
        and str(doc.get("kind", "")).endswith("List")
        and isinstance(doc.get("items"), list)
    ):
        for j, item in enumerate(doc["items"]):
            yield check_object(item, f"{where}, items[{j}]")
    else:
        yield check_object(doc, where)


def file_ranges(path: Path, per_range: int) -> list[tuple[int, int, int]] | None:
    """Ranges of ``path`` that :func:`objects_in_range` can read independently (in worker
    processes), as (first byte, end byte, documents), ``per_range`` documents each; None when
    the file must be read as a whole (JSON, or a YAML file
    :func:`itbench.yamlsafe.document_ranges` does not split)."""
    if path.suffix == ".json":
        return None
    try:
        return document_ranges(path, per_range)
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from exc


def objects_in_range(
    path: Path, start: int, end: int, documents: int
) -> list[dict[str, Any]] | None:
    """The checked objects of one range from :func:`file_ranges`: one per document, or None
    when the range does not hold ``documents`` documents of one object each (a null document,
    a ``List``, or a miscounted first document): the caller then reads on from ``start`` with
    :func:`iter_file`. An error's document number counts from the range's start: the caller
    re-reads the file with :func:`iter_file` for the message naming the document and line
    within the whole file."""
    try:
        found = load_range(path, start, end)
    except yaml.YAMLError as exc:
        raise InputError(f"{path}: not valid YAML ({exc})") from exc
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    if len(found) != documents:
        return None
    objects: list[dict[str, Any]] = []
    for index, doc in enumerate(found):
        unrolled = [] if doc is None else list(_unrolled(doc, f"{path}: document +{index}"))
        if len(unrolled) != 1 or unrolled[0] is not doc:
            return None
        objects.append(doc)
    return objects


def load_file(path: Path) -> list[dict[str, Any]]:
    return list(iter_file(path))


def manifest_files(source: Path) -> list[Path]:
    """The manifest files under ``source``: itself, or a directory's, recursively, sorted."""
    if source.is_file():
        return [source]
    if source.is_dir():
        return sorted(p for p in source.rglob("*") if p.suffix in SUFFIXES and p.is_file())
    raise InputError(f"{source}: no such file or directory")


def iter_manifests_by_file(
    source: Path, max_objects: int | None = None, progress: StderrProgress | None = None
) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Every object under ``source`` (a file, or a directory searched recursively, sorted) with
    the file it came from, one at a time. Past ``max_objects`` objects the input is refused at
    once, without reading the rest."""
    paths = manifest_files(source)
    count = 0
    for path in paths:
        for obj in iter_file(path, progress):
            count += 1
            if max_objects is not None and count > max_objects:
                raise InputError(
                    f"{path}: more than {max_objects} objects under {source}: refused "
                    "(the rest was not read)"
                )
            yield path, obj


class SourcedObjects:
    """The objects under ``source``, streamed as :func:`iter_manifests` does, remembering the
    file of the last one handed out: an error raised while they are consumed (an object the
    cluster refuses) names the file it came from."""

    def __init__(
        self, source: Path, max_objects: int | None = None, progress: StderrProgress | None = None
    ) -> None:
        self.source = source
        self.file = source
        self._objects = iter_manifests_by_file(source, max_objects, progress)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for path, obj in self._objects:
            self.file = path
            yield obj


def load_manifests(source: Path, max_objects: int | None = None) -> list[dict[str, Any]]:
    """Every object under ``source`` (a file, or a directory searched recursively, sorted)."""
    return [obj for _, obj in iter_manifests_by_file(source, max_objects)]


def iter_manifests(
    source: Path, max_objects: int | None = None, progress: StderrProgress | None = None
) -> Iterator[dict[str, Any]]:
    """As :func:`load_manifests`, one object at a time."""
    return (obj for _, obj in iter_manifests_by_file(source, max_objects, progress))


def load_manifests_by_file(source: Path) -> list[tuple[Path, dict[str, Any]]]:
    """As ``load_manifests``, each object with the file it came from."""
    return list(iter_manifests_by_file(source))
