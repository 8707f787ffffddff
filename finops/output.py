"""The agent's answer file, ``agent_output.json``: ``{"resource": [{"name", "type"}], ...}``.

Reading is tolerant, as ITBench's loaders are: a JSON string holding a fenced ```json block, text
around the JSON object, trailing commas. Anything unrecoverable is an :class:`InputError`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from finops.model import Diagnosis, Resource
from itbench import jsonsafe
from itbench.errors import InputError
from itbench.fsutil import atomic_write_json, read_agent_bytes

OUTPUT_FILE = "agent_output.json"
_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)
_TRAILING_COMMA = re.compile(r",\s*([}\]])")


def write_agent_output(path: Path, diagnosis: Diagnosis) -> None:
    atomic_write_json(
        path,
        {
            "resource": [
                {"name": rc.resource.name, "type": rc.resource.type} for rc in diagnosis.root_causes
            ],
            "root_causes": [
                {
                    "name": rc.resource.name,
                    "type": rc.resource.type,
                    "kind": rc.kind,
                    "path": list(rc.path),
                    "actual": round(rc.actual, 4),
                    "expected": round(rc.expected, 4),
                    "z_score": round(rc.z_score, 2),
                    "share": round(rc.share, 4),
                    "explanation": rc.explanation,
                }
                for rc in diagnosis.root_causes
            ],
            "notes": list(diagnosis.notes),
        },
    )


def write_resources(path: Path, resources: Sequence[Resource]) -> None:
    atomic_write_json(path, {"resource": [{"name": r.name, "type": r.type} for r in resources]})


def _parse_lenient(text: str, source: str) -> Any:
    candidates = [text]
    candidates += _FENCE.findall(text)
    start, end = text.find("{"), text.rfind("}")
    if 0 <= start < end:
        candidates.append(text[start : end + 1])
    for candidate in candidates:
        # each candidate on its own: a fenced block or a string's content is text the check of
        # the whole file skipped (brackets inside a JSON string do not nest)
        jsonsafe.check(candidate, source)
        for attempt in (candidate, _TRAILING_COMMA.sub(r"\1", candidate)):
            try:
                value = json.loads(attempt)
            except ValueError:  # JSONDecodeError, or a number longer than int() takes
                continue
            if isinstance(value, str):  # a JSON string holding the answer
                return _parse_lenient(value, f"{source} (the JSON string it holds)")
            return value
    raise ValueError("no JSON object found")


def parse_resources(data: Any, where: str) -> tuple[Resource, ...]:
    if not isinstance(data, dict) or not isinstance(data.get("resource"), list):
        raise InputError(f"{where}: expected an object with a 'resource' list")
    out = []
    for i, item in enumerate(data["resource"]):
        if (
            not isinstance(item, dict)
            or not isinstance(item.get("name"), str)
            or not isinstance(item.get("type"), str)
        ):
            raise InputError(f"{where}: resource[{i}] needs string fields 'name' and 'type'")
        out.append(Resource(item["name"].strip(), item["type"].strip()))
    return tuple(out)


def read_agent_output(path: Path) -> tuple[Resource, ...]:
    try:
        # the agent's file: never through a link (it could point at the ground truth)
        text = read_agent_bytes(path).decode("utf-8", errors="replace")
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    try:
        data = _parse_lenient(text, str(path))
    except jsonsafe.TooDeep:
        raise  # names the file and the depth already
    except ValueError as exc:
        raise InputError(f"{path}: not JSON, even leniently read ({exc})") from exc
    return parse_resources(data, str(path))
