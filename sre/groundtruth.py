"""Every form an ITBench SRE ground truth comes in, read into one model keyed by scenario id.

Forms (formats doc §3, §4):

- flat or wrapped (``apiVersion: itbench.io/v1, kind: GroundTruth, spec: {...}``) documents, in
  YAML or JSON; the schema is the generator's (:mod:`sre.generator.ground_truth`), so what we
  generate and what we judge against are held to the same rules;
- the repository's v2 documents (``apiVersion: itbench.io/v2``, ``spec.entities`` of Kubernetes
  object references): every entity becomes a root-cause group named exactly;
- a JSON or YAML list of ground truths, each carrying an ``id`` (``ground_truths.json``);
- a folder of scenario folders (``Scenario-<N>``, ``scenario_<N>``, ``<N>``) each holding
  ``ground_truth.yaml`` (ITBench-Lite), ``groundtruth_v1.yaml`` or ``groundtruth.yaml`` (the
  ITBench repository; v1 is preferred because only it has groups, aliases and propagations), or a
  folder holding list files.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from itbench import jsonsafe
from itbench.errors import InputError, UsageError, parse_problem
from itbench.yamlsafe import load_all
from sre.generator.ground_truth import GroundTruth, Group, parse_ground_truth

#: File names of one scenario's ground truth, in order of preference.
SCENARIO_FILES = (
    "ground_truth.yaml",
    "ground_truth.yml",
    "ground_truth.json",
    "groundtruth_v1.yaml",
    "groundtruth.yaml",
)
#: Files in a folder that may hold a list of ground truths.
LIST_FILES = ("ground_truths.json", "ground_truths.yaml", "ground_truth.json", "ground_truth.yaml")

_NAME_ID = re.compile(r"^(?:scenario|incident)[-_]?", re.IGNORECASE)


@dataclass(frozen=True)
class LoadedTruth:
    """One scenario's ground truth and the file it came from (for messages)."""

    id: str
    truth: GroundTruth
    source: str


def _read_documents(path: Path) -> list[Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8 text; cannot read ground truth") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read ground truth: {exc.strerror}") from exc
    try:
        if path.suffix.lower() == ".json":
            return [jsonsafe.loads(text, str(path))]
        return [d for d in load_all(text) if d is not None]
    except (json.JSONDecodeError, yaml.YAMLError) as exc:
        raise InputError(f"{path}: not valid ground truth: {parse_problem(exc)}") from exc


def _v2_truth(spec: dict[str, Any], source: str) -> GroundTruth:
    """The repository's v2 form names only the faulty objects: each is a root cause."""
    groups = []
    for i, entity in enumerate(spec.get("entities") or []):
        meta = entity.get("metadata") if isinstance(entity, dict) else None
        if not isinstance(meta, dict) or not entity.get("kind") or not meta.get("name"):
            raise InputError(f"{source}: spec.entities[{i}]: needs kind and metadata.name")
        groups.append(
            Group(
                id=f"{entity['kind'].lower()}-{meta['name']}",
                kind=str(entity["kind"]),
                namespace=meta.get("namespace"),
                name=str(meta["name"]),
                root_cause=True,
            )
        )
    if not groups:
        raise InputError(f"{source}: spec.entities: no entity to use as a root cause")
    return GroundTruth(groups=groups)


def _id_from_name(name: Any) -> str | None:
    return _NAME_ID.sub("", str(name)) if name else None


def parse_document(doc: Any, source: str, fallback_id: str | None) -> LoadedTruth:
    """One ground-truth document in any of its single-scenario forms."""
    if not isinstance(doc, dict):
        raise InputError(f"{source}: a ground truth must be a mapping, got {type(doc).__name__}")
    name_id = None
    if doc.get("kind") == "GroundTruth" and isinstance(doc.get("spec"), dict):
        name_id = _id_from_name((doc.get("metadata") or {}).get("name"))
        if str(doc.get("apiVersion", "")).endswith("/v2") or "entities" in doc["spec"]:
            truth = _v2_truth(doc["spec"], source)
        else:
            truth = parse_ground_truth(doc["spec"], source)
    else:
        truth = parse_ground_truth(doc, source)
    scenario_id = truth.id or fallback_id or name_id
    if scenario_id is None:
        raise InputError(f"{source}: ground truth has no id and no scenario folder names it")
    return LoadedTruth(str(scenario_id), truth, source)


def _from_file(path: Path, fallback_id: str | None) -> list[LoadedTruth]:
    docs = _read_documents(path)
    out: list[LoadedTruth] = []
    for d, doc in enumerate(docs):
        if isinstance(doc, list):
            for i, item in enumerate(doc):
                where = f"{path}[{i}]"
                if not isinstance(item, dict) or "id" not in item:
                    raise InputError(f"{where}: each ground truth of a list needs an 'id'")
                out.append(parse_document(item, where, None))
        else:
            out.append(
                parse_document(doc, str(path) if len(docs) == 1 else f"{path}#{d}", fallback_id)
            )
    return out


def _scenario_file(folder: Path) -> Path | None:
    for name in SCENARIO_FILES:
        if (folder / name).is_file():
            return folder / name
    return None


def load_truths(path: Path) -> dict[str, LoadedTruth]:
    """Scenario id -> ground truth from a file or folder; a folder with none is a usage error."""
    if not path.exists():
        raise UsageError(f"{path}: no such file or folder")
    found: list[LoadedTruth] = []
    if path.is_file():
        found = _from_file(path, _id_from_name(path.parent.name))
    else:
        for name in LIST_FILES:
            if (path / name).is_file():
                found += _from_file(path / name, None)
        single = _scenario_file(path)
        if single is not None and not found:
            found += _from_file(single, _id_from_name(path.name))
        for child in sorted(p for p in path.iterdir() if p.is_dir()):
            file = _scenario_file(child)
            if file is not None:
                found += _from_file(file, _id_from_name(child.name))
    if not found:
        raise UsageError(
            f"{path}: no ground truth found (expected {', '.join(SCENARIO_FILES[:4])} in "
            f"scenario folders, or a list file such as ground_truths.json)"
        )
    by_id: dict[str, LoadedTruth] = {}
    for loaded in found:
        if loaded.id in by_id:
            raise InputError(
                f"{loaded.source}: scenario {loaded.id!r} already has a ground truth "
                f"from {by_id[loaded.id].source}"
            )
        by_id[loaded.id] = loaded
    return by_id


__all__ = ["GroundTruth", "Group", "LoadedTruth", "load_truths", "parse_document"]
