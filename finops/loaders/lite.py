"""ITBench-Lite FinOps scenarios: ``Scenario-<N>/anomaly.json``, ``data.csv``, ``ground_truth.yaml``."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import yaml

from finops.loaders.export import read_export
from finops.loaders.table import CostTable, normalise
from finops.model import LITE_HIERARCHY, Anomaly, Resource
from itbench import jsonsafe
from itbench.errors import InputError, parse_problem


def read_anomaly(path: Path) -> Anomaly:
    try:
        data = jsonsafe.load_file(path)
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: not valid JSON (line {exc.lineno}: {exc.msg})") from exc
    if not isinstance(data, dict):
        raise InputError(f"{path}: expected an object with 'date' and 'account_id'")
    for key in ("date", "account_id"):
        if key not in data:
            raise InputError(f"{path}: field {key!r} is missing")
    try:
        date = dt.date.fromisoformat(str(data["date"])[:10])
    except ValueError as exc:
        raise InputError(
            f"{path}: field 'date': {data['date']!r} is not a YYYY-MM-DD date"
        ) from exc
    return Anomaly(date=date, account_id=str(data["account_id"]))


def read_ground_truth(path: Path) -> tuple[Resource, ...]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    except yaml.YAMLError as exc:
        raise InputError(f"{path}: not valid YAML ({parse_problem(exc)})") from exc
    if not isinstance(data, dict) or not isinstance(data.get("resource"), list):
        raise InputError(f"{path}: expected 'resource: [{{name, type}}, ...]'")
    out = []
    for i, item in enumerate(data["resource"]):
        if not isinstance(item, dict) or "name" not in item or "type" not in item:
            raise InputError(f"{path}: resource[{i}] needs 'name' and 'type'")
        out.append(Resource(str(item["name"]), str(item["type"])))
    return tuple(out)


def read_lite_csv(path: Path) -> CostTable:
    raw = read_export(path, dtype={"Account ID": str}, skipinitialspace=True)
    return normalise(raw, LITE_HIERARCHY, path)
