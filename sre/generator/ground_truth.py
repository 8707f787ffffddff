"""The ITBench SRE ground-truth schema, a loader for both of its spellings, and the writer.

The same ``load_ground_truth`` reads the originals (flat, or wrapped as ``apiVersion:
itbench.io/v1, kind: GroundTruth, spec: {...}``; ``recommended_actions`` or
``recommendedActions``) and what the generator writes, so a generated incident is held to the
schema the real ones follow.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from itbench.errors import InputError


class _Strict(BaseModel):
    # the originals carry no other keys; an unknown key is most likely a typo
    model_config = ConfigDict(extra="forbid", frozen=True)


class Group(_Strict):
    id: str
    kind: str
    namespace: str | None = None
    name: str | None = None
    filter: list[str] | None = None
    root_cause: bool = False


class Propagation(_Strict):
    source: str
    target: str
    condition: str
    effect: str


class FaultEntity(_Strict):
    kind: str
    name: str
    group_id: str | None = None
    changed: Any = None


class Fault(_Strict):
    category: str
    condition: str
    entity: FaultEntity
    fault_mechanism: str
    changed: Any = None
    name: str | None = None


class Alert(_Strict):
    id: str
    group_id: str | None = None
    metadata: dict[str, Any] | None = None


#: the ground truth's list fields, which may be written empty as a bare key
_LISTS = ("aliases", "propagations", "fault", "alerts", "recommended_actions")


class GroundTruth(_Strict):
    groups: list[Group]
    aliases: list[list[str]] = Field(default_factory=list)
    propagations: list[Propagation] = Field(default_factory=list)
    fault: list[Fault] = Field(default_factory=list)
    alerts: list[Alert] = Field(default_factory=list)
    recommended_actions: list[dict[str, Any]] = Field(default_factory=list)
    metadata: dict[str, Any] | None = None
    id: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _one_spelling(cls, data: Any) -> Any:
        if isinstance(data, dict) and "recommendedActions" in data:
            data = dict(data)
            data["recommended_actions"] = data.pop("recommendedActions") or []
        if isinstance(data, dict):
            # a YAML writer leaves an empty list as a bare key (``alerts:``): none of them
            data = {k: ([] if k in _LISTS and v is None else v) for k, v in data.items()}
        return data

    def problems(self) -> list[str]:
        """Dangling references and duplicate ids. The schema tolerates them because about a fifth
        of the public ground truths have some; a generated ground truth must have none."""
        ids = [g.id for g in self.groups]
        out = [f"groups: duplicate id {i!r}" for i in sorted({i for i in ids if ids.count(i) > 1})]
        known = set(ids)
        for i, p in enumerate(self.propagations):
            out += [
                f"propagations[{i}].{end}: unknown group {getattr(p, end)!r}"
                for end in ("source", "target")
                if getattr(p, end) not in known
            ]
        for i, alias in enumerate(self.aliases):
            out += [f"aliases[{i}]: unknown group {a!r}" for a in alias if a not in known]
        for i, f in enumerate(self.fault):
            if f.entity.group_id is not None and f.entity.group_id not in known:
                out.append(f"fault[{i}].entity.group_id: unknown group {f.entity.group_id!r}")
        for i, a in enumerate(self.alerts):
            if a.group_id is not None and a.group_id not in known:
                out.append(f"alerts[{i}].group_id: unknown group {a.group_id!r}")
        if not any(g.root_cause for g in self.groups):
            out.append("groups: no group has root_cause: true")
        return out

    @property
    def root_causes(self) -> list[Group]:
        return [g for g in self.groups if g.root_cause]

    def group(self, group_id: str) -> Group:
        return next(g for g in self.groups if g.id == group_id)


def parse_ground_truth(doc: Any, source: str) -> GroundTruth:
    """Validate one ground-truth document (flat or wrapped); errors name ``source`` and the field."""
    if isinstance(doc, dict) and doc.get("kind") == "GroundTruth" and "spec" in doc:
        doc = doc["spec"]
    if not isinstance(doc, dict):
        raise InputError(f"{source}: a ground truth must be a mapping, got {type(doc).__name__}")
    try:
        return GroundTruth.model_validate(doc)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(document)"
        raise InputError(f"{source}: ground truth field {where}: {first['msg']}") from exc


def load_ground_truth(path: Path) -> GroundTruth:
    try:
        doc = yaml.safe_load(path.read_text())
    except OSError as exc:
        raise InputError(f"{path}: cannot read ground truth: {exc.strerror}") from exc
    except yaml.YAMLError as exc:
        raise InputError(f"{path}: not valid YAML: {exc}") from exc
    return parse_ground_truth(doc, str(path))


def write_ground_truth(path: Path, truth: GroundTruth, name: str) -> None:
    """Write in the wrapped form the ITBench repository uses."""
    # defaults left out, as in the originals (``root_cause`` appears only where it is true)
    spec = truth.model_dump(mode="json", exclude_defaults=True, exclude={"metadata", "id"})
    doc = {
        "apiVersion": "itbench.io/v1",
        "kind": "GroundTruth",
        "metadata": {"name": name},
        "spec": spec,
    }
    path.write_text(yaml.safe_dump(doc, sort_keys=False, width=100))
