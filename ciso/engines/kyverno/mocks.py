"""What a Kyverno CLI Test mocks of the world outside the cluster: ``apiCallResponses`` (answers to
``apiCall`` context entries and to CEL ``http.Get``/``http.Post``) and ``globalContextEntries``
(the data of GlobalContextEntry objects, for ``globalReference`` context entries and CEL
``globalContext.Get``).

Each is checked as the Kyverno CLI checks it before running anything: a bad entry fails the whole
test file with a message naming the entry and field."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ciso.engines.kyverno.variables import UnknownKey, VariableError, evaluate
from itbench.errors import InputError


def api_responses(entries: Any, where: str) -> dict[str, tuple[int, Any]]:
    """A Test's ``apiCallResponses`` keyed as the Kyverno CLI looks them up (``METHOD:url``, or
    ``url`` for an entry without a method): (status code, body)."""
    answers: dict[str, tuple[int, Any]] = {}
    for i, entry in enumerate(entries or []):
        at = f"{where}: apiCallResponses[{i}]"
        if not isinstance(entry, dict):
            raise InputError(f"{at}: must be an object")
        url = str(entry.get("url") or "").strip()
        path = str(entry.get("urlPath") or "").strip()
        if bool(url) == bool(path):
            raise InputError(f"{at}: exactly one of url and urlPath is required")
        if url:
            parts = urlsplit(url)
            if parts.scheme not in ("http", "https") or not parts.hostname:
                raise InputError(f"{at}: url {url!r} must be an absolute http(s) URL with a host")
        elif not path.startswith("/"):
            raise InputError(f"{at}: urlPath {path!r} must be an absolute path starting with '/'")
        method = str(entry.get("method") or "").strip().upper()
        if method not in ("", "GET", "POST"):
            raise InputError(f"{at}: method must be GET or POST, not {entry.get('method')!r}")
        response = entry.get("response")
        if not isinstance(response, dict) or not isinstance(response.get("body"), dict):
            raise InputError(f"{at}: response.body must be an object")
        status = response.get("statusCode") or 200
        if not isinstance(status, int) or isinstance(status, bool) or not 100 <= status <= 599:
            raise InputError(f"{at}: response.statusCode must be a number from 100 to 599")
        key = f"{method}:{url or path}" if method else url or path
        if key in answers:
            raise InputError(f"{at}: a second entry for {key!r} (each method and URL once)")
        answers[key] = (status, response["body"])
    return answers


def global_context_entries(
    entries: Any,
    where: str,
    folder: Path,
    read_documents: Callable[[Path], list[Any]],
) -> dict[str, Any]:
    """A Test's ``globalContextEntries``: entry name -> the data a policy sees, from ``data``, inline
    ``resources`` or ``resourceFiles`` (relative to the test's folder), then ``fieldPath`` and
    ``projections`` (JMESPath; with projections the data is an object of the projected names)."""
    found: dict[str, Any] = {}
    for i, entry in enumerate(entries or []):
        at = f"{where}: globalContextEntries[{i}]"
        if not isinstance(entry, dict):
            raise InputError(f"{at}: must be an object")
        name = str(entry.get("name") or "").strip()
        if not name:
            raise InputError(f"{at}: name is required")
        if name in found:
            raise InputError(f"{at}: a second entry named {name!r}")
        sources = [k for k in ("data", "resources", "resourceFiles") if entry.get(k) is not None]
        if len(sources) != 1:
            raise InputError(f"{at} ({name}): exactly one of data, resources, resourceFiles")
        (source,) = sources
        if source == "data":
            root = entry["data"]
            if not isinstance(root, dict):
                raise InputError(f"{at} ({name}): data must be an object")
        elif source == "resources":
            root = entry["resources"]
            if not isinstance(root, list) or not all(isinstance(r, dict) for r in root):
                raise InputError(f"{at} ({name}): resources must be a list of objects")
        else:
            root = _resource_files(entry["resourceFiles"], f"{at} ({name})", folder, read_documents)
        found[name] = _projected(entry, root, f"{at} ({name})")
    return found


def _resource_files(
    files: Any, at: str, folder: Path, read_documents: Callable[[Path], list[Any]]
) -> list[Any]:
    if not isinstance(files, list):
        raise InputError(f"{at}: resourceFiles must be a list of paths")
    objects: list[Any] = []
    for j, rel in enumerate(files):
        rel = str(rel or "").strip()
        path = Path(rel)
        # the CLI refuses paths that leave the test's folder; so do we (a test reads its own files)
        if not rel or path.is_absolute() or ".." in path.parts:
            raise InputError(f"{at}: resourceFiles[{j}] must be a path inside the test's folder")
        objects += [d for d in read_documents(folder / path) if isinstance(d, dict) and d]
    return objects


def _projected(entry: dict[str, Any], root: Any, at: str) -> Any:
    field_path = entry.get("fieldPath")
    if field_path:
        root = _search(str(field_path), root, f"{at}: fieldPath")
    projections = entry.get("projections")
    if not projections:
        return root
    if not isinstance(projections, list):
        raise InputError(f"{at}: projections must be a list")
    out: dict[str, Any] = {}
    for k, projection in enumerate(projections):
        if not isinstance(projection, dict) or not projection.get("name"):
            raise InputError(f"{at}: projections[{k}].name is required")
        if not projection.get("path"):
            raise InputError(f"{at}: projections[{k}].path is required")
        path = str(projection["path"])
        out[str(projection["name"])] = _search(path, root, f"{at}: projections[{k}].path")
    return out


def _search(path: str, root: Any, at: str) -> Any:
    if path.strip() == "@":
        return root
    try:
        return evaluate(path, root)
    except UnknownKey:
        return None  # JMESPath finds nothing: null, as go-jmespath answers
    except VariableError as exc:
        raise InputError(f"{at}: {exc}") from None
