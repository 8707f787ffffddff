"""A FinOps scenario folder: ``anomaly.json`` plus the billing data, optionally ground truth.

The data is ITBench-Lite's ``data.csv`` or a FOCUS export ``focus.csv`` (then ``scenario.json`` may
name the hierarchy levels and the cost column). Folders are ``<N>``, ``Scenario-<N>`` or any folder
holding ``anomaly.json``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from finops.evaluate import level_key
from finops.loaders.focus import focus_hierarchy, read_focus_csv
from finops.loaders.lite import read_anomaly, read_ground_truth, read_lite_csv
from finops.loaders.table import CostTable
from finops.model import LITE_HIERARCHY, Anomaly, Hierarchy, Resource
from itbench import jsonsafe
from itbench.errors import InputError, UsageError

DATA_FILES = ("data.csv", "focus.csv")
_SCENARIO_DIR = re.compile(r"^(?:scenario[-_]?)?\d+$", re.IGNORECASE)


@dataclass(frozen=True)
class FinOpsScenario:
    id: str
    path: Path
    anomaly: Anomaly
    data_path: Path
    #: None when the folder carries no ground truth (e.g. a user's own data).
    ground_truth: tuple[Resource, ...] | None
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def is_focus(self) -> bool:
        return self.data_path.name == "focus.csv"

    @property
    def hierarchy(self) -> Hierarchy:
        """The levels a cause can be named at: ITBench-Lite's, or the FOCUS ones (scenario.json's
        ``levels`` when it names them)."""
        if self.is_focus:
            levels = self.metadata.get("levels")
            return focus_hierarchy(
                tuple(levels) if levels else None, self.metadata.get("cost_column", "BilledCost")
            )
        return LITE_HIERARCHY

    def load_table(self) -> CostTable:
        if self.is_focus:
            return read_focus_csv(self.data_path, self.hierarchy)
        return read_lite_csv(self.data_path)


def _check_truth_levels(
    truth: tuple[Resource, ...], hierarchy: Hierarchy, gt_path: Path
) -> tuple[Resource, ...]:
    """A true cause whose ``type`` is not a level of the bill's hierarchy can never be matched
    (an answer names levels), so it would score a silent miss: a misspelt or foreign level name
    is refused here, naming the file and the field, instead."""
    known = {level_key(level) for level in hierarchy.levels}
    for i, resource in enumerate(truth):
        if level_key(resource.type) not in known:
            raise InputError(
                f"{gt_path}: resource[{i}].type {resource.type!r} is not a level of this bill's "
                f"hierarchy ({', '.join(hierarchy.levels)}); name one of them, or list the "
                "levels in scenario.json 'levels' (FOCUS data)"
            )
    return truth


def load_scenario(folder: Path) -> FinOpsScenario:
    anomaly_path = folder / "anomaly.json"
    if not anomaly_path.is_file():
        raise InputError(f"{folder}: anomaly.json is missing (not a FinOps scenario folder)")
    data_path = next((folder / n for n in DATA_FILES if (folder / n).is_file()), None)
    if data_path is None:
        raise InputError(f"{folder}: no data file ({' or '.join(DATA_FILES)})")
    meta_path = folder / "scenario.json"
    try:
        metadata = jsonsafe.load_file(meta_path) if meta_path.is_file() else {}
    except json.JSONDecodeError as exc:
        raise InputError(f"{meta_path}: not valid JSON ({exc.msg})") from exc
    gt_path = folder / "ground_truth.yaml"
    scenario = FinOpsScenario(
        id=folder.name,
        path=folder,
        anomaly=read_anomaly(anomaly_path),
        data_path=data_path,
        ground_truth=read_ground_truth(gt_path) if gt_path.is_file() else None,
        metadata=metadata,
    )
    if scenario.ground_truth:
        _check_truth_levels(scenario.ground_truth, scenario.hierarchy, gt_path)
    return scenario


def _natural(name: str) -> tuple:
    """Order by scenario number whatever the prefix: Scenario-1, scenario_2, 3."""
    bare = re.sub(r"^scenario[-_]?", "", name, flags=re.IGNORECASE)
    return tuple(int(t) if t.isdigit() else t.lower() for t in re.split(r"(\d+)", bare))


def discover_scenarios(root: Path) -> list[FinOpsScenario]:
    """A folder that is a scenario, or a folder of scenario folders."""
    if not root.is_dir():
        raise InputError(f"{root}: not a directory")
    if (root / "anomaly.json").exists():
        return [load_scenario(root)]
    folders = [
        p
        for p in root.iterdir()
        if p.is_dir() and ((p / "anomaly.json").exists() or _SCENARIO_DIR.match(p.name))
    ]
    if not folders:
        # a folder with nothing to run is a wrong path, as one that does not exist (exit 2)
        raise UsageError(
            f"{root}: no scenario folders (Scenario-<N>/ with anomaly.json and data.csv)"
        )
    return [load_scenario(p) for p in sorted(folders, key=lambda p: _natural(p.name))]
