"""Copies of suite scenarios with the requirement reworded: how much of an agent's score
survives paraphrase. Used by ``benchmarks/ciso_baseline.py`` and the baseline's tests.

A paraphrase set is YAML: a list of ``{control: <suite scenario id>, paraphrases: [{text,
expect?}]}``. Paraphrase ``n`` of a control becomes scenario ``<control>-p<n>``: the same
environments with ``requirement`` (scenario.yaml) or ``goal`` (a kyverno-update bundle's
info.json) replaced.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

import yaml

from itbench.errors import InputError


@dataclass(frozen=True)
class Paraphrase:
    control: str
    index: int
    text: str
    #: measured strict outcome per class: "pass" | "fail"
    expect: dict[str, str]

    @property
    def scenario_id(self) -> str:
        return f"{self.control}-p{self.index}"


def load_paraphrases(path: Path) -> list[Paraphrase]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise InputError(f"{path}: unreadable paraphrase set: {exc}") from None
    if not isinstance(data, list):
        raise InputError(f"{path}: expected a list of {{control, paraphrases}}")
    result = []
    for n, entry in enumerate(data):
        if not isinstance(entry, dict) or not isinstance(entry.get("control"), str):
            raise InputError(f"{path}: entry {n}: missing field 'control'")
        for i, item in enumerate(entry.get("paraphrases") or [], start=1):
            if not isinstance(item, dict) or not isinstance(item.get("text"), str):
                raise InputError(f"{path}: {entry['control']} paraphrase {i}: missing field 'text'")
            expect = item.get("expect") or {}
            result.append(Paraphrase(entry["control"], i, item["text"], dict(expect)))
    return result


def suite_root() -> Path:
    return Path(str(files("ciso"))) / "suite"


def _source(control: str) -> Path:
    for family in ("kubernetes", "rhel9", "kyverno-update"):
        candidate = suite_root() / family / control
        if candidate.is_dir():
            return candidate
    raise InputError(f"paraphrase control {control!r}: no such built-in scenario")


def build_suite(paraphrases: list[Paraphrase], target: Path) -> list[str]:
    """Write one reworded scenario per paraphrase under ``target``; returns their ids."""
    target.mkdir(parents=True, exist_ok=True)
    ids = []
    for p in paraphrases:
        source = _source(p.control)
        dest = target / p.scenario_id
        if dest.exists():
            shutil.rmtree(dest)
        shutil.copytree(source, dest)
        scenario_file = dest / "scenario.yaml"
        if scenario_file.is_file():
            spec: dict[str, Any] = yaml.safe_load(scenario_file.read_text(encoding="utf-8"))
            spec["id"] = p.scenario_id
            spec["requirement"] = p.text
            # a paraphrase measures how a requirement is read; a migration is given its policy,
            # not read from the requirement (and its source is the built-in id's, not this one's)
            spec["classes"] = [c for c in spec.get("classes") or [] if c != "kyverno-migrate"]
            scenario_file.write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
        else:
            info_file = dest / "info.json"
            info = json.loads(info_file.read_text(encoding="utf-8"))
            info["name"] = p.scenario_id
            info["goal"] = p.text
            info_file.write_text(json.dumps(info, indent=2), encoding="utf-8")
        ids.append(p.scenario_id)
    return ids
